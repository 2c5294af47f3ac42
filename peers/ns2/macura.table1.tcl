# ns-2 twin of macura.table1 (python/tcpsim/repro/macura/table1.py): one
# persistent connection (NewReno or Vegas; Westwood+ is not a stock ns-2
# agent) over a 2 Mb/s, 120 ms drop-tail bottleneck of 42 packets each way
# (RTT 250 ms), starting uniform in [0, 1] s; ten NewReno senders with the
# same 250 ms RTT on its ACK path, ON in [250, 500] s and [750, 1000] s (FTP
# started and stopped, one connection each); 1000 s. Goodput per 250 s
# interval: packets acknowledged in the interval x 1500 bytes (tcpsim's
# measure: delivered payload counted in whole 1500-byte packets).
# Point <variant>.
source [file join [file dirname [info script]] lib macura.tcl]
set POINTS {newreno vegas}
if {[lindex $argv 0] == "list"} { puts $POINTS; exit 0 }
set variant [lindex $argv 0]
set rng [twin_rng [lindex $argv 1]]
set D 0.120
mc_setup 2e6 $D 42
lassign [mc_flow $variant f 0.250 $D] tcp ftp
$ns at [$rng uniform 0.0 1.0] "$ftp start"
for {set i 0} {$i < 10} {incr i} {
    lassign [mc_flow newreno r 0.250 $D] rt rf
    foreach {a b} {250 500 750 1000} {
        $ns at $a "$rf start"
        $ns at $b "$rf stop"
    }
}
set LABEL(newreno) NewReno
set LABEL(vegas) Vegas
proc mark {k} {
    global tcp variant LABEL M MC
    set M($k) [mc_acked $tcp]
    if {$k > 0} {
        set a [expr {($k - 1) * 250}]
        set b [expr {$k * 250}]
        set g [expr {($M($k) - $M([expr {$k - 1}])) * $MC(wire) * 8.0 / 250.0 / 1e6}]
        result $variant "interval_$a-$b" $g
    }
    if {$k == 4} { exit 0 }
}
foreach k {0 1 2 3 4} { $ns at [expr {$k * 250.0}] "mark $k" }
$ns run
