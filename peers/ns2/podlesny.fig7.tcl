# ns-2 twin of podlesny.fig7 (webtraffic.py, Fig7) at tcpsim's quick scale:
# capacities 1, 10, 100 Mb/s (paper scale 10, 100, 1000), buffer C*250 ms,
# 10 NewReno + 10 Vegas long-lived flows each way (RTT uniform in [20, 300]
# ms), web 5 transfers per second in all (paper scale 50), 20 s; DropTail,
# RED/ECN, and RD (Queue/RD, built by rd/build.sh: NS2_ROOT=/tmp/ns2rd).
# Also RD at the paper's scale at 10 Mb/s ("rd:full:10": 100 + 100 flows each
# way, web 50 per second, 60 s). Point <disc>:<Mb/s> or rd:full:10.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {}
foreach d {droptail red_ecn rd} { foreach c {1 10 100} { lappend POINTS $d:$c } }
lappend POINTS rd:full:10
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set parts [split [lindex $argv 0] :]
set disc [lindex $parts 0]
if {[lindex $parts 1] == "full"} {
    set mbps [lindex $parts 2]
    pd_web_point [lindex $argv 0] $disc [expr {$mbps * 1e6}] 100 0.300 50 30000 0 60.0 [lindex $argv 1]
} else {
    set mbps [lindex $parts 1]
    pd_web_point [lindex $argv 0] $disc [expr {$mbps * 1e6}] 10 0.300 5 30000 0 20.0 [lindex $argv 1]
}
