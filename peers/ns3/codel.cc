// ns-3.44 twin of tcpsim's scenarios/codel.toml and validation.codel (docs/ns3-comparison/codel.md).
//
//   senders --100 Mb/s, 2 ms-- r1 --10 Mb/s, 20 ms-- r2 --100 Mb/s, 2 ms-- receivers
//
// Four NewReno BulkSendApplication flows from one sender node to one receiver node, starts
// uniform in [0, 2) s (RNG run k). The bottleneck's buffer is a traffic-control queue disc on
// both bottleneck devices: ns3::CoDelQueueDisc with MaxSize 1000p, Target 5 ms, Interval 100 ms
// (its defaults, RFC 8289) and MinBytes 1514 (tcpsim's `mtu`, Linux's default; ns-3's default
// is 1500), no ECN (queue=codel), or ns3::FifoQueueDisc of 1000p (queue=drop_tail). The
// bottleneck devices' own queues hold 1 packet, so the backlog waits in the queue disc; other
// devices have 10000-packet device queues and no queue disc. TCP is set to tcpsim's defaults
// with the scenario's 1000-byte segments: no SACK, no timestamps (40 header bytes, 1040-byte
// packets), initial window 2, delayed ACKs every 2 segments or 200 ms, minimum RTO 1 s, limited
// transmit, classic (NewReno) recovery, 64 MiB socket buffers (tcpsim: a 1 GiB receive window;
// neither limits here). SACK on: --set=ns3::TcpSocketBase::Sack=true.
//
// Usage: codel <queue> <k> [--duration=S] [--warmup=S] [--set=ns3::Type::Attribute=value ...] [--trace-cuts]
// prints the RESULT lines of lib/aqm_dumbbell.h (drops_early: CoDel's target exceeded,
// drops_forced: its overlimit) over [warmup, duration].

#include "ns3/core-module.h"
#include "ns3/traffic-control-module.h"

#include "lib/aqm_args.h"
#include "lib/aqm_dumbbell.h"
#include "lib/default_overrides.h"
#include "lib/tcpsim_tcp.h"

#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    bool traceCuts = false; // --trace-cuts: TRACE lines of lib/cut_trace.h, after the warm-up
    twin::AqmArgs args = twin::ParseAqmArgs(
        argc, argv, 60, 10, // default duration and warm-up, s
        "usage: codel <codel|drop_tail> <run> [--duration=S] [--warmup=S] [--set=...]",
        [&](const std::string& a) { traceCuts = traceCuts || a == "--trace-cuts"; });
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(args.run);

    twin::TcpsimTcp(1000);
    Config::SetDefault("ns3::CoDelQueueDisc::Target", TimeValue(MilliSeconds(5)));
    Config::SetDefault("ns3::CoDelQueueDisc::Interval", TimeValue(MilliSeconds(100)));
    Config::SetDefault("ns3::CoDelQueueDisc::MinBytes", UintegerValue(1514));
    Config::SetDefault("ns3::CoDelQueueDisc::UseEcn", BooleanValue(false));
    twin::ApplySets(args.sets); // sensitivity runs: --set=ns3::TcpSocketBase::Sack=true

    return twin::RunAqmDumbbell({.aqm = "codel",
                                 .discType = "ns3::CoDelQueueDisc",
                                 .earlyDrop = CoDelQueueDisc::TARGET_EXCEEDED_DROP,
                                 .forcedDrop = CoDelQueueDisc::OVERLIMIT_DROP,
                                 .segment = 1000,
                                 .flows = 4,
                                 .startSpread = 2,
                                 .edgeDelay = "2ms",
                                 .neckDelay = "20ms"},
                                args,
                                traceCuts);
}
