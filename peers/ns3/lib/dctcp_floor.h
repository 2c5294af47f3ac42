// Sensitivity class for the incast and fat-tree twins: ns-3.44's TcpDctcp with the window
// reduction floored at two segments. RFC 8257 §3.3 step 9 (and Linux `dctcp_ssthresh`,
// tcpsim's `dctcp`) reduce cwnd to max(cwnd·(1 − α/2), 2·SMSS); ns-3.44's
// `TcpDctcp::GetSsThresh` returns (1 − α/2)·cwnd with no floor, so its window can fall below
// two segments (one segment in flight waits for the delayed-ACK timer) or below one (nothing
// sent until the retransmission timer). Used as variant "dctcp_floor"; not the main reading.
#pragma once
#include "ns3/internet-module.h"

#include <algorithm>

namespace ns3
{
class TwinDctcpFloor : public TcpDctcp
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("twin::TwinDctcpFloor")
                                .SetParent<TcpDctcp>()
                                .SetGroupName("Internet")
                                .AddConstructor<TwinDctcpFloor>();
        return tid;
    }

    TwinDctcpFloor() = default;

    TwinDctcpFloor(const TwinDctcpFloor& other) = default;

    std::string GetName() const override
    {
        return "TwinDctcpFloor";
    }

    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override
    {
        return std::max(TcpDctcp::GetSsThresh(tcb, bytesInFlight), 2 * tcb->m_segmentSize);
    }

    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<TwinDctcpFloor>(this);
    }
};
} // namespace ns3
