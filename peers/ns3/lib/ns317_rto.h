// --ns317-rto: ns-3.17's RTT sampling and RTO back-off in ns-3.44, without rebuilding ns-3
// (peers/ns3/README.md, "ns-3.17's RTO rules").
//
// ns-3.44 differs from ns-3.17 in three rules that decide whether a lone segment's delayed ACK
// (200 ms timer) can arrive before the RTO fires:
//  (a) ns-3.44's SendEmptyPacket enters the SYN in the RTT history, so the SYN-ACK gives the
//      first sample; ns-3.17 logged only data segments (RttEstimator::SentSeq from
//      SendDataPacket), so its first data RTO was the 1 s initial estimate;
//  (b) ns-3.44's ReTxTimeout doubles m_rto, but NewAck recomputes it from the estimator
//      (srtt + 4 rttvar) on every new ACK, dropping the back-off; ns-3.17's RTO was the
//      estimator's value times a multiplier that Retransmit doubled (IncreaseMultiplier, capped
//      at MaxMultiplier = 64) and only a valid (Karn) sample reset (RttEstimator::AckSeq);
//  (c) ns-3.17's RttMeanDeviation had one gain, 0.1, for the mean and the deviation, and took
//      the first sample as the deviation too (first RTO 5 RTT); ns-3.44's uses RFC 6298's 1/8
//      and 1/4 and half the first sample (first RTO 3 RTT).
// Ns317RttEstimator is ns-3.17's RttMeanDeviation with (a) and (b): it ignores the samples
// taken before its socket is ESTABLISHED, watches the socket's RTO trace for the doubling of a
// timeout to double its multiplier, resets the multiplier on a valid sample, and publishes
// estimate and variation such that the socket's own formula max(srtt + max(G, 4 rttvar),
// MinRto) yields multiplier x that value, so NewAck keeps the back-off. What is left of ns-3.44:
// the clock granularity G (1 ms) and no truncation to whole milliseconds (ns-3.17 summed srtt
// and 4 rttvar in ms), and a back-off beyond 64 x that lasts until the next new ACK (the socket
// doubles its own timer, up to 60 s).
//
#ifndef TCPSIM_PEERS_NS3_NS317_RTO_H
#define TCPSIM_PEERS_NS3_NS317_RTO_H

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace twin
{

/// A TcpSocketBase's congestion state block (its protected m_tcb), whose RTTmin the estimator
/// lowers with each valid raw sample. A pointer to a protected member may be formed through a
/// derived class, which is all this does.
struct SocketTcb : ns3::TcpSocketBase
{
    static ns3::Ptr<ns3::TcpSocketState>& Of(ns3::TcpSocketBase& socket)
    {
        return socket.*(&SocketTcb::m_tcb);
    }
};

/// The last valid raw RTT sample the estimator below took (ns-3.17's `m_lastRtt`: `AckSeq`'s
/// sample of the oldest segment an ACK covers, kept over ACKs without one); zero before the
/// first. Read by the Westwood+ of lib/lossy_link.h with --ns317-rtt.
inline ns3::Time& Ns317LastRtt()
{
    static ns3::Time last;
    return last;
}

/// ns-3.17's RTT estimator and RTO back-off (src/internet/model/rtt-estimator.cc of ns-3.17:
/// RttMeanDeviation::Measurement, RetransmitTimeout, AckSeq, IncreaseMultiplier) behind ns-3.44's
/// RttEstimator interface; see the top of this file.
class Ns317RttEstimator : public ns3::RttEstimator
{
  public:
    static ns3::TypeId GetTypeId()
    {
        static ns3::TypeId tid = ns3::TypeId("twin::Ns317RttEstimator")
                                     .SetParent<ns3::RttEstimator>()
                                     .SetGroupName("Internet")
                                     .AddConstructor<Ns317RttEstimator>();
        return tid;
    }

    Ns317RttEstimator()
    {
        Keep();
    }

    /// A copy (a listening socket's fork) is not attached: it takes every sample.
    Ns317RttEstimator(const Ns317RttEstimator& other)
        : RttEstimator(other),
          m_srtt(other.m_srtt),
          m_rttvar(other.m_rttvar),
          m_multiplier(other.m_multiplier)
    {
    }

    ns3::TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    /// Installs this estimator on `socket` (before its SYN-ACK arrives) and follows its state and
    /// RTO; the socket's MinRto and ClockGranularity enter the published values.
    void Attach(ns3::Ptr<ns3::TcpSocketBase> socket)
    {
        using namespace ns3;
        m_socket = PeekPointer(socket);
        TimeValue v;
        socket->GetAttribute("MinRto", v);
        m_minRto = v.Get();
        socket->GetAttribute("ClockGranularity", v);
        m_granularity = v.Get();
        m_established = false;
        NS_ABORT_UNLESS(
            socket->TraceConnectWithoutContext("State", MakeCallback(&Ns317RttEstimator::OnState, this)));
        NS_ABORT_UNLESS(
            socket->TraceConnectWithoutContext("RTO", MakeCallback(&Ns317RttEstimator::OnRto, this)));
        socket->SetRtt(ns3::Ptr<ns3::RttEstimator>(this));
        Publish();
    }

    /// A valid (Karn) sample: ns-3.17's AckSeq measured it and reset the multiplier. Samples
    /// before the handshake completes are the SYN's, which ns-3.17 never took.
    void Measurement(ns3::Time m) override
    {
        if (m_socket != nullptr && !m_established)
        {
            return;
        }
        // ns-3.17's RttMeanDeviation::Measurement.
        if (m_nSamples > 0)
        {
            const ns3::Time err = m - m_srtt;
            m_srtt += ns3::Seconds(err.GetSeconds() * kGain);
            m_rttvar += ns3::Seconds((ns3::Abs(err) - m_rttvar).GetSeconds() * kGain);
        }
        else
        {
            m_srtt = m;
            m_rttvar = m;
        }
        ++m_nSamples;
        Ns317LastRtt() = m;
        if (m_multiplier > 1 && Tracing())
        {
            std::fprintf(stderr,
                         "%.4f ns317 valid_sample %.3f resets multiplier %u\n",
                         ns3::Simulator::Now().GetSeconds(),
                         m.GetSeconds(),
                         m_multiplier);
        }
        m_multiplier = 1;
        if (m_socket != nullptr)
        {
            ns3::Ptr<ns3::TcpSocketState> tcb = SocketTcb::Of(*m_socket);
            tcb->m_minRtt = std::min(tcb->m_minRtt, m);
        }
        Publish();
    }

    ns3::Ptr<ns3::RttEstimator> Copy() const override
    {
        return ns3::CopyObject<Ns317RttEstimator>(this);
    }

    void Reset() override
    {
        RttEstimator::Reset();
        Keep();
        m_multiplier = 1;
        Publish();
    }

  private:
    static constexpr uint32_t kMaxMultiplier = 64; //!< ns-3.17's RttEstimator::MaxMultiplier
    static constexpr double kGain = 0.1;           //!< ns-3.17's RttMeanDeviation::Gain

    static bool Tracing()
    {
        return std::getenv("TWIN_TRACE") != nullptr;
    }

    /// Takes the base class's values (initial estimate, no deviation) as the estimator's own.
    void Keep()
    {
        m_srtt = m_estimatedRtt;
        m_rttvar = m_estimatedVariation;
    }

    /// The RTO the socket derives from estimate and variation (RFC 6298 2.2-2.4 as ns-3.44).
    ns3::Time SocketRto(ns3::Time estimate, ns3::Time variation) const
    {
        return std::max(estimate + std::max(m_granularity, variation * 4), m_minRto);
    }

    /// Publishes estimate and variation so that the socket computes multiplier x base RTO. With
    /// no back-off the true values (the socket reads the estimate as srtt after a sample).
    void Publish()
    {
        m_estimatedRtt = m_srtt;
        m_estimatedVariation = m_rttvar;
        if (m_multiplier > 1)
        {
            const ns3::Time base = SocketRto(m_srtt, m_rttvar);
            m_estimatedRtt = base * m_multiplier - std::max(m_granularity, m_rttvar * 4);
        }
        m_implied = SocketRto(m_estimatedRtt, m_estimatedVariation);
    }

    void OnState(ns3::TcpSocket::TcpStates_t, ns3::TcpSocket::TcpStates_t now)
    {
        m_established |= now == ns3::TcpSocket::ESTABLISHED;
    }

    /// ns-3.44's ReTxTimeout sets m_rto = min(2 m_rto, 60 s); every other change of m_rto is a
    /// recomputation from the published values (m_implied).
    void OnRto(ns3::Time old, ns3::Time now)
    {
        if (!m_established || now == m_implied || now != std::min(old + old, ns3::Seconds(60)))
        {
            return;
        }
        m_multiplier = std::min(2 * m_multiplier, kMaxMultiplier);
        Publish();
        if (Tracing())
        {
            std::fprintf(stderr,
                         "%.4f ns317 timeout multiplier %u rto %.3f (socket %.3f)\n",
                         ns3::Simulator::Now().GetSeconds(),
                         m_multiplier,
                         m_implied.GetSeconds(),
                         now.GetSeconds());
        }
    }

    ns3::Time m_srtt;   //!< the estimator's smoothed RTT
    ns3::Time m_rttvar; //!< the estimator's RTT variation
    uint32_t m_multiplier{1};
    ns3::TcpSocketBase* m_socket{nullptr}; //!< the socket that owns this estimator, if attached
    bool m_established{false};
    ns3::Time m_minRto;
    ns3::Time m_granularity;
    ns3::Time m_implied; //!< the RTO the socket computes from the published values
};

/// Installs an Ns317RttEstimator on every TCP socket of `node` at 1 ms, after the sender's SYN
/// left (BulkSend connects at t = 0) and long before its SYN-ACK can return (90 ms path).
inline void InstallNs317Rto(ns3::Ptr<ns3::Node> node)
{
    using namespace ns3;
    Simulator::Schedule(MilliSeconds(1), [node] {
        ObjectVectorValue sockets;
        node->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", sockets);
        for (auto it = sockets.Begin(); it != sockets.End(); ++it)
        {
            if (Ptr<TcpSocketBase> socket = DynamicCast<TcpSocketBase>(it->second))
            {
                CreateObject<Ns317RttEstimator>()->Attach(socket);
            }
        }
    });
}

} // namespace twin

#endif
