# casetti fig10 (Sec. 5.1) in ns-2.35 + TCP Westwood agents: Fig. 8 topology, 0.5 % Bernoulli
# errors both ways on the wireless link, wired one-way delay X seconds; base-station buffer =
# BDP but at least 50 packets (tcpsim's main reading; MODE floor5: at least 5), no receiver
# window (window_ 1e6; MODE win20: ns-2's default window_ 20).
#   ns casetti.fig10.tcl VARIANT SEED X [DURATION WARMUP [MODE]]
source [file join [file dirname [info script]] westwood fig8.tcl]
fig8_args 600 20 main
set cfg(wired_delay) $cfg(x)
set cfg(min_buffer) [expr {$cfg(mode) == "floor5" ? 5 : 50}]
if {$cfg(mode) == "win20"} { rename fig8_defaults fig8_defaults0; proc fig8_defaults {} { fig8_defaults0; Agent/TCP set window_ 20 } }
proc fig8_loss {seed stream} { return [fig8_bernoulli 0.005 $seed $stream] }
fig8_run
