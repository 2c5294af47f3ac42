// Optional trace of the delivery-rate samples a sender's congestion control is given, for the
// bbr twin's `--trace-rate` flag (docs/ns3-comparison/bbr.md). One line per ACK that produced a
// sample (ns-3's TcpRateLinux fires its TcpRateSampleUpdated trace both while it walks the newly
// delivered segments and once more with the finished sample; the finished one is the last of an
// ACK's event, so the line is printed once that event is over):
//
//   TRACE rate <time s> <delivered B> <interval us> <send_elapsed us> <ack_elapsed us>
//              <prior_delivered B> <prior_time s> <app_limited 0|1> <rate bps> <new_prior 0|1>
//              <ack_elapsed_now us>
//
// rate is TcpRateLinux's delivery rate, 0 for an invalid sample (delivered < 0 or interval 0).
// new_prior is 0 when prior_delivered equals the previous ACK's: this ACK's newest delivered
// segment was sent at the same delivered count as the previous ACK's, and ns-3.44's estimator
// then keeps the previous ACK's prior stamps and ack_elapsed instead of taking its own
// (lib/fresh_rate_sample.h). ack_elapsed_now is now − prior_time, the ACK phase this ACK's
// delivered count spans (draft-cheng-iccrg-delivery-rate-estimation 3.3: ack_elapsed runs to
// the ACK that generates the sample).
//
// And, after each event that changed the pacing rate or the pacing gain of a TcpBbr sender:
//
//   TRACE pacing <time s> <pacing bps> <gain> <btlbw bps>
//
// btlbw = pacing / (gain × 0.99): TcpBbr's windowed-max bandwidth (which it does not expose),
// valid once its pipe is full (ns-3.44 sets pacing = gain × max-filter bandwidth × (1 − 1 %)).
#pragma once

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include "lib/socket_rate_ops.h"

#include <cstdio>

namespace twin
{

/// Connects the trace to `socket` (a TcpSocketBase using TcpRateLinux and TcpBbr).
inline void
TraceRate(ns3::Ptr<ns3::Socket> socket)
{
    using namespace ns3;
    static TcpRateOps::TcpRateSample last;
    static bool sampled = false; // a sample was traced during the current event
    static bool pacingChanged = false;
    static bool flushPending = false;
    static uint32_t previousPrior = 0;
    static double pacingBps = 0;
    static double gain = 0;
    // Prints what the current event (an ACK's processing) left: runs once it is over.
    static void (*flush)() = +[] {
        flushPending = false;
        if (sampled)
        {
            sampled = false;
            const bool valid = last.m_delivered >= 0 && !last.m_interval.IsZero();
            const bool newPrior = last.m_priorDelivered != previousPrior;
            previousPrior = last.m_priorDelivered;
            std::printf("TRACE rate %.6f %d %ld %ld %ld %u %.6f %d %.0f %d %ld\n",
                        Simulator::Now().GetSeconds(),
                        last.m_delivered,
                        static_cast<long>(last.m_interval.GetMicroSeconds()),
                        static_cast<long>(last.m_sendElapsed.GetMicroSeconds()),
                        static_cast<long>(last.m_ackElapsed.GetMicroSeconds()),
                        last.m_priorDelivered,
                        last.m_priorTime.GetSeconds(),
                        last.m_isAppLimited ? 1 : 0,
                        valid ? static_cast<double>(last.m_deliveryRate.GetBitRate()) : 0.0,
                        newPrior ? 1 : 0,
                        static_cast<long>((Simulator::Now() - last.m_priorTime).GetMicroSeconds()));
        }
        if (pacingChanged)
        {
            pacingChanged = false;
            const double btlbw = gain > 0 ? pacingBps / (gain * 0.99) : 0;
            std::printf("TRACE pacing %.6f %.0f %.4f %.0f\n", Simulator::Now().GetSeconds(), pacingBps, gain, btlbw);
        }
    };
    static void (*flushAfterEvent)() = +[] {
        if (!flushPending)
        {
            flushPending = true;
            Simulator::ScheduleNow(flush);
        }
    };
    auto base = DynamicCast<TcpSocketBase>(socket);
    SocketRateOps::Of(*base)->TraceConnectWithoutContext("TcpRateSampleUpdated",
                                                      MakeCallback(+[](const TcpRateOps::TcpRateSample& s) {
                                                          last = s;
                                                          sampled = true;
                                                          flushAfterEvent();
                                                      }));
    base->TraceConnectWithoutContext("PacingRate", MakeCallback(+[](DataRate, DataRate v) {
                                         pacingBps = v.GetBitRate();
                                         pacingChanged = true;
                                         flushAfterEvent();
                                     }));
    PointerValue cc;
    base->GetAttribute("CongestionOps", cc);
    cc.Get<TcpCongestionOps>()->TraceConnectWithoutContext("PacingGain", MakeCallback(+[](double, double v) {
                                                               gain = v;
                                                               pacingChanged = true;
                                                               flushAfterEvent();
                                                           }));
}

} // namespace twin
