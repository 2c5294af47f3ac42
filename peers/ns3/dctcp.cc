// ns-3.44 twin of tcpsim's scenarios/dctcp.toml (and of validation.dctcp's runs): two long
// flows from two hosts into one 100 Mb/s port whose RED queue disc runs in DCTCP mode (as
// ns-3's examples/tcp/dctcp-example.cc: QW = 1, UseEcn, UseHardDrop = false), TcpDctcp at both
// ends; or NewReno with a drop-tail port ("newreno").
//
//   s1 —1 Gb/s, 200 us— sw —100 Mb/s, 300 us— receiver;  s2 —1 Gb/s, 200 us— sw
//
// Usage: dctcp <dctcp|newreno> [--duration=10] [--warmup=2] [--run=1]
// Prints RESULT <variant> <metric> <value> lines: the port's time-average queue (packets waiting:
// queue disc + device queue) and its maximum, utilization, CE marks and drops of the port, the
// flows' throughputs over [warmup, duration], the data segments sent again in the window (a
// sequence number below one already sent), and DCTCP's mean α over the window (samples at each
// of the senders' α updates). TWIN_SET="<attribute>=<value>;..." overrides attribute defaults.
//
// Step marking from RED: with QW = 1 the average is the queue disc's length on arrival; with
// MinTh = MaxTh = K and Gentle = false every arrival that finds ≥ K in the queue disc is a
// forced decision, which marks an ECT packet (UseHardDrop = false) and drops another. The
// device queue holds one packet (the next to serialize) whenever the link is busy, so an arrival
// finds ≥ K in the queue disc exactly when it finds > K waiting in all: tcpsim's step queue with
// threshold K.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "lib/datacentre_tcp.h"
#include "lib/default_overrides.h"
#include "lib/port_queue.h"

#include <iostream>

using namespace ns3;

namespace
{
// Time-weighted occupancy of the port (queue disc + device queue).
uint32_t g_qdisc = 0;
uint32_t g_device = 0;
uint32_t g_max = 0;
double g_area = 0; // packet·seconds inside the window
double g_last = 0;
double g_warmup = 2;
double g_alphaSum = 0;
uint64_t g_alphaCount = 0;

void
Settle()
{
    double now = Simulator::Now().GetSeconds();
    double from = std::max(g_last, g_warmup);
    if (now > from)
    {
        g_area += (g_qdisc + g_device) * (now - from);
    }
    g_last = now;
}

void
QdiscChanged(uint32_t, uint32_t n)
{
    Settle();
    g_qdisc = n;
    if (Simulator::Now().GetSeconds() >= g_warmup)
    {
        g_max = std::max(g_max, g_qdisc + g_device);
    }
}

void
DeviceChanged(uint32_t, uint32_t n)
{
    Settle();
    g_device = n;
}

void
Alpha(uint32_t, uint32_t, double alpha)
{
    if (Simulator::Now().GetSeconds() >= g_warmup)
    {
        g_alphaSum += alpha;
        g_alphaCount++;
    }
}

uint64_t g_resent = 0;
std::map<std::string, uint32_t> g_highest;

void
SegmentSent(std::string ctx, Ptr<const Packet> pkt, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (pkt->GetSize() == 0)
    {
        return;
    }
    uint32_t seq = h.GetSequenceNumber().GetValue();
    auto [it, fresh] = g_highest.emplace(ctx, seq);
    if (!fresh && seq < it->second)
    {
        g_resent += Simulator::Now().GetSeconds() >= g_warmup;
    }
    else
    {
        it->second = seq;
    }
}

void
ConnectAlpha()
{
    Config::Connect("/NodeList/*/$ns3::TcpL4Protocol/SocketList/*/Tx", MakeCallback(&SegmentSent));
    Config::ConnectWithoutContextFailSafe(
        "/NodeList/*/$ns3::TcpL4Protocol/SocketList/*/CongestionOps/$ns3::TcpDctcp/CongestionEstimate",
        MakeCallback(&Alpha));
}
} // namespace

int
main(int argc, char** argv)
{
    std::string variant = argc > 1 ? argv[1] : "dctcp";
    double duration = 10;
    uint32_t run = 1;
    CommandLine cmd;
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("warmup", "seconds excluded from the measurements", g_warmup);
    cmd.AddValue("run", "RNG run", run);
    cmd.Parse(argc > 1 ? argc - 1 : argc, argc > 1 ? argv + 1 : argv);
    RngSeedManager::SetRun(run);
    bool dctcp = variant == "dctcp";
    const uint32_t k = 20;

    twin::DataCentreTcp(dctcp ? TcpDctcp::GetTypeId() : TcpNewReno::GetTypeId(), 10, 1 << 22, MilliSeconds(200));
    // Sensitivity: TWIN_SET="ns3::TcpSocket::DelAckCount=1;..." overrides any attribute default.
    twin::ApplyTwinSet();

    NodeContainer hosts;
    hosts.Create(2);
    Ptr<Node> sw = CreateObject<Node>();
    Ptr<Node> receiver = CreateObject<Node>();

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    access.SetChannelAttribute("Delay", StringValue("200us"));
    PointToPointHelper port;
    port.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    port.SetChannelAttribute("Delay", StringValue("300us"));
    port.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    NetDeviceContainer a1 = access.Install(hosts.Get(0), sw);
    NetDeviceContainer a2 = access.Install(hosts.Get(1), sw);
    NetDeviceContainer p = port.Install(sw, receiver);

    InternetStackHelper stack;
    stack.InstallAll();
    // 700 KB of 1500-byte packets; RED in packet mode.
    TrafficControlHelper tch = PortQueue(dctcp, "466p", k, "100Mbps", "300us");
    // Installed before the addresses: Ipv4AddressHelper::Assign adds the default root queue disc
    // only to devices that have none.
    QueueDiscContainer qd = tch.Install(p.Get(0));
    Ptr<QueueDisc> q = qd.Get(0);
    q->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&QdiscChanged));
    p.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue()->TraceConnectWithoutContext(
        "PacketsInQueue", MakeCallback(&DeviceChanged));

    Ipv4AddressHelper address;
    address.SetBase("10.1.1.0", "255.255.255.0");
    address.Assign(a1);
    address.SetBase("10.1.2.0", "255.255.255.0");
    address.Assign(a2);
    address.SetBase("10.1.3.0", "255.255.255.0");
    Ipv4InterfaceContainer pi = address.Assign(p);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < 2; i++)
    {
        uint16_t portNo = 5000 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), portNo));
        ApplicationContainer s = sink.Install(receiver);
        s.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(s.Get(0)));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(pi.GetAddress(1), portNo));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(1460));
        ApplicationContainer b = bulk.Install(hosts.Get(i));
        b.Start(Seconds(i == 0 ? 0.0 : 0.1));
    }
    Simulator::Schedule(Seconds(0.2), &ConnectAlpha);

    std::vector<uint64_t> atWarmup(2, 0);
    uint64_t txAtWarmup = 0;
    uint64_t marksAtWarmup = 0;
    uint64_t dropsAtWarmup = 0;
    Ptr<PointToPointNetDevice> dev = p.Get(0)->GetObject<PointToPointNetDevice>();
    uint64_t txPackets = 0;
    dev->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(
                                                    +[](uint64_t* n, Ptr<const Packet>) { (*n)++; }, &txPackets));
    Simulator::Schedule(Seconds(g_warmup), [&]() {
        for (uint32_t i = 0; i < 2; i++)
        {
            atWarmup[i] = sinks[i]->GetTotalRx();
        }
        txAtWarmup = txPackets;
        marksAtWarmup = q->GetStats().nTotalMarkedPackets;
        dropsAtWarmup = q->GetStats().nTotalDroppedPackets;
    });
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    Settle();

    double window = duration - g_warmup;
    const std::string r = "RESULT " + variant + " ";
    std::cout << r << "queue_mean_pkts " << g_area / window << "\n";
    std::cout << r << "queue_max_pkts " << g_max << "\n";
    std::cout << r << "utilization " << (txPackets - txAtWarmup) * 1500.0 * 8 / (100e6 * window) << "\n";
    for (uint32_t i = 0; i < 2; i++)
    {
        std::cout << r << "throughput_mbps_f" << i + 1 << " "
                  << (sinks[i]->GetTotalRx() - atWarmup[i]) * 8.0 / window / 1e6 << "\n";
    }
    QueueDisc::Stats st = q->GetStats();
    std::cout << r << "marks_window " << st.nTotalMarkedPackets - marksAtWarmup << "\n";
    std::cout << r << "drops_window " << st.nTotalDroppedPackets - dropsAtWarmup << "\n";
    std::cout << r << "resent_segments " << g_resent << "\n";
    std::cout << r << "tx_packets_window " << (txPackets - txAtWarmup) << "\n";
    if (g_alphaCount > 0)
    {
        std::cout << r << "alpha_mean " << g_alphaSum / g_alphaCount << "\n";
    }
    Simulator::Destroy();
    return 0;
}
