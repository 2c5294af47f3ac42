# ns-2 twin of podlesny.fig9 (webtraffic.py, Fig9) at tcpsim's quick scale:
# 10 Mb/s, 10 NewReno + 10 Vegas long-lived flows each way (RTT uniform in
# [20, 300] ms), web transfers with Pareto gaps (shape 1.1) at 5 and 20 per
# second in all (paper scale 50 and 200), Pareto sizes (shape 1.3) of mean
# 30 KB and 100 KB, 20 s. DropTail, RED/ECN, and RD (Queue/RD, built by
# rd/build.sh: NS2_ROOT=/tmp/ns2rd). Point <disc>:<size KB>:<rate>.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {}
foreach d {droptail red_ecn rd} { foreach s {30 100} { foreach r {5 20} { lappend POINTS $d:$s:$r } } }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
lassign [split [lindex $argv 0] :] disc kb rate
pd_web_point [lindex $argv 0] $disc 10e6 10 0.300 $rate [expr {$kb * 1000}] 1.1 20.0 [lindex $argv 1]
