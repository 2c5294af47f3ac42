# ns-2 twin of validation.fairness (python/tcpsim/repro/validation.py) for two flows:
# NewReno flows (Agent/TCP/Newreno, packetSize_ 1460 + 40 bytes of header, window_ 100000,
# singledup_ 1) with DelAck sinks on a dumbbell: 10 Mb/s, 10 ms bottleneck, 100 Mb/s, 20 ms
# access links (RTT 100 ms), starts uniform in [0, JITTER] s, 300 s, goodput over [30, 300] s.
# Not run by run.py: the diagnostic that found why tcpsim's equal-RTT flows locked (Jain 0.79)
# where ns-2's never do: ns-2 halves cwnd with its fraction (slowdown), tcpsim halved FlightSize;
# tcpsim's default is now ns-2's ([tcp] ssthresh_from = "cwnd").
#   ns validation.fairness.tcl N REP LIMIT SINGLEDUP DELACK_INTERVAL JITTER
# LIMIT is ns-2's queue-limit: it holds LIMIT - 1 packets waiting (see README), so tcpsim's
# 1-BDP buffer of 83 waiting packets is LIMIT 84.
source [file join [file dirname [info script]] lib common.tcl]
lassign $argv n rep limit singledup interval jitter
set ns [new Simulator]
set rng [twin_rng $rep]
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb 10ms DropTail
$ns queue-limit $r1 $r2 $limit
$ns queue-limit $r2 $r1 $limit
for {set i 0} {$i < $n} {incr i} {
    set s($i) [$ns node]; set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb 20ms DropTail
    $ns duplex-link $r2 $d($i) 100Mb 20ms DropTail
    foreach {a b} [list $s($i) $r1 $r1 $s($i) $r2 $d($i) $d($i) $r2] { $ns queue-limit $a $b 10000 }
    set tcp($i) [new Agent/TCP/Newreno]
    $tcp($i) set packetSize_ 1460
    $tcp($i) set window_ 100000
    $tcp($i) set singledup_ $singledup
    $tcp($i) set fid_ $i
    set sink($i) [new Agent/TCPSink/DelAck]
    $sink($i) set interval_ $interval
    $ns attach-agent $s($i) $tcp($i); $ns attach-agent $d($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]; $ftp($i) attach-agent $tcp($i)
    $ns at [$rng uniform 0 $jitter] "$ftp($i) start"
}
proc snapshot {} { global n sink b0; for {set i 0} {$i < $n} {incr i} { set b0($i) [$sink($i) set bytes_] } }
proc finish {} {
    global n sink b0
    set sum 0.0; set sq 0.0
    for {set i 0} {$i < $n} {incr i} {
        set x [expr {([$sink($i) set bytes_] - $b0($i)) * 8.0 / 270.0}]
        set sum [expr {$sum + $x}]; set sq [expr {$sq + $x * $x}]
        result n$n goodput_bps_$i $x
    }
    result n$n jain [expr {$sum * $sum / ($n * $sq)}]
    exit 0
}
$ns at 30 snapshot
$ns at 300 finish
$ns run
