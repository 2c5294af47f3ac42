# fig8_loss for the two-state channels of casetti fig15-fig17 (see casetti.fig15.tcl for MODE).
proc fig8_loss {seed stream} {
    global cfg
    if {$cfg(bad_mean) <= 0} {
        return [fig8_bernoulli 1e-5 $seed $stream]
    }
    switch -- $cfg(mode) {
        main { return [fig8_markov $cfg(good_mean) $cfg(bad_mean) 1e-5 $cfg(bad_loss) $seed $stream] }
        multistate { return [fig8_multistate time $cfg(good_mean) $cfg(bad_mean) 1e-5 $cfg(bad_loss) $seed $stream] }
        pkt { return [fig8_multistate pkt $cfg(good_mean) $cfg(bad_mean) 1e-5 $cfg(bad_loss) $seed $stream] }
        expo { return [fig8_expo_time $cfg(good_mean) $cfg(bad_mean) $seed $stream] }
        default { error "unknown mode $cfg(mode)" }
    }
}
