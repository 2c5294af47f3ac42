// TWIN_TRACE=1 diagnostics of the gangadhar twins' Westwood+ (peers/ns3/README.md): on stderr,
//   <s> state <OPEN|DISORDER|CWR|RECOVERY|LOSS>   each congestion-state change of the sender
//                                                 (RECOVERY: a fast retransmit, LOSS: a timeout)
//   <s> loss bwe <bit/s> min_rtt <s> srtt <s> cwnd <B>   at each entry into RECOVERY or LOSS, the
//                                                 values GetSsThresh is about to use
//   <s> bwe <bit/s>                               each change of TcpWestwoodPlus's EstimatedBW
//                                                 (twice per sample: the raw sample, then the
//                                                 filtered estimate)
// so that a run can be compared loss by loss with tcpsim's cwnd trace (bwe_bps, min_rtt_ns).
#ifndef TCPSIM_PEERS_NS3_WESTWOOD_TRACE_H
#define TCPSIM_PEERS_NS3_WESTWOOD_TRACE_H

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include "lib/ns317_rto.h"

#include <cstdio>

namespace twin
{

/// A TcpSocketBase's congestion control (its protected m_congestionControl), reached as
/// SocketTcb reaches m_tcb.
struct SocketCc : ns3::TcpSocketBase
{
    static ns3::Ptr<ns3::TcpCongestionOps>& Of(ns3::TcpSocketBase& socket)
    {
        return socket.*(&SocketCc::m_congestionControl);
    }
};

/// The last value of EstimatedBW (bit/s): after a sample's two changes, the filtered estimate.
inline double& LastBwe()
{
    static double bwe = 0;
    return bwe;
}

/// Connects the diagnostics above to every TCP socket of `node`, 1 ms after the start (after
/// the socket exists, before its SYN-ACK can return).
inline void InstallWestwoodTrace(ns3::Ptr<ns3::Node> node)
{
    using namespace ns3;
    Simulator::Schedule(MilliSeconds(1), [node] {
        ObjectVectorValue sockets;
        node->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", sockets);
        for (auto it = sockets.Begin(); it != sockets.End(); ++it)
        {
            Ptr<TcpSocketBase> socket = DynamicCast<TcpSocketBase>(it->second);
            if (socket == nullptr)
            {
                continue;
            }
            TcpSocketBase* raw = PeekPointer(socket);
            NS_ABORT_UNLESS(socket->TraceConnectWithoutContext(
                "CongState",
                MakeBoundCallback(
                    +[](TcpSocketBase* s, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
                        const double t = Simulator::Now().GetSeconds();
                        std::fprintf(stderr, "%.4f state %s\n", t, TcpSocketState::TcpCongStateName[now]);
                        if (now == TcpSocketState::CA_RECOVERY || now == TcpSocketState::CA_LOSS)
                        {
                            Ptr<TcpSocketState> tcb = SocketTcb::Of(*s);
                            std::fprintf(stderr,
                                         "%.4f loss bwe %.0f min_rtt %.6f srtt %.6f cwnd %u\n",
                                         t,
                                         LastBwe(),
                                         tcb->m_minRtt.GetSeconds(),
                                         tcb->m_srtt.Get().GetSeconds(),
                                         tcb->m_cWnd.Get());
                        }
                    },
                    raw)));
            if (auto w = DynamicCast<TcpWestwoodPlus>(SocketCc::Of(*socket)))
            {
                NS_ABORT_UNLESS(w->TraceConnectWithoutContext(
                    "EstimatedBW",
                    MakeCallback(+[](DataRate, DataRate now) {
                        LastBwe() = static_cast<double>(now.GetBitRate());
                        std::fprintf(stderr,
                                     "%.4f bwe %.0f\n",
                                     Simulator::Now().GetSeconds(),
                                     static_cast<double>(now.GetBitRate()));
                    })));
            }
        }
    });
}

} // namespace twin

#endif
