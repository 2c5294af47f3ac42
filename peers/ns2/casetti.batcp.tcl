# casetti batcp in ns-2.35 + TCP Westwood agents: the Fig. 8 topology with the wired one-way delay
# set for an RTT of 0.040 s, independent bit errors, one per 100 KiB (102400 bytes), on both directions
# of the wireless link (ns-2 ErrorModel unit byte: a packet of n bytes is lost with
# 1 - (1 - BER)^(8n)).
#   ns casetti.batcp.tcl VARIANT SEED 0 [DURATION WARMUP]
source [file join [file dirname [info script]] westwood fig8.tcl]
fig8_args 600 20 main
set cfg(wired_delay) [expr {0.040 / 2.0 - 0.00001}]
proc fig8_loss {seed stream} { return [fig8_bit_errors 102400 $seed $stream] }
fig8_run
