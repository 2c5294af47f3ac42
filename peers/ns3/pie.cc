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
// prints RESULT <queue> <metric> <value> lines, measured over [warmup, duration]:
//   queue_delay_ms       time-averaged queue-disc bytes x 8 / 10 Mb/s (tcpsim's measure)
//   queue_delay_dev_ms   the same with the bottleneck device's 1-packet queue added
//   sojourn_ms           mean sojourn time of the packets the queue disc released
//   drops_early, drops_forced, drops_total   queue-disc drops (PIE: unforced, forced)
//   utilization          IP bytes sent by r1's bottleneck device / (10 Mb/s x window)
//   goodput_mbps         payload received by the sinks over the window
//   fast_recoveries, timeouts   the senders' entries into fast recovery and into the loss state

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "lib/cut_trace.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
const double kLinkBps = 10e6;
double g_warmup = 20;

/// Time integral of a byte count over [warmup, end].
struct Integral
{
    double lastT = 0;
    double value = 0;
    double area = 0;

    void Set(double v)
    {
        double now = Simulator::Now().GetSeconds();
        double from = std::max(lastT, g_warmup);
        if (now > from)
        {
            area += value * (now - from);
        }
        lastT = now;
        value = v;
    }
};

Integral g_disc;
Integral g_device;
double g_sojournSum = 0;
uint64_t g_sojournCount = 0;
uint64_t g_txBytes = 0;
uint64_t g_txPackets = 0;
uint64_t g_recoveries = 0;
uint64_t g_timeouts = 0;
} // namespace

int
main(int argc, char* argv[])
{
    if (argc < 3)
    {
        std::fprintf(stderr, "usage: pie <pie|drop_tail> <run> [--duration=S] [--warmup=S] [--estimator=...]\n");
        return 2;
    }
    std::string queue = argv[1];
    uint32_t run = std::stoul(argv[2]);
    double duration = 100;
    std::string estimator = "timestamp";
    std::vector<std::string> sets;
    bool traceCuts = false; // --trace-cuts: TRACE lines of lib/cut_trace.h, after the warm-up
    for (int i = 3; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a.rfind("--duration=", 0) == 0)
        {
            duration = std::stod(a.substr(11));
        }
        else if (a.rfind("--warmup=", 0) == 0)
        {
            g_warmup = std::stod(a.substr(9));
        }
        else if (a.rfind("--estimator=", 0) == 0)
        {
            estimator = a.substr(12);
        }
        else if (a == "--trace-cuts")
        {
            traceCuts = true;
        }
        else if (a.rfind("--set=", 0) == 0)
        {
            sets.push_back(a.substr(6));
        }
    }
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
    Config::SetDefault("ns3::PieQueueDisc::UseDequeueRateEstimator", BooleanValue(estimator == "dequeue_rate"));
    for (const auto& item : sets) // sensitivity runs: --set=ns3::TcpSocketBase::Sack=true
    {
        size_t eq = item.find('=');
        NS_ABORT_MSG_IF(eq == std::string::npos, "--set needs ns3::Type::Attribute=value");
        Config::SetDefault(item.substr(0, eq), StringValue(item.substr(eq + 1)));
    }

    NodeContainer nodes;
    nodes.Create(4); // senders, r1, r2, receivers
    PointToPointHelper edge;
    edge.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    edge.SetChannelAttribute("Delay", StringValue("1ms"));
    edge.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
    PointToPointHelper neck;
    neck.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    neck.SetChannelAttribute("Delay", StringValue("48ms"));
    neck.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    NetDeviceContainer access = edge.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer bottleneck = neck.Install(nodes.Get(1), nodes.Get(2));
    NetDeviceContainer egress = edge.Install(nodes.Get(2), nodes.Get(3));

    InternetStackHelper stack;
    stack.Install(nodes);
    TrafficControlHelper tch;
    if (queue == "pie")
    {
        tch.SetRootQueueDisc("ns3::PieQueueDisc", "MaxSize", StringValue("1000p"));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
    }
    QueueDiscContainer discs = tch.Install(bottleneck);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.1.0", "255.255.255.0");
    addr.Assign(access);
    addr.SetBase("10.0.2.0", "255.255.255.0");
    addr.Assign(bottleneck);
    addr.SetBase("10.0.3.0", "255.255.255.0");
    Ipv4InterfaceContainer sinkIf = addr.Assign(egress);
    TrafficControlHelper none;
    none.Uninstall(access);
    none.Uninstall(egress);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    std::vector<Ptr<PacketSink>> sinks;
    for (uint16_t f = 0; f < 5; ++f)
    {
        uint16_t port = 5000 + f;
        BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(sinkIf.GetAddress(1), port));
        source.SetAttribute("MaxBytes", UintegerValue(0));
        source.SetAttribute("SendSize", UintegerValue(1460));
        ApplicationContainer src = source.Install(nodes.Get(0));
        src.Start(Seconds(jitter->GetValue(0, 1)));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer snk = sinkHelper.Install(nodes.Get(3));
        snk.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(snk.Get(0)));
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
    Ptr<PointToPointNetDevice> dev = bottleneck.Get(0)->GetObject<PointToPointNetDevice>();
    NS_ABORT_UNLESS(dev->GetQueue()->TraceConnectWithoutContext(
        "BytesInQueue", MakeCallback(+[](uint32_t, uint32_t v) { g_device.Set(v); })));
    NS_ABORT_UNLESS(dev->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(+[](Ptr<const Packet> p) {
        if (Simulator::Now().GetSeconds() >= g_warmup)
        {
            g_txBytes += p->GetSize() - 2; // without the 2-byte PPP header: IP bytes, as tcpsim's wire size
            ++g_txPackets;
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
            twin::TraceCuts();
        }
    });
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    g_disc.Set(g_disc.value);
    g_device.Set(g_device.value);

    double window = duration - g_warmup;
    uint64_t rx = 0;
    for (auto& s : sinks)
    {
        rx += s->GetTotalRx();
    }
    QueueDisc::Stats end = disc->GetStats();
    auto dropped = [](const QueueDisc::Stats& s, const char* reason) {
        return s.GetNDroppedPackets(reason);
    };
    const char* early = queue == "pie" ? PieQueueDisc::UNFORCED_DROP : "none";
    const char* forced = queue == "pie" ? PieQueueDisc::FORCED_DROP : FifoQueueDisc::LIMIT_EXCEEDED_DROP;
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
