# casetti fig9 (Sec. 5.1) in ns-2.35 + TCP Westwood agents: Fig. 8 topology, independent
# (Bernoulli) packet errors with probability X on both directions of the wireless link.
#   ns casetti.fig9.tcl VARIANT SEED X [DURATION WARMUP]
# VARIANT westwood | westwoodnr | reno | newreno | sack. Prints throughput_mbps.
source [file join [file dirname [info script]] westwood fig8.tcl]
fig8_args 600 20 main
proc fig8_loss {seed stream} {
    global cfg
    if {$cfg(x) <= 0} { return "" }
    return [fig8_bernoulli $cfg(x) $seed $stream]
}
fig8_run
