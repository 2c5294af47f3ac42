// A TcpSocketBase's delivery-rate estimator (its protected m_rateOps, which ns-3.44 exposes
// neither as an attribute nor through an accessor): read by lib/rate_trace.h, replaced by
// lib/fresh_rate_sample.h. A pointer to a protected member may be formed through a derived
// class, which is all this does.
#pragma once

#include "ns3/internet-module.h"

namespace twin
{

struct SocketRateOps : ns3::TcpSocketBase
{
    static ns3::Ptr<ns3::TcpRateOps>& Of(ns3::TcpSocketBase& socket)
    {
        return socket.*(&SocketRateOps::m_rateOps);
    }
};

} // namespace twin
