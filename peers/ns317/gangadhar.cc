// The gangadhar lossy-link set-up (Gangadhar et al., WNS3 2013, Fig. 3 / Table 1) in the real
// ns-3.17, the release the paper ran; peers/ns317/README.md says how to build it. Written in
// C++98 against ns-3.17's API (its TcpReno, TcpNewReno, TcpTahoe and TcpWestwood sockets), to
// check which of the ns-3.44 twins' disagreements (peers/ns3/) come from their emulation.
//
//   source --10 Mb/s, 45 ms-- router --2 Mb/s (fig7: 1...8), 0.01 ms-- sink
//
// One BulkSendApplication flow into a PacketSink from t = 0; one RateErrorModel (packet unit,
// rate = PER) as the receive error model of both bottleneck devices (data lost at the sink,
// ACKs at the router), shared and drawing from stream 50 as the paper's own script
// (examples/tcp/tcp-variants-comparison.cc of ns-3.17) did; drop-tail device queues of 100
// packets (ns-3.17's default, and the router's buffer; see --other-queues); every TCP attribute
// at ns-3.17's default but SegmentSize (the point's payload), DelAckCount (the point's) and
// DelAckTimeout (200 ms, the default). Throughput = payload bytes the sink received x 8 /
// duration.
//
// Usage:
//   gangadhar list [figN]             the points of tcpsim's gangadhar.figN (fig5, fig7, fig8,
//                                     fig9), or of all four, one a line
//   gangadhar <point> <k> [opts]      runs <point> with RngRun k; prints
//                                     RESULT <point> <metric> <value> lines
// A point is <variant>[_m<payload>][_d<delack count>][_b<rate>]_p<PER>, variant one of reno,
// newreno, tahoe, westwood, westwood_plus (payload 400 B, count 2 and a 2 Mb/s bottleneck when
// left out), e.g. reno_m1460_p0.001, westwood_b8_p0.005.
// Options: --duration=S (default 600); --other-queues=N: the device queues other than the
// router's, in packets (default 100, ns-3.17's default; the ns-3.44 twins have 1000);
// --probe: counts the sender's retransmission timeouts and fast retransmits, whether each fast
// retransmit left the RTO timer running, the fast retransmits that follow a timeout within its
// SND.MAX, and the spurious ones of both (a copy sent earlier reached the sink), as more RESULT
// lines; with PROBE_TRACE=1 in the environment also a line per event on stderr.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdio>
#include <map>
#include <set>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace {

struct Point
{
  std::string name;
  std::string variant;
  uint32_t payload;
  uint32_t delack;
  double rate;  //!< bottleneck rate, Mb/s
  double per;
};

/// Parses <variant>[_m<payload>][_d<count>][_b<rate>]_p<per>; false if `name` is not one.
bool
ParsePoint (const std::string &name, Point &p)
{
  static const char *variants[] = {"westwood_plus", "westwood", "newreno", "reno", "tahoe"};
  p.name = name;
  p.payload = 400;
  p.delack = 2;
  p.rate = 2;
  p.per = -1;
  p.variant = "";
  std::string rest;
  for (size_t i = 0; i < sizeof variants / sizeof variants[0]; ++i)
    {
      std::string v = std::string (variants[i]) + "_";
      if (name.compare (0, v.size (), v) == 0)
        {
          p.variant = variants[i];
          rest = name.substr (v.size ());
          break;
        }
    }
  if (p.variant.empty ())
    {
      return false;
    }
  std::istringstream fields (rest);
  std::string field;
  while (std::getline (fields, field, '_'))
    {
      if (field.size () < 2)
        {
          return false;
        }
      char *end = 0;
      const double value = std::strtod (field.c_str () + 1, &end);
      if (*end != '\0')
        {
          return false;
        }
      switch (field[0])
        {
        case 'm': p.payload = static_cast<uint32_t> (value); break;
        case 'd': p.delack = static_cast<uint32_t> (value); break;
        case 'b': p.rate = value; break;
        case 'p': p.per = value; break;
        default: return false;
        }
    }
  return p.per >= 0 && p.payload > 0 && p.delack > 0 && p.rate > 0;
}

/// The canonical name of a point: the fields at their defaults (400 B, count 2, 2 Mb/s) left out,
/// so that the experiments share their common points (and the runner's cache of them).
std::string
PointName (const char *variant, unsigned payload, unsigned delack, unsigned rate, const char *per)
{
  std::ostringstream name;
  name << variant;
  if (payload != 400)
    {
      name << "_m" << payload;
    }
  if (delack != 2)
    {
      name << "_d" << delack;
    }
  if (rate != 2)
    {
      name << "_b" << rate;
    }
  name << "_p" << per;
  return name.str ();
}

/// The points of one experiment (fig5, fig7, fig8, fig9; 600 s, tcpsim's full grids), or of all
/// four without repeats when `experiment` is empty; false for an unknown experiment.
bool
ListedPoints (const std::string &experiment, std::vector<std::string> &names)
{
  const char *five[] = {"tahoe", "reno", "newreno", "westwood", "westwood_plus"};
  const char *three[] = {"reno", "westwood", "westwood_plus"};
  const char *pers[] = {"0.0001", "0.0002", "0.0005", "0.001", "0.002", "0.005", "0.01", "0.02", "0.05"};
  const unsigned payloads[] = {41, 100, 200, 400, 536, 1000, 1460};
  const bool all = experiment.empty ();
  std::set<std::string> seen;
  std::vector<std::string> out;
  // fig5: the five variants over PER, 400 B.
  if (all || experiment == "fig5")
    {
      for (size_t v = 0; v < 5; ++v)
        {
          for (size_t i = 0; i < 9; ++i)
            {
              out.push_back (PointName (five[v], 400, 2, 2, pers[i]));
            }
        }
    }
  // fig7: the five variants over the bottleneck rate 1...8 Mb/s at PER 0.005.
  if (all || experiment == "fig7")
    {
      for (size_t v = 0; v < 5; ++v)
        {
          for (unsigned r = 1; r <= 8; ++r)
            {
              out.push_back (PointName (five[v], 400, 2, r, "0.005"));
            }
        }
    }
  // fig8: Reno, Westwood, Westwood+ over PER for delayed-ACK counts 1...8.
  if (all || experiment == "fig8")
    {
      for (size_t v = 0; v < 3; ++v)
        {
          for (unsigned c = 1; c <= 8; ++c)
            {
              for (size_t i = 0; i < 9; ++i)
                {
                  out.push_back (PointName (three[v], 400, c, 2, pers[i]));
                }
            }
        }
    }
  // fig9: Reno, Westwood, Westwood+ over PER for the paper's payloads.
  if (all || experiment == "fig9")
    {
      for (size_t v = 0; v < 3; ++v)
        {
          for (size_t m = 0; m < 7; ++m)
            {
              for (size_t i = 0; i < 9; ++i)
                {
                  out.push_back (PointName (three[v], payloads[m], 2, 2, pers[i]));
                }
            }
        }
    }
  for (size_t i = 0; i < out.size (); ++i)
    {
      if (seen.insert (out[i]).second)
        {
          names.push_back (out[i]);
        }
    }
  return !names.empty ();
}

/// Counts of the sender's loss events (--probe).
struct ProbeCounts
{
  uint32_t timeouts;         //!< Retransmit() calls (RTO expiries with data outstanding)
  uint32_t timeoutsInFr;     //!< of which while in fast recovery
  uint32_t fastRetransmits;  //!< third duplicate ACKs that retransmitted
  uint32_t timerKept;        //!< fast retransmits that left the running RTO timer as it was
  uint32_t timerRestarted;   //!< fast retransmits that (re)scheduled the RTO timer
  uint32_t frAfterTimeout;   //!< fast retransmits of segments not above the last timeout's SND.MAX
  uint32_t longestSeries;    //!< most such fast retransmits after one timeout
  uint32_t timeoutsWithFr;   //!< timeouts followed by at least one such fast retransmit
};

ProbeCounts g_probe;

/// A retransmission the probe saw: when, of which segment, whether by timeout.
struct Resend
{
  double time;
  uint32_t seq;
  bool timeout;
};

std::vector<Resend> g_resends;
std::map<uint64_t, double> g_sentAt;                 //!< data packet uid -> time it left the source
/// segment -> send times of the copies of it the sink got
std::map<uint32_t, std::vector<double> > g_arrived;

/// The TCP data segment `packet` (IPv4 first) carries: its sequence number, or false.
bool
DataSeq (Ptr<const Packet> packet, uint32_t &seq)
{
  Ptr<Packet> copy = packet->Copy ();
  Ipv4Header ip;
  copy->RemoveHeader (ip);
  TcpHeader tcp;
  copy->RemoveHeader (tcp);
  seq = tcp.GetSequenceNumber ().GetValue ();
  return copy->GetSize () > 0;
}

void
SourceSent (Ptr<const Packet> packet)
{
  uint32_t seq;
  if (DataSeq (packet, seq))
    {
      g_sentAt[packet->GetUid ()] = Simulator::Now ().GetSeconds ();
    }
}

void
SinkGot (Ptr<const Packet> packet)
{
  uint32_t seq;
  std::map<uint64_t, double>::iterator sent = g_sentAt.find (packet->GetUid ());
  if (DataSeq (packet, seq) && sent != g_sentAt.end ())
    {
      g_arrived[seq].push_back (sent->second);
      g_sentAt.erase (sent);
    }
}

/// Spurious resends: those of a segment a copy of which, sent earlier, reached the sink (the
/// segment was not lost, only late or already delivered). Counts {timeouts, fast retransmits}.
std::pair<uint32_t, uint32_t>
SpuriousResends ()
{
  std::pair<uint32_t, uint32_t> spurious (0, 0);
  for (size_t i = 0; i < g_resends.size (); ++i)
    {
      const std::vector<double> &copies = g_arrived[g_resends[i].seq];
      for (size_t c = 0; c < copies.size (); ++c)
        {
          if (copies[c] < g_resends[i].time)
            {
              ++(g_resends[i].timeout ? spurious.first : spurious.second);
              break;
            }
        }
    }
  return spurious;
}

/// A sender socket of type Base (an ns-3.17 TCP) that counts its timeouts and fast retransmits
/// (--probe); behaviour is Base's. A fast retransmit is the third duplicate ACK outside fast
/// recovery, which is where each of ns-3.17's Reno, NewReno, Tahoe and Westwood DupAck
/// retransmits. ns-3.17's SendDataPacket schedules the RTO timer only if it is not running
/// (tcp-socket-base.cc), so a fast retransmit should leave the expiry set by the last new ACK:
/// the probe compares the timer's event and expiry before and after the base's DupAck.
template <class Base>
class Probe : public Base
{
public:
  static TypeId GetTypeId (void)
  {
    static TypeId tid = TypeId (Name ())
      .template SetParent<Base> ()
      .template AddConstructor<Probe<Base> > ();
    return tid;
  }

  Probe ()
    : m_timeoutHigh (0),
      m_afterTimeout (false),
      m_series (0)
  {
  }

  Probe (const Probe<Base> &other)
    : Base (other),
      m_timeoutHigh (other.m_timeoutHigh),
      m_afterTimeout (false),
      m_series (0)
  {
  }

protected:
  virtual Ptr<TcpSocketBase> Fork (void)
  {
    return CopyObject<Probe<Base> > (this);
  }

  virtual void DupAck (const TcpHeader &header, uint32_t count)
  {
    const bool fastRetransmit = count == 3 && !InFastRecovery ();
    const EventId before = this->m_retxEvent;
    const Time expiry = Simulator::Now () + Simulator::GetDelayLeft (before);
    Base::DupAck (header, count);
    if (!fastRetransmit)
      {
        return;
      }
    ++g_probe.fastRetransmits;
    const bool kept = before.IsRunning () && this->m_retxEvent.GetUid () == before.GetUid ();
    ++(kept ? g_probe.timerKept : g_probe.timerRestarted);
    const SequenceNumber32 head = this->m_txBuffer.HeadSequence ();
    // A segment not above SND.MAX at the last timeout: duplicate ACKs for it can come from the
    // go-back-N resends of segments the sink already had (ns-3.17 keeps no RFC 6582 "recover").
    const bool afterTimeout = m_afterTimeout && head <= m_timeoutHigh;
    if (afterTimeout)
      {
        ++g_probe.frAfterTimeout;
        if (++m_series == 1)
          {
            ++g_probe.timeoutsWithFr;
          }
        g_probe.longestSeries = std::max (g_probe.longestSeries, m_series);
      }
    Resend r = {Simulator::Now ().GetSeconds (), head.GetValue (), false};
    g_resends.push_back (r);
    Trace ("fast_retransmit", head);
    if (Tracing ())
      {
        std::fprintf (stderr, "    timer %s, expires %.4f%s\n",
                      kept ? "kept" : "restarted", expiry.GetSeconds (),
                      afterTimeout ? ", not above the last timeout's SND.MAX" : "");
      }
  }

  virtual void Retransmit (void)
  {
    const bool inFr = InFastRecovery ();
    const SequenceNumber32 head = this->m_txBuffer.HeadSequence ();
    if (this->m_state == ESTABLISHED && head < this->m_highTxMark)
      {
        ++g_probe.timeouts;
        g_probe.timeoutsInFr += inFr ? 1 : 0;
        m_timeoutHigh = this->m_highTxMark;
        m_afterTimeout = true;
        m_series = 0;
        Resend r = {Simulator::Now ().GetSeconds (), head.GetValue (), true};
        g_resends.push_back (r);
        Trace (inFr ? "timeout_in_fast_recovery" : "timeout", head);
      }
    Base::Retransmit ();
  }

private:
  static const char *Name ();
  bool InFastRecovery () const
  {
    return this->m_inFastRec;
  }

  static bool Tracing ()
  {
    return std::getenv ("PROBE_TRACE") != 0;
  }

  void Trace (const char *what, SequenceNumber32 head) const
  {
    if (Tracing ())
      {
        std::fprintf (stderr, "%.4f %s head %u high %u cwnd %u ssthresh %u rto %.3f\n",
                      Simulator::Now ().GetSeconds (), what, head.GetValue (),
                      this->m_highTxMark.Get ().GetValue (), this->m_cWnd.Get (),
                      this->GetSSThresh (), this->m_rto.Get ().GetSeconds ());
      }
  }

  SequenceNumber32 m_timeoutHigh; //!< SND.MAX at the last timeout
  bool m_afterTimeout;            //!< a timeout happened
  uint32_t m_series;              //!< fast retransmits below m_timeoutHigh since then
};

template <> const char *Probe<TcpReno>::Name () { return "ns317::ProbeReno"; }
template <> const char *Probe<TcpNewReno>::Name () { return "ns317::ProbeNewReno"; }
template <> const char *Probe<TcpTahoe>::Name () { return "ns317::ProbeTahoe"; }
template <> const char *Probe<TcpWestwood>::Name () { return "ns317::ProbeWestwood"; }
// Tahoe has no fast recovery: every third duplicate ACK retransmits.
template <> bool Probe<TcpTahoe>::InFastRecovery () const { return false; }

/// The socket type of `variant`: ns-3.17's own class, or its probe.
TypeId
SocketType (const std::string &variant, bool probe)
{
  if (variant == "reno")
    {
      return probe ? Probe<TcpReno>::GetTypeId () : TcpReno::GetTypeId ();
    }
  if (variant == "newreno")
    {
      return probe ? Probe<TcpNewReno>::GetTypeId () : TcpNewReno::GetTypeId ();
    }
  if (variant == "tahoe")
    {
      return probe ? Probe<TcpTahoe>::GetTypeId () : TcpTahoe::GetTypeId ();
    }
  return probe ? Probe<TcpWestwood>::GetTypeId () : TcpWestwood::GetTypeId ();
}

uint64_t g_errorDrops;

void
CountErrorDrop (Ptr<const Packet>)
{
  ++g_errorDrops;
}

void
RunPoint (const Point &p, uint32_t run, double duration, bool probe, uint32_t otherQueues)
{
  SeedManager::SetSeed (1);
  SeedManager::SetRun (run);

  // TCP: the variant (Westwood+ is TcpWestwood's WestwoodPlus protocol type; both with the
  // Tustin filter, as the paper's script), the payload and the delayed-ACK count.
  Config::SetDefault ("ns3::TcpL4Protocol::SocketType",
                      TypeIdValue (SocketType (p.variant, probe)));
  if (p.variant == "westwood" || p.variant == "westwood_plus")
    {
      Config::SetDefault ("ns3::TcpWestwood::ProtocolType",
                          EnumValue (p.variant == "westwood" ? TcpWestwood::WESTWOOD
                                                             : TcpWestwood::WESTWOODPLUS));
      Config::SetDefault ("ns3::TcpWestwood::FilterType", EnumValue (TcpWestwood::TUSTIN));
    }
  Config::SetDefault ("ns3::TcpSocket::SegmentSize", UintegerValue (p.payload));
  Config::SetDefault ("ns3::TcpSocket::DelAckCount", UintegerValue (p.delack));
  Config::SetDefault ("ns3::TcpSocket::DelAckTimeout", TimeValue (MilliSeconds (200)));

  NodeContainer nodes;
  nodes.Create (3); // 0 source, 1 router, 2 sink
  PointToPointHelper access;
  access.SetDeviceAttribute ("DataRate", StringValue ("10Mbps"));
  access.SetChannelAttribute ("Delay", StringValue ("45ms"));
  access.SetQueue ("ns3::DropTailQueue", "MaxPackets", UintegerValue (otherQueues));
  PointToPointHelper lossy;
  std::ostringstream rate;
  rate << p.rate << "Mbps";
  lossy.SetDeviceAttribute ("DataRate", StringValue (rate.str ()));
  lossy.SetChannelAttribute ("Delay", StringValue ("0.01ms"));
  lossy.SetQueue ("ns3::DropTailQueue", "MaxPackets", UintegerValue (100));
  Ptr<UniformRandomVariable> uniform = CreateObject<UniformRandomVariable> ();
  uniform->SetStream (50);
  Ptr<RateErrorModel> errors = CreateObject<RateErrorModel> ();
  errors->SetRandomVariable (uniform);
  errors->SetUnit (RateErrorModel::ERROR_UNIT_PACKET);
  errors->SetRate (p.per);
  lossy.SetDeviceAttribute ("ReceiveErrorModel", PointerValue (errors));
  NetDeviceContainer a = access.Install (nodes.Get (0), nodes.Get (1));
  NetDeviceContainer b = lossy.Install (nodes.Get (1), nodes.Get (2));
  DynamicCast<PointToPointNetDevice> (b.Get (1))->GetQueue ()->SetAttribute (
    "MaxPackets", UintegerValue (otherQueues));

  InternetStackHelper stack;
  stack.Install (nodes);
  Ipv4AddressHelper address;
  address.SetBase ("10.0.1.0", "255.255.255.0");
  address.Assign (a);
  address.SetBase ("10.0.2.0", "255.255.255.0");
  Ipv4InterfaceContainer sinkIf = address.Assign (b);
  Ipv4GlobalRoutingHelper::PopulateRoutingTables ();

  const uint16_t port = 50000;
  PacketSinkHelper sinkHelper ("ns3::TcpSocketFactory",
                               InetSocketAddress (Ipv4Address::GetAny (), port));
  ApplicationContainer sinkApp = sinkHelper.Install (nodes.Get (2));
  sinkApp.Start (Seconds (0));
  BulkSendHelper bulk ("ns3::TcpSocketFactory", InetSocketAddress (sinkIf.GetAddress (1), port));
  bulk.SetAttribute ("SendSize", UintegerValue (p.payload));
  bulk.SetAttribute ("MaxBytes", UintegerValue (0));
  bulk.Install (nodes.Get (0)).Start (Seconds (0));

  g_errorDrops = 0;
  g_probe = ProbeCounts ();
  g_resends.clear ();
  g_sentAt.clear ();
  g_arrived.clear ();
  for (uint32_t i = 0; i < 2; ++i)
    {
      b.Get (i)->TraceConnectWithoutContext ("PhyRxDrop", MakeCallback (&CountErrorDrop));
    }
  if (probe)
    {
      a.Get (0)->TraceConnectWithoutContext ("MacTx", MakeCallback (&SourceSent));
      b.Get (1)->TraceConnectWithoutContext ("MacRx", MakeCallback (&SinkGot));
    }

  Simulator::Stop (Seconds (duration));
  Simulator::Run ();
  const uint64_t rx = DynamicCast<PacketSink> (sinkApp.Get (0))->GetTotalRx ();
  const uint32_t routerDrops =
    DynamicCast<PointToPointNetDevice> (b.Get (0))->GetQueue ()->GetTotalDroppedPackets ();
  const uint32_t sourceDrops =
    DynamicCast<PointToPointNetDevice> (a.Get (0))->GetQueue ()->GetTotalDroppedPackets ();
  Simulator::Destroy ();

  const char *n = p.name.c_str ();
  std::printf ("RESULT %s throughput_mbps %.6f\n", n, rx * 8.0 / duration / 1e6);
  std::printf ("RESULT %s router_drops %u\n", n, routerDrops);
  std::printf ("RESULT %s source_drops %u\n", n, sourceDrops);
  std::printf ("RESULT %s error_drops %lu\n", n, (unsigned long) g_errorDrops);
  if (probe)
    {
      const std::pair<uint32_t, uint32_t> spurious = SpuriousResends ();
      std::printf ("RESULT %s timeouts %u\n", n, g_probe.timeouts);
      std::printf ("RESULT %s timeouts_spurious %u\n", n, spurious.first);
      std::printf ("RESULT %s timeouts_in_fast_recovery %u\n", n, g_probe.timeoutsInFr);
      std::printf ("RESULT %s fast_retransmits %u\n", n, g_probe.fastRetransmits);
      std::printf ("RESULT %s fast_retransmits_spurious %u\n", n, spurious.second);
      std::printf ("RESULT %s fast_retransmits_timer_kept %u\n", n, g_probe.timerKept);
      std::printf ("RESULT %s fast_retransmits_timer_restarted %u\n", n, g_probe.timerRestarted);
      std::printf ("RESULT %s fast_retransmits_after_timeout %u\n", n, g_probe.frAfterTimeout);
      std::printf ("RESULT %s timeouts_followed_by_fast_retransmits %u\n", n,
                   g_probe.timeoutsWithFr);
      std::printf ("RESULT %s longest_series_after_timeout %u\n", n, g_probe.longestSeries);
    }
}

} // namespace

int
main (int argc, char *argv[])
{
  if ((argc == 2 || argc == 3) && std::string (argv[1]) == "list")
    {
      std::vector<std::string> names;
      if (!ListedPoints (argc == 3 ? argv[2] : "", names))
        {
          std::cerr << "no points for " << argv[2] << " (fig5, fig7, fig8, fig9)\n";
          return 2;
        }
      for (size_t i = 0; i < names.size (); ++i)
        {
          std::printf ("%s\n", names[i].c_str ());
        }
      return 0;
    }
  Point p;
  if (argc < 3 || !ParsePoint (argv[1], p))
    {
      std::cerr << "usage: " << argv[0] << " list [fig5|fig7|fig8|fig9]"
                << " | <variant>[_m<payload>][_d<count>][_b<rate>]_p<per> <run>"
                << " [--duration=S] [--other-queues=N] [--probe]\n";
      return 2;
    }
  double duration = 600;
  bool probe = false;
  uint32_t otherQueues = 100;
  for (int i = 3; i < argc; ++i)
    {
      const std::string arg = argv[i];
      if (arg.compare (0, 11, "--duration=") == 0)
        {
          duration = std::atof (arg.c_str () + 11);
        }
      else if (arg.compare (0, 15, "--other-queues=") == 0)
        {
          otherQueues = static_cast<uint32_t> (std::atoi (arg.c_str () + 15));
        }
      else if (arg == "--probe")
        {
          probe = true;
        }
      else
        {
          std::cerr << "unknown option " << arg << "\n";
          return 2;
        }
    }
  RunPoint (p, static_cast<uint32_t> (std::atoi (argv[2])), duration, probe, otherQueues);
  return 0;
}
