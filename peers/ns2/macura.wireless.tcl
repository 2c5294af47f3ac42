# macura Sec. 5.5 (Fig. 4, first run: TCP1 alone) in ns-2.35 + the TCP Westwood agents +
# Agent/TCP/WestwoodPlusNR (peers/ns2/westwood/plus), as tcpsim's macura.wireless main reading
# builds it:
#   src -100 Mb/s, 95 ms- r -10 Mb/s, 10 ms, DropTail 125- bs -2 Mb/s, 20 ms, DropTail 42- mobile
# (one-way 125 ms; access queue 10000 packets). TCP1 src -> mobile: Agent/TCP/Newreno (newreno) or
# Agent/TCP/WestwoodPlusNR (wplus), Agent/TCPSink/DelAck (interval_ 100 ms), FTP from uniform
# [0, 1] s; packetSize_ 1460, window_ 10000, the rest ns-2.35's and the agent's defaults.
# Channel: each direction of the wireless link has its own Good/Bad process: a sojourn lasts
# exactly 1 s (Good) or BAD ms (Bad); when it ends the next is Bad with probability 0.5, else
# Good; Good at t = 0. Packets are lost with probability 0 (Good) or 0.1 (Bad). ns-2.35 has no
# model with deterministic sojourns in simulated time and per-state rates (MultiState changes
# state only at packets), so `$ns at` events at the sojourn ends set an ErrorModel's rate_
# (unit pkt, after the link: link-lossmodel), as the casetti twins' Markov channels.
# Points ms-AGENT:BAD_MS: the experiment's alternative reading "ns-2 MultiState transitions" with
# ns-2.35's own ErrorModel/MultiState: sttype time, periods {1 s, BAD}, transition matrix
# {{0.5 0.5} {0.5 0.5}}, state models ErrorModel rate_ 0 and 0.1 (unit pkt), start Good; its
# transition draws use ns-2's default RNG, seeded per replication.
#   ns macura.wireless.tcl list | <[ms-]AGENT:BAD_MS> <k> [DURATION]
# Output: TCP1's goodput over the run, (ndatapack_ - nrexmitpack_) x 1500 bytes / DURATION (Mb/s);
# its retransmission timeouts (nrexmit_) and retransmitted packets (nrexmitpack_).
source [file join [file dirname [info script]] lib common.tcl]

set BADS {0.1 0.3 1 3 10 30 100}
if {[lindex $argv 0] == "list"} {
    set points {}
    foreach a {newreno wplus ms-newreno ms-wplus} { foreach b $BADS { lappend points $a:$b } }
    puts $points
    exit 0
}
set point [lindex $argv 0]
lassign [split $point :] agent bad_ms
set mode time
if {[string match ms-* $agent]} {
    set mode multistate
    set agent [string range $agent 3 end]
}
set rep [lindex $argv 1]
set duration [expr {[llength $argv] > 2 ? [lindex $argv 2] : 1000.0}]
set bad_s [expr {$bad_ms / 1000.0}]

set rng [twin_rng $rep]
set ns [new Simulator]
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 10000
Agent/TCPSink/DelAck set interval_ 0.1
set src [$ns node]; set r [$ns node]; set bs [$ns node]; set mobile [$ns node]
$ns duplex-link $src $r 100Mb 95ms DropTail
$ns queue-limit $src $r 10000
$ns queue-limit $r $src 10000
$ns duplex-link $r $bs 10Mb 10ms DropTail
$ns queue-limit $r $bs 125
$ns queue-limit $bs $r 125
$ns duplex-link $bs $mobile 2Mb 20ms DropTail
$ns queue-limit $bs $mobile 42
$ns queue-limit $mobile $bs 42

# One channel: the error model (its own uniform draws) and the state process (its own RNG).
proc channel {a b} {
    global ns rng bad_s
    set lossrng [new RNG]; $lossrng seed [expr {int([$rng uniform 1 2147483646])}]
    set staterng [new RNG]; $staterng seed [expr {int([$rng uniform 1 2147483646])}]
    set rv [new RandomVariable/Uniform]
    $rv use-rng $lossrng
    set em [new ErrorModel]
    $em unit pkt
    $em set rate_ 0.0
    $em ranvar $rv
    $em drop-target [new Agent/Null]
    $ns link-lossmodel $em $a $b
    $ns at 1.0 [list channel_next $em $staterng]
}
# A sojourn ended: the next is Bad with probability 0.5.
proc channel_next {em staterng} {
    global ns bad_s
    if {[$staterng uniform 0.0 1.0] < 0.5} {
        $em set rate_ 0.1
        set len $bad_s
    } else {
        $em set rate_ 0.0
        set len 1.0
    }
    $ns at [expr {[$ns now] + $len}] [list channel_next $em $staterng]
}
# ns-2's MultiState (the alternative reading): one per direction.
proc per_state {rate} {
    global rng
    set lossrng [new RNG]; $lossrng seed [expr {int([$rng uniform 1 2147483646])}]
    set rv [new RandomVariable/Uniform]
    $rv use-rng $lossrng
    set em [new ErrorModel]
    $em unit pkt
    $em set rate_ $rate
    $em ranvar $rv
    $em drop-target [new Agent/Null]
    return $em
}
proc multistate {a b} {
    global ns bad_s
    set g [per_state 0.0]
    set bad [per_state 0.1]
    set em [new ErrorModel/MultiState [list $g $bad] [list 1.0 $bad_s] {{0.5 0.5} {0.5 0.5}} pkt time 2 $g]
    $em drop-target [new Agent/Null]
    $ns link-lossmodel $em $a $b
}
if {$mode == "time"} {
    channel $bs $mobile
    channel $mobile $bs
} else {
    global defaultRNG
    $defaultRNG seed [expr {int([$rng uniform 1 2147483646])}]
    multistate $bs $mobile
    multistate $mobile $bs
}

switch -- $agent {
    newreno { set tcp [new Agent/TCP/Newreno] }
    wplus { set tcp [new Agent/TCP/WestwoodPlusNR] }
    default { error "unknown agent $agent" }
}
set sink [new Agent/TCPSink/DelAck]
$ns attach-agent $src $tcp
$ns attach-agent $mobile $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at [$rng uniform 0.0 1.0] "$ftp start"

proc finish {} {
    global tcp point duration
    set good [expr {([$tcp set ndatapack_] - [$tcp set nrexmitpack_]) * 1500 * 8.0 / $duration / 1e6}]
    result $point goodput $good
    result $point timeouts [$tcp set nrexmit_]
    result $point retransmitted [$tcp set nrexmitpack_]
    exit 0
}
$ns at $duration "finish"
$ns run
