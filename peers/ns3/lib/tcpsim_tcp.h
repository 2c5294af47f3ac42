// tcpsim's default TCP, as the AQM twins (codel, pie, fq_codel) set it in ns-3.44: NewReno with
// classic recovery (RFC 6582), no SACK, no timestamps (40 header bytes), initial window 2,
// delayed ACKs every 2 segments or 200 ms, minimum RTO 1 s, limited transmit (RFC 3042), window
// scaling and 64 MiB socket buffers (tcpsim: a 1 GiB receive window; neither limits here).
#pragma once

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <cstdint>

namespace twin
{

/// Sets the attribute defaults for `segment`-byte segments; a twin's own come after.
inline void
TcpsimTcp(uint32_t segment)
{
    using namespace ns3;
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
}

} // namespace twin
