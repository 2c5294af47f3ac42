// The single-AQM dumbbell of the codel and pie twins, built, run and measured:
//
//   senders --100 Mb/s-- r1 --10 Mb/s-- r2 --100 Mb/s-- receivers      (delays: AqmDumbbell)
//
// `flows` NewReno BulkSendApplication flows from one sender node to one receiver node, starts
// uniform in [0, startSpread) s. The bottleneck's buffer is a traffic-control queue disc of
// 1000 packets on both bottleneck devices: the twin's AQM (queue = aqm) or a FIFO
// (queue = drop_tail); the bottleneck devices' own queues hold 1 packet, so the backlog waits in
// the queue disc; other devices have 10000-packet device queues and no queue disc. Prints
// RESULT <queue> <metric> <value> lines, measured over [warmup, duration]:
//   queue_delay_ms       time-averaged queue-disc bytes x 8 / 10 Mb/s (tcpsim's measure)
//   queue_delay_dev_ms   the same with the bottleneck device's 1-packet queue added
//   sojourn_ms           mean sojourn time of the packets the queue disc released
//   drops_early, drops_forced, drops_total   queue-disc drops (the AQM's two reasons)
//   utilization          IP bytes sent by r1's bottleneck device / (10 Mb/s x window)
//   goodput_mbps         payload received by the sinks over the window
//   fast_recoveries, timeouts   the senders' entries into fast recovery and into the loss state
// and, with traceCuts, the TRACE cut lines of lib/cut_trace.h after the warm-up.
#pragma once

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "lib/aqm_args.h"
#include "lib/bottleneck_path.h"
#include "lib/cut_trace.h"
#include "lib/time_integral.h"

#include <cstdio>
#include <string>
#include <vector>

namespace twin
{

/// What one AQM twin sets; the TCP and attribute defaults are set before RunAqmDumbbell.
struct AqmDumbbell
{
    const char* aqm;        ///< the <queue> that selects the AQM; any other: FifoQueueDisc
    const char* discType;   ///< the AQM's queue disc, e.g. "ns3::CoDelQueueDisc"
    const char* earlyDrop;  ///< its drop reason counted as drops_early
    const char* forcedDrop; ///< its drop reason counted as drops_forced
    uint32_t segment;       ///< bytes an application write (the TCP segment size)
    uint16_t flows;
    double startSpread;     ///< s
    const char* edgeDelay;  ///< each access link's
    const char* neckDelay;  ///< the bottleneck's
};

namespace aqm
{
inline const double kLinkBps = 10e6;
inline double g_warmup = 0;
inline TimeIntegral g_disc;
inline TimeIntegral g_device;
inline double g_sojournSum = 0;
inline uint64_t g_sojournCount = 0;
inline uint64_t g_txBytes = 0;
inline uint64_t g_recoveries = 0;
inline uint64_t g_timeouts = 0;
} // namespace aqm

/// Builds the dumbbell, runs it to args.duration and prints the RESULT lines; returns 0.
inline int
RunAqmDumbbell(const AqmDumbbell& d, const AqmArgs& args, bool traceCuts)
{
    using namespace ns3;
    using namespace aqm;
    g_warmup = args.warmup;
    g_disc.warmup = args.warmup;
    g_device.warmup = args.warmup;
    const std::string& queue = args.queue;
    const bool isAqm = queue == d.aqm;

    PointToPointHelper edge = P2pLink("100Mbps", d.edgeDelay, "10000p");
    PointToPointHelper neck = P2pLink("10Mbps", d.neckDelay, "1p");
    BottleneckPath path = MakeBottleneckPath(edge, neck);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc(isAqm ? d.discType : "ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
    QueueDiscContainer discs = tch.Install(path.bottleneck);
    Ipv4Address receiver = AddressBottleneckPath(path);
    TrafficControlHelper none;
    none.Uninstall(path.access);
    none.Uninstall(path.egress);

    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    std::vector<Ptr<PacketSink>> sinks;
    for (uint16_t f = 0; f < d.flows; ++f)
    {
        Time start = Seconds(jitter->GetValue(0, d.startSpread));
        sinks.push_back(BulkFlow(path.nodes.Get(0), path.nodes.Get(3), receiver, 5000 + f, d.segment, start));
    }

    Ptr<QueueDisc> disc = discs.Get(0); // r1 -> r2
    NS_ABORT_UNLESS(disc->TraceConnectWithoutContext(
        "BytesInQueue", MakeCallback(+[](uint32_t, uint32_t v) { g_disc.Set(v); })));
    NS_ABORT_UNLESS(disc->TraceConnectWithoutContext("SojournTime", MakeCallback(+[](Time t) {
        if (Simulator::Now().GetSeconds() >= g_warmup)
        {
            g_sojournSum += t.GetSeconds();
            ++g_sojournCount;
        }
    })));
    Ptr<PointToPointNetDevice> dev = path.bottleneck.Get(0)->GetObject<PointToPointNetDevice>();
    NS_ABORT_UNLESS(dev->GetQueue()->TraceConnectWithoutContext(
        "BytesInQueue", MakeCallback(+[](uint32_t, uint32_t v) { g_device.Set(v); })));
    NS_ABORT_UNLESS(dev->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(+[](Ptr<const Packet> p) {
        if (Simulator::Now().GetSeconds() >= g_warmup)
        {
            g_txBytes += p->GetSize() - 2; // without the 2-byte PPP header: IP bytes, as tcpsim's wire size
        }
    })));

    static uint64_t rxAtWarmup = 0;
    static QueueDisc::Stats atWarmup;
    Simulator::Schedule(Seconds(g_warmup), [&sinks, disc, traceCuts] {
        for (auto& s : sinks)
        {
            rxAtWarmup += s->GetTotalRx();
        }
        atWarmup = disc->GetStats();
        g_disc.Set(g_disc.value);
        g_device.Set(g_device.value);
        // Loss-recovery episodes in the window: entries into fast recovery and into the loss
        // (retransmission timeout) state.
        Config::ConnectWithoutContext(
            "/NodeList/0/$ns3::TcpL4Protocol/SocketList/*/CongState",
            MakeCallback(+[](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
                g_recoveries += now == TcpSocketState::CA_RECOVERY;
                g_timeouts += now == TcpSocketState::CA_LOSS;
            }));
        if (traceCuts)
        {
            TraceCuts();
        }
    });
    Simulator::Stop(Seconds(args.duration));
    Simulator::Run();
    g_disc.Set(g_disc.value);
    g_device.Set(g_device.value);

    double window = args.duration - g_warmup;
    uint64_t rx = 0;
    for (auto& s : sinks)
    {
        rx += s->GetTotalRx();
    }
    QueueDisc::Stats end = disc->GetStats();
    auto dropped = [](const QueueDisc::Stats& s, const char* reason) {
        return s.GetNDroppedPackets(reason);
    };
    const char* early = isAqm ? d.earlyDrop : "none";
    const char* forced = isAqm ? d.forcedDrop : FifoQueueDisc::LIMIT_EXCEEDED_DROP;
    auto report = [&](const char* metric, double value) {
        std::printf("RESULT %s %s %.6g\n", queue.c_str(), metric, value);
    };
    report("queue_delay_ms", g_disc.area / window * 8 / kLinkBps * 1e3);
    report("queue_delay_dev_ms", (g_disc.area + g_device.area) / window * 8 / kLinkBps * 1e3);
    report("sojourn_ms", g_sojournCount ? g_sojournSum / g_sojournCount * 1e3 : 0);
    report("drops_early", dropped(end, early) - dropped(atWarmup, early));
    report("drops_forced", dropped(end, forced) - dropped(atWarmup, forced));
    report("drops_total", end.nTotalDroppedPackets - atWarmup.nTotalDroppedPackets);
    report("utilization", g_txBytes * 8.0 / (kLinkBps * window));
    report("goodput_mbps", (rx - rxAtWarmup) * 8.0 / window / 1e6);
    report("fast_recoveries", g_recoveries);
    report("timeouts", g_timeouts);
    Simulator::Destroy();
    return 0;
}

} // namespace twin
