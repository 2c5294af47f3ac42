// Optional trace of the senders' window cuts, for the twins' `--trace-cuts` flag: one line per
// change of a node-0 socket's slow-start threshold (each is a cut: fast retransmit, timeout or
// ECN-Echo),
//   TRACE cut <time s> <socket path> <cwnd before, bytes> <ssthresh after, bytes>
// so that the window a cut halves can be compared with tcpsim's (docs/ns3-comparison/codel.md).
// ns-3.44 sets ssthresh before it changes cwnd, so "cwnd before" is the window at the loss.
#pragma once

#include "ns3/core-module.h"

#include <cstdio>
#include <map>
#include <string>

namespace twin
{

inline void
TraceCuts()
{
    static std::map<std::string, uint32_t> cwnd;
    auto socket = [](const std::string& path) { return path.substr(0, path.rfind('/')); };
    static auto key = socket;
    ns3::Config::Connect("/NodeList/0/$ns3::TcpL4Protocol/SocketList/*/CongestionWindow",
                         ns3::MakeCallback(+[](std::string path, uint32_t, uint32_t now) {
                             cwnd[key(path)] = now;
                         }));
    ns3::Config::Connect("/NodeList/0/$ns3::TcpL4Protocol/SocketList/*/SlowStartThreshold",
                         ns3::MakeCallback(+[](std::string path, uint32_t, uint32_t now) {
                             std::printf("TRACE cut %.6f %s %u %u\n",
                                         ns3::Simulator::Now().GetSeconds(),
                                         key(path).c_str(),
                                         cwnd[key(path)],
                                         now);
                         }));
}

} // namespace twin
