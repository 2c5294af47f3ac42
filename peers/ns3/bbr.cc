// The ns-3.44 twin of scenarios/bbr.toml: one ns-3 TcpBbr flow alone on a deep-buffered path
// (docs/ns3-comparison/bbr.md).
//
//   sender --100 Mb/s, 1 ms-- r1 --10 Mb/s, 18 ms-- r2 --100 Mb/s, 1 ms-- receiver
//
// 40 ms round-trip propagation; drop-tail device queue of 400 000 bytes (8 BDP) on r1's
// bottleneck device, 1000 packets elsewhere; no queue discs (tcpsim queues at the device).
// TCP as tcpsim's scenario: 1460-byte segments, no timestamps (40 bytes of TCP/IP headers;
// ns-3 adds 2 bytes of PPP), SACK, delayed ACKs (2 segments, 200 ms), initial window 10,
// minimum RTO 1 s, buffers far above the window (8 MB), pacing on (TcpBbr requires it).
// One BulkSendApplication from t = 0 for --duration seconds (default 30).
//
// Prints RESULT bbr <metric> <value> lines, over [--warmup, --duration] (default warm-up 5 s):
//   throughput_mbps   payload received by the sink / window
//   queue_mean_bytes  time-average of r1's bottleneck device queue, sampled every 1 ms
//   queue_max_bytes   largest sample
//   cwnd_mean_bytes   time-average of cwnd, sampled every 1 ms
//   rtt_mean_ms       mean of the RTT samples (TcpSocketBase "RTT" trace, one per ACK)
//   rtt_min_ms        smallest of them
//   drops             packets dropped at r1's bottleneck device
// TWIN_TRACE=1: cwnd, queue, pacing rate and bytes in flight every 10 ms on stderr.
// --trace-rate: every delivery-rate sample given to TcpBbr and every pacing change, as TRACE lines
// on stdout (lib/rate_trace.h).
// --fresh-rate-sample: the sensitivity variant whose rate sample is started afresh on every ACK,
// as Linux's (lib/fresh_rate_sample.h).
//
// Build and run:  peers/ns3/build.sh bbr && /tmp/ns3-twins/bin/bbr [--duration=30] [--warmup=5]
//                 [--trace-rate] [--fresh-rate-sample]

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include "lib/bottleneck_path.h"
#include "lib/fresh_rate_sample.h"
#include "lib/rate_trace.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

using namespace ns3;

namespace
{
double g_warmup = 5;
double g_queueSum = 0;
double g_queueMax = 0;
double g_cwndSum = 0;
uint64_t g_samples = 0;
double g_rttSum = 0;
double g_rttMin = 1e9;
uint64_t g_rttCount = 0;
uint32_t g_cwnd = 0;
uint32_t g_inFlight = 0;
double g_pacingBps = 0;
Ptr<Queue<Packet>> g_bottleneck;
Ptr<PacketSink> g_sink;
bool g_traceRate = false;
bool g_freshRateSample = false;
uint64_t g_rxAtWarmup = 0;

void Sample()
{
    const double q = g_bottleneck->GetNBytes();
    if (Simulator::Now().GetSeconds() >= g_warmup)
    {
        g_queueSum += q;
        g_queueMax = std::max(g_queueMax, q);
        g_cwndSum += g_cwnd;
        ++g_samples;
    }
    if (std::getenv("TWIN_TRACE") && Simulator::Now().GetMilliSeconds() % 10 == 0)
    {
        std::fprintf(stderr, "%.3f cwnd %u queue %.0f pacing_bps %.0f inflight %u\n", Simulator::Now().GetSeconds(),
                     g_cwnd, q, g_pacingBps, g_inFlight);
    }
    Simulator::Schedule(MilliSeconds(1), &Sample);
}

void Connect()
{
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
                                  MakeCallback(+[](uint32_t, uint32_t v) { g_cwnd = v; }));
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/BytesInFlight",
                                  MakeCallback(+[](uint32_t, uint32_t v) { g_inFlight = v; }));
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/PacingRate",
                                  MakeCallback(+[](DataRate, DataRate v) { g_pacingBps = v.GetBitRate(); }));
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/RTT",
                                  MakeCallback(+[](Time, Time v) {
                                      if (Simulator::Now().GetSeconds() >= g_warmup && v.IsPositive())
                                      {
                                          g_rttSum += v.GetSeconds() * 1e3;
                                          g_rttMin = std::min(g_rttMin, v.GetSeconds() * 1e3);
                                          ++g_rttCount;
                                      }
                                  }));
    Ptr<Socket> sender = DynamicCast<BulkSendApplication>(NodeList::GetNode(0)->GetApplication(0))->GetSocket();
    if (g_freshRateSample)
    {
        twin::UseFreshRateSample(sender); // before the handshake completes: no data sent yet
    }
    if (g_traceRate)
    {
        twin::TraceRate(sender);
    }
}
} // namespace

int main(int argc, char** argv)
{
    double duration = 30;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--duration=", 0) == 0)
        {
            duration = std::stod(arg.substr(11));
        }
        else if (arg.rfind("--warmup=", 0) == 0)
        {
            g_warmup = std::stod(arg.substr(9));
        }
        else if (arg == "--trace-rate")
        {
            g_traceRate = true;
        }
        else if (arg == "--fresh-rate-sample")
        {
            g_freshRateSample = true;
        }
        else
        {
            std::cerr << "usage: bbr [--duration=S] [--warmup=S] [--trace-rate] [--fresh-rate-sample]\n";
            return 2;
        }
    }
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpBbr::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(8 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(8 << 20));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));

    PointToPointHelper edge = twin::P2pLink("100Mbps", "1ms", "1000p");
    PointToPointHelper neck = twin::P2pLink("10Mbps", "18ms", "400000B");
    twin::BottleneckPath path = twin::MakeBottleneckPath(edge, neck); // 0 sender, 1 r1, 2 r2, 3 receiver
    Ipv4Address receiver = twin::AddressBottleneckPath(path);
    twin::RemoveQueueDiscs(path);

    g_sink = twin::BulkFlow(path.nodes.Get(0), path.nodes.Get(3), receiver, 5000, 1460, Seconds(0));
    g_bottleneck = path.bottleneck.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue();
    Simulator::Schedule(MilliSeconds(1), &Connect); // the socket exists once the app started
    Simulator::Schedule(MilliSeconds(1), &Sample);
    Simulator::Schedule(Seconds(g_warmup), [] { g_rxAtWarmup = g_sink->GetTotalRx(); });
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    const uint64_t rx = g_sink->GetTotalRx() - g_rxAtWarmup;
    const uint32_t drops = g_bottleneck->GetTotalDroppedPackets();
    Simulator::Destroy();
    const double window = duration - g_warmup;
    std::printf("RESULT bbr throughput_mbps %.6f\n", rx * 8.0 / window / 1e6);
    std::printf("RESULT bbr queue_mean_bytes %.1f\n", g_queueSum / g_samples);
    std::printf("RESULT bbr queue_max_bytes %.0f\n", g_queueMax);
    std::printf("RESULT bbr cwnd_mean_bytes %.1f\n", g_cwndSum / g_samples);
    std::printf("RESULT bbr rtt_mean_ms %.3f\n", g_rttSum / g_rttCount);
    std::printf("RESULT bbr rtt_min_ms %.3f\n", g_rttMin);
    std::printf("RESULT bbr drops %u\n", drops);
    return 0;
}
