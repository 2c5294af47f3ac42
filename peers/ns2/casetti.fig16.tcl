# casetti fig16 (Sec. 5.2.1, fading) in ns-2.35 + TCP Westwood agents: fig15's channel with
# Bad 5 % errors, wireless link capacity X bit/s.
#   ns casetti.fig16.tcl VARIANT SEED X [DURATION WARMUP [MODE]]   (MODE as casetti.fig15.tcl)
source [file join [file dirname [info script]] westwood fig8.tcl]
fig8_args 2000 20 main
set cfg(wireless_rate) $cfg(x)
set cfg(good_mean) 8.0
set cfg(bad_mean) 4.0
set cfg(bad_loss) 0.05
source [file join [file dirname [info script]] westwood markov_loss.tcl]
fig8_run
