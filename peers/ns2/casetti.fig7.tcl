# casetti fig7, tcpsim's alternative reading "ns-2 simulation set-up", in ns-2.35 + TCP Westwood
# agents: 5 flows, K Reno + (5 - K) TCPW, on the dumbbell of westwood/dumbbell.tcl (2 Mb/s,
# RTT 100 ms, BDP buffer, 400-byte packets) with Bernoulli loss P both ways on the bottleneck.
#   ns casetti.fig7.tcl K P SEED [DURATION WARMUP [WESTWOOD_AGENT]]
# Prints "<variant>_mbps <mean per-flow Mb/s>".
source [file join [file dirname [info script]] westwood dumbbell.tcl]
set k [lindex $argv 0]
set p [lindex $argv 1]
set seed [lindex $argv 2]
set duration [expr {[llength $argv] > 3 ? [lindex $argv 3] : 600}]
set warmup [expr {[llength $argv] > 4 ? [lindex $argv 4] : 50}]
set ww [expr {[llength $argv] > 5 ? [lindex $argv 5] : "westwood"}]
set variants {}
for {set i 0} {$i < 5} {incr i} { lappend variants [expr {$i < $k ? "reno" : $ww}] }
dumbbell_run $variants $seed $duration $warmup $p
