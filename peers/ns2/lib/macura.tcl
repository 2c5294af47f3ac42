# macura's dumbbell (python/tcpsim/repro/macura/common.py `macura_dumbbell`)
# in ns-2.35: r1 ==rate, delay, DropTail of `queue` packets each way== r2,
# every host on its own 100 Mb/s access link (10000-packet DropTail), each
# flow's RTT = 2*delay + 4 equal access halves; 1460-byte payload
# (packetSize_ 1460: 1500 bytes on the wire for NewReno with ns-2's 40-byte
# header; stock Vegas sends 1460-byte packets, no header);
# Agent/TCPSink/DelAck (interval_ 100 ms); window_ 10000 ("no receiver
# window"); the rest ns-2.35's defaults. Reverse senders are NewReno.
source [file join [file dirname [info script]] common.tcl]

set MC(payload) 1460
set MC(wire) 1500
set MC(access_bps) 100e6

proc mc_setup {rate delay queue} {
    global ns r1 r2 MC
    set ns [new Simulator]
    Agent/TCP set packetSize_ $MC(payload)
    Agent/TCP set window_ 10000
    set r1 [$ns node]
    set r2 [$ns node]
    $ns duplex-link $r1 $r2 $rate $delay DropTail
    $ns queue-limit $r1 $r2 $queue
    $ns queue-limit $r2 $r1 $queue
}

proc mc_tcp {variant} {
    if {$variant == "newreno"} { return [new Agent/TCP/Newreno] }
    set t [new Agent/TCP/Vegas]
    $t set v_alpha_ 1
    $t set v_beta_ 3
    $t set v_gamma_ 1
    return $t
}

# A flow `dir` f (r1 side to r2 side) or r, RTT `rtt`, bottleneck delay
# `delay`; returns {tcp ftp}; the caller schedules the FTP.
proc mc_flow {variant dir rtt delay} {
    global ns r1 r2 MC
    set a [expr {($rtt / 2.0 - $delay) / 2.0}]
    set src [$ns node]
    set dst [$ns node]
    set left [expr {$dir == "f" ? $src : $dst}]
    set right [expr {$dir == "f" ? $dst : $src}]
    foreach {h r} [list $left $r1 $right $r2] {
        $ns duplex-link $h $r $MC(access_bps) $a DropTail
        $ns queue-limit $h $r 10000
        $ns queue-limit $r $h 10000
    }
    set tcp [mc_tcp $variant]
    set sink [new Agent/TCPSink/DelAck]
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    return [list $tcp [$tcp attach-app FTP]]
}

# Packets acknowledged so far (in-order delivered data packets).
proc mc_acked {tcp} { return [expr {[$tcp set ack_] + 1}] }

# Eq. (1) goodput so far: (sent - retransmitted) data packets.
proc mc_good_pkts {tcp} { return [expr {[$tcp set ndatapack_] - [$tcp set nrexmitpack_]}] }
