# casetti Fig. 8 topology for ns-2.35 + the TCP Westwood agents (peers/ns2/westwood/build.sh):
#   source --10 Mb/s, wired delay-- base station --2 Mb/s, 0.01 ms, lossy both ways-- mobile
# one bulk FTP flow source -> mobile. Sourced by peers/ns2/casetti.<fig>.tcl, which set the
# array `cfg` and call fig8_run. Prints "throughput_mbps <x>" (delivered 400-byte packets
# between warm-up and end, as ns-2 counts them: highest cumulative ACK x 400 B).
#
# Set-up of tcpsim's casetti main readings (python/tcpsim/repro/casetti/common.py):
# 400-byte packets (packetSize_ 400 with useHeaders_ false: ns-2.35's TcpAgent::output adds
# 40 bytes of header to every data packet unless told not to, which made them 440 bytes on
# the wire until 2026-11; ACKs 40 B), delayed ACKs (one ACK
# per two segments, 200 ms timer), tcpTick_ 0.1 s and no minrto_ (ns-2's defaults of 2001),
# windowInit_ 1, no receiver window (window_ 1e6), DropTail buffers = bandwidth x round-trip
# propagation delay in packets (at least cfg(min_buffer)), start uniform in [0, 1] s.
# TCPW: filter_type_ 3 (Tustin with null samples every tau_/2), tau_ 0.5 s (casetti Sec. 4).
# Loss: error models after each wireless link direction's delay (`link-lossmodel`), so a lost
# packet has used the link, as tcpsim judges a packet when it finishes serialization.

proc fig8_agent {variant} {
    switch -- $variant {
        westwood   { set tcp [new Agent/TCP/Westwood];   set sink [new Agent/TCPSink/DelAck] }
        westwoodnr { set tcp [new Agent/TCP/WestwoodNR]; set sink [new Agent/TCPSink/DelAck] }
        reno       { set tcp [new Agent/TCP/Reno];       set sink [new Agent/TCPSink/DelAck] }
        newreno    { set tcp [new Agent/TCP/Newreno];    set sink [new Agent/TCPSink/DelAck] }
        sack       { set tcp [new Agent/TCP/Sack1];      set sink [new Agent/TCPSink/Sack1/DelAck] }
        default    { error "unknown variant $variant" }
    }
    if {[string match westwood* $variant]} {
        $tcp set filter_type_ 3
        $tcp set tau_ 0.5
    }
    return [list $tcp $sink]
}

proc fig8_defaults {} {
    Agent/TCP set packetSize_ 400
    # The whole packet, as ns-2 before 2001/11/28 (the paper's) and tcpsim (360 B + 40 B) have it.
    Agent/TCP set useHeaders_ false
    Agent/TCP set window_ 1000000
    Agent/TCP set windowInit_ 1
    Agent/TCP set tcpTick_ 0.1
    Agent/TCP set minrto_ 0
    Agent/TCPSink/DelAck set interval_ 0.2
    Agent/TCPSink/Sack1/DelAck set interval_ 0.2
}

# An RNG of its own for each random process, seeded from the run's seed and a stream number.
proc fig8_rng {seed stream} {
    set rng [new RNG]
    $rng seed [expr {($seed * 7919 + $stream * 104729) % 2147483646 + 1}]
    return $rng
}

proc fig8_uniform_rv {rng} {
    set rv [new RandomVariable/Uniform]
    $rv set min_ 0
    $rv set max_ 1
    $rv use-rng $rng
    return $rv
}

# Bernoulli packet errors with probability p (every packet, data or ACK).
proc fig8_bernoulli {p seed stream} {
    set em [new ErrorModel]
    $em unit pkt
    $em set rate_ $p
    $em ranvar [fig8_uniform_rv [fig8_rng $seed $stream]]
    $em drop-target [new Agent/Null]
    return $em
}

# Independent bit errors, one per `bytes_per_error` bytes: each byte is in error with
# 1 - (1 - ber)^8 (ns-2's unit byte: per-packet loss 1 - (1 - rate_)^size).
proc fig8_bit_errors {bytes_per_error seed stream} {
    set ber [expr {1.0 / (8.0 * $bytes_per_error)}]
    set em [new ErrorModel]
    $em unit byte
    $em set rate_ [expr {1.0 - pow(1.0 - $ber, 8)}]
    $em ranvar [fig8_uniform_rv [fig8_rng $seed $stream]]
    $em drop-target [new Agent/Null]
    return $em
}

# Two-state Markov channel of tcpsim's casetti fig15-fig17 main readings: Good/Bad sojourns
# exponential in simulated seconds (means good_mean, bad_mean), Bernoulli packet errors at the
# state's rate, initial state drawn from the stationary distribution (exponential sojourns are
# memoryless, so the first sojourn is a full exponential). ns-2.35 has no built-in model with
# per-state error rates and exponential sojourns in time, so the state process is driven by
# `$ns at` events that set the error model's rate_ (the model itself is ns-2's ErrorModel,
# unit pkt, judged per packet as it arrives after the link).
proc fig8_markov {good_mean bad_mean good_loss bad_loss seed stream} {
    global ns
    set em [fig8_bernoulli $good_loss $seed $stream]
    set rng [fig8_rng $seed [expr {$stream + 1}]]
    set rv [new RandomVariable/Exponential]
    $rv use-rng $rng
    set u [fig8_uniform_rv $rng]
    set bad [expr {[$u value] < $bad_mean / ($good_mean + $bad_mean)}]
    fig8_markov_enter $em $rv $bad $good_mean $bad_mean $good_loss $bad_loss
    return $em
}

proc fig8_markov_enter {em rv bad good_mean bad_mean good_loss bad_loss} {
    global ns
    if {$bad} {
        $em set rate_ $bad_loss
        $rv set avg_ $bad_mean
    } else {
        $em set rate_ $good_loss
        $rv set avg_ $good_mean
    }
    set t [expr {[$ns now] + [$rv value]}]
    $ns at $t [list fig8_markov_enter $em $rv [expr {!$bad}] $good_mean $bad_mean $good_loss $bad_loss]
}

# ns-2's own ErrorModel/MultiState, as ns-2.35 runs it: two states, each an ErrorModel with
# its rate; sttype "time": fixed periods good_period / bad_period, transition matrix
# {{0 1} {1 0}} (alternate), transitions made by the first packet after the period ends
# (errmodel.cc MultiStateErrorModel::corrupt, ns-errmodel.tcl time-transition).
# sttype "pkt": a transition draw per packet with the matrix {{1-1/g 1/g} {1/b 1-1/b}}
# (g, b: mean sojourns in packets).
proc fig8_multistate {sttype good bad good_loss bad_loss seed stream} {
    set g [fig8_bernoulli $good_loss $seed $stream]
    set b [fig8_bernoulli $bad_loss $seed [expr {$stream + 1}]]
    if {$sttype == "time"} {
        set m [list [list 0 1] [list 1 0]]
    } else {
        set m [list [list [expr {1.0 - 1.0/$good}] [expr {1.0/$good}]] [list [expr {1.0/$bad}] [expr {1.0 - 1.0/$bad}]]]
    }
    set em [new ErrorModel/MultiState [list $g $b] [list $good $bad] $m pkt $sttype 2 $g]
    $em drop-target [new Agent/Null]
    return $em
}

# ns-2.35's ErrorModel/Expo with unit time: exponential sojourns on a timer (simulated time),
# starting in Good at creation, Bad = every packet lost, Good = none.
proc fig8_expo_time {good_mean bad_mean seed stream} {
    set rng [fig8_rng $seed $stream]
    set rv0 [new RandomVariable/Exponential]
    set rv1 [new RandomVariable/Exponential]
    $rv0 set avg_ $good_mean
    $rv1 set avg_ $bad_mean
    $rv0 use-rng $rng
    $rv1 use-rng $rng
    set em [new ErrorModel/TwoState $rv0 $rv1 time]
    $em drop-target [new Agent/Null]
    return $em
}

proc fig8_run {} {
    global cfg
    fig8_defaults
    set seed $cfg(seed)
    global defaultRNG
    $defaultRNG seed [expr {$seed + 1}]
    global ns
    set ns [new Simulator]
    set src [$ns node]
    set bs [$ns node]
    set mob [$ns node]
    set rtt [expr {2.0 * ($cfg(wired_delay) + 0.00001)}]
    set qw [expr {max($cfg(min_buffer), int(round(10e6 * $rtt / 3200.0)))}]
    set ql [expr {max($cfg(min_buffer), int(round($cfg(wireless_rate) * $rtt / 3200.0)))}]
    $ns duplex-link $src $bs 10Mb [expr {$cfg(wired_delay)}]s DropTail
    $ns duplex-link $bs $mob $cfg(wireless_rate) 0.01ms DropTail
    $ns queue-limit $src $bs $qw
    $ns queue-limit $bs $src $qw
    $ns queue-limit $bs $mob $ql
    $ns queue-limit $mob $bs $ql
    # Error models, one per direction of the wireless link (casetti Sec. 5: both directions).
    set i 0
    foreach {a b} [list $bs $mob $mob $bs] {
        incr i
        set em [fig8_loss $seed [expr {10 * $i}]]
        if {$em != ""} { $ns link-lossmodel $em $a $b }
    }
    lassign [fig8_agent $cfg(variant)] tcp sink
    $ns attach-agent $src $tcp
    $ns attach-agent $mob $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set urng [fig8_uniform_rv [fig8_rng $seed 1]]
    set start [$urng value]
    $ns at $start "$ftp start"
    global ack0
    set ack0 0
    $ns at $cfg(warmup) "set ack0 \[$tcp set ack_\]"
    $ns at $cfg(duration) "fig8_finish $tcp"
    $ns run
}

proc fig8_finish {tcp} {
    global cfg ack0
    set pk [expr {[$tcp set ack_] - $ack0}]
    set mbps [expr {$pk * 400.0 * 8.0 / ($cfg(duration) - $cfg(warmup)) / 1e6}]
    puts "throughput_mbps $mbps"
    catch {puts "timeouts [$tcp set nrexmit_]"}
    exit 0
}

# argv: VARIANT SEED X [DURATION WARMUP [MODE]]; defaults of the Fig. 8 scenario.
proc fig8_args {duration warmup mode} {
    global argv cfg
    if {[llength $argv] < 3} {
        puts stderr "usage: ns SCRIPT VARIANT SEED X \[DURATION WARMUP \[MODE\]\]"
        exit 2
    }
    set cfg(variant) [lindex $argv 0]
    set cfg(seed) [lindex $argv 1]
    set cfg(x) [lindex $argv 2]
    set cfg(duration) [expr {[llength $argv] > 3 ? [lindex $argv 3] : $duration}]
    set cfg(warmup) [expr {[llength $argv] > 4 ? [lindex $argv 4] : $warmup}]
    set cfg(mode) [expr {[llength $argv] > 5 ? [lindex $argv 5] : $mode}]
    set cfg(wired_delay) 0.045
    set cfg(wireless_rate) 2000000
    set cfg(min_buffer) 5
}
