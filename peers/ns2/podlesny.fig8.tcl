# ns-2 twin of podlesny.fig8 (webtraffic.py, Fig8). Quick scale (as tcpsim's
# quick mode): 10 Mb/s, 10 NewReno + 10 Vegas long-lived flows each way with
# RTTs uniform in [20 ms, max], max 30, 200, 1000 ms, web 5 transfers per
# second in all, 20 s. Also the paper-scale point the issue asks about
# ("full:300": 100 Mb/s, 100 + 100 flows each way, RTT [20, 300] ms, web 50
# per second; 30 s instead of 60 to keep ns-2 affordable), the point shared
# by Figs. 6, 7 and 8. DropTail, RED/ECN, and RD (Queue/RD, built by
# rd/build.sh: NS2_ROOT=/tmp/ns2rd); RD's paper-scale point runs 60 s.
# Point <disc>:<max RTT ms> or <disc>:full:300.
source [file join [file dirname [info script]] lib podlesny.tcl]
set POINTS {}
foreach d {droptail red_ecn rd} { foreach m {30 200 1000} { lappend POINTS $d:$m } }
foreach d {droptail red_ecn rd} { lappend POINTS $d:full:300 }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set parts [split [lindex $argv 0] :]
set disc [lindex $parts 0]
if {[lindex $parts 1] == "full"} {
    set T [expr {$disc == "rd" ? 60.0 : 30.0}]
    pd_web_point [lindex $argv 0] $disc 100e6 100 0.300 50 30000 0 $T [lindex $argv 1]
} else {
    set m [lindex $parts 1]
    pd_web_point [lindex $argv 0] $disc 10e6 10 [expr {$m / 1000.0}] 5 30000 0 20.0 [lindex $argv 1]
}
