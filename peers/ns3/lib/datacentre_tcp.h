// The TCP of the data-centre twins (dctcp, incast, fattree), tcpsim's data-centre set-up
// (docs/datacenter.md): 1460-byte segments, 20-byte TCP headers (no timestamps: 40 header
// bytes), no SACK, classic (NewReno) recovery, delayed ACKs every 2 segments or 40 ms, and no
// checksums (they cost time, not results). Each twin gives its own congestion control (for
// incast and fattree, from the variant DataCentreSocket names), initial window, socket buffers
// and minimum RTO.
#pragma once

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include "lib/dctcp_floor.h"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

namespace twin
{

/// The congestion control a variant names: "newreno" TcpNewReno, "dctcp" TcpDctcp (RFC 8257),
/// "dctcp_floor" TwinDctcpFloor (lib/dctcp_floor.h); exits with status 2 on any other.
inline ns3::TypeId
DataCentreSocket(const std::string& variant)
{
    if (variant == "newreno")
    {
        return ns3::TcpNewReno::GetTypeId();
    }
    if (variant == "dctcp")
    {
        return ns3::TcpDctcp::GetTypeId();
    }
    if (variant == "dctcp_floor")
    {
        return ns3::TwinDctcpFloor::GetTypeId();
    }
    std::cerr << "variant: dctcp, dctcp_floor or newreno\n";
    std::exit(2);
}

/// Sets the attribute defaults; a twin's own defaults and TWIN_SET come after.
inline void
DataCentreTcp(ns3::TypeId socket, uint32_t initialCwnd, uint32_t bufferBytes, ns3::Time minRto)
{
    using namespace ns3;
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(socket));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(bufferBytes));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(bufferBytes));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(minRto));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
}

} // namespace twin
