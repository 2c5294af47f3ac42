// The single-bottleneck path of the bbr, cubic, codel and pie twins, and the bulk flows on it:
//
//   sender --edge-- r1 --neck-- r2 --edge-- receiver      (nodes 0, 1, 2, 3)
//
// Links are point-to-point (PPP, 2 bytes a packet); addresses 10.0.1.0/24 (access),
// 10.0.2.0/24 (bottleneck), 10.0.3.0/24 (egress). Each twin decides the queue discs: install
// them after MakeBottleneckPath and before AddressBottleneckPath (the address helper installs
// ns-3's default queue disc on a device that has none), or remove them after
// (RemoveQueueDiscs: the device queues are then the buffers, as tcpsim's links).
#pragma once

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdint>
#include <string>

namespace twin
{

struct BottleneckPath
{
    ns3::NodeContainer nodes;
    ns3::NetDeviceContainer access;     ///< sender - r1
    ns3::NetDeviceContainer bottleneck; ///< r1 - r2; device 0 is r1's
    ns3::NetDeviceContainer egress;     ///< r2 - receiver
};

/// A point-to-point link helper: `rate`, `delay`, and a drop-tail device queue of `queue`
/// (ns-3 strings: "10Mbps", "18ms", "1000p" or "50000B").
inline ns3::PointToPointHelper
P2pLink(const std::string& rate, const std::string& delay, const std::string& queue)
{
    ns3::PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", ns3::StringValue(rate));
    link.SetChannelAttribute("Delay", ns3::StringValue(delay));
    link.SetQueue("ns3::DropTailQueue", "MaxSize", ns3::StringValue(queue));
    return link;
}

/// The four nodes, the three links (`edge` at both ends) and the internet stack on every node.
inline BottleneckPath
MakeBottleneckPath(ns3::PointToPointHelper& edge, ns3::PointToPointHelper& neck)
{
    BottleneckPath p;
    p.nodes.Create(4);
    p.access = edge.Install(p.nodes.Get(0), p.nodes.Get(1));
    p.bottleneck = neck.Install(p.nodes.Get(1), p.nodes.Get(2));
    p.egress = edge.Install(p.nodes.Get(2), p.nodes.Get(3));
    ns3::InternetStackHelper stack;
    stack.Install(p.nodes);
    return p;
}

/// Assigns the three subnets and fills the routing tables; returns the receiver's address.
inline ns3::Ipv4Address
AddressBottleneckPath(const BottleneckPath& p)
{
    ns3::Ipv4AddressHelper addr;
    addr.SetBase("10.0.1.0", "255.255.255.0");
    addr.Assign(p.access);
    addr.SetBase("10.0.2.0", "255.255.255.0");
    addr.Assign(p.bottleneck);
    addr.SetBase("10.0.3.0", "255.255.255.0");
    ns3::Ipv4Address receiver = addr.Assign(p.egress).GetAddress(1);
    ns3::Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    return receiver;
}

/// Removes the queue discs of all three links (after AddressBottleneckPath).
inline void
RemoveQueueDiscs(const BottleneckPath& p)
{
    ns3::TrafficControlHelper tch;
    tch.Uninstall(p.access);
    tch.Uninstall(p.bottleneck);
    tch.Uninstall(p.egress);
}

/// A BulkSendApplication on `from` writing `sendSize`-byte chunks without end from `start`, to a
/// PacketSink on `to` at `address`:`port` (listening from t = 0); returns the sink.
inline ns3::Ptr<ns3::PacketSink>
BulkFlow(ns3::Ptr<ns3::Node> from,
         ns3::Ptr<ns3::Node> to,
         ns3::Ipv4Address address,
         uint16_t port,
         uint32_t sendSize,
         ns3::Time start)
{
    using namespace ns3;
    BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(address, port));
    source.SetAttribute("MaxBytes", UintegerValue(0));
    source.SetAttribute("SendSize", UintegerValue(sendSize));
    ApplicationContainer src = source.Install(from);
    src.Start(start);
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer snk = sinkHelper.Install(to);
    snk.Start(Seconds(0));
    return DynamicCast<PacketSink>(snk.Get(0));
}

} // namespace twin
