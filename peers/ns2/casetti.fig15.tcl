# casetti fig15 (Sec. 5.2.1, fading) in ns-2.35 + TCP Westwood agents: Fig. 8 topology, one
# Good/Bad channel per direction of the wireless link, Good 0.001 % packet errors, Bad X.
#   ns casetti.fig15.tcl VARIANT SEED X [DURATION WARMUP [MODE]]
# MODE main: sojourns exponential in seconds, means 8 s / 4 s, stationary start (tcpsim's
#            main reading, driven by `$ns at` events: fig8_markov);
#      multistate: ns-2's ErrorModel/MultiState, sttype time, fixed 8 s / 4 s periods, alternating;
#      pkt: ns-2's ErrorModel/MultiState, sttype pkt, mean sojourns 8 / 4 packets
#           (tcpsim's alternative reading "sojourns in packets").
source [file join [file dirname [info script]] westwood fig8.tcl]
fig8_args 2000 20 main
set cfg(good_mean) 8.0
set cfg(bad_mean) 4.0
set cfg(bad_loss) $cfg(x)
source [file join [file dirname [info script]] westwood markov_loss.tcl]
fig8_run
