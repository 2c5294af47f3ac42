# ns-2 twin of podlesny.fig12 (python/tcpsim/repro/podlesny/multibottleneck.py)
# at tcpsim's quick scale: the parking lot of Fig. 11, routers r0..r5 joined
# by five 20 Mb/s, 5 ms bottlenecks (buffer C*250 ms = 625 packets each way),
# pools of 4 NewReno + 4 Vegas flows: long flows r0 -> r5, cross flows
# r_i -> r_{i+1} for each hop, reverse flows r5 -> r0; each flow its own
# hosts on 200 Mb/s access links (6250 packets), RTT uniform in [60, 300] ms,
# starts uniform in [0, 1] s, 20 s, the first 5 s excluded. DropTail, RED/ECN,
# and RD (Queue/RD on both directions of every bottleneck, built by
# rd/build.sh: NS2_ROOT=/tmp/ns2rd; Vegas's flow ids 2, 4, 6 in D, as
# lib/podlesny.tcl's pd_setup). Per hop: each class's data packets that
# crossed it forward (long flows and that hop's cross flows), the index =
# Vegas's per-flow count over NewReno's; and the mean index over the hops.
# Flow ids: cross flows 1 (NewReno) / 2 (Vegas), long flows 5 / 6, reverse
# flows 3 / 4; per class also the long and the one-hop flows' mean rate
# (Mb/s per flow, averaged over the hops).
# Point "rd:full": RD at the paper's scale (100 Mb/s, 3125-packet buffers,
# pools of 20, 60 s).
# Point <disc> or rd:full.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {droptail red_ecn rd rd:full}
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set point [lindex $argv 0]
lassign [split $point :] disc scale
set rep [lindex $argv 1]
set full [expr {$scale == "full"}]
set bps [expr {$full ? 100e6 : 20e6}]
set HOPS 5
set HD 0.005
set POOL [expr {$full ? 20 : 4}]
set T [expr {$full ? 60.0 : 20.0}]
set rng [twin_rng $rep]
set ns [new Simulator]
Agent/TCP set packetSize_ $PD(payload)
Agent/TCP set window_ $PD(window)
if {$disc == "red_ecn"} { Queue/RED set setbit_ true; Agent/TCP set ecn_ 1 }
set q [dict get {droptail DropTail red_ecn RED rd RD} $disc]
for {set i 0} {$i <= $HOPS} {incr i} { set R($i) [$ns node] }
for {set i 0} {$i < $HOPS} {incr i} {
    set j [expr {$i + 1}]
    $ns duplex-link $R($i) $R($j) $bps $HD $q
    $ns queue-limit $R($i) $R($j) [pd_buffer $bps]
    $ns queue-limit $R($j) $R($i) [pd_buffer $bps]
    if {$disc == "rd"} {
        foreach {a b} [list $R($i) $R($j) $R($j) $R($i)] {
            foreach fid {2 4 6} { [[$ns link $a $b] queue] mark-d $fid }
        }
    }
    set FM($i) [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $R($i) $R($j)] $FM($i)
}
proc lot_flow {variant from to fid} {
    global ns R rng HD PD
    set hops [expr {abs($to - $from)}]
    set rtt [$rng uniform 0.060 0.300]
    set a [expr {($rtt / 2.0 - $hops * $HD) / 2.0}]
    set src [$ns node]; set dst [$ns node]
    pd_access $src $R($from) $a
    pd_access $dst $R($to) $a
    set tcp [pd_tcp $variant]
    $tcp set fid_ $fid
    set sink [new Agent/TCPSink]
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [$tcp attach-app FTP]
    $ns at [$rng uniform 0.0 1.0] "$ftp start"
}
set pools [list [list 0 $HOPS 4]]
for {set i 0} {$i < $HOPS} {incr i} { lappend pools [list $i [expr {$i + 1}] 0] }
lappend pools [list $HOPS 0 2]
foreach p $pools {
    lassign $p from to off
    foreach {variant fid} {newreno 1 vegas 2} {
        for {set k 0} {$k < $POOL} {incr k} { lot_flow $variant $from $to [expr {$fid + $off}] }
    }
}
proc snap {} {
    global FM HOPS
    set out {}
    for {set i 0} {$i < $HOPS} {incr i} {
        foreach fid {1 2 5 6} { lappend out [lindex [fmon_counts $FM($i) $fid] 1] }
    }
    return $out
}
proc finish {} {
    global S0 HOPS point POOL T bps PD
    set sum 0.0
    foreach c {cn cv ln lv} { set rate($c) 0.0 }
    set w [expr {$T - 5.0}]
    foreach {cn0 cv0 ln0 lv0} $S0 {cn1 cv1 ln1 lv1} [snap] i {0 1 2 3 4} {
        foreach c {cn cv ln lv} {
            set d [expr {[set ${c}1] - [set ${c}0]}]
            set rate($c) [expr {$rate($c) + $d * $PD(wire) * 8.0 / $w / 1e6 / $POOL / $HOPS}]
        }
        set n0 [expr {$cn0 + $ln0}]; set n1 [expr {$cn1 + $ln1}]
        set v0 [expr {$cv0 + $lv0}]; set v1 [expr {$cv1 + $lv1}]
        set idx [expr {double($v1 - $v0) / ($n1 - $n0)}]
        result $point index_hop$i $idx
        result $point newreno_share_hop$i [expr {($n1 - $n0) * $PD(wire) * 8.0 / ($bps * ($T - 5.0))}]
        result $point vegas_share_hop$i [expr {($v1 - $v0) * $PD(wire) * 8.0 / ($bps * ($T - 5.0))}]
        set sum [expr {$sum + $idx}]
    }
    result $point index_mean [expr {$sum / $HOPS}]
    result $point newreno_long_mbps $rate(ln)
    result $point newreno_onehop_mbps $rate(cn)
    result $point vegas_long_mbps $rate(lv)
    result $point vegas_onehop_mbps $rate(cv)
    exit 0
}
$ns at 5.0 "set S0 \[snap\]"
$ns at $T "finish"
$ns run
