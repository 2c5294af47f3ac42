// The gangadhar ACK-compression set-up (Gangadhar et al., WNS3 2013, Fig. 4; tcpsim's
// gangadhar.fig11) in the real ns-3.17: the bandwidth estimate of ns-3.17's own TcpWestwood
// (ProtocolType Westwood or WestwoodPlus, Tustin filter) while its ACKs are compressed.
//
//   PC1 --1 Mb/s, 45 ms--+
//                        router --500 kb/s, 0.01 ms-- server
//   PC2 --1 Mb/s, 45 ms--+
//
// Flow 1 PC1 -> server from 0 s, flow 2 server -> PC2 from 2 s, both of the point's variant (the
// global SocketType, as the paper's script), 20 s; drop-tail device queues of 100 packets
// everywhere (ns-3.17's default), no random errors; 400-byte segments, DelAckCount 2,
// DelAckTimeout 200 ms, everything else at ns-3.17's defaults (as gangadhar.cc). Flow 1's ACKs
// queue behind flow 2's data at the server's 500 kb/s device.
//
// Flow 1's estimate is TcpWestwood's "EstimatedBW" trace source (m_currentBW, bytes/s), which
// EstimateBW assigns the raw sample and then Filtering the filtered value at the same instant,
// so only the last value of an instant is kept; it is summarised as tcpsim's experiment does
// (Fig11._summary): the peak over the run, and on a 10 ms grid of the step function the mean and
// sd over [2, 20) s and the lowest and highest value over [8, 14) s.
//
// Usage: gangadhar.fig11 <westwood|westwood_plus> [--trace] [--flow2-newreno] [--access-delay=D]:
// RESULT <point> <metric> <value> lines (as peers/ns3's twin); --trace also prints each change as
// TRACE bwe <time s> <bit/s>; tcpsim's sensitivities: --flow2-newreno makes the server's sockets
// (flow 2's sender; flow 1's receiver, whose ACKs are TcpSocketBase's either way) TcpNewReno,
// --access-delay the access links' delay (an ns-3 time, e.g. 1ms). Nothing is random: one run.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace {

const double kDuration = 20;
const double kFlow2Start = 2;

/// Flow 1's estimate: (time s, bit/s) at each instant it changed, the last value of an instant.
std::vector<std::pair<double, double> > g_bwe;

void
Record (double, double bytesPerSecond)
{
  const double now = Simulator::Now ().GetSeconds ();
  if (!g_bwe.empty () && g_bwe.back ().first == now)
    {
      g_bwe.back ().second = 8 * bytesPerSecond;
    }
  else
    {
      g_bwe.push_back (std::make_pair (now, 8 * bytesPerSecond));
    }
}

/// The estimate's step function sampled every 10 ms in [start, end), as tcpsim's `_on_grid`: the
/// last value recorded at or before each instant; instants before the first are left out.
std::vector<double>
OnGrid (double start, double end)
{
  std::vector<double> out;
  const long n = static_cast<long> (std::floor ((end - start) / 0.01 + 0.5));
  size_t i = 0;
  for (long j = 0; j < n; ++j)
    {
      const double t = start + j * 0.01;
      while (i < g_bwe.size () && g_bwe[i].first <= t)
        {
          ++i;
        }
      if (i > 0)
        {
          out.push_back (g_bwe[i - 1].second);
        }
    }
  return out;
}

/// Hooks flow 1's estimate once its socket exists (BulkSendApplication creates it on start).
void
HookEstimate (Ptr<Application> app)
{
  Ptr<Socket> socket = DynamicCast<BulkSendApplication> (app)->GetSocket ();
  if (!socket->TraceConnectWithoutContext ("EstimatedBW", MakeCallback (&Record)))
    {
      NS_FATAL_ERROR ("no EstimatedBW trace source on flow 1's socket");
    }
}

struct Options
{
  bool trace;
  bool flow2NewReno;
  std::string accessDelay;
};

void
Run (const std::string &variant, const Options &o)
{
  SeedManager::SetSeed (1);
  SeedManager::SetRun (1);
  Config::SetDefault ("ns3::TcpL4Protocol::SocketType", TypeIdValue (TcpWestwood::GetTypeId ()));
  Config::SetDefault ("ns3::TcpWestwood::ProtocolType",
                      EnumValue (variant == "westwood" ? TcpWestwood::WESTWOOD
                                                       : TcpWestwood::WESTWOODPLUS));
  Config::SetDefault ("ns3::TcpWestwood::FilterType", EnumValue (TcpWestwood::TUSTIN));
  Config::SetDefault ("ns3::TcpSocket::SegmentSize", UintegerValue (400));
  Config::SetDefault ("ns3::TcpSocket::DelAckCount", UintegerValue (2));
  Config::SetDefault ("ns3::TcpSocket::DelAckTimeout", TimeValue (MilliSeconds (200)));

  NodeContainer nodes;
  nodes.Create (4); // 0 PC1, 1 PC2, 2 router, 3 server
  PointToPointHelper access;
  access.SetDeviceAttribute ("DataRate", StringValue ("1Mbps"));
  access.SetChannelAttribute ("Delay", StringValue (o.accessDelay));
  PointToPointHelper neck;
  neck.SetDeviceAttribute ("DataRate", StringValue ("500kbps"));
  neck.SetChannelAttribute ("Delay", StringValue ("0.01ms"));
  NetDeviceContainer a1 = access.Install (nodes.Get (0), nodes.Get (2));
  NetDeviceContainer a2 = access.Install (nodes.Get (1), nodes.Get (2));
  NetDeviceContainer b = neck.Install (nodes.Get (2), nodes.Get (3));

  InternetStackHelper stack;
  stack.Install (nodes);
  if (o.flow2NewReno)
    {
      nodes.Get (3)->GetObject<TcpL4Protocol> ()->SetAttribute (
        "SocketType", TypeIdValue (TcpNewReno::GetTypeId ()));
    }
  Ipv4AddressHelper address;
  address.SetBase ("10.0.1.0", "255.255.255.0");
  address.Assign (a1);
  address.SetBase ("10.0.2.0", "255.255.255.0");
  Ipv4InterfaceContainer pc2If = address.Assign (a2);
  address.SetBase ("10.0.3.0", "255.255.255.0");
  Ipv4InterfaceContainer serverIf = address.Assign (b);
  Ipv4GlobalRoutingHelper::PopulateRoutingTables ();

  // Flow 1 (PC1 -> server, from 0 s) and flow 2 (server -> PC2, from 2 s).
  const uint32_t from[] = {0, 3};
  const uint32_t to[] = {3, 1};
  const Ipv4Address dst[] = {serverIf.GetAddress (1), pc2If.GetAddress (0)};
  const double start[] = {0, kFlow2Start};
  std::vector<Ptr<PacketSink> > sinks;
  for (uint32_t f = 0; f < 2; ++f)
    {
      const uint16_t port = 5000 + f;
      BulkSendHelper source ("ns3::TcpSocketFactory", InetSocketAddress (dst[f], port));
      source.SetAttribute ("SendSize", UintegerValue (400));
      source.SetAttribute ("MaxBytes", UintegerValue (0));
      ApplicationContainer app = source.Install (nodes.Get (from[f]));
      app.Start (Seconds (start[f]));
      PacketSinkHelper sinkHelper ("ns3::TcpSocketFactory",
                                   InetSocketAddress (Ipv4Address::GetAny (), port));
      ApplicationContainer sink = sinkHelper.Install (nodes.Get (to[f]));
      sink.Start (Seconds (0));
      sinks.push_back (DynamicCast<PacketSink> (sink.Get (0)));
      if (f == 0)
        {
          // 1 ms after the socket exists, well before its SYN-ACK can return.
          Simulator::Schedule (Seconds (start[f]) + MilliSeconds (1), &HookEstimate, app.Get (0));
        }
    }

  g_bwe.clear ();
  Simulator::Stop (Seconds (kDuration));
  Simulator::Run ();
  const uint64_t rx1 = sinks[0]->GetTotalRx ();
  const uint64_t rx2 = sinks[1]->GetTotalRx ();
  // Device-queue drops per node: PC1, PC2, router, server.
  uint32_t drops[4] = {0, 0, 0, 0};
  const NetDeviceContainer *links[] = {&a1, &a2, &b};
  const uint32_t ends[3][2] = {{0, 2}, {1, 2}, {2, 3}};
  for (uint32_t l = 0; l < 3; ++l)
    {
      for (uint32_t e = 0; e < 2; ++e)
        {
          drops[ends[l][e]] += DynamicCast<PointToPointNetDevice> (links[l]->Get (e))
                                 ->GetQueue ()->GetTotalDroppedPackets ();
        }
    }
  Simulator::Destroy ();

  if (g_bwe.empty ())
    {
      NS_FATAL_ERROR ("flow 1's estimate never changed");
    }
  if (o.trace)
    {
      for (size_t i = 0; i < g_bwe.size (); ++i)
        {
          std::printf ("TRACE bwe %.6f %.1f\n", g_bwe[i].first, g_bwe[i].second);
        }
    }
  double peak = 0;
  for (size_t i = 0; i < g_bwe.size (); ++i)
    {
      peak = std::max (peak, g_bwe[i].second);
    }
  const std::vector<double> after = OnGrid (kFlow2Start, kDuration);
  const std::vector<double> window = OnGrid (8, 14);
  double mean = 0;
  for (size_t i = 0; i < after.size (); ++i)
    {
      mean += after[i] / after.size ();
    }
  double var = 0;
  for (size_t i = 0; i < after.size (); ++i)
    {
      var += (after[i] - mean) * (after[i] - mean) / after.size (); // population sd, as numpy's std
    }
  const char *n = variant.c_str ();
  std::printf ("RESULT %s bwe_peak_mbps %.6f\n", n, peak / 1e6);
  std::printf ("RESULT %s bwe_mean_after_mbps %.6f\n", n, mean / 1e6);
  std::printf ("RESULT %s bwe_sd_after_mbps %.6f\n", n, std::sqrt (var) / 1e6);
  std::printf ("RESULT %s bwe_window_min_kbps %.6f\n", n,
               *std::min_element (window.begin (), window.end ()) / 1e3);
  std::printf ("RESULT %s bwe_window_max_kbps %.6f\n", n,
               *std::max_element (window.begin (), window.end ()) / 1e3);
  std::printf ("RESULT %s throughput_mbps %.6f\n", n, rx1 * 8.0 / kDuration / 1e6);
  std::printf ("RESULT %s flow2_throughput_mbps %.6f\n", n,
               rx2 * 8.0 / (kDuration - kFlow2Start) / 1e6);
  const char *names[] = {"pc1", "pc2", "router", "server"};
  for (uint32_t node = 0; node < 4; ++node)
    {
      std::printf ("RESULT %s %s_drops %u\n", n, names[node], drops[node]);
    }
}

} // namespace

int
main (int argc, char *argv[])
{
  const std::string variant = argc >= 2 ? argv[1] : "";
  Options o = {false, false, "45ms"};
  bool ok = variant == "westwood" || variant == "westwood_plus";
  for (int i = 2; i < argc && ok; ++i)
    {
      const std::string arg = argv[i];
      if (arg == "--trace")
        {
          o.trace = true;
        }
      else if (arg == "--flow2-newreno")
        {
          o.flow2NewReno = true;
        }
      else if (arg.compare (0, 15, "--access-delay=") == 0)
        {
          o.accessDelay = arg.substr (15);
        }
      else
        {
          ok = false;
        }
    }
  if (!ok)
    {
      std::cerr << "usage: " << argv[0] << " <westwood|westwood_plus> [--trace] [--flow2-newreno]"
                << " [--access-delay=D]\n";
      return 2;
    }
  Run (variant, o);
  return 0;
}
