# Shared helpers of the ns-2 twins (sourced by peers/ns2/<experiment>.tcl).
#
# Replications: replication k (1-based) draws every random number of the run
# (RTTs, start times, web arrivals and sizes, channel states) from substream k
# of one RNG seeded with 20261127, so replications are independent streams of
# one generator (ns-2's RNG is MRG32k3a; `next-substream` skips 2^76 draws).
#
# Output protocol read by peers/ns2/run.py: one line per measured value,
#     RESULT <point> <metric> <value>
# (no spaces inside <point> or <metric>); anything else printed is ignored.

set NS2_SEED 20261127

proc twin_rng {rep} {
    global NS2_SEED
    set rng [new RNG]
    $rng seed $NS2_SEED
    for {set i 1} {$i < $rep} {incr i} { $rng next-substream }
    return $rng
}

proc result {point metric value} {
    puts "RESULT $point $metric $value"
}

# Pareto variate of mean `mean` and shape `shape` (inverse transform of one
# uniform draw): scale = mean*(shape-1)/shape, x = scale / U^(1/shape).
proc pareto {rng mean shape} {
    set u [$rng uniform 0.0 1.0]
    while {$u <= 0.0} { set u [$rng uniform 0.0 1.0] }
    set scale [expr {$mean * ($shape - 1.0) / $shape}]
    return [expr {$scale / pow($u, 1.0 / $shape)}]
}

# Class counters from a flow monitor whose classifier is by flow id: the
# monitor's flow object for `fid` (or "" before its first packet).
proc fmon_flow {fmon fid} {
    set fcl [$fmon classifier]
    return [$fcl lookup auto 0 0 $fid]
}

# {arrivals departures drops} of class `fid` at a monitored queue so far.
proc fmon_counts {fmon fid} {
    set f [fmon_flow $fmon $fid]
    if {$f == ""} { return {0 0 0} }
    return [list [$f set parrivals_] [$f set pdepartures_] [$f set pdrops_]]
}
