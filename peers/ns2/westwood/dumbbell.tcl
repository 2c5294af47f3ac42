# casetti's shared-bottleneck dumbbell (friendliness, fig7's ns-2 reading) for ns-2.35 + the
# TCP Westwood agents: N flows over a 2 Mb/s, 10 ms bottleneck, 100 Mb/s access links with
# 20 ms each side (every RTT 100 ms), DropTail bottleneck buffer = BDP (62 packets of 400
# bytes), starts uniform in [0, 5] s, Bernoulli loss `loss` on both directions of the
# bottleneck (after the link, as fig8.tcl). Agent settings: fig8.tcl (fig8_defaults).
# Prints the mean per-flow throughput of each variant between warm-up and end
# (Mb/s of 400-byte packets): "<variant>_mbps <x>".
source [file join [file dirname [info script]] fig8.tcl]

proc dumbbell_run {variants seed duration warmup loss} {
    global ns defaultRNG tcps var ack0 dur wup
    set dur $duration
    set wup $warmup
    fig8_defaults
    $defaultRNG seed [expr {$seed + 1}]
    set ns [new Simulator]
    set r1 [$ns node]
    set r2 [$ns node]
    $ns duplex-link $r1 $r2 2000000 10ms DropTail
    $ns queue-limit $r1 $r2 62
    $ns queue-limit $r2 $r1 62
    if {$loss > 0} {
        $ns link-lossmodel [fig8_bernoulli $loss $seed 10] $r1 $r2
        $ns link-lossmodel [fig8_bernoulli $loss $seed 20] $r2 $r1
    }
    set urng [fig8_uniform_rv [fig8_rng $seed 1]]
    set i 0
    foreach v $variants {
        set s [$ns node]
        set d [$ns node]
        $ns duplex-link $s $r1 100Mb 20ms DropTail
        $ns duplex-link $r2 $d 100Mb 20ms DropTail
        $ns queue-limit $s $r1 1000
        $ns queue-limit $r2 $d 1000
        lassign [fig8_agent $v] tcp sink
        $ns attach-agent $s $tcp
        $ns attach-agent $d $sink
        $ns connect $tcp $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp
        $ns at [expr {5.0 * [$urng value]}] "$ftp start"
        set tcps($i) $tcp
        set var($i) $v
        incr i
    }
    $ns at $warmup dumbbell_snap
    $ns at $duration dumbbell_finish
    $ns run
}

proc dumbbell_snap {} {
    global tcps ack0
    foreach i [array names tcps] { set ack0($i) [$tcps($i) set ack_] }
}

proc dumbbell_finish {} {
    global tcps var ack0 dur wup
    foreach i [array names tcps] {
        lappend per($var($i)) [expr {([$tcps($i) set ack_] - $ack0($i)) * 400.0 * 8.0 / ($dur - $wup) / 1e6}]
    }
    foreach v [lsort [array names per]] {
        set s 0.0
        foreach x $per($v) { set s [expr {$s + $x}] }
        puts "${v}_mbps [expr {$s / [llength $per($v)]}]"
    }
    exit 0
}
