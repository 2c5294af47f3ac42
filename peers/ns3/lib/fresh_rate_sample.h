// The bbr twin's `--fresh-rate-sample` sensitivity variant: ns-3.44's TcpRateLinux with one
// change, its rate sample started afresh on every ACK, as Linux does (tcp_ack builds a new
// `struct rate_sample` per ACK, prior_delivered = 0) and as the delivery-rate draft and the BBR
// draft specify (draft-cheng-iccrg-delivery-rate-estimation 3.3: the sample takes the
// "prior" stamps of the most recently sent packet this ACK delivers; draft-ietf-ccwg-bbr:
// the rate sample is initialised once per ACK).
//
// ns-3.44 keeps the sample in a member across ACKs and replaces its prior stamps only by those
// of a segment sent at a larger delivered count than the previous ACK's. When two successive
// ACKs deliver segments sent between the same two earlier ACKs, the second keeps the first's
// prior stamps and ack_elapsed, so its delivered count grows while its interval does not: a
// rate above the bottleneck's (docs/ns3-comparison/bbr.md). Here the prior delivered count and
// time are cleared after each sample, so each ACK takes its own newest segment's stamps, and
// an ACK that delivers nothing gives an invalid sample (prior time zero), as in Linux.
#pragma once

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include "lib/socket_rate_ops.h"

namespace twin
{

/// TcpRateLinux keeps its sample private; an explicit instantiation may name a private member
/// ([temp.explicit]), so this template hands its address to a friend function.
using RateSampleMember = ns3::TcpRateOps::TcpRateSample ns3::TcpRateLinux::*;
RateSampleMember RateSampleOfTcpRateLinux();

template <RateSampleMember M>
struct RateSampleAccess
{
    friend RateSampleMember RateSampleOfTcpRateLinux()
    {
        return M;
    }
};

template struct RateSampleAccess<&ns3::TcpRateLinux::m_rateSample>;

/// TcpRateLinux whose sample's prior stamps do not outlive the ACK that produced it.
class FreshRateSample : public ns3::TcpRateLinux
{
  public:
    const TcpRateSample& GenerateSample(uint32_t delivered,
                                        uint32_t lost,
                                        bool isSackReneg,
                                        uint32_t priorInFlight,
                                        const ns3::Time& minRtt) override
    {
        m_sample = ns3::TcpRateLinux::GenerateSample(delivered, lost, isSackReneg, priorInFlight, minRtt);
        TcpRateSample& own = this->*RateSampleOfTcpRateLinux();
        own.m_priorDelivered = 0;
        own.m_priorTime = ns3::Seconds(0);
        return m_sample;
    }

  private:
    TcpRateSample m_sample; ///< the sample returned, as it was before the reset
};

/// Replaces the rate estimator of `socket` (before it has sent data) by a FreshRateSample.
inline void
UseFreshRateSample(ns3::Ptr<ns3::Socket> socket)
{
    SocketRateOps::Of(*ns3::DynamicCast<ns3::TcpSocketBase>(socket)) = ns3::CreateObject<FreshRateSample>();
}

} // namespace twin
