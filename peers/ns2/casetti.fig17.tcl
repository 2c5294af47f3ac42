# casetti fig17 (Sec. 5.2.2, blackouts) in ns-2.35 + TCP Westwood agents: Good mean 4 s with
# 0.001 % errors, Bad (blackout) mean X s with every packet lost, one channel per direction.
#   ns casetti.fig17.tcl VARIANT SEED X [DURATION WARMUP [MODE]]
# MODE main: exponential sojourns in seconds, stationary start (tcpsim's main reading);
#      expo: ns-2.35's own ErrorModel/TwoState (Expo) with unit time: timer-driven exponential
#            sojourns starting in Good, Good error-free.
source [file join [file dirname [info script]] westwood fig8.tcl]
fig8_args 2000 20 main
set cfg(good_mean) 4.0
set cfg(bad_mean) $cfg(x)
set cfg(bad_loss) 1.0
source [file join [file dirname [info script]] westwood markov_loss.tcl]
fig8_run
