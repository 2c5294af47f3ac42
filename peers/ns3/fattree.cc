// ns-3.44 twin of tcpsim's k = 4 fat tree (`tcpsim.topologies.fat_tree` defaults) carrying
// all-to-all web-search transfers at a target load (the `[[web]]` generator with
// `hosts = [...]`, `arrivals = {process = "poisson", load = L}`, `sizes = {dist = "web_search"}`).
//
//   16 hosts h_p<p>_e<e>_<i>, 8 edge, 8 aggregation and 4 core switches (Al-Fares et al.,
//   SIGCOMM 2008, Sec. 3.2); every link 10 Gb/s, 10 us; nodes and links created in tcpsim's
//   order (hosts' links, then edge–aggregation, then aggregation–core, pod by pod).
//
// Usage: fattree <dctcp|newreno|dctcp_floor> --cdf=python/tcpsim/workloads/web_search.cdf
//                [--load=0.6] [--duration=0.25] [--k=65] [--minrto=10] [--run=1] [--ecmp=random|none]
// Prints one line per transfer:
//   FCT <id> <src host> <dst host> <bytes> <arrival_s> <start_s> <end_s>     (completed)
//   UNFINISHED <id> <src host> <dst host> <bytes> <arrival_s>
// (arrival: the generator's draw, when ns-3 opens the connection; start: the connection
// established at the sender, its data leaving (tcpsim's FCT starts at the first segment, no
// handshake); end: the receiver holding every byte) and RESULT lines with totals.
// dctcp_floor: TcpDctcp with its window cut floored at two segments (lib/dctcp_floor.h), a
// sensitivity run. TWIN_SET="<attribute>=<value>;..." overrides attribute defaults.
//
// Every queue (each direction of every link, host NICs included) is a one-packet device queue
// under a 99-packet queue disc: 100 packets waiting at most, as tcpsim's "100pkt". DCTCP:
// RedQueueDisc in DCTCP mode, MinTh = MaxTh = K (dctcp.cc explains why that marks what tcpsim's
// step queue marks: an arrival finding more than K waiting); ns-3's DctcpEcn sends every packet
// ECT (SYN, pure ACKs and retransmissions too), as tcpsim's `ecn_sender = "linux_dctcp"`.
// NewReno: FifoQueueDisc. ECMP: Ipv4GlobalRouting with RandomEcmpRouting, a uniform draw per
// packet at every router (ns-3.44 has no per-flow ECMP in global routing); tcpsim's
// `ecmp = "packet_spray"` is the same rule.
//
// Transfers: Poisson arrivals at rate load × 10 Gb/s × 16 / (8 × mean size), the sender uniform
// over the hosts, the receiver uniform over the others, the size from the CDF file by inverse
// transform with linear interpolation, rounded to the nearest byte, at least 1 (the rule of
// tcpsim's engine and HPCC's generator); each a new connection to the receiver's listener.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "lib/datacentre_tcp.h"
#include "lib/default_overrides.h"
#include "lib/port_queue.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{
struct Transfer
{
    uint32_t src;
    uint32_t dst;
    uint32_t bytes;
    double arrival;
    double start = -1;
    double end = -1;
    uint32_t received = 0;
};

std::vector<Transfer> g_transfers;
std::vector<std::string> g_hostNames;
NodeContainer g_hosts;
std::vector<Ipv4Address> g_hostAddress;
std::map<std::pair<uint32_t, uint16_t>, uint32_t> g_bySource; // (source address, port) → transfer
std::map<Ptr<Socket>, uint32_t> g_byReceiver;
std::map<Ptr<Socket>, uint32_t> g_bySender;
std::vector<std::pair<double, double>> g_cdf;
double g_duration = 0.25;
double g_rate = 0;
uint64_t g_resent = 0;
uint64_t g_dataSent = 0;
// Each sender's congestion state (TcpSocketState::TcpCongState_t), the times each state was
// entered, and the resent segments by the state their sender was in when it sent them.
std::map<std::string, int> g_congState;
uint64_t g_entered[5] = {};
uint64_t g_resentIn[5] = {};
const char* const kCongStates[5] = {"open", "disorder", "cwr", "recovery", "loss"};
std::map<std::string, uint32_t> g_highest;
Ptr<ExponentialRandomVariable> g_gap;
Ptr<UniformRandomVariable> g_uniform;
const uint16_t kPort = 9;

uint32_t
DrawSize()
{
    double u = g_uniform->GetValue(0, 1);
    for (size_t i = 1; i < g_cdf.size(); i++)
    {
        auto [x0, p0] = g_cdf[i - 1];
        auto [x1, p1] = g_cdf[i];
        if (u <= p1)
        {
            double x = x0 + (x1 - x0) * (u - p0) / (p1 - p0);
            return std::max<uint32_t>(1, static_cast<uint32_t>(std::llround(x)));
        }
    }
    return static_cast<uint32_t>(g_cdf.back().first);
}

void
SegmentSent(std::string ctx, Ptr<const Packet> pkt, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (pkt->GetSize() == 0)
    {
        return;
    }
    g_dataSent++;
    uint32_t seq = h.GetSequenceNumber().GetValue();
    auto [it, fresh] = g_highest.emplace(ctx, seq);
    if (!fresh && seq <= it->second)
    {
        g_resent++;
        g_resentIn[g_congState[ctx]]++;
    }
    else
    {
        it->second = seq;
    }
}

void
CongStateChanged(std::string ctx, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    g_congState[ctx] = now;
    g_entered[now]++;
}

void
Received(Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        Transfer& t = g_transfers[g_byReceiver.at(socket)];
        t.received += p->GetSize();
        if (t.received == t.bytes)
        {
            t.end = Simulator::Now().GetSeconds();
        }
    }
}

void
Accepted(Ptr<Socket> socket, const Address& from)
{
    InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
    g_byReceiver[socket] = g_bySource.at({peer.GetIpv4().Get(), peer.GetPort()});
    socket->SetRecvCallback(MakeCallback(&Received));
}

void
Connected(Ptr<Socket> socket)
{
    Transfer& t = g_transfers[g_bySender.at(socket)];
    t.start = Simulator::Now().GetSeconds();
    socket->Send(Create<Packet>(t.bytes));
    socket->Close();
}

void
Arrival()
{
    double now = Simulator::Now().GetSeconds();
    uint32_t n = g_hosts.GetN();
    uint32_t src = g_uniform->GetInteger(0, n - 1);
    uint32_t dst = g_uniform->GetInteger(0, n - 2);
    dst += dst >= src;
    uint32_t id = g_transfers.size();
    g_transfers.push_back({src, dst, DrawSize(), now});
    Ptr<Socket> s = Socket::CreateSocket(g_hosts.Get(src), TcpSocketFactory::GetTypeId());
    s->Bind();
    Address local;
    s->GetSockName(local);
    g_bySource[{g_hostAddress[src].Get(), InetSocketAddress::ConvertFrom(local).GetPort()}] = id;
    g_bySender[s] = id;
    s->TraceConnect("Tx", std::to_string(id), MakeCallback(&SegmentSent));
    s->TraceConnect("CongState", std::to_string(id), MakeCallback(&CongStateChanged));
    s->SetConnectCallback(MakeCallback(&Connected), MakeNullCallback<void, Ptr<Socket>>());
    s->Connect(InetSocketAddress(g_hostAddress[dst], kPort));
    double next = now + g_gap->GetValue();
    if (next < g_duration)
    {
        Simulator::Schedule(Seconds(next - now), &Arrival);
    }
}
} // namespace

int
main(int argc, char** argv)
{
    std::string variant = argc > 1 ? argv[1] : "dctcp";
    std::string cdfPath = "python/tcpsim/workloads/web_search.cdf";
    std::string ecmp = "random";
    double load = 0.6;
    uint32_t k = 65;
    uint32_t minRtoMs = 10;
    uint32_t run = 1;
    CommandLine cmd;
    cmd.AddValue("cdf", "flow-size CDF file (bytes, cumulative probability)", cdfPath);
    cmd.AddValue("load", "offered load of the host links", load);
    cmd.AddValue("duration", "simulated seconds (arrivals and run)", g_duration);
    cmd.AddValue("k", "DCTCP marking threshold, packets", k);
    cmd.AddValue("minrto", "minimum RTO, ms", minRtoMs);
    cmd.AddValue("ecmp", "random (per packet) or none (one path)", ecmp);
    cmd.AddValue("run", "RNG run", run);
    cmd.Parse(argc > 1 ? argc - 1 : argc, argc > 1 ? argv + 1 : argv);
    RngSeedManager::SetRun(run);
    TypeId socketType = twin::DataCentreSocket(variant);
    bool dctcp = socketType != TcpNewReno::GetTypeId();

    std::ifstream in(cdfPath);
    if (!in)
    {
        std::cerr << "cannot read " << cdfPath << "\n";
        return 2;
    }
    for (std::string line; std::getline(in, line);)
    {
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::istringstream fields(line);
        double x;
        double p;
        if (fields >> x >> p)
        {
            g_cdf.emplace_back(x, p);
        }
    }
    if (g_cdf.back().second == 100)
    {
        for (auto& [x, p] : g_cdf)
        {
            p /= 100;
        }
    }
    double mean = 0;
    for (size_t i = 1; i < g_cdf.size(); i++)
    {
        mean += (g_cdf[i - 1].first + g_cdf[i].first) / 2 * (g_cdf[i].second - g_cdf[i - 1].second);
    }

    twin::DataCentreTcp(socketType, 3, 1 << 25, MilliSeconds(minRtoMs));
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(ecmp == "random"));
    twin::ApplyTwinSet();

    const uint32_t kAry = 4;
    const uint32_t half = kAry / 2;
    g_hosts.Create(kAry * half * half);
    NodeContainer edges;
    edges.Create(kAry * half);
    NodeContainer aggs;
    aggs.Create(kAry * half);
    NodeContainer cores;
    cores.Create(half * half);
    for (uint32_t p = 0; p < kAry; p++)
    {
        for (uint32_t e = 0; e < half; e++)
        {
            for (uint32_t i = 0; i < half; i++)
            {
                g_hostNames.push_back("h_p" + std::to_string(p) + "_e" + std::to_string(e) + "_" +
                                      std::to_string(i));
            }
        }
    }

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    p2p.SetChannelAttribute("Delay", StringValue("10us"));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    std::vector<NetDeviceContainer> links;
    uint32_t h = 0;
    for (uint32_t p = 0; p < kAry; p++)
    {
        for (uint32_t e = 0; e < half; e++)
        {
            for (uint32_t i = 0; i < half; i++)
            {
                links.push_back(p2p.Install(g_hosts.Get(h++), edges.Get(p * half + e)));
            }
        }
    }
    for (uint32_t p = 0; p < kAry; p++)
    {
        for (uint32_t e = 0; e < half; e++)
        {
            for (uint32_t a = 0; a < half; a++)
            {
                links.push_back(p2p.Install(edges.Get(p * half + e), aggs.Get(p * half + a)));
            }
        }
    }
    for (uint32_t p = 0; p < kAry; p++)
    {
        for (uint32_t a = 0; a < half; a++)
        {
            for (uint32_t j = 0; j < half; j++)
            {
                links.push_back(p2p.Install(aggs.Get(p * half + a), cores.Get(a * half + j)));
            }
        }
    }

    InternetStackHelper stack;
    stack.InstallAll();
    TrafficControlHelper tch = PortQueue(dctcp, "99p", k, "10Gbps", "10us");
    QueueDiscContainer qdiscs;
    for (auto& l : links)
    {
        qdiscs.Add(tch.Install(l));
    }
    Ipv4AddressHelper address;
    address.SetBase("10.0.0.0", "255.255.255.252");
    for (uint32_t l = 0; l < links.size(); l++)
    {
        Ipv4InterfaceContainer ifs = address.Assign(links[l]);
        if (l < g_hosts.GetN())
        {
            g_hostAddress.push_back(ifs.GetAddress(0));
        }
        address.NewNetwork();
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    for (uint32_t i = 0; i < g_hosts.GetN(); i++)
    {
        Ptr<Socket> listener = Socket::CreateSocket(g_hosts.Get(i), TcpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&Accepted));
    }

    g_rate = load * 10e9 * g_hosts.GetN() / (8 * mean);
    g_gap = CreateObject<ExponentialRandomVariable>();
    g_gap->SetAttribute("Mean", DoubleValue(1 / g_rate));
    g_gap->SetStream(1);
    g_uniform = CreateObject<UniformRandomVariable>();
    g_uniform->SetStream(2);
    Simulator::Schedule(Seconds(g_gap->GetValue()), &Arrival);
    Simulator::Stop(Seconds(g_duration));
    Simulator::Run();

    uint64_t drops = 0;
    uint64_t marks = 0;
    for (uint32_t i = 0; i < qdiscs.GetN(); i++)
    {
        drops += qdiscs.Get(i)->GetStats().nTotalDroppedPackets;
        marks += qdiscs.Get(i)->GetStats().nTotalMarkedPackets;
    }
    uint32_t done = 0;
    uint64_t delivered = 0;
    for (uint32_t id = 0; id < g_transfers.size(); id++)
    {
        const Transfer& t = g_transfers[id];
        delivered += t.received;
        if (t.end >= 0)
        {
            done++;
            std::cout << "FCT " << id << " " << g_hostNames[t.src] << " " << g_hostNames[t.dst] << " "
                      << t.bytes << " " << t.arrival << " " << t.start << " " << t.end << "\n";
        }
        else
        {
            std::cout << "UNFINISHED " << id << " " << g_hostNames[t.src] << " " << g_hostNames[t.dst]
                      << " " << t.bytes << " " << t.arrival << "\n";
        }
    }
    const std::string r = "RESULT " + variant + " ";
    std::cout << r << "rate_per_s " << g_rate << "\n";
    std::cout << r << "transfers " << g_transfers.size() << "\n";
    std::cout << r << "completed " << done << "\n";
    std::cout << r << "drops " << drops << "\n";
    std::cout << r << "marks " << marks << "\n";
    std::cout << r << "resent_segments " << g_resent << "\n";
    std::cout << r << "data_segments_sent " << g_dataSent << "\n";
    for (int state = 0; state < 5; state++)
    {
        std::cout << r << "entered_" << kCongStates[state] << " " << g_entered[state] << "\n";
        std::cout << r << "resent_in_" << kCongStates[state] << " " << g_resentIn[state] << "\n";
    }
    std::cout << r << "bytes_delivered " << delivered << "\n";
    Simulator::Destroy();
    return 0;
}
