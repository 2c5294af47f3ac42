# ns-2 twin of podlesny.fig6 (python/tcpsim/repro/podlesny/webtraffic.py, Fig6)
# at tcpsim's quick scale (capacity, long-lived flows and web intensity
# divided by 10, 20 s; per-flow rates and buffer per flow are the paper's):
# 10 Mb/s, 10 NewReno + 10 Vegas long-lived flows each way (RTT uniform in
# [20, 300] ms), web transfers (Poisson, Pareto sizes of mean 30 KB, shape
# 1.3, 100 ms RTT) at 1, 10, 30 per second in all (paper scale 10, 100, 300);
# DropTail and RED/ECN. RD (Queue/RD, built by rd/build.sh: NS2_ROOT=/tmp/ns2rd)
# over tcpsim's quick grid, 0.1, 1, 5, 10, 20, 30 per second (paper scale 1, 10,
# 50, 100, 200, 300), and at the paper's scale ("rd:full:<rate>": 100 Mb/s,
# 3125-packet buffer, 100 + 100 flows each way, 1, 10, 50, 100, 200, 300
# transfers per second, 60 s).
# Point <disc>:<rate>; replication = RNG substream.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {}
foreach d {droptail red_ecn} { foreach r {1 10 30} { lappend POINTS $d:$r } }
foreach r {0.1 1 5 10 20 30} { lappend POINTS rd:$r }
foreach r {300 1 10 50 100 200} { lappend POINTS rd:full:$r }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set parts [split [lindex $argv 0] :]
set disc [lindex $parts 0]
if {[lindex $parts 1] == "full"} {
    set rate [lindex $parts 2]
    pd_web_point [lindex $argv 0] $disc 100e6 100 0.300 $rate 30000 0 60.0 [lindex $argv 1]
} else {
    set rate [lindex $parts 1]
    pd_web_point [lindex $argv 0] $disc 10e6 10 0.300 $rate 30000 0 20.0 [lindex $argv 1]
}
