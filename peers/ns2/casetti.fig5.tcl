# casetti fig5 (Sec. 4.1, with fig4 as its drop-tail baseline) in ns-2.35 + TCP Westwood agents:
# two flows of one variant with RTTs 50 and 200 ms (access links 100 Mb/s with one-way delays
# 15 and 90 ms, sink at the bottleneck's end) share a 5 Mb/s, 10 ms bottleneck whose buffer is
# the BDP at the mean RTT (195 packets); QUEUE droptail, or red with ns-2's RED defaults of
# 2001 (thresh_ 5, maxthresh_ 15, linterm_ 10 i.e. max_p 0.1, q_weight_ 0.002, gentle_ false,
# packet mode). Starts uniform in [0, 1] s. Agent settings: westwood/fig8.tcl.
#   ns casetti.fig5.tcl VARIANT QUEUE SEED [DURATION]
# Prints "long_share <the 200 ms flow's share of the two flows' delivered packets>" and each
# flow's packets.
source [file join [file dirname [info script]] westwood fig8.tcl]
set variant [lindex $argv 0]
set qtype [lindex $argv 1]
set seed [lindex $argv 2]
set duration [expr {[llength $argv] > 3 ? [lindex $argv 3] : 300}]
fig8_defaults
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set linterm_ 10
Queue/RED set q_weight_ 0.002
Queue/RED set gentle_ false
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set setbit_ false
$defaultRNG seed [expr {$seed + 1}]
set ns [new Simulator]
set r1 [$ns node]
set sink [$ns node]
$ns duplex-link $r1 $sink 5000000 10ms [expr {$qtype == "red" ? "RED" : "DropTail"}]
$ns queue-limit $r1 $sink 195
set urng [fig8_uniform_rv [fig8_rng $seed 1]]
set i 0
foreach access {0.015 0.090} {
    set s [$ns node]
    $ns duplex-link $s $r1 100Mb ${access}s DropTail
    $ns queue-limit $s $r1 10000
    lassign [fig8_agent $variant] tcp snk
    $ns attach-agent $s $tcp
    $ns attach-agent $sink $snk
    $ns connect $tcp $snk
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at [$urng value] "$ftp start"
    set tcps($i) $tcp
    incr i
}
proc finish {} {
    global tcps
    set a [$tcps(0) set ack_]
    set b [$tcps(1) set ack_]
    puts "long_share [expr {double($b) / ($a + $b)}]"
    puts "short_pkts $a"
    puts "long_pkts $b"
    exit 0
}
$ns at $duration finish
$ns run
