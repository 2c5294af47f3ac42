# ns-2 twin of podlesny.fig10 (python/tcpsim/repro/podlesny/dynamics.py) at
# tcpsim's quick scale: 20 Mb/s bottleneck (buffer C*250 ms = 625 packets),
# flows forward only, the assumed schedule of dynamics.py with every count
# divided by 5 and 10 s steps (90 s):
#   (NewReno, Vegas) = (10,20) (10,10) (20,10) (20,4) (20,20) (0,20) (10,20) (10,4) (20,4)
# flow i of a class is ON while its class has more than i flows (an FTP source
# started and stopped: the connection keeps its state). RTTs uniform in
# [20, 300] ms. DropTail, RED/ECN, and RD (Queue/RD, built by rd/build.sh:
# NS2_ROOT=/tmp/ns2rd).
# Measured: each class's data packets crossing the bottleneck in every step
# (from max(step start, 5 s)), the index = Vegas's per-flow count over
# NewReno's in each step with both classes, and its mean over those steps;
# and the index over the first quarter of each later step with both classes
# (2.5 s: dynamics.py's "right after each change" window).
# Point "static20": 20 NewReno + 20 Vegas forward, all ON, 60 s, the first
# 5 s excluded (the issue's "20 + 20 mix"; its per-flow ratio).
# Point "rd:full": RD at the paper's scale, 100 Mb/s (3125-packet buffer),
# dynamics.py's schedule itself (50/100 ... 100/20 flows) in 20 s steps (180 s;
# the "right after each change" window 5 s).
# Point <disc>:schedule, <disc>:static20 or rd:full.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {}
foreach w {schedule static20} { foreach d {droptail red_ecn rd} { lappend POINTS $d:$w } }
lappend POINTS rd:full
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
lassign [split [lindex $argv 0] :] disc what
set point [lindex $argv 0]
set rep [lindex $argv 1]
set bps [expr {$what == "full" ? 100e6 : 20e6}]
set rng [twin_rng $rep]
pd_setup $bps $disc
if {$what == "static20"} {
    pd_mixed 20 20 0 0.020 0.300 $rng
    pd_report $point $bps 5.0 60.0 {1 2} 1 20 20
    $ns at 60.0 "exit 0"
    $ns run
}
set SCHED {{10 20} {10 10} {20 10} {20 4} {20 20} {0 20} {10 20} {10 4} {20 4}}
set STEP 10.0
if {$what == "full"} {
    set full {}
    foreach s $SCHED { lappend full [list [expr {[lindex $s 0] * 5}] [expr {[lindex $s 1] * 5}]] }
    set SCHED $full
    set STEP 20.0
}
foreach {variant col fid} {newreno 0 1 vegas 1 2} {
    set most 0
    foreach s $SCHED { if {[lindex $s $col] > $most} { set most [lindex $s $col] } }
    for {set i 0} {$i < $most} {incr i} {
        set rtt [$rng uniform 0.020 0.300]
        set jitter [$rng uniform 0.0 1.0]
        lassign [pd_flow $variant f $rtt $fid 1e9] tcp ftp
        # ON intervals: consecutive steps where the class has more than i flows
        set on 0
        for {set k 0} {$k < [llength $SCHED]} {incr k} {
            set want [expr {[lindex $SCHED $k $col] > $i}]
            set t [expr {$k * $STEP}]
            if {$want && !$on} { $ns at [expr {$t == 0 ? $jitter : $t}] "$ftp start" }
            if {!$want && $on} { $ns at $t "$ftp stop" }
            set on $want
        }
    }
}
proc step_mark {k} {
    global MARK
    set MARK($k) [list [lindex [pd_counts ab 1] 1] [lindex [pd_counts ab 2] 1]]
}
proc settle_mark {k} {
    global SETTLE
    set SETTLE($k) [list [lindex [pd_counts ab 1] 1] [lindex [pd_counts ab 2] 1]]
}
for {set k 0} {$k < [llength $SCHED]} {incr k} {
    set t0 [expr {max($k * $STEP, 5.0)}]
    $ns at $t0 "step_mark $k"
    if {$k > 0} { $ns at [expr {$k * $STEP + $STEP / 4.0}] "settle_mark $k" }
}
# Vegas's per-flow count over NewReno's between two marks {newreno vegas} of
# step k, or "" when a class is absent or NewReno sent nothing.
proc step_index {k from to} {
    global SCHED
    lassign [lindex $SCHED $k] cn cv
    set dn [expr {[lindex $to 0] - [lindex $from 0]}]
    set dv [expr {[lindex $to 1] - [lindex $from 1]}]
    if {$cn == 0 || $cv == 0 || $dn <= 0} { return "" }
    return [expr {($dv / double($cv)) / ($dn / double($cn))}]
}
proc finish {} {
    global MARK SETTLE SCHED point
    for {set k 1} {$k < [llength $SCHED]} {incr k} {
        set idx [step_index $k $MARK($k) $SETTLE($k)]
        if {$idx != ""} { result $point index_settle$k $idx }
    }
    set sum 0.0; set n 0
    for {set k 0} {$k < [llength $SCHED]} {incr k} {
        set end [expr {$k + 1 < [llength $SCHED] ? $MARK([expr {$k + 1}]) : [list [lindex [pd_counts ab 1] 1] [lindex [pd_counts ab 2] 1]]}]
        set idx [step_index $k $MARK($k) $end]
        if {$idx != ""} {
            result $point index_step$k $idx
            set sum [expr {$sum + $idx}]; incr n
        }
    }
    result $point index_mean [expr {$sum / $n}]
    exit 0
}
$ns at [expr {[llength $SCHED] * $STEP}] "finish"
$ns run
