# The Sec. IV dumbbell of podlesny (Fig. 3) in ns-2.35, as tcpsim's main
# reading (python/tcpsim/repro/podlesny/common.py) builds it:
#   hosts --200 Mb/s, 6250-packet DropTail-- r1 ==C, 10 ms, C*250 ms== r2 --200 Mb/s-- hosts
# one host per flow end, each flow's propagation RTT split as
# 2*10 ms on the bottleneck + 4 equal access-link halves; 1000-byte packets;
# NewReno = Agent/TCP/Newreno, Vegas = Agent/TCP/Vegas (v_alpha_ 1, v_beta_ 3,
# v_gamma_ 1: the ns-2 defaults, the paper's values); sink Agent/TCPSink (an
# ACK per packet); the receiver window "unlimited" (window_ 10000 packets: far
# above any flow's window here; ns-2's default of 20 would cap them);
# everything else ns-2.35's defaults (windowInit_ 2, minrto_ 0.2, tcpTick_
# 0.01, singledup_ 1 = limited transmit, useHeaders_ true = 40-byte header on
# NewReno's packets, none on stock Vegas's).
# RED/ECN: Queue/RED with ns-2.35's defaults (byte mode, automatic thresholds
# and weight, gentle) plus setbit_ true, and ecn_ 1 on every TCP.
# RD: Queue/RD (peers/ns2/rd, needs the ns of rd/build.sh) with tcpsim's RD_PAPER
# (its ns-default.tcl values), Vegas's flow ids (2, 4, 6: data and the ACKs
# sent back, which carry the data's flow id) in D, NewReno's in R.
#
# Classes are counted by flow id at the bottleneck's flow monitors:
#   fid 1/2 NewReno/Vegas long-lived forward, 3/4 reverse, 5/6 web (forward).

source [file join [file dirname [info script]] common.tcl]

set PD(payload) 1000
set PD(wire) 1040
set PD(access_bps) 200e6
set PD(access_limit) 6250
set PD(bn_delay) 0.010
set PD(window) 10000
set PD(web_window) 1000

proc pd_buffer {bps} { return [expr {int($bps * 0.250 / 8 / 1000)}] }

# ns, bottleneck r1 -> r2 with `disc` (droptail | red_ecn); flow monitors on
# both directions. Sets globals ns r1 r2 fmon_ab fmon_ba.
proc pd_setup {bps disc} {
    global ns r1 r2 fmon_ab fmon_ba PD
    set ns [new Simulator]
    Agent/TCP set packetSize_ $PD(payload)
    Agent/TCP set window_ $PD(window)
    if {$disc == "red_ecn"} {
        Queue/RED set setbit_ true
        Agent/TCP set ecn_ 1
    }
    set r1 [$ns node]
    set r2 [$ns node]
    set q [dict get {droptail DropTail red_ecn RED rd RD} $disc]
    $ns duplex-link $r1 $r2 $bps $PD(bn_delay) $q
    $ns queue-limit $r1 $r2 [pd_buffer $bps]
    $ns queue-limit $r2 $r1 [pd_buffer $bps]
    if {$disc == "rd"} {
        foreach {a b} [list $r1 $r2 $r2 $r1] {
            foreach fid {2 4 6} { [[$ns link $a $b] queue] mark-d $fid }
        }
    }
    set fmon_ab [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $r1 $r2] $fmon_ab
    set fmon_ba [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $r2 $r1] $fmon_ba
}

proc pd_access {host router delay} {
    global ns PD
    $ns duplex-link $host $router $PD(access_bps) $delay DropTail
    $ns queue-limit $host $router $PD(access_limit)
    $ns queue-limit $router $host $PD(access_limit)
}

proc pd_tcp {variant} {
    if {$variant == "newreno"} { return [new Agent/TCP/Newreno] }
    set t [new Agent/TCP/Vegas]
    $t set v_alpha_ 1
    $t set v_beta_ 3
    $t set v_gamma_ 1
    return $t
}

# A long-lived flow: `dir` f (left to right) or r; RTT `rtt`; FTP from `start`
# (to `stop` if given). Returns {tcp ftp}.
proc pd_flow {variant dir rtt fid start {stop ""}} {
    global ns r1 r2 PD
    set a [expr {($rtt / 2.0 - $PD(bn_delay)) / 2.0}]
    set src [$ns node]
    set dst [$ns node]
    if {$dir == "f"} {
        pd_access $src $r1 $a
        pd_access $dst $r2 $a
    } else {
        pd_access $src $r2 $a
        pd_access $dst $r1 $a
    }
    set tcp [pd_tcp $variant]
    $tcp set fid_ $fid
    set sink [new Agent/TCPSink]
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [$tcp attach-app FTP]
    $ns at $start "$ftp start"
    if {$stop != ""} { $ns at $stop "$ftp stop" }
    return [list $tcp $ftp]
}

# Web server of one class: a server host on r1 and a client host on r2, each
# (web_rtt/2 - 10 ms)/2 away; transfers arrive at `rate` per second (Poisson,
# or Pareto gaps of shape `ashape` when ashape > 0) until `stop`; each is a new
# connection (fresh agents) sending ceil(size/1000) packets, size Pareto of
# mean `mean` bytes and shape 1.3.
proc pd_web {variant fid rate mean ashape rng stop {web_rtt 0.100}} {
    global ns r1 r2 PD
    set a [expr {($web_rtt / 2.0 - $PD(bn_delay)) / 2.0}]
    set server [$ns node]
    set client [$ns node]
    pd_access $server $r1 $a
    pd_access $client $r2 $a
    set t [expr {[$rng uniform 0.0 1.0] / $rate}]
    while {$t < $stop} {
        set bytes [pareto $rng $mean 1.3]
        set pkts [expr {int(ceil($bytes / $PD(payload)))}]
        $ns at $t "pd_transfer $variant $fid $server $client $pkts"
        if {$ashape > 0} {
            set gap [pareto $rng [expr {1.0 / $rate}] $ashape]
        } else {
            set gap [$rng exponential [expr {1.0 / $rate}]]
        }
        set t [expr {$t + $gap}]
    }
}

proc pd_transfer {variant fid server client pkts} {
    global ns PD
    set tcp [pd_tcp $variant]
    $tcp set fid_ $fid
    $tcp set window_ $PD(web_window)
    set sink [new Agent/TCPSink]
    $ns attach-agent $server $tcp
    $ns attach-agent $client $sink
    $ns connect $tcp $sink
    $tcp advanceby $pkts
}

# Class counters {arrivals departures drops} of `fid` on the monitor of `dir`
# (ab: r1 -> r2, the forward data direction; ba: r2 -> r1).
proc pd_counts {dir fid} {
    global fmon_ab fmon_ba
    set m [expr {$dir == "ab" ? $fmon_ab : $fmon_ba}]
    return [fmon_counts $m $fid]
}

# The mixed dumbbell of Sec. IV: `nr` NewReno and `vg` Vegas long-lived flows
# forward and, if `reverse`, as many of each backward; RTTs uniform in
# [rtt_lo, rtt_hi] and starts uniform in [0, 1] s, all from `rng`.
proc pd_mixed {nr vg reverse rtt_lo rtt_hi rng} {
    set dirs [expr {$reverse ? {f r} : {f}}]
    foreach dir $dirs {
        foreach {variant n} [list newreno $nr vegas $vg] {
            set fid [expr {($variant == "newreno" ? 1 : 2) + ($dir == "r" ? 2 : 0)}]
            for {set i 0} {$i < $n} {incr i} {
                set rtt [$rng uniform $rtt_lo $rtt_hi]
                set start [$rng uniform 0.0 1.0]
                pd_flow $variant $dir $rtt $fid $start
            }
        }
    }
}

# Snapshot of every class counter: a flat list fid dir arrivals departures drops.
proc pd_snapshot {} {
    set out {}
    foreach fid {1 2 5 6} { lappend out $fid ab {*}[pd_counts ab $fid] }
    foreach fid {3 4} { lappend out $fid ba {*}[pd_counts ba $fid] }
    return $out
}

# At `t_end`: per class (newreno = fids 1 3 5, vegas = 2 4 6, restricted to
# `fids`) the data packets that crossed the bottleneck between the snapshot
# taken at `t_warm` and `t_end`, as utilization of `dirs`*capacity with 1040
# bytes a packet (tcpsim's measure), the loss rate (drops / arrivals at the
# bottleneck), and the relative fairness index per flow (`nflows_nr`,
# `nflows_vg` divide the classes).
proc pd_report {point bps t_warm t_end fids dirs nflows_nr nflows_vg} {
    global ns PD
    $ns at $t_warm "set ::PD(snap) \[pd_snapshot\]"
    $ns at $t_warm "set ::PD(rdsnap) \[pd_rd_snapshot\]"
    $ns at $t_end "pd_report_rd $point $bps [expr {$t_end - $t_warm}] $nflows_nr $nflows_vg"
    $ns at $t_end "pd_report_now $point $bps [expr {$t_end - $t_warm}] {$fids} $dirs $nflows_nr $nflows_vg"
}

proc pd_report_now {point bps window fids dirs nflows_nr nflows_vg} {
    global PD
    set now [pd_snapshot]
    foreach c {newreno vegas} { set arr($c) 0; set dep($c) 0; set drp($c) 0 }
    foreach {fid dir a d x} $now {fid0 dir0 a0 d0 x0} $PD(snap) {
        if {[lsearch $fids $fid] < 0} continue
        set c [expr {$fid % 2 == 1 ? "newreno" : "vegas"}]
        set arr($c) [expr {$arr($c) + $a - $a0}]
        set dep($c) [expr {$dep($c) + $d - $d0}]
        set drp($c) [expr {$drp($c) + $x - $x0}]
    }
    set cap [expr {$bps * $dirs * $window}]
    foreach c {newreno vegas} {
        set u($c) [expr {$dep($c) * $PD(wire) * 8.0 / $cap}]
        result $point ${c}_utilization $u($c)
        result $point ${c}_loss_rate [expr {$arr($c) > 0 ? double($drp($c)) / $arr($c) : 0.0}]
        result $point ${c}_drops $drp($c)
    }
    if {$u(newreno) > 0} {
        result $point index [expr {($u(vegas) / $nflows_vg) / ($u(newreno) / $nflows_nr)}]
    }
}

# Every class's departures on both monitors, ACKs included: a flat list fid
# dir packets bytes for fids 1-6 on ab and ba.
proc pd_all_counts {} {
    global fmon_ab fmon_ba
    set out {}
    foreach dir {ab ba} m [list $fmon_ab $fmon_ba] {
        foreach fid {1 2 3 4 5 6} {
            set f [fmon_flow $m $fid]
            if {$f == ""} {
                lappend out $fid $dir 0 0
            } else {
                lappend out $fid $dir [$f set pdepartures_] [$f set bdepartures_]
            }
        }
    }
    return $out
}

# With RD at the bottleneck: the counters above and each RD queue's integrals
# of n_R and n_D (count x s), else "".
proc pd_rd_snapshot {} {
    global ns r1 r2
    set q [[$ns link $r1 $r2] queue]
    if {[$q info class] != "Queue/RD"} { return "" }
    set out [list [pd_all_counts]]
    foreach {a b} [list $r1 $r2 $r2 $r1] {
        set q [[$ns link $a $b] queue]
        lappend out [$q set flow_count_r_] [$q set flow_count_d_]
    }
    return $out
}

# RD only (nothing otherwise): tcpsim's main-reading utilization of a class,
# the link use: all its packets that left the bottleneck in either direction,
# its flows' data (1040 bytes a packet, as pd_report_now) and the ACKs of its
# flows in the other direction (40 bytes), over both directions' capacity; the
# relative fairness index from it (per long-lived flow, `nflows_*`); the same
# from the bytes on the wire (`*_wire_use`: stock Vegas's data packets are
# 1000 bytes, and RD serves bytes); and the flows RD counted per direction
# (mean n_R, n_D over the window).
proc pd_report_rd {point bps window nflows_nr nflows_vg} {
    global PD
    if {$PD(rdsnap) == ""} return
    set now [pd_rd_snapshot]
    foreach c {newreno vegas} { set bytes($c) 0; set wire($c) 0 }
    foreach {fid dir d b} [lindex $now 0] {fid0 dir0 d0 b0} [lindex $PD(rdsnap) 0] {
        set c [expr {$fid % 2 == 1 ? "newreno" : "vegas"}]
        # Data: forward fids (1 2 5 6) on ab, reverse (3 4) on ba; the rest are ACKs.
        set data [expr {($fid == 3 || $fid == 4) == ($dir == "ba")}]
        set size [expr {$data ? $PD(wire) : 40}]
        set bytes($c) [expr {$bytes($c) + ($d - $d0) * $size}]
        set wire($c) [expr {$wire($c) + $b - $b0}]
    }
    set cap [expr {$bps * 2 * $window}]
    foreach c {newreno vegas} {
        set u($c) [expr {$bytes($c) * 8.0 / $cap}]
        set w($c) [expr {$wire($c) * 8.0 / $cap}]
        result $point ${c}_link_use $u($c)
        result $point ${c}_wire_use $w($c)
    }
    if {$u(newreno) > 0} {
        result $point index_link_use [expr {($u(vegas) / $nflows_vg) / ($u(newreno) / $nflows_nr)}]
        result $point index_wire_use [expr {($w(vegas) / $nflows_vg) / ($w(newreno) / $nflows_nr)}]
    }
    foreach {nr nd} [lrange $now 1 end] {nr0 nd0} [lrange $PD(rdsnap) 1 end] dir {ab ba} {
        result $point n_r_$dir [expr {($nr - $nr0) / $window}]
        result $point n_d_$dir [expr {($nd - $nd0) / $window}]
    }
}

# One point of Figs. 6-9 (webtraffic.py): `long` NewReno and `long` Vegas
# long-lived flows each way (RTTs uniform in [20 ms, rtt_hi]), one web server
# per class at `rate`/2 transfers per second each (Poisson, or Pareto gaps of
# shape `ashape` > 0), sizes of mean `mean` bytes; measured on the forward
# direction (long-lived forward flows and the class's web transfers), index =
# the classes' utilizations each over its `long` long-lived flows.
proc pd_web_point {point disc bps long rtt_hi rate mean ashape T rep} {
    global ns
    set rng [twin_rng $rep]
    pd_setup $bps $disc
    pd_mixed $long $long 1 0.020 $rtt_hi $rng
    pd_web newreno 5 [expr {$rate / 2.0}] $mean $ashape $rng $T
    pd_web vegas 6 [expr {$rate / 2.0}] $mean $ashape $rng $T
    pd_report $point $bps 5.0 $T {1 2 5 6} 1 $long $long
    $ns at $T "exit 0"
    $ns run
}
