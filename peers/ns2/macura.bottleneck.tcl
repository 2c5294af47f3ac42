# ns-2 twin of macura.bottleneck (python/tcpsim/repro/macura/bottleneck.py)
# at tcpsim's quick scale: M persistent flows (M = 10, 50) of NewReno or
# Vegas (Westwood+ is not a stock ns-2 agent) over a 10 Mb/s, 5 ms drop-tail
# bottleneck of 125 packets each way, RTTs 20 + 230*i/M ms (i = 1..M), with
# ("with") or without ("without") ten NewReno reverse senders (RTTs spread
# in [46, 250] ms); every flow starts uniform in [0, 1] s; 150 s. Total
# goodput = sum over the M flows of eq. (1) (sent - retransmitted) x 1500
# bytes / 150 s; Jain's index of the M goodputs.
# Point <variant>:<M>:<with|without>.
source [file join [file dirname [info script]] lib macura.tcl]
set POINTS {}
foreach v {newreno vegas} { foreach m {10 50} { foreach r {with without} { lappend POINTS $v:$m:$r } } }
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set point [lindex $argv 0]
lassign [split $point :] variant M rev
set rng [twin_rng [lindex $argv 1]]
set D 0.005
set T 150.0
mc_setup 10e6 $D 125
set FWD {}
for {set i 1} {$i <= $M} {incr i} {
    lassign [mc_flow $variant f [expr {0.020 + 0.230 * $i / $M}] $D] tcp ftp
    $ns at [$rng uniform 0.0 1.0] "$ftp start"
    lappend FWD $tcp
}
if {$rev == "with"} {
    for {set i 0} {$i < 10} {incr i} {
        lassign [mc_flow newreno r [expr {0.046 + (0.250 - 0.046) * $i / 9.0}] $D] rt rf
        $ns at [$rng uniform 0.0 1.0] "$rf start"
    }
}
proc finish {} {
    global FWD point T MC
    set s 0.0; set s2 0.0
    foreach tcp $FWD {
        set g [expr {[mc_good_pkts $tcp] * $MC(wire) * 8.0 / $T / 1e6}]
        set s [expr {$s + $g}]; set s2 [expr {$s2 + $g * $g}]
    }
    result $point total_goodput $s
    result $point jain [expr {$s * $s / ([llength $FWD] * $s2)}]
    exit 0
}
$ns at $T "finish"
$ns run
