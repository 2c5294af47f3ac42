# ns-2 twin of podlesny.fig4 (python/tcpsim/repro/podlesny/scalability.py,
# Fig4, quick scale): 10 Vegas and 30 NewReno long-lived flows (flow ratio 3)
# in each direction on the Sec. IV dumbbell at a tenth of the paper's
# capacity (10 Mb/s, buffer C*250 ms = 312 packets), RTTs uniform in
# [20, 300] ms, 20 s, the first 5 s excluded, under DropTail (tcpsim's
# baseline) or RED/ECN (ns-2's defaults); and with RD, the paper's scheduler
# (Queue/RD, built by rd/build.sh: run with NS2_ROOT=/tmp/ns2rd), over
# tcpsim's quick grid of 1, 5, 10, 30, 70 NewReno flows against 10 Vegas, and
# at the paper's scale ("full": 100 Mb/s, 3125-packet buffer, 60 s) at flow
# ratios 0.1, 0.5 and 3 (10, 50, 300 NewReno against 100 Vegas).
#   ns podlesny.fig4.tcl list                 -> the points
#   ns podlesny.fig4.tcl <disc>:<nr>:<vg> <replication>
#   ns podlesny.fig4.tcl <disc>:full:<nr>:<vg> <replication>
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {droptail:30:10 red_ecn:30:10}
foreach nr {1 5 10 30 70} { lappend POINTS rd:$nr:10 }
foreach nr {10 50 300} { lappend POINTS rd:full:$nr:100 }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set parts [split [lindex $argv 0] :]
if {[lindex $parts 1] == "full"} {
    lassign $parts disc - nr vg
    set bps 100e6
    set T 60.0
} else {
    lassign $parts disc nr vg
    set bps 10e6
    set T 20.0
}
set rep [lindex $argv 1]
set rng [twin_rng $rep]
pd_setup $bps $disc
pd_mixed $nr $vg 1 0.020 0.300 $rng
pd_report [lindex $argv 0] $bps 5.0 $T {1 2 3 4} 2 $nr $vg
$ns at $T "exit 0"
$ns run
