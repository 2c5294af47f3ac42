# ns-2 twin of podlesny.fig4 (python/tcpsim/repro/podlesny/scalability.py,
# Fig4, quick scale): 10 Vegas and 30 NewReno long-lived flows (flow ratio 3)
# in each direction on the Sec. IV dumbbell at a tenth of the paper's
# capacity (10 Mb/s, buffer C*250 ms = 312 packets), RTTs uniform in
# [20, 300] ms, 20 s, the first 5 s excluded. RD is the paper's scheduler
# and not in ns-2: the bottleneck runs DropTail (tcpsim's baseline) or
# RED/ECN (ns-2's defaults).
#   ns podlesny.fig4.tcl list                 -> the points
#   ns podlesny.fig4.tcl <disc>:<nr>:<vg> <replication>
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {droptail:30:10 red_ecn:30:10 rd:30:10}
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
lassign [split [lindex $argv 0] :] disc nr vg
set rep [lindex $argv 1]
set bps 10e6
set T 20.0
set rng [twin_rng $rep]
pd_setup $bps $disc
pd_mixed $nr $vg 1 0.020 0.300 $rng
pd_report [lindex $argv 0] $bps 5.0 $T {1 2 3 4} 2 $nr $vg
$ns at $T "exit 0"
$ns run
