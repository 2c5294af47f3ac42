// ns-3.44 twin of tcpsim's scenarios/pie.toml and validation.pie (docs/ns3-comparison/pie.md).
//
//   senders --100 Mb/s, 1 ms-- r1 --10 Mb/s, 48 ms-- r2 --100 Mb/s, 1 ms-- receivers
//
// Five NewReno BulkSendApplication flows from one sender node to one receiver node, starts
// uniform in [0, 1) s (RNG run k). The bottleneck's buffer is a traffic-control queue disc on
// both bottleneck devices: ns3::PieQueueDisc with its ns-3.44 defaults and MaxSize 1000p
// (queue=pie), or ns3::FifoQueueDisc of 1000p (queue=drop_tail). The bottleneck devices' own
// queues hold 1 packet, so the backlog waits in the queue disc; other devices have 10000-packet
// device queues and no queue disc. TCP is set to tcpsim's defaults: 1460-byte segments, no SACK,
// no timestamps (40 header bytes), initial window 2, delayed ACKs every 2 segments or 200 ms,
// minimum RTO 1 s, limited transmit, classic (NewReno) recovery, 64 MiB socket buffers (tcpsim:
// a 1 GiB receive window; neither limits here). SACK on: --set=ns3::TcpSocketBase::Sack=true.
//
// Usage: pie <queue> <k> [--duration=S] [--warmup=S] [--estimator=timestamp|dequeue_rate]
//            [--set=ns3::Type::Attribute=value ...]   (any default, after the ones below)
//            [--trace-cuts]   (also TRACE cut lines, lib/cut_trace.h)
// prints the RESULT lines of lib/aqm_dumbbell.h (drops_early: PIE's unforced, drops_forced: its
// forced) over [warmup, duration].

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
    std::string estimator = "timestamp";
    bool traceCuts = false;
    twin::AqmArgs args = twin::ParseAqmArgs(
        argc, argv, 100, 20, // default duration and warm-up, s
        "usage: pie <pie|drop_tail> <run> [--duration=S] [--warmup=S] [--estimator=...]",
        [&](const std::string& a) {
            if (a.rfind("--estimator=", 0) == 0)
            {
                estimator = a.substr(12);
            }
            traceCuts = traceCuts || a == "--trace-cuts";
        });
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(args.run);

    twin::TcpsimTcp(1460);
    Config::SetDefault("ns3::PieQueueDisc::UseDequeueRateEstimator", BooleanValue(estimator == "dequeue_rate"));
    twin::ApplySets(args.sets);

    return twin::RunAqmDumbbell({.aqm = "pie",
                                 .discType = "ns3::PieQueueDisc",
                                 .earlyDrop = PieQueueDisc::UNFORCED_DROP,
                                 .forcedDrop = PieQueueDisc::FORCED_DROP,
                                 .segment = 1460,
                                 .flows = 5,
                                 .startSpread = 1,
                                 .edgeDelay = "1ms",
                                 .neckDelay = "48ms"},
                                args,
                                traceCuts);
}
