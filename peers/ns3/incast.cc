// ns-3.44 twin of tcpsim's incast (`tcpsim.topologies.incast`, the set-up of docs/datacenter.md's
// incast table): an aggregator asks N workers for 1 MB / N each and waits for every response
// before the next query; the responses converge on one 1 Gb/s ToR port with 100 packets of
// buffer.
//
//   w0 —1 Gb/s, 25 us— tor —1 Gb/s, 25 us (port)— agg      w1 … w<N-1> likewise to tor
//
// Usage: incast <dctcp|newreno|dctcp_floor> --senders=N [--rounds=10] [--gap=0] [--limit=10] [--run=1]
// Prints one line per round:
//   ROUND <variant> <N> <round> <start_s> <first_data_s> <end_s> <bytes> <port_drops>
// (start: the round's query; first_data: the earliest worker's connection established, its data
// leaving; end: the aggregator holding every response) and RESULT lines with the totals.
// dctcp_floor: TcpDctcp with its window cut floored at two segments (lib/dctcp_floor.h), a
// sensitivity run. TWIN_SET="<attribute>=<value>;..." overrides attribute defaults; TWIN_TRACE=1 prints the
// first round's segments, windows and congestion states, and the port's queue and drops, on
// stderr.
//
// Every response is a new connection (tcpsim: a new connection in a reclaimed slot, no
// handshake): ns-3 opens it with SYN / SYN-ACK at the round's start, so the data leaves one
// round trip later; the QCT from the first data is tcpsim's QCT. The port: a one-packet device
// queue under a 99-packet queue disc, 100 packets waiting at most (tcpsim's limit counts the
// packets waiting, not the one on the wire). DCTCP: RedQueueDisc in DCTCP mode with
// MinTh = MaxTh = K = 20 (as dctcp.cc: an arrival finding more than K waiting is marked);
// NewReno: FifoQueueDisc. Every other device: a 1000-packet device queue, no queue disc.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "lib/datacentre_tcp.h"
#include "lib/default_overrides.h"
#include "lib/port_queue.h"

#include <iostream>
#include <map>

using namespace ns3;

namespace
{
std::string g_variant;
uint32_t g_senders = 1;
uint32_t g_rounds = 10;
double g_gap = 0;
uint32_t g_size = 0;
NodeContainer g_workers;
Ipv4Address g_aggAddress;
const uint16_t kPort = 5000;

uint32_t g_round = 0;
double g_roundStart = 0;
double g_firstData = -1;
uint32_t g_done = 0;
uint64_t g_roundBytes = 0;
std::map<Ptr<Socket>, uint32_t> g_received;
Ptr<QueueDisc> g_portQdisc;
Ptr<Queue<Packet>> g_portDevice;
uint64_t g_dropsAtStart = 0;
uint64_t g_retransmits = 0;
std::map<std::string, uint32_t> g_highest;

uint64_t
PortDrops()
{
    return g_portQdisc->GetStats().nTotalDroppedPackets + g_portDevice->GetTotalDroppedPackets();
}

void StartRound();

void
Received(Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        uint32_t& got = g_received[socket];
        got += p->GetSize();
        g_roundBytes += p->GetSize();
        if (got == g_size)
        {
            g_done++;
        }
    }
    if (g_done == g_senders)
    {
        double now = Simulator::Now().GetSeconds();
        std::cout << "ROUND " << g_variant << " " << g_senders << " " << g_round << " " << g_roundStart
                  << " " << g_firstData << " " << now << " " << g_roundBytes << " "
                  << PortDrops() - g_dropsAtStart << "\n";
        g_done = 0;
        g_round++;
        if (g_round < g_rounds)
        {
            Simulator::Schedule(Seconds(g_gap), &StartRound);
        }
        else
        {
            Simulator::Stop();
        }
    }
}

void
Accepted(Ptr<Socket> socket, const Address&)
{
    g_received[socket] = 0;
    socket->SetRecvCallback(MakeCallback(&Received));
}

void
Connected(Ptr<Socket> socket)
{
    if (g_firstData < 0)
    {
        g_firstData = Simulator::Now().GetSeconds();
    }
    // The whole response at once (the send buffer holds it), then FIN after it.
    socket->Send(Create<Packet>(g_size));
    socket->Close();
}

void
SegmentSent(std::string ctx, Ptr<const Packet> pkt, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (pkt->GetSize() == 0)
    {
        return;
    }
    uint32_t seq = h.GetSequenceNumber().GetValue();
    auto [it, fresh] = g_highest.emplace(ctx, seq);
    if (!fresh && seq <= it->second)
    {
        g_retransmits++;
    }
    else
    {
        it->second = seq;
    }
}

bool g_trace = std::getenv("TWIN_TRACE") != nullptr;

void
TraceCwnd(std::string ctx, uint32_t, uint32_t cwnd)
{
    std::cerr << Simulator::Now().GetSeconds() << " " << ctx << " cwnd " << cwnd << "\n";
}

void
TraceState(std::string ctx, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t to)
{
    std::cerr << Simulator::Now().GetSeconds() << " " << ctx << " state " << TcpSocketState::TcpCongStateName[to]
              << "\n";
}

void
TraceTx(std::string ctx, Ptr<const Packet> pkt, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    std::cerr << Simulator::Now().GetSeconds() << " " << ctx << " tx " << h.GetSequenceNumber() << " "
              << pkt->GetSize() << " " << TcpHeader::FlagsToString(h.GetFlags()) << "\n";
}

void
TraceQueue(uint32_t, uint32_t n)
{
    std::cerr << Simulator::Now().GetSeconds() << " port qdisc " << n << "\n";
}

void
TraceDrop(Ptr<const QueueDiscItem> item)
{
    TcpHeader h;
    item->GetPacket()->PeekHeader(h);
    std::cerr << Simulator::Now().GetSeconds() << " port drop " << h.GetSequenceNumber() << " "
              << h.GetDestinationPort() << "/" << h.GetSourcePort() << "\n";
}

void
StartRound()
{
    g_roundStart = Simulator::Now().GetSeconds();
    g_firstData = -1;
    g_roundBytes = 0;
    g_dropsAtStart = PortDrops();
    for (uint32_t i = 0; i < g_senders; i++)
    {
        Ptr<Socket> s = Socket::CreateSocket(g_workers.Get(i), TcpSocketFactory::GetTypeId());
        s->Bind();
        s->TraceConnect("Tx", std::to_string(g_round) + "/" + std::to_string(i), MakeCallback(&SegmentSent));
        if (g_trace && g_round == 0)
        {
            std::string ctx = std::to_string(i);
            s->TraceConnect("CongestionWindow", ctx, MakeCallback(&TraceCwnd));
            s->TraceConnect("CongState", ctx, MakeCallback(&TraceState));
            s->TraceConnect("Tx", ctx, MakeCallback(&TraceTx));
        }
        s->SetConnectCallback(MakeCallback(&Connected), MakeNullCallback<void, Ptr<Socket>>());
        s->Connect(InetSocketAddress(g_aggAddress, kPort));
    }
}
} // namespace

int
main(int argc, char** argv)
{
    g_variant = argc > 1 ? argv[1] : "dctcp";
    double limit = 10;
    uint32_t run = 1;
    CommandLine cmd;
    cmd.AddValue("senders", "workers N", g_senders);
    cmd.AddValue("rounds", "queries", g_rounds);
    cmd.AddValue("gap", "seconds between a query's last response and the next query", g_gap);
    cmd.AddValue("limit", "simulated seconds at most", limit);
    cmd.AddValue("run", "RNG run", run);
    cmd.Parse(argc > 1 ? argc - 1 : argc, argc > 1 ? argv + 1 : argv);
    RngSeedManager::SetRun(run);
    TypeId socketType = twin::DataCentreSocket(g_variant);
    bool dctcp = socketType != TcpNewReno::GetTypeId();
    g_size = 1000000 / g_senders;
    const uint32_t k = 20;

    twin::DataCentreTcp(socketType, 3, 1 << 21, MilliSeconds(300));
    twin::ApplyTwinSet();

    g_workers.Create(g_senders);
    Ptr<Node> tor = CreateObject<Node>();
    Ptr<Node> agg = CreateObject<Node>();

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    access.SetChannelAttribute("Delay", StringValue("25us"));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1000p"));
    PointToPointHelper port;
    port.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    port.SetChannelAttribute("Delay", StringValue("25us"));
    port.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1000p"));
    std::vector<NetDeviceContainer> links;
    for (uint32_t i = 0; i < g_senders; i++)
    {
        links.push_back(access.Install(g_workers.Get(i), tor));
    }
    NetDeviceContainer p = port.Install(tor, agg);
    // The port's own device queue: one packet under the queue disc.
    g_portDevice = p.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue();
    g_portDevice->SetMaxSize(QueueSize("1p"));

    InternetStackHelper stack;
    stack.InstallAll();
    TrafficControlHelper tch = PortQueue(dctcp, "99p", k, "1Gbps", "25us");
    // Installed before the addresses (Ipv4AddressHelper::Assign adds the default queue disc only
    // to devices that have none); every other device keeps none.
    g_portQdisc = tch.Install(p.Get(0)).Get(0);

    Ipv4AddressHelper address;
    address.SetBase("10.0.0.0", "255.255.255.252");
    for (auto& l : links)
    {
        address.Assign(l);
        address.NewNetwork();
    }
    Ipv4InterfaceContainer pi = address.Assign(p);
    g_aggAddress = pi.GetAddress(1);
    TrafficControlHelper none;
    for (auto& l : links)
    {
        none.Uninstall(l);
    }
    none.Uninstall(p.Get(1));
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<Socket> listener = Socket::CreateSocket(agg, TcpSocketFactory::GetTypeId());
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
    listener->Listen();
    listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeCallback(&Accepted));

    if (g_trace)
    {
        g_portQdisc->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&TraceQueue));
        g_portQdisc->TraceConnectWithoutContext("Drop", MakeCallback(&TraceDrop));
    }
    Simulator::Schedule(Seconds(0), &StartRound);
    Simulator::Stop(Seconds(limit));
    Simulator::Run();
    const std::string r = "RESULT " + g_variant + " ";
    std::cout << r << "rounds_done " << g_round << "\n";
    std::cout << r << "port_drops " << PortDrops() << "\n";
    std::cout << r << "port_marks " << g_portQdisc->GetStats().nTotalMarkedPackets << "\n";
    std::cout << r << "resent_segments " << g_retransmits << "\n";
    Simulator::Destroy();
    return 0;
}
