# moller fig5 (Sec. IV, Fig. 5, Table II scenario 1) in ns-2.35 + the TCP Westwood agents
# (peers/ns2/westwood): a NewReno and a Westwood flow share one drop-tail bottleneck.
#   ns moller.fig5.tcl list                 the points AGENT:B (B: buffer size in packets)
#   ns moller.fig5.tcl <AGENT:B> <k> [DURATION WARMUP]   one run, replication k
# AGENT: wplus = Agent/TCP/WestwoodPlusNR (peers/ns2/westwood/plus: the TCPW-NR agent with the
# Westwood+ per-RTT estimator; needs the /tmp/ns2wp build), wnr = Agent/TCP/WestwoodNR (the
# published per-ACK TCPW-NR agent, Tustin filter).
# Topology (Fig. 2, as tcpsim's moller.fig5 builds it): S1, S2 -100 Mb/s, 0.1 ms- R -10 Mb/s,
# 24.9 ms, DropTail B packets- D; round-trip propagation T = 50 ms, CT = 41.7 packets.
# Flows: Agent/TCP/Newreno from S1, AGENT from S2, each to its own Agent/TCPSink (an ACK
# per packet, no delayed ACKs), FTP starting uniform in [0, 1] s (substream k of lib/common.tcl).
# packetSize_ 1460 (1500 bytes on the wire with useHeaders_), window_ 100000 (no receiver
# window), the agents' and ns-2.35's defaults otherwise (windowInit_ 2, minrto_ 0.2 s,
# tcpTick_ 0.01 s, singledup_ 1; fr_alpha_ 0.9; WestwoodNR filter_type_ 3, tau_ 1.0 s).
# Measured from WARMUP to DURATION: each flow's normalized throughput = packets newly
# acknowledged (highest cumulative ACK) x 1500 bytes / time / C (tcpsim: payload x 1500/1460 / C),
# their ratio W/NR, each flow's drops at the bottleneck queue in the window (flow monitor by
# flow id), and the Westwood agent's RTTmin estimate at the end.
source [file join [file dirname [info script]] lib common.tcl]

set BUFFERS {2 5 10 21 26 31 42 62 83}
if {[lindex $argv 0] == "list"} {
    set points {}
    foreach a {wplus wnr} { foreach b $BUFFERS { lappend points $a:$b } }
    puts $points
    exit 0
}
set point [lindex $argv 0]
lassign [split $point :] agent B
set AGENTS(wplus) Agent/TCP/WestwoodPlusNR
set AGENTS(wnr) Agent/TCP/WestwoodNR
set rep [lindex $argv 1]
set duration [expr {[llength $argv] > 2 ? [lindex $argv 2] : 457.0}]
set warmup [expr {[llength $argv] > 3 ? [lindex $argv 3] : 60.0}]

set C 10e6
set rng [twin_rng $rep]
set ns [new Simulator]
set s1 [$ns node]; set s2 [$ns node]; set r [$ns node]; set d [$ns node]
$ns duplex-link $s1 $r 100Mb 0.1ms DropTail
$ns duplex-link $s2 $r 100Mb 0.1ms DropTail
$ns queue-limit $s1 $r 1000
$ns queue-limit $r $s1 1000
$ns queue-limit $s2 $r 1000
$ns queue-limit $r $s2 1000
$ns duplex-link $r $d 10Mb 24.9ms DropTail
$ns queue-limit $r $d $B
$ns queue-limit $d $r 1000
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r $d] $fmon

proc flow {ns src dst class fid rng} {
    set tcp [new $class]
    $tcp set packetSize_ 1460
    $tcp set window_ 100000
    $tcp set fid_ $fid
    $ns attach-agent $src $tcp
    set sink [new Agent/TCPSink]
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at [$rng uniform 0.0 1.0] "$ftp start"
    return $tcp
}
set nr [flow $ns $s1 $d Agent/TCP/Newreno 1 $rng]
set wp [flow $ns $s2 $d $AGENTS($agent) 2 $rng]

proc mark {} {
    global nr wp at0 fmon
    set at0 [list [$nr set ack_] [$wp set ack_] [lindex [fmon_counts $fmon 1] 2] [lindex [fmon_counts $fmon 2] 2]]
}
proc finish {} {
    global nr wp at0 point C duration warmup fmon
    set t [expr {$duration - $warmup}]
    set nr_share [expr {([$nr set ack_] - [lindex $at0 0]) * 1500 * 8.0 / $t / $C}]
    set wp_share [expr {([$wp set ack_] - [lindex $at0 1]) * 1500 * 8.0 / $t / $C}]
    result $point newreno $nr_share
    result $point westwood $wp_share
    result $point sum [expr {$nr_share + $wp_share}]
    result $point ratio [expr {$nr_share > 0 ? $wp_share / $nr_share : 0}]
    result $point newreno_drops [expr {[lindex [fmon_counts $fmon 1] 2] - [lindex $at0 2]}]
    result $point westwood_drops [expr {[lindex [fmon_counts $fmon 2] 2] - [lindex $at0 3]}]
    result $point westwood_rtt_min_s [$wp set min_rtt_estimate]
    exit 0
}
$ns at $warmup "mark"
$ns at $duration "finish"
$ns run
