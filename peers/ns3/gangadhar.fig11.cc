// ns-3.44 twin of tcpsim's gangadhar.fig11 (the paper's Fig. 4 set-up): the bandwidth estimate of
// Westwood and Westwood+ under ACK compression.
//
//   PC1 --1 Mb/s, 45 ms--+
//                        router --500 kb/s, 0.01 ms-- server
//   PC2 --1 Mb/s, 45 ms--+
//
// Flow 1 PC1 -> server from 0 s, flow 2 server -> PC2 from 2 s, both of the point's variant (the
// global SocketType, as ns-3 scripts of the paper's time), 20 s; 100-packet drop-tail device
// queues everywhere, no queue discs, no random errors; the TCP defaults of lib/lossy_link.h
// (400-byte segments, delayed ACKs 2 / 200 ms). Flow 1's ACKs queue behind flow 2's data at the
// server's 500 kb/s device. Points: westwood, westwood_plus. Besides the usual options,
// --ns317-rto installs ns-3.17's RTO rules on both senders.
//
// Flow 1's estimate is traced at every change (TwinWestwood's and TcpWestwoodPlus's
// "EstimatedBW"; TcpWestwoodPlus assigns its raw sample and then the filtered value at the same
// instant, so only the last value of an instant is kept) and summarised as tcpsim's experiment
// does (`Fig11._summary`): the peak over the run, and on a 10 ms grid of the step function the
// mean and sd over [2, 20) s and the lowest and highest value over [8, 14) s. Each change is
// also printed as `TRACE bwe <time s> <bit/s>`.
#include "lib/lossy_link.h"

#include <cmath>
#include <utility>

namespace
{
using namespace ns3;

constexpr double kDuration = 20;
constexpr double kFlow2Start = 2;

/// Flow 1's estimate: (time s, bit/s) at each instant it changed, the last value of an instant.
std::vector<std::pair<double, double>> g_bwe;

void Record(double bps)
{
    const double now = Simulator::Now().GetSeconds();
    if (!g_bwe.empty() && g_bwe.back().first == now)
    {
        g_bwe.back().second = bps;
    }
    else
    {
        g_bwe.emplace_back(now, bps);
    }
}

/// A TcpSocketBase's congestion control (protected, with no accessor in ns-3.44): a pointer to a
/// protected member may be formed through a derived class.
struct SocketCongestionOps : TcpSocketBase
{
    static Ptr<TcpCongestionOps> Of(TcpSocketBase& socket)
    {
        return socket.*(&SocketCongestionOps::m_congestionControl);
    }
};

/// The estimate's step function sampled every 10 ms in [start, end), as tcpsim's `_on_grid`:
/// the last value recorded at or before each instant; instants before the first are left out.
std::vector<double> OnGrid(double start, double end)
{
    std::vector<double> out;
    const auto n = static_cast<long>(std::llround((end - start) / 0.01));
    size_t i = 0;
    for (long j = 0; j < n; ++j)
    {
        const double t = start + j * 0.01;
        while (i < g_bwe.size() && g_bwe[i].first <= t)
        {
            ++i;
        }
        if (i > 0)
        {
            out.push_back(g_bwe[i - 1].second);
        }
    }
    return out;
}

Ptr<TcpSocketBase> SenderSocket(const ApplicationContainer& app)
{
    return DynamicCast<TcpSocketBase>(DynamicCast<BulkSendApplication>(app.Get(0))->GetSocket());
}

void RunAckCompression(const twin::Point& p, uint32_t k, const twin::Options& o)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(k);
    twin::ConfigureTcp(p, o);

    NodeContainer nodes;
    nodes.Create(4); // 0 PC1, 1 PC2, 2 router, 3 server
    PointToPointHelper access = twin::P2pLink("1Mbps", "45ms", "100p");
    PointToPointHelper neck = twin::P2pLink("500kbps", "0.01ms", "100p");
    NetDeviceContainer a1 = access.Install(nodes.Get(0), nodes.Get(2));
    NetDeviceContainer a2 = access.Install(nodes.Get(1), nodes.Get(2));
    NetDeviceContainer b = neck.Install(nodes.Get(2), nodes.Get(3));

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.1.0", "255.255.255.0");
    addr.Assign(a1);
    addr.SetBase("10.0.2.0", "255.255.255.0");
    Ipv4InterfaceContainer pc2If = addr.Assign(a2);
    addr.SetBase("10.0.3.0", "255.255.255.0");
    Ipv4InterfaceContainer serverIf = addr.Assign(b);
    TrafficControlHelper tch; // ns-3.17 had no traffic-control layer
    tch.Uninstall(a1);
    tch.Uninstall(a2);
    tch.Uninstall(b);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // Both flows as twin::BulkFlow, keeping the senders to reach their sockets.
    std::vector<ApplicationContainer> senders;
    std::vector<Ptr<PacketSink>> sinks;
    const std::vector<std::tuple<uint32_t, uint32_t, Ipv4Address, double>> flows = {
        {0, 3, serverIf.GetAddress(1), 0.0},
        {3, 1, pc2If.GetAddress(0), kFlow2Start},
    };
    for (size_t f = 0; f < flows.size(); ++f)
    {
        const auto& [from, to, address, start] = flows[f];
        const uint16_t port = 5000 + f;
        BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(address, port));
        source.SetAttribute("MaxBytes", UintegerValue(0));
        source.SetAttribute("SendSize", UintegerValue(p.mss));
        senders.push_back(source.Install(nodes.Get(from)));
        senders.back().Start(Seconds(start));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer snk = sinkHelper.Install(nodes.Get(to));
        snk.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(snk.Get(0)));
        // 1 ms after a sender's socket exists, well before its SYN-ACK can return.
        const ApplicationContainer app = senders.back();
        Simulator::Schedule(Seconds(start) + MilliSeconds(1), [app, f, o, variant = p.variant] {
            Ptr<TcpSocketBase> socket = SenderSocket(app);
            if (o.ns317Rto)
            {
                CreateObject<twin::Ns317RttEstimator>()->Attach(socket);
            }
            if (f != 0)
            {
                return;
            }
            Ptr<TcpCongestionOps> cc = SocketCongestionOps::Of(*socket);
            const bool hooked =
                variant == "westwood"
                    ? cc->TraceConnectWithoutContext(
                          "EstimatedBW",
                          MakeCallback(+[](double, double bytesPerSecond) { Record(8 * bytesPerSecond); }))
                    : cc->TraceConnectWithoutContext(
                          "EstimatedBW",
                          MakeCallback(+[](DataRate, DataRate rate) { Record(double(rate.GetBitRate())); }));
            NS_ABORT_MSG_UNLESS(hooked, "no EstimatedBW trace source on " << cc->GetName());
        });
    }

    // Drops: a full device queue makes the traffic-control layer drop (no queue discs here).
    static uint64_t tcDrops[4];
    for (uint32_t node = 0; node < 4; ++node)
    {
        tcDrops[node] = 0;
        NS_ABORT_UNLESS(nodes.Get(node)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop",
            MakeBoundCallback(+[](uint32_t n, Ptr<const Packet>) { ++tcDrops[n]; }, node)));
    }

    g_bwe.clear();
    Simulator::Stop(Seconds(kDuration));
    Simulator::Run();
    const uint64_t rx1 = sinks[0]->GetTotalRx();
    const uint64_t rx2 = sinks[1]->GetTotalRx();
    uint64_t queueDrops[4] = {0, 0, 0, 0};
    for (const auto& [devices, first, second] :
         {std::tuple{a1, 0, 2}, std::tuple{a2, 1, 2}, std::tuple{b, 2, 3}})
    {
        queueDrops[first] += devices.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue()->GetTotalDroppedPackets();
        queueDrops[second] += devices.Get(1)->GetObject<PointToPointNetDevice>()->GetQueue()->GetTotalDroppedPackets();
    }
    Simulator::Destroy();

    for (const auto& [t, v] : g_bwe)
    {
        std::printf("TRACE bwe %.6f %.1f\n", t, v);
    }
    NS_ABORT_MSG_IF(g_bwe.empty(), "flow 1's estimate never changed");
    double peak = 0;
    for (const auto& [t, v] : g_bwe)
    {
        peak = std::max(peak, v);
    }
    const std::vector<double> after = OnGrid(kFlow2Start, kDuration);
    const std::vector<double> window = OnGrid(8, 14);
    double mean = 0;
    for (double v : after)
    {
        mean += v / after.size();
    }
    double var = 0;
    for (double v : after)
    {
        var += (v - mean) * (v - mean) / after.size(); // population sd, as numpy's std
    }
    const char* n = p.name.c_str();
    std::printf("RESULT %s bwe_peak_mbps %.6f\n", n, peak / 1e6);
    std::printf("RESULT %s bwe_mean_after_mbps %.6f\n", n, mean / 1e6);
    std::printf("RESULT %s bwe_sd_after_mbps %.6f\n", n, std::sqrt(var) / 1e6);
    std::printf("RESULT %s bwe_window_min_kbps %.6f\n", n, *std::min_element(window.begin(), window.end()) / 1e3);
    std::printf("RESULT %s bwe_window_max_kbps %.6f\n", n, *std::max_element(window.begin(), window.end()) / 1e3);
    std::printf("RESULT %s throughput_mbps %.6f\n", n, rx1 * 8.0 / kDuration / 1e6);
    std::printf("RESULT %s flow2_throughput_mbps %.6f\n", n, rx2 * 8.0 / (kDuration - kFlow2Start) / 1e6);
    const char* names[4] = {"pc1", "pc2", "router", "server"};
    for (uint32_t node = 0; node < 4; ++node)
    {
        std::printf("RESULT %s %s_drops %lu\n", n, names[node], (unsigned long)(tcDrops[node] + queueDrops[node]));
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<twin::Point> points;
    for (const char* variant : {"westwood", "westwood_plus"})
    {
        twin::Point p;
        p.variant = variant;
        p.name = variant;
        points.push_back(p);
    }
    return twin::Main(argc, argv, points, RunAckCompression);
}
