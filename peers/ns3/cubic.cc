// ns-3.44 twin of tcpsim's scenarios/cubic.toml: one ns-3 TcpCubic bulk flow over
// sender —100 Mb/s, 1 ms— r1 —10 Mb/s, 18 ms— r2 —100 Mb/s, 1 ms— receiver (40 ms round-trip
// propagation), a 50 000-byte drop-tail device queue at r1's bottleneck device (one BDP, as
// tcpsim's "1BDP"), 60 s. See docs/ns3-comparison/cubic.md.
//
//   peers/ns3/build.sh cubic
//   /tmp/ns3-twins/bin/cubic [--duration=60] [--hystart=0|1] [--recovery=prr|classic] [--cwnd=<file>]
//
// Prints `RESULT cubic <metric> <value>` lines: payload throughput (Mb/s over the run), the
// router's drops (all, and after 2 s), and from the sender's ssthresh/cwnd traces the reductions after 2 s (the
// start-up excluded, as the tcpsim side), their mean spacing, the mean window before a
// reduction (W_max as reached, bytes) and the mean ssthresh after it. --cwnd writes every cwnd
// and ssthresh change as `time_s cwnd_bytes ssthresh_bytes`.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "lib/bottleneck_path.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
uint32_t g_cwnd = 0;
uint32_t g_ssthresh = 0;
FILE* g_trace = nullptr;
struct Cut
{
    double t;
    uint32_t before;
    uint32_t after;
};
std::vector<Cut> g_cuts;
uint64_t g_routerDrops = 0;
uint64_t g_routerDropsAfter2s = 0;

void Record()
{
    if (g_trace)
    {
        std::fprintf(g_trace, "%.6f %u %u\n", Simulator::Now().GetSeconds(), g_cwnd, g_ssthresh);
    }
}
} // namespace

int main(int argc, char** argv)
{
    double duration = 60;
    bool hystart = false;
    std::string cwndFile;
    std::string recovery = "prr";
    CommandLine cmd;
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("hystart", "ns-3 TcpCubic's HyStart (its default: on; tcpsim has none)", hystart);
    cmd.AddValue("cwnd", "write cwnd/ssthresh changes to this file", cwndFile);
    cmd.AddValue("recovery", "prr (ns-3.44's default, RFC 6937) or classic (TcpClassicRecovery)", recovery);
    cmd.Parse(argc, argv);

    // TCP as tcpsim's defaults: 1460-byte segments, IW 2, delayed ACKs (2 segments, 200 ms),
    // min RTO 1 s, SACK, limited transmit, 20-byte TCP header (no timestamps: 1500-byte IP
    // packets as tcpsim's 1460 + 40), large buffers (never the limit).
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpCubic::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MilliSeconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(true));
    // TcpCubic: C 0.4, β 0.7, fast convergence and Reno-friendliness are its defaults (as
    // tcpsim's); HyStart is on by default in ns-3 and off here, tcpsim having none.
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(hystart));
    if (recovery == "classic")
    {
        Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    }
    else
    {
        NS_ABORT_MSG_UNLESS(recovery == "prr", "--recovery: prr or classic");
    }

    PointToPointHelper edge = twin::P2pLink("100Mbps", "1ms", "1000p");
    PointToPointHelper neck = twin::P2pLink("10Mbps", "18ms", "50000B");
    twin::BottleneckPath path = twin::MakeBottleneckPath(edge, neck); // 0 sender, 1 r1, 2 r2, 3 receiver
    Ipv4Address receiver = twin::AddressBottleneckPath(path);
    twin::RemoveQueueDiscs(path);

    Ptr<PacketSink> sink = twin::BulkFlow(path.nodes.Get(0), path.nodes.Get(3), receiver, 5000, 1460, Seconds(0));

    // With no queue disc the traffic-control layer drops a packet its full device queue cannot
    // take (TcDrop): r1's drops are the bottleneck buffer's.
    NS_ABORT_UNLESS(path.nodes.Get(1)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "TcDrop",
        MakeCallback(+[](Ptr<const Packet>) {
            ++g_routerDrops;
            if (Simulator::Now() > Seconds(2))
            {
                ++g_routerDropsAfter2s;
            }
            if (g_trace)
            {
                std::fprintf(g_trace, "# %.6f drop\n", Simulator::Now().GetSeconds());
            }
        })));
    if (!cwndFile.empty())
    {
        g_trace = std::fopen(cwndFile.c_str(), "w");
    }
    Simulator::Schedule(MilliSeconds(1), [] {
        Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
                                      MakeCallback(+[](uint32_t, uint32_t v) {
                                          g_cwnd = v;
                                          Record();
                                      }));
        Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/SlowStartThreshold",
                                      MakeCallback(+[](uint32_t, uint32_t v) {
                                          g_ssthresh = v;
                                          Record();
                                      }));
        // A reduction is an entry into fast recovery or loss (timeout): counted from the
        // state, since the ssthresh trace fires only when the value changes. The state
        // changes before ssthresh and cwnd are set, so the window read here is the one the
        // loss reduces, and the ssthresh is read once the entry has completed.
        Config::ConnectWithoutContext(
            "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongState",
            MakeCallback(+[](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
                if (now == TcpSocketState::CA_RECOVERY || now == TcpSocketState::CA_LOSS)
                {
                    g_cuts.push_back({Simulator::Now().GetSeconds(), g_cwnd, 0});
                    Simulator::ScheduleNow([] { g_cuts.back().after = g_ssthresh; });
                }
            }));
    });

    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    const uint64_t rx = sink->GetTotalRx();
    const uint32_t routerDrops =
        path.bottleneck.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue()->GetTotalDroppedPackets();
    Simulator::Destroy();
    if (g_trace)
    {
        std::fclose(g_trace);
    }

    std::vector<Cut> steady;
    for (const auto& cut : g_cuts)
    {
        if (cut.t > 2.0)
        {
            steady.push_back(cut);
        }
    }
    double before = 0, after = 0;
    for (const auto& cut : steady)
    {
        before += cut.before;
        after += cut.after;
    }
    const double n = steady.empty() ? 1 : double(steady.size());
    const double spacing =
        steady.size() >= 2 ? (steady.back().t - steady.front().t) / double(steady.size() - 1) : 0.0;
    std::printf("RESULT cubic throughput_mbps %.6f\n", rx * 8.0 / duration / 1e6);
    std::printf("RESULT cubic router_drops %lu\n", (unsigned long)(routerDrops + g_routerDrops));
    std::printf("RESULT cubic router_drops_after_2s %lu\n", (unsigned long)g_routerDropsAfter2s);
    std::printf("RESULT cubic reductions_total %zu\n", g_cuts.size());
    std::printf("RESULT cubic reductions_after_2s %zu\n", steady.size());
    std::printf("RESULT cubic mean_spacing_s %.4f\n", spacing);
    std::printf("RESULT cubic mean_cwnd_before_bytes %.1f\n", before / n);
    std::printf("RESULT cubic mean_ssthresh_after_bytes %.1f\n", after / n);
    return 0;
}
