# One Agent/TCP/Westwood flow on casetti's Fig. 8 path, started at 0.1 s, losing exactly the
# first transmissions listed in DROPS (ErrorModel/SeqList on the base station -> mobile
# direction; nothing else is lost). Run with the tracing ns of build.sh, whose agent prints
# its MYDEBUG lines on every ACK; compare.py reads them.
#   ns-trace agent_trace.tcl RTT DROPS DURATION        # RTT: the round-trip propagation, s
source [file join [file dirname [info script]] .. fig8.tcl]
lassign $argv rtt drops duration
fig8_defaults
set ns [new Simulator]
set src [$ns node]; set bs [$ns node]; set mob [$ns node]
set wired [expr {$rtt / 2.0 - 0.00001}]
set qw [expr {max(5, int(round(10e6 * $rtt / 3200.0)))}]
set ql [expr {max(5, int(round(2e6 * $rtt / 3200.0)))}]
$ns duplex-link $src $bs 10Mb ${wired}s DropTail
$ns duplex-link $bs $mob 2000000 0.01ms DropTail
$ns queue-limit $src $bs $qw
$ns queue-limit $bs $src $qw
$ns queue-limit $bs $mob $ql
$ns queue-limit $mob $bs $ql
set em [new ErrorModel/SeqList]
set f [open $drops]
foreach s [string trim [read $f]] { $em add $s }
close $f
$em drop-target [new Agent/Null]
$ns link-lossmodel $em $bs $mob
lassign [fig8_agent westwood] tcp sink
$ns attach-agent $src $tcp
$ns attach-agent $mob $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
$ns at $duration "exit 0"
$ns run
