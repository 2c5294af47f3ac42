# ns-2 twin of podlesny.fig10 (python/tcpsim/repro/podlesny/dynamics.py) at
# tcpsim's quick scale: 20 Mb/s bottleneck (buffer C*250 ms = 625 packets),
# flows forward only, the assumed schedule of dynamics.py with every count
# divided by 5 and 10 s steps (90 s):
#   (NewReno, Vegas) = (10,20) (10,10) (20,10) (20,4) (20,20) (0,20) (10,20) (10,4) (20,4)
# flow i of a class is ON while its class has more than i flows (an FTP source
# started and stopped: the connection keeps its state). RTTs uniform in
# [20, 300] ms. RD is not in ns-2: DropTail and RED/ECN only.
# Measured: each class's data packets crossing the bottleneck in every step
# (from max(step start, 5 s)), the index = Vegas's per-flow count over
# NewReno's in each step with both classes, and its mean over those steps.
# Point "static20": 20 NewReno + 20 Vegas forward, all ON, 60 s, the first
# 5 s excluded (the issue's "20 + 20 mix"; its per-flow ratio).
# Point <disc>:schedule or <disc>:static20.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {droptail:schedule red_ecn:schedule droptail:static20 red_ecn:static20}
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
lassign [split [lindex $argv 0] :] disc what
set point [lindex $argv 0]
set rep [lindex $argv 1]
set bps 20e6
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
for {set k 0} {$k < [llength $SCHED]} {incr k} {
    set t0 [expr {max($k * $STEP, 5.0)}]
    $ns at $t0 "step_mark $k"
}
proc finish {} {
    global MARK SCHED point
    set sum 0.0; set n 0
    for {set k 0} {$k < [llength $SCHED]} {incr k} {
        set end [expr {$k + 1 < [llength $SCHED] ? $MARK([expr {$k + 1}]) : [list [lindex [pd_counts ab 1] 1] [lindex [pd_counts ab 2] 1]]}]
        set dn [expr {[lindex $end 0] - [lindex $MARK($k) 0]}]
        set dv [expr {[lindex $end 1] - [lindex $MARK($k) 1]}]
        lassign [lindex $SCHED $k] cn cv
        if {$cn > 0 && $cv > 0 && $dn > 0} {
            set idx [expr {($dv / double($cv)) / ($dn / double($cn))}]
            result $point index_step$k $idx
            set sum [expr {$sum + $idx}]; incr n
        }
    }
    result $point index_mean [expr {$sum / $n}]
    exit 0
}
$ns at [expr {[llength $SCHED] * $STEP}] "finish"
$ns run
