// The gangadhar Fig. 3 / Table 1 set-up ("lossy link") in ns-3.44, shared by the twins of
// gangadhar.fig5, gangadhar.fig7, gangadhar.fig8 and gangadhar.fig9 (peers/ns3/README.md).
//
//   source --10 Mb/s, 45 ms-- router --2 Mb/s, 0.01 ms-- sink   (fig7 sweeps the 2 Mb/s)
//
// One bulk TCP flow (BulkSendApplication -> PacketSink) for the whole run; Bernoulli packet
// errors (RateErrorModel, packet unit) on the receive side of BOTH bottleneck devices (data at
// the sink, ACKs at the router), as tcpsim's main reading; 100-packet drop-tail device queue
// on the router's bottleneck device, 1000 packets elsewhere; no queue discs (ns-3.17 had no
// traffic-control layer). TCP set to the ns-3.17 defaults tcpsim's main reading uses (see
// Configure()). Throughput = payload bytes received by the sink over the whole run.
//
// Protocol of every twin binary:
//   <twin> list                 the points, one a line
//   <twin> <point> <k> [opts]   runs the point with RNG run number k; prints
//                               RESULT <point> <metric> <value> lines
// Options: --duration=S (default 600), --recovery=classic|ns317|ns317window (default classic), --ns317-rto
// (ns-3.17's RTT sampling and RTO back-off, lib/ns317_rto.h), --ns317-count (ns-3.17's CountAck
// for the Westwood estimates), --ns317-rtt (Westwood+'s sampling window is ns-3.17's last raw RTT
// sample, not ns-3.44's srtt; needs the two before), --newest-rtt (the same with the sample of the
// newest segment an ACK covers, as tcpsim; ns-3.17's was the oldest's).
// TWIN_SET="ns3::TcpSocketBase::Sack=true;..." overrides TCP defaults (sensitivity runs).
// TWIN_TRACE=1 in the environment prints cwnd, ssthresh, congestion state, RTO and drops to stderr.

#ifndef TCPSIM_PEERS_NS3_LOSSY_LINK_H
#define TCPSIM_PEERS_NS3_LOSSY_LINK_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "lib/bottleneck_path.h"
#include "lib/default_overrides.h"
#include "lib/ns317_rto.h"
#include "lib/westwood_trace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace twin
{
using namespace ns3;

/// ns-3.17's TcpWestwood::CountAck (Gangadhar et al. Sec. 3.2), the segments an ACK accounts for:
/// a duplicate ACK counts one, a cumulative ACK the segments it covers beyond those already
/// counted by duplicates. ns-3.44 counts a duplicate as one too, but on leaving fast recovery its
/// TcpSocketBase::ProcessAck passes PktsAcked every segment the ACK covers, so the segments the
/// duplicates accounted for count twice (Westwood+, 2 Mb/s, PER 0.005, 100 s: 22 % more segments
/// than delivered). Computed from the ACK number (TcpSocketState::m_lastAckedSeq); only with
/// --ns317-count (the gangadhar twins' main readings).
class Ns317AckCount
{
  public:
    /// The count of the ACK `tcb` last processed, which ns-3.44 counted as `socketCount`.
    uint32_t Count(Ptr<const TcpSocketState> tcb, uint32_t socketCount)
    {
        const SequenceNumber32 ack = tcb->m_lastAckedSeq;
        if (!m_started) // the first ACK: nothing counted twice yet
        {
            m_started = true;
            m_prevAck = ack;
            return socketCount;
        }
        uint32_t cumul = (ack - m_prevAck) / tcb->m_segmentSize;
        m_prevAck = ack;
        if (cumul == 0)
        {
            ++m_accountedFor;
            return 1;
        }
        if (cumul > 1)
        {
            if (m_accountedFor >= cumul)
            {
                m_accountedFor -= cumul;
                return 1;
            }
            cumul -= m_accountedFor;
            m_accountedFor = 0;
        }
        return cumul;
    }

  private:
    bool m_started{false};
    SequenceNumber32 m_prevAck;
    uint32_t m_accountedFor{0};
};

/// ns-3.17's TcpWestwood with ProtocolType = Westwood (per-ACK bandwidth samples), which
/// ns-3.44 no longer has (ns-3.44 keeps only TcpWestwoodPlus, one sample per RTT). Written for
/// this twin from the paper's description (Gangadhar et al. 2013, Sec. 2.4 eq. 1-2, Sec. 3.2):
/// on every ACK, new or duplicate, a sample = (segments the ACK accounts for) x SMSS / (time
/// since the previous ACK); Tustin filter with the fixed alpha = 0.9 applied to the mean of the
/// last two samples; ssthresh = BWE x RTTmin (floored at 2 segments as ns-3.44's Westwood+).
/// Window growth is ns-3.44's TcpNewReno (one segment per ACK in slow start, max(1,
/// SMSS^2/cwnd) bytes per ACK in congestion avoidance, as ns-3.17's Westwood NewAck).
/// The segment count per ACK is ns-3.44's (a duplicate ACK counts 1, the ACK that ends a fast
/// recovery all the segments it covers), or with the attribute Ns317Count ns-3.17's CountAck.
class TwinWestwood : public TcpNewReno
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("twin::TwinWestwood")
                                .SetParent<TcpNewReno>()
                                .SetGroupName("Internet")
                                .AddConstructor<TwinWestwood>()
                                .AddAttribute("Ns317Count",
                                              "Count the segments of each ACK as ns-3.17's CountAck",
                                              BooleanValue(false),
                                              MakeBooleanAccessor(&TwinWestwood::m_ns317Count),
                                              MakeBooleanChecker())
                                .AddTraceSource("EstimatedBW",
                                                "The filtered bandwidth estimate, bytes/s",
                                                MakeTraceSourceAccessor(&TwinWestwood::m_bwe),
                                                "ns3::TracedValueCallback::Double");
        return tid;
    }

    TwinWestwood() = default;

    TwinWestwood(const TwinWestwood& other)
        : TcpNewReno(other),
          m_bwe(other.m_bwe.Get()),
          m_lastSample(other.m_lastSample),
          m_lastAck(other.m_lastAck),
          m_ns317Count(other.m_ns317Count),
          m_count(other.m_count)
    {
    }

    std::string GetName() const override
    {
        return "TwinWestwood";
    }

    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override
    {
        if (m_ns317Count)
        {
            segmentsAcked = m_count.Count(tcb, segmentsAcked);
        }
        const Time now = Simulator::Now();
        const double dt = (now - m_lastAck).GetSeconds();
        m_lastAck = now;
        if (dt <= 0)
        {
            return;
        }
        const double sample = segmentsAcked * double(tcb->m_segmentSize) / dt; // bytes/s
        m_bwe = kAlpha * m_bwe + (1 - kAlpha) * (sample + m_lastSample) / 2;
        m_lastSample = sample;
    }

    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t) override
    {
        const double target = m_bwe * tcb->m_minRtt.GetSeconds();
        return std::max<uint32_t>(2 * tcb->m_segmentSize, static_cast<uint32_t>(target));
    }

    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<TwinWestwood>(this);
    }

  private:
    static constexpr double kAlpha = 0.9;
    TracedValue<double> m_bwe{0}; //!< filtered bandwidth estimate, bytes/s
    double m_lastSample{0}; //!< previous raw sample, bytes/s
    Time m_lastAck{Seconds(0)};
    bool m_ns317Count{false};
    Ns317AckCount m_count;
};

/// ns-3.44's TcpWestwoodPlus fed ns-3.17's CountAck instead of ns-3.44's counts (--ns317-count);
/// with the attribute Ns317Rtt (--ns317-rtt, needs --ns317-rto) its sampling window lasts
/// ns-3.17's m_lastRtt, the last valid raw RTT sample, instead of ns-3.44's smoothed RTT (ns-3.17
/// TcpWestwood::EstimateRtt scheduled EstimateBW m_lastRtt ahead and divided by it). ns-3.17 took
/// that sample from the oldest segment an ACK covers; with NewestRtt (--newest-rtt) the window
/// lasts the sample from the newest (ns-3.44's m_lastRtt, and tcpsim's RTT sample).
class Ns317CountWestwoodPlus : public TcpWestwoodPlus
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("twin::Ns317CountWestwoodPlus")
                                .SetParent<TcpWestwoodPlus>()
                                .SetGroupName("Internet")
                                .AddConstructor<Ns317CountWestwoodPlus>()
                                .AddAttribute("Ns317Rtt",
                                              "Sample over ns-3.17's last raw RTT sample, not srtt",
                                              BooleanValue(false),
                                              MakeBooleanAccessor(&Ns317CountWestwoodPlus::m_ns317Rtt),
                                              MakeBooleanChecker())
                                .AddAttribute("NewestRtt",
                                              "Sample over the last raw RTT sample of the newest segment",
                                              BooleanValue(false),
                                              MakeBooleanAccessor(&Ns317CountWestwoodPlus::m_newestRtt),
                                              MakeBooleanChecker());
        return tid;
    }

    Ns317CountWestwoodPlus() = default;

    Ns317CountWestwoodPlus(const Ns317CountWestwoodPlus& other)
        : TcpWestwoodPlus(other),
          m_count(other.m_count),
          m_ns317Rtt(other.m_ns317Rtt),
          m_newestRtt(other.m_newestRtt)
    {
    }

    std::string GetName() const override
    {
        return "Ns317CountWestwoodPlus";
    }

    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override
    {
        Time window = rtt;
        if (m_ns317Rtt && !Ns317LastRtt().IsZero())
        {
            window = Ns317LastRtt();
        }
        else if (m_newestRtt && !tcb->m_lastRtt.Get().IsZero())
        {
            window = tcb->m_lastRtt.Get();
        }
        TcpWestwoodPlus::PktsAcked(tcb, m_count.Count(tcb, segmentsAcked), window);
    }

    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<Ns317CountWestwoodPlus>(this);
    }

  private:
    Ns317AckCount m_count;
    bool m_ns317Rtt{false};
    bool m_newestRtt{false};
};

/// ns-3.17 TcpWestwood's fast-recovery windows (its DupAck and NewAck, Gangadhar et al. Sec.
/// 3.2): at the third duplicate ACK cwnd = min(cwnd, ssthresh), not inflated by the three
/// duplicates; +1 segment per further duplicate; cwnd = ssthresh on leaving recovery. Only
/// with --recovery=ns317 (a sensitivity run); the main runs use ns-3.44's TcpClassicRecovery
/// (cwnd = ssthresh + 3 segments at entry).
class Ns317WestwoodRecovery : public TcpClassicRecovery
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("twin::Ns317WestwoodRecovery")
                                .SetParent<TcpClassicRecovery>()
                                .SetGroupName("Internet")
                                .AddConstructor<Ns317WestwoodRecovery>();
        return tid;
    }

    Ns317WestwoodRecovery() = default;

    Ns317WestwoodRecovery(const Ns317WestwoodRecovery& other)
        : TcpClassicRecovery(other)
    {
    }

    std::string GetName() const override
    {
        return "Ns317WestwoodRecovery";
    }

    void EnterRecovery(Ptr<TcpSocketState> tcb, uint32_t, uint32_t, uint32_t) override
    {
        tcb->m_cWnd = std::min(tcb->m_cWnd.Get(), tcb->m_ssThresh.Get());
        tcb->m_cWndInfl = tcb->m_cWnd;
    }

    Ptr<TcpRecoveryOps> Fork() override
    {
        return CopyObject<Ns317WestwoodRecovery>(this);
    }
};

/// ns-3.17 TcpWestwood's fast-recovery windows measured as ns-3.17 measured them (--recovery=
/// ns317window, a diagnostic of the Westwood+ gap, README "fig7: the Westwood+ gap"). ns-3.17
/// sent while SND.NXT - SND.UNA < cwnd, cwnd = min(cwnd, ssthresh) at the third duplicate ACK
/// plus one segment per further one; ns-3.44 sends while its RFC 6675 pipe < cWnd, and without
/// SACK the pipe is SND.NXT - SND.UNA less one segment per duplicate ACK (each emulates a SACKed
/// segment; the lost head is out and its retransmission in). Holding cWnd at min(cwnd,
/// ssthresh) - 3 segments through the recovery gives ns-3.17's condition: pipe < cWnd iff
/// SND.NXT - SND.UNA < min(cwnd, ssthresh) + (dupacks - 3) segments. cWnd = ssthresh on leaving
/// (ns-3.44's socket, as ns-3.17's NewAck). Partial ACKs stay ns-3.44's (NewReno).
class Ns317WindowRecovery : public TcpClassicRecovery
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("twin::Ns317WindowRecovery")
                                .SetParent<TcpClassicRecovery>()
                                .SetGroupName("Internet")
                                .AddConstructor<Ns317WindowRecovery>();
        return tid;
    }

    Ns317WindowRecovery() = default;

    Ns317WindowRecovery(const Ns317WindowRecovery& other)
        : TcpClassicRecovery(other)
    {
    }

    std::string GetName() const override
    {
        return "Ns317WindowRecovery";
    }

    void EnterRecovery(Ptr<TcpSocketState> tcb, uint32_t dupAckCount, uint32_t, uint32_t) override
    {
        const uint32_t entry = std::min(tcb->m_cWnd.Get(), tcb->m_ssThresh.Get());
        const uint32_t held = dupAckCount * tcb->m_segmentSize;
        tcb->m_cWnd = std::max(entry > held ? entry - held : 0, tcb->m_segmentSize);
        tcb->m_cWndInfl = entry;
    }

    void DoRecovery(Ptr<TcpSocketState> tcb, uint32_t, bool) override
    {
        tcb->m_cWndInfl += tcb->m_segmentSize; // the trace's ns-3.17 cwnd; the socket's cWnd stays
    }

    Ptr<TcpRecoveryOps> Fork() override
    {
        return CopyObject<Ns317WindowRecovery>(this);
    }
};

struct Point
{
    std::string name;    //!< as printed in RESULT lines
    std::string variant; //!< reno | westwood | westwood_plus
    uint32_t delack{2};  //!< TcpSocket::DelAckCount
    uint32_t mss{400};   //!< TcpSocket::SegmentSize (payload bytes)
    double per{0.005};   //!< packet error rate, each direction of the bottleneck
    std::string rate{"2Mbps"}; //!< the bottleneck's rate (fig7 sweeps it)
};

struct Options
{
    double duration{600};
    std::string recovery{"classic"};
    bool ns317Rto{false}; //!< ns-3.17's RTT sampling and RTO back-off (lib/ns317_rto.h)
    bool ns317Count{false}; //!< ns-3.17's CountAck for Westwood's and Westwood+'s samples
    bool ns317Rtt{false};   //!< Westwood+ samples over ns-3.17's m_lastRtt (needs ns317Count)
    bool newestRtt{false};  //!< Westwood+ samples over the newest segment's raw RTT (ditto)
};

inline std::string PerText(double per)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", per);
    return buf;
}

/// The TCP defaults of every socket: ns-3.17's (tcpsim's main reading, NS3_TCP in
/// gangadhar/common.py) with the point's variant, segment size and delayed-ACK count, then the
/// TWIN_SET overrides.
inline void ConfigureTcp(const Point& p, const Options& o)
{
    TypeId socket = p.variant == "reno"       ? TcpNewReno::GetTypeId()
                    : p.variant == "westwood" ? TwinWestwood::GetTypeId()
                    : o.ns317Count            ? Ns317CountWestwoodPlus::GetTypeId()
                                              : TcpWestwoodPlus::GetTypeId();
    if (p.variant == "westwood")
    {
        Config::SetDefault("twin::TwinWestwood::Ns317Count", BooleanValue(o.ns317Count));
    }
    if ((o.ns317Rtt || o.newestRtt) && !(o.ns317Count && o.ns317Rto && o.ns317Rtt != o.newestRtt))
    {
        std::cerr << "--ns317-rtt or --newest-rtt (one) needs --ns317-count and --ns317-rto\n";
        std::exit(2);
    }
    if (o.ns317Rtt || o.newestRtt)
    {
        Ns317CountWestwoodPlus::GetTypeId(); // registers the attributes
        Config::SetDefault("twin::Ns317CountWestwoodPlus::Ns317Rtt", BooleanValue(o.ns317Rtt));
        Config::SetDefault("twin::Ns317CountWestwoodPlus::NewestRtt", BooleanValue(o.newestRtt));
    }
    if (p.variant != "reno" && p.variant != "westwood" && p.variant != "westwood_plus")
    {
        std::cerr << "unknown variant " << p.variant << "\n";
        std::exit(2);
    }
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(socket));
    TypeId recovery = p.variant == "reno"          ? TcpClassicRecovery::GetTypeId()
                      : o.recovery == "ns317"        ? Ns317WestwoodRecovery::GetTypeId()
                      : o.recovery == "ns317window" ? Ns317WindowRecovery::GetTypeId()
                                                     : TcpClassicRecovery::GetTypeId();
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(recovery));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(p.mss));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(p.delack));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::InitialSlowStartThreshold", UintegerValue(65535));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(131072));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(131072));
    // ns-3.17 never gave up on a segment; ns-3.44 aborts after DataRetries (6) timeouts.
    Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(1000000));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false)); // 65 535 B
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false)); // 20-byte header
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(false));
    Config::SetDefault("ns3::TcpWestwoodPlus::FilterType", EnumValue(TcpWestwoodPlus::TUSTIN));

    // Sensitivity runs: TWIN_SET="ns3::A::B=value;..." overrides any of the defaults above.
    twin::ApplyTwinSet();
}

/// Runs one point of the lossy link with RNG run `k`; prints its RESULT lines.
inline void RunPoint(const Point& p, uint32_t k, const Options& o)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(k);
    ConfigureTcp(p, o);

    // --- topology ---
    NodeContainer nodes;
    nodes.Create(3); // 0 source, 1 router, 2 sink
    PointToPointHelper access = P2pLink("10Mbps", "45ms", "1000p");
    PointToPointHelper lossy = P2pLink(p.rate, "0.01ms", "1000p");
    NetDeviceContainer a = access.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer b = lossy.Install(nodes.Get(1), nodes.Get(2));
    // The router's buffer: 100 packets drop-tail on its bottleneck device.
    b.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue()->SetMaxSize(QueueSize("100p"));
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(p.per);
        b.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.1.0", "255.255.255.0");
    addr.Assign(a);
    addr.SetBase("10.0.2.0", "255.255.255.0");
    Ipv4InterfaceContainer sinkIf = addr.Assign(b);
    // No queue discs: packets go straight to the device queues (ns-3.17 had no traffic control).
    TrafficControlHelper tch;
    tch.Uninstall(a);
    tch.Uninstall(b);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<PacketSink> sink = BulkFlow(nodes.Get(0), nodes.Get(2), sinkIf.GetAddress(1), 5000, p.mss, Seconds(0));
    if (o.ns317Rto)
    {
        InstallNs317Rto(nodes.Get(0));
    }

    // Drop counters: the traffic-control layer drops a packet when the device queue is full
    // (stopped) and no queue disc is installed; the receive error model's drops are PhyRxDrop.
    static uint64_t tcDrops[3];
    static uint64_t errorDrops;
    tcDrops[0] = tcDrops[1] = tcDrops[2] = errorDrops = 0;
    for (uint32_t n = 0; n < 3; ++n)
    {
        NS_ABORT_UNLESS(nodes.Get(n)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop",
            MakeBoundCallback(+[](uint32_t node, Ptr<const Packet>) {
                ++tcDrops[node];
                if (std::getenv("TWIN_TRACE"))
                {
                    std::fprintf(stderr, "%.4f tc_drop node %u\n", Simulator::Now().GetSeconds(), node);
                }
            }, n)));
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        NS_ABORT_UNLESS(b.Get(i)->TraceConnectWithoutContext(
            "PhyRxDrop",
            MakeCallback(+[](Ptr<const Packet> pkt) {
                ++errorDrops;
                if (std::getenv("TWIN_TRACE"))
                {
                    std::fprintf(stderr, "%.4f error_drop %u\n", Simulator::Now().GetSeconds(), pkt->GetSize());
                }
            })));
    }
    if (std::getenv("TWIN_TRACE"))
    {
        // Diagnostic: congestion states, and Westwood+'s estimate at each change and each loss.
        InstallWestwoodTrace(nodes.Get(0));
        // Diagnostic: cwnd and ssthresh changes, router drops, to stderr.
        Simulator::Schedule(Seconds(0.5), [] {
            Config::ConnectWithoutContext(
                "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
                MakeCallback(+[](uint32_t, uint32_t v) {
                    std::fprintf(stderr, "%.4f cwnd %u\n", Simulator::Now().GetSeconds(), v);
                }));
            Config::ConnectWithoutContext(
                "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/SlowStartThreshold",
                MakeCallback(+[](uint32_t, uint32_t v) {
                    std::fprintf(stderr, "%.4f ssthresh %u\n", Simulator::Now().GetSeconds(), v);
                }));
            Config::ConnectWithoutContext(
                "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/RTO",
                MakeCallback(+[](Time, Time v) {
                    std::fprintf(stderr, "%.4f rto %.3f\n", Simulator::Now().GetSeconds(), v.GetSeconds());
                }));
        });
        NS_ABORT_UNLESS(b.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue()->TraceConnectWithoutContext(
            "Drop",
            MakeCallback(+[](Ptr<const Packet>) {
                std::fprintf(stderr, "%.4f router_drop\n", Simulator::Now().GetSeconds());
            })));
    }
    Simulator::Stop(Seconds(o.duration));
    Simulator::Run();
    const uint64_t rx = sink->GetTotalRx();
    const uint32_t routerDrops =
        b.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue()->GetTotalDroppedPackets();
    const uint32_t sourceDrops =
        a.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue()->GetTotalDroppedPackets();
    Simulator::Destroy();
    std::printf("RESULT %s throughput_mbps %.6f\n", p.name.c_str(), rx * 8.0 / o.duration / 1e6);
    std::printf("RESULT %s router_drops %lu\n", p.name.c_str(), (unsigned long)(routerDrops + tcDrops[1]));
    std::printf("RESULT %s source_drops %lu\n", p.name.c_str(), (unsigned long)(sourceDrops + tcDrops[0]));
    std::printf("RESULT %s error_drops %lu\n", p.name.c_str(), (unsigned long)errorDrops);
}

/// The twin's main(): `list`, or `<point> <k> [--duration=S] [--recovery=...] [--ns317-rto]
/// [--ns317-count]`;
/// `run` runs one point (the lossy link's by default).
inline int Main(int argc,
                char** argv,
                const std::vector<Point>& points,
                void (*run)(const Point&, uint32_t, const Options&) = RunPoint)
{
    if (argc == 2 && std::string(argv[1]) == "list")
    {
        for (const auto& p : points)
        {
            std::printf("%s\n", p.name.c_str());
        }
        return 0;
    }
    if (argc < 3)
    {
        std::cerr << "usage: " << argv[0]
                  << " list | <point> <k> [--duration=S] [--recovery=classic|ns317|ns317window] [--ns317-rto]"
                     " [--ns317-count] [--ns317-rtt|--newest-rtt]\n";
        return 2;
    }
    Options o;
    for (int i = 3; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--duration=", 0) == 0)
        {
            o.duration = std::stod(arg.substr(11));
        }
        else if (arg.rfind("--recovery=", 0) == 0)
        {
            o.recovery = arg.substr(11);
        }
        else if (arg == "--ns317-rto")
        {
            o.ns317Rto = true;
        }
        else if (arg == "--ns317-count")
        {
            o.ns317Count = true;
        }
        else if (arg == "--ns317-rtt")
        {
            o.ns317Rtt = true;
        }
        else if (arg == "--newest-rtt")
        {
            o.newestRtt = true;
        }
        else
        {
            std::cerr << "unknown option " << arg << "\n";
            return 2;
        }
    }
    for (const auto& p : points)
    {
        if (p.name == argv[1])
        {
            run(p, static_cast<uint32_t>(std::stoul(argv[2])), o);
            return 0;
        }
    }
    std::cerr << "unknown point " << argv[1] << "\n";
    return 2;
}

} // namespace twin

#endif
