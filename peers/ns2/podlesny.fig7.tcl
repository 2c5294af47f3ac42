# ns-2 twin of podlesny.fig7 (webtraffic.py, Fig7) at tcpsim's quick scale:
# capacities 1, 10, 100 Mb/s (paper scale 10, 100, 1000), buffer C*250 ms,
# 10 NewReno + 10 Vegas long-lived flows each way (RTT uniform in [20, 300]
# ms), web 5 transfers per second in all (paper scale 50), 20 s.
# RD is not in ns-2: DropTail and RED/ECN only. Point <disc>:<Mb/s>.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {}
foreach d {droptail red_ecn} { foreach c {1 10 100} { lappend POINTS $d:$c } }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
lassign [split [lindex $argv 0] :] disc mbps
pd_web_point [lindex $argv 0] $disc [expr {$mbps * 1e6}] 10 0.300 5 30000 0 20.0 [lindex $argv 1]
