# Self-check of Queue/RD (run with the RD build):
#   NS2_ROOT=/tmp/ns2rd peers/ns2/run.sh rd/check.tcl
# `nr` R sources and `nd` D sources, each a CBR/UDP flow offering the whole
# 1 Mb/s link (R packets 1000 bytes, D packets 200 bytes, so the split is by
# bytes, not packets), for 20 s, recalculation every 1 s (with L_R and L_D
# restarting each interval, Fig. 2 ends an interval up to one R packet ahead:
# 1000 of 125000 bytes here). With both queues always backlogged, Fig. 2 must
# give R the byte share k n_R / (n_D + k n_R) (eqs. 5-7) once the counts are
# in (the first 2 s are excluded), and the counts must be n_R and n_D.
# Prints one line per case (each case runs in its own ns process) and exits
# 1 if a share is off by more than 0.01 or a count by more than 0.1.
if {$argc == 0} {
    set failed 0
    foreach case {1:1:1 2:1:1 1:3:1 3:1:2} {
        if {[catch {exec [info nameofexecutable] [info script] $case} out]} { set failed 1 }
        puts $out
    }
    exit $failed
}
lassign [split [lindex $argv 0] :] nr nd k
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 1e6 0.005 RD
$ns queue-limit $a $b 100
set q [[$ns link $a $b] queue]
$q set k_ $k
$q set interval_ 1.0
$q mark-d 2
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $a $b] $fmon
set sink [new Agent/Null]
$ns attach-agent $b $sink
foreach {fid n size} [list 1 $nr 1000 2 $nd 200] {
    for {set i 0} {$i < $n} {incr i} {
        set udp [new Agent/UDP]
        $udp set fid_ $fid
        $ns attach-agent $a $udp
        $ns connect $udp $sink
        set cbr [new Application/Traffic/CBR]
        $cbr set packetSize_ $size
        $cbr set rate_ 1e6
        $cbr attach-agent $udp
        $ns at [expr {0.001 * ($fid * 10 + $i)}] "$cbr start"
    }
}
proc bytes {fmon fid} {
    set f [[$fmon classifier] lookup auto 0 0 $fid]
    return [expr {$f == "" ? 0 : [$f set bdepartures_]}]
}
$ns at 2.0 "set r0 \[bytes $fmon 1\]; set d0 \[bytes $fmon 2\]"
$ns at 20.0 "set r1 \[bytes $fmon 1\]; set d1 \[bytes $fmon 2\]; \$ns halt"
$ns run
set share [expr {double($r1 - $r0) / ($r1 - $r0 + $d1 - $d0)}]
set want [expr {double($k * $nr) / ($nd + $k * $nr)}]
set n_r [$q set n_r_]
set n_d [$q set n_d_]
set bad [expr {abs($share - $want) > 0.01 || abs($n_r - $nr) > 0.1 || abs($n_d - $nd) > 0.1}]
puts [format "n_R %d n_D %d k %g: R's byte share %.4f (want %.4f), counts %.2f %.2f%s" \
    $nr $nd $k $share $want $n_r $n_d [expr {$bad ? "  FAIL" : ""}]]
exit $bad
