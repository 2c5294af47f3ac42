// ns-3.44 twin of tcpsim's scenarios/fq_codel.toml and validation.fq_codel
// (docs/ns3-comparison/fq_codel.md).
//
//   bulk20 --4 ms--  \
//   bulk40 --14 ms-- |
//   bulk60 --24 ms-- +-- r1 --10 Mb/s, 5 ms-- r2 --100 Mb/s, 1 ms-- receivers
//   bulk80 --34 ms-- |
//   sparse --14 ms-- /        (access links 100 Mb/s)
//
// Four NewReno BulkSendApplication flows (RTT 20, 40, 60, 80 ms) and one sparse NewReno flow
// (RTT 40 ms) held to two 1000-byte segments in flight: tcpsim limits it by its receive window
// (2000 B), here its send buffer is set to 2000 B once its socket exists (1 ms after its start,
// before its handshake completes), which bounds the data in flight the same way. Starts uniform
// in [0, 2) s (RNG run k). The bottleneck's buffer is a traffic-control queue disc on both
// bottleneck devices: ns3::FqCoDelQueueDisc with MaxSize 10240p, Flows 1024, DropBatchSize 64,
// Target 5 ms, Interval 100 ms (its defaults, Linux's), Quantum 1514 (tcpsim's; ns-3's default
// is the device MTU, 1500), MinBytes 1514 and ECN on (no flow is ECN-capable) (queue=fq_codel);
// or ns3::CoDelQueueDisc with MaxSize 10240p, MinBytes 1514 (queue=codel). The bottleneck
// devices' own queues hold 1 packet; other devices have 10000-packet device queues and no queue
// disc. TCP as peers/ns3/codel.cc (tcpsim's defaults, 1000-byte segments, no SACK).
//
// Usage: fq_codel <fq_codel|codel> <k> [--duration=S] [--warmup=S] [--set=ns3::Type::Attribute=value ...]
// prints RESULT <queue> <metric> <value> lines, measured over [warmup, duration]:
//   goodput_<flow>_mbps   payload received by each flow's sink over the window
//   sparse_rtt_mean_ms, sparse_rtt_min_ms   the sparse sender's LastRTT samples (one per ACK)
//   queue_delay_ms        time-averaged queue-disc bytes x 8 / 10 Mb/s
//   drops_total, drops_overlimit, utilization

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "lib/aqm_args.h"
#include "lib/default_overrides.h"
#include "lib/tcpsim_tcp.h"
#include "lib/time_integral.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
const double kLinkBps = 10e6;
double g_warmup = 10;
twin::TimeIntegral g_disc;
double g_rttSum = 0;
double g_rttMin = std::numeric_limits<double>::infinity();
uint64_t g_rttCount = 0;
uint64_t g_txBytes = 0;

void
SparseRtt(Time, Time rtt)
{
    if (Simulator::Now().GetSeconds() >= g_warmup && rtt.IsStrictlyPositive())
    {
        g_rttSum += rtt.GetSeconds();
        g_rttMin = std::min(g_rttMin, rtt.GetSeconds());
        ++g_rttCount;
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    twin::AqmArgs args = twin::ParseAqmArgs(
        argc, argv, 60, 10, // default duration and warm-up, s
        "usage: fq_codel <fq_codel|codel> <run> [--duration=S] [--warmup=S] [--set=...]");
    const std::string& queue = args.queue;
    const double duration = args.duration;
    g_warmup = args.warmup;
    g_disc.warmup = args.warmup;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(args.run);

    twin::TcpsimTcp(1000);
    Config::SetDefault("ns3::FqCoDelQueueDisc::Target", StringValue("5ms"));
    Config::SetDefault("ns3::FqCoDelQueueDisc::Interval", StringValue("100ms"));
    Config::SetDefault("ns3::FqCoDelQueueDisc::Flows", UintegerValue(1024));
    Config::SetDefault("ns3::FqCoDelQueueDisc::DropBatchSize", UintegerValue(64));
    Config::SetDefault("ns3::FqCoDelQueueDisc::UseEcn", BooleanValue(true));
    Config::SetDefault("ns3::CoDelQueueDisc::Target", TimeValue(MilliSeconds(5)));
    Config::SetDefault("ns3::CoDelQueueDisc::Interval", TimeValue(MilliSeconds(100)));
    Config::SetDefault("ns3::CoDelQueueDisc::MinBytes", UintegerValue(1514));
    Config::SetDefault("ns3::CoDelQueueDisc::UseEcn", BooleanValue(queue == "fq_codel"));
    twin::ApplySets(args.sets);

    const std::vector<std::string> names = {"bulk20", "bulk40", "bulk60", "bulk80", "sparse"};
    const std::vector<std::string> accessDelay = {"4ms", "14ms", "24ms", "34ms", "14ms"};
    NodeContainer senders;
    senders.Create(5);
    NodeContainer routers;
    routers.Create(2);
    Ptr<Node> receivers = CreateObject<Node>();
    InternetStackHelper stack;
    stack.Install(senders);
    stack.Install(routers);
    stack.Install(receivers);

    PointToPointHelper neck;
    neck.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    neck.SetChannelAttribute("Delay", StringValue("5ms"));
    neck.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    NetDeviceContainer bottleneck = neck.Install(routers.Get(0), routers.Get(1));
    TrafficControlHelper tch;
    if (queue == "fq_codel")
    {
        tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc", "MaxSize", StringValue("10240p"));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::CoDelQueueDisc", "MaxSize", StringValue("10240p"));
    }
    QueueDiscContainer discs = tch.Install(bottleneck);
    for (uint32_t i = 0; queue == "fq_codel" && i < discs.GetN(); ++i)
    {
        DynamicCast<FqCoDelQueueDisc>(discs.Get(i))->SetQuantum(1514); // not an attribute in ns-3.44
    }
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.100.0", "255.255.255.0");
    addr.Assign(bottleneck);

    TrafficControlHelper none;
    PointToPointHelper edge;
    edge.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    edge.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
    edge.SetChannelAttribute("Delay", StringValue("1ms"));
    NetDeviceContainer egress = edge.Install(routers.Get(1), receivers);
    addr.SetBase("10.0.200.0", "255.255.255.0");
    Ipv4InterfaceContainer sinkIf = addr.Assign(egress);
    none.Uninstall(egress);
    for (uint32_t i = 0; i < 5; ++i)
    {
        edge.SetChannelAttribute("Delay", StringValue(accessDelay[i]));
        NetDeviceContainer access = edge.Install(senders.Get(i), routers.Get(0));
        addr.SetBase(("10.0." + std::to_string(i + 1) + ".0").c_str(), "255.255.255.0");
        addr.Assign(access);
        none.Uninstall(access);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t f = 0; f < 5; ++f)
    {
        uint16_t port = 5000 + f;
        BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(sinkIf.GetAddress(1), port));
        source.SetAttribute("MaxBytes", UintegerValue(0));
        source.SetAttribute("SendSize", UintegerValue(1000));
        ApplicationContainer src = source.Install(senders.Get(f));
        double start = jitter->GetValue(0, 2);
        src.Start(Seconds(start));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer snk = sinkHelper.Install(receivers);
        snk.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(snk.Get(0)));
        if (names[f] == "sparse")
        {
            std::string path = "/NodeList/" + std::to_string(senders.Get(f)->GetId()) +
                               "/$ns3::TcpL4Protocol/SocketList/0/";
            Simulator::Schedule(Seconds(start + 0.001), [path] {
                Config::Set(path + "SndBufSize", UintegerValue(2000));
                Config::ConnectWithoutContext(path + "LastRTT", MakeCallback(&SparseRtt));
            });
        }
    }

    Ptr<QueueDisc> disc = discs.Get(0); // r1 -> r2
    NS_ABORT_UNLESS(disc->TraceConnectWithoutContext(
        "BytesInQueue", MakeCallback(+[](uint32_t, uint32_t v) { g_disc.Set(v); })));
    Ptr<PointToPointNetDevice> dev = bottleneck.Get(0)->GetObject<PointToPointNetDevice>();
    NS_ABORT_UNLESS(dev->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(+[](Ptr<const Packet> p) {
        if (Simulator::Now().GetSeconds() >= g_warmup)
        {
            g_txBytes += p->GetSize() - 2; // IP bytes, as tcpsim's wire size
        }
    })));

    static std::vector<uint64_t> rxAtWarmup(5, 0);
    static QueueDisc::Stats atWarmup;
    Simulator::Schedule(Seconds(g_warmup), [&sinks, disc] {
        for (uint32_t f = 0; f < 5; ++f)
        {
            rxAtWarmup[f] = sinks[f]->GetTotalRx();
        }
        atWarmup = disc->GetStats();
        g_disc.Set(g_disc.value);
    });
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    g_disc.Set(g_disc.value);

    double window = duration - g_warmup;
    auto report = [&](const std::string& metric, double value) {
        std::printf("RESULT %s %s %.6g\n", queue.c_str(), metric.c_str(), value);
    };
    for (uint32_t f = 0; f < 5; ++f)
    {
        report("goodput_" + names[f] + "_mbps", (sinks[f]->GetTotalRx() - rxAtWarmup[f]) * 8.0 / window / 1e6);
    }
    report("sparse_rtt_mean_ms", g_rttCount ? g_rttSum / g_rttCount * 1e3 : 0);
    report("sparse_rtt_min_ms", g_rttCount ? g_rttMin * 1e3 : 0);
    report("queue_delay_ms", g_disc.area / window * 8 / kLinkBps * 1e3);
    QueueDisc::Stats end = disc->GetStats();
    // FQ-CoDel's sub-queues are child CoDel discs: their drops reach the parent's stats under
    // a prefixed reason, so the CoDel drops are the total less the overlimit drops.
    const char* over = queue == "fq_codel" ? FqCoDelQueueDisc::OVERLIMIT_DROP : CoDelQueueDisc::OVERLIMIT_DROP;
    report("drops_overlimit", end.GetNDroppedPackets(over) - atWarmup.GetNDroppedPackets(over));
    report("drops_total", end.nTotalDroppedPackets - atWarmup.nTotalDroppedPackets);
    report("utilization", g_txBytes * 8.0 / (kLinkBps * window));
    Simulator::Destroy();
    return 0;
}
