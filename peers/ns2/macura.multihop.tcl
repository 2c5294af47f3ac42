# ns-2 twin of macura.multihop (python/tcpsim/repro/macura/multihop.py): the
# chain of Fig. 3, routers r0..rN joined by 10 Mb/s, 10 ms hops; C1 (NewReno
# or Vegas; Westwood+ is not a stock ns-2 agent) from r0 to rN starting at
# 10 s; on every hop one NewReno cross flow each way between hosts at its two
# routers, starting uniform in [0, 1] s; every host on its own 100 Mb/s,
# 20 ms entry/exit link; every queue (hops and entry/exit links) DropTail of
# 125 packets; packetSize_ 1460, Agent/TCPSink/DelAck, window_ 10000, ns-2.35
# defaults otherwise. C1's goodput = eq. (1) (sent - retransmitted) x 1500
# bytes from 10 s to the end. Quick-scale subset: N = 1 and 3, 300 s
# (tcpsim's quick mode 150 s, full 1000 s).
# Point <variant>:<N>.
source [file join [file dirname [info script]] lib macura.tcl]
set POINTS {}
foreach v {newreno vegas} { foreach n {1 3} { lappend POINTS $v:$n } }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set point [lindex $argv 0]
lassign [split $point :] variant N
set rng [twin_rng [lindex $argv 1]]
set T 300.0
set ns [new Simulator]
Agent/TCP set packetSize_ $MC(payload)
Agent/TCP set window_ 10000
for {set i 0} {$i <= $N} {incr i} { set R($i) [$ns node] }
for {set i 0} {$i < $N} {incr i} {
    $ns duplex-link $R($i) $R([expr {$i + 1}]) 10e6 0.010 DropTail
    $ns queue-limit $R($i) $R([expr {$i + 1}]) 125
    $ns queue-limit $R([expr {$i + 1}]) $R($i) 125
}
proc chain_flow {variant from to start} {
    global ns R MC
    set src [$ns node]; set dst [$ns node]
    foreach {h r} [list $src $R($from) $dst $R($to)] {
        $ns duplex-link $h $r $MC(access_bps) 0.020 DropTail
        $ns queue-limit $h $r 125
        $ns queue-limit $r $h 125
    }
    set tcp [mc_tcp $variant]
    set sink [new Agent/TCPSink/DelAck]
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [$tcp attach-app FTP]
    $ns at $start "$ftp start"
    return $tcp
}
set c1 [chain_flow $variant 0 $N 10.0]
for {set i 0} {$i < $N} {incr i} {
    chain_flow newreno $i [expr {$i + 1}] [$rng uniform 0.0 1.0]
    chain_flow newreno [expr {$i + 1}] $i [$rng uniform 0.0 1.0]
}
proc finish {} {
    global c1 point T MC
    result $point c1_goodput [expr {[mc_good_pkts $c1] * $MC(wire) * 8.0 / ($T - 10.0) / 1e6}]
    exit 0
}
$ns at $T "finish"
$ns run
