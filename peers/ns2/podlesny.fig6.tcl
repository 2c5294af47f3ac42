# ns-2 twin of podlesny.fig6 (python/tcpsim/repro/podlesny/webtraffic.py, Fig6)
# at tcpsim's quick scale (capacity, long-lived flows and web intensity
# divided by 10, 20 s; per-flow rates and buffer per flow are the paper's):
# 10 Mb/s, 10 NewReno + 10 Vegas long-lived flows each way (RTT uniform in
# [20, 300] ms), web transfers (Poisson, Pareto sizes of mean 30 KB, shape
# 1.3, 100 ms RTT) at 1, 10, 30 per second in all (paper scale 10, 100, 300).
# RD is not in ns-2: DropTail and RED/ECN only.
# Point <disc>:<rate>; replication = RNG substream.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {}
foreach d {droptail red_ecn} { foreach r {1 10 30} { lappend POINTS $d:$r } }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
lassign [split [lindex $argv 0] :] disc rate
pd_web_point [lindex $argv 0] $disc 10e6 10 0.300 $rate 30000 0 20.0 [lindex $argv 1]
