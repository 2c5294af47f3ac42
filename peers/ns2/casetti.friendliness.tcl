# casetti friendliness (Sec. 4.2) in ns-2.35 + TCP Westwood agents: 20 flows on the dumbbell of
# westwood/dumbbell.tcl (2 Mb/s, 10 ms bottleneck, RTT 100 ms, BDP buffer), no errors.
#   ns casetti.friendliness.tcl MIX SEED [DURATION WARMUP [WESTWOOD_AGENT]]
# MIX tcpw (20 TCPW) | reno (20 Reno) | mix (10 TCPW + 10 Reno); WESTWOOD_AGENT westwood
# (Agent/TCP/Westwood, default) or westwoodnr. Prints "<variant>_mbps <mean per-flow Mb/s>".
source [file join [file dirname [info script]] westwood dumbbell.tcl]
set mix [lindex $argv 0]
set seed [lindex $argv 1]
set duration [expr {[llength $argv] > 2 ? [lindex $argv 2] : 1000}]
set warmup [expr {[llength $argv] > 3 ? [lindex $argv 3] : 100}]
set ww [expr {[llength $argv] > 4 ? [lindex $argv 4] : "westwood"}]
switch -- $mix {
    tcpw { set variants [lrepeat 20 $ww] }
    reno { set variants [lrepeat 20 reno] }
    mix  { set variants [concat [lrepeat 10 $ww] [lrepeat 10 reno]] }
    default { error "unknown mix $mix" }
}
dumbbell_run $variants $seed $duration $warmup 0
