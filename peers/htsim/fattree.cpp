// The htsim twin of tcpsim's fat_tree(k) with a given list of transfers: k pods of k/2 edge and
// k/2 aggregation switches, (k/2)^2 core switches, k^3/4 hosts (Al-Fares et al., Sec. 3.2), every
// link `--rate-gbps` and `--delay-us`, every queue (host NICs too) `--queue` packets waiting.
// Each transfer is a new connection on one of the equal-cost shortest paths drawn uniformly
// (per flow, htsim's main_tcp rule), its ACKs on the reverse of that path.
//
//   fattree <newreno|dctcp> --flows=FILE [--fat-k=4] [--k=65] [--min-rto-ms=10] [--duration=0.15]
//           [--seed=1] [--queue=100] [--rate-gbps=10] [--delay-us=10] [--init-cwnd=3] [--tick-us=1000]
//
// FILE has one transfer a line: `<id> <src host> <dst host> <bytes> <start s>`, hosts numbered
// pod-major (pod p, edge e, host i is p*(k/2)^2 + e*(k/2) + i). Prints `FCT <id> <src> <dst>
// <bytes> <start s> <end s>` for each transfer done by `--duration`, `UNFINISHED <id> ...` for
// the others, and `RESULT` lines.
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <random>
#include <vector>

#include "lib/twin.h"

namespace {

const int PAYLOAD = 1460;  // tcpsim's MSS: a transfer of B bytes is ceil(B / 1460) packets of 1500 B

struct Transfer {
    long id;
    int src, dst;
    uint64_t bytes;
    double start;
    double end = -1;
    TcpSrc* sender = nullptr;
};

/// The switches and hosts of a k-ary fat tree as names, and every link direction as a Hop.
class FatTree {
public:
    FatTree(EventList& ev, int k, linkspeed_bps rate, simtime_picosec delay, int waiting, int ecn_k)
        : _k(k), _ev(ev), _rate(rate), _delay(delay), _waiting(waiting), _ecn_k(ecn_k) {
        int h = k / 2;
        for (int p = 0; p < k; p++) {
            for (int e = 0; e < h; e++) {
                for (int i = 0; i < h; i++) {
                    link(host(p * h * h + e * h + i), edge(p, e));
                }
                for (int a = 0; a < h; a++) {
                    link(edge(p, e), agg(p, a));
                }
            }
            for (int a = 0; a < h; a++) {
                for (int j = 0; j < h; j++) {
                    link(agg(p, a), core(a * h + j));
                }
            }
        }
    }

    /// Every shortest path from host `s` to host `d`, as node names.
    std::vector<std::vector<std::string>> paths(int s, int d) const {
        int h = _k / 2;
        int sp = s / (h * h), se = s % (h * h) / h, dp = d / (h * h), de = d % (h * h) / h;
        std::vector<std::vector<std::string>> out;
        if (sp == dp && se == de) {
            out.push_back({host(s), edge(sp, se), host(d)});
        } else if (sp == dp) {
            for (int a = 0; a < h; a++) {
                out.push_back({host(s), edge(sp, se), agg(sp, a), edge(dp, de), host(d)});
            }
        } else {
            for (int a = 0; a < h; a++) {
                for (int j = 0; j < h; j++) {
                    out.push_back({host(s), edge(sp, se), agg(sp, a), core(a * h + j), agg(dp, a), edge(dp, de), host(d)});
                }
            }
        }
        return out;
    }

    /// The queues and pipes along `nodes`.
    Route* route(const std::vector<std::string>& nodes) const {
        Route* r = new Route();
        for (size_t n = 0; n + 1 < nodes.size(); n++) {
            const Hop& hop = _hops.at({nodes[n], nodes[n + 1]});
            r->push_back(hop.queue);
            r->push_back(hop.pipe);
        }
        return r;
    }

    uint64_t drops() const {
        uint64_t n = 0;
        for (const auto& [_, hop] : _hops) {
            n += hop.queue->num_drops();
        }
        return n;
    }

private:
    static std::string host(int i) { return "h" + std::to_string(i); }
    static std::string edge(int p, int e) { return "e" + std::to_string(p) + "_" + std::to_string(e); }
    static std::string agg(int p, int a) { return "a" + std::to_string(p) + "_" + std::to_string(a); }
    static std::string core(int c) { return "c" + std::to_string(c); }

    void link(const std::string& a, const std::string& b) {
        _hops[{a, b}] = make_hop(_ev, _rate, _delay, _waiting, _ecn_k);
        _hops[{b, a}] = make_hop(_ev, _rate, _delay, _waiting, _ecn_k);
    }

    int _k;
    EventList& _ev;
    linkspeed_bps _rate;
    simtime_picosec _delay;
    int _waiting, _ecn_k;
    std::map<std::pair<std::string, std::string>, Hop> _hops;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || (std::string(argv[1]) != "newreno" && std::string(argv[1]) != "dctcp")) {
        std::cerr << "usage: fattree <newreno|dctcp> --flows=FILE [...]\n";
        return 2;
    }
    bool dctcp = std::string(argv[1]) == "dctcp";
    int fat_k = std::stoi(option(argc, argv, "fat-k", "4"));
    int ecn_k = dctcp ? std::stoi(option(argc, argv, "k", "65")) : 0;
    simtime_picosec min_rto = timeFromMs(std::stod(option(argc, argv, "min-rto-ms", "10")));
    double duration = std::stod(option(argc, argv, "duration", "0.15"));
    std::mt19937_64 rng(std::stoull(option(argc, argv, "seed", "1")));
    int waiting = std::stoi(option(argc, argv, "queue", "100"));
    linkspeed_bps rate = speedFromMbps(1000 * std::stod(option(argc, argv, "rate-gbps", "10")));
    simtime_picosec delay = timeFromUs(std::stod(option(argc, argv, "delay-us", "10")));
    uint32_t init_cwnd = std::stoul(option(argc, argv, "init-cwnd", "3"));

    std::cout << std::setprecision(12);
    std::vector<Transfer> transfers;
    std::ifstream file(option(argc, argv, "flows", ""));
    Transfer t{};
    while (file >> t.id >> t.src >> t.dst >> t.bytes >> t.start) {
        transfers.push_back(t);
    }
    if (transfers.empty()) {
        std::cerr << "no transfers read (--flows=FILE)\n";
        return 2;
    }

    Packet::set_packet_size(PAYLOAD + 40);
    EventList ev;
    ev.setEndtime(timeFromSec(duration));
    LiveScanner scanner(timeFromUs(std::stod(option(argc, argv, "tick-us", "1000"))), ev);
    FatTree tree(ev, fat_k, rate, delay, waiting, ecn_k);
    std::vector<TwinSink*> sinks;
    for (Transfer& x : transfers) {
        uint64_t segments = (x.bytes + PAYLOAD - 1) / PAYLOAD;
        TcpSrc* src = dctcp ? static_cast<TcpSrc*>(new TwinSrc<DCTCPSrc>(ev, segments, init_cwnd, min_rto))
                            : static_cast<TcpSrc*>(new TwinSrc<TcpSrc>(ev, segments, init_cwnd, min_rto));
        Transfer* done = &x;
        TwinSink* sink = new TwinSink(segments, [done, &ev] { done->end = timeAsSec(ev.now()); });
        auto choices = tree.paths(x.src, x.dst);
        std::vector<std::string> path = choices[rng() % choices.size()];
        Route* out = tree.route(path);
        out->push_back(sink);
        std::reverse(path.begin(), path.end());
        Route* back = tree.route(path);
        back->push_back(src);
        scanner.add(src, sink);
        src->connect(*out, *back, *sink, timeFromSec(x.start));
        x.sender = src;
        sinks.push_back(sink);
    }
    while (ev.doNextEvent()) {
    }

    uint64_t sent = 0, delivered = 0, marks = 0;
    for (const Transfer& x : transfers) {
        sent += x.sender->_packets_sent / x.sender->_mss;
        const char* tag = x.end >= 0 ? "FCT" : "UNFINISHED";
        std::cout << tag << " " << x.id << " " << x.src << " " << x.dst << " " << x.bytes << " " << x.start << " "
                  << x.end << "\n";
    }
    for (TwinSink* s : sinks) {
        marks += s->marks;
        // Whole data packets held in order (the SYN is sequence number 1).
        delivered += s->_cumulative_ack / Packet::data_packet_size();
    }
    std::cout << "RESULT fattree transfers " << transfers.size() << "\n";
    std::cout << "RESULT fattree drops " << tree.drops() << "\n";
    std::cout << "RESULT fattree marks " << marks << "\n";
    std::cout << "RESULT fattree data_segments_sent " << sent << "\n";
    std::cout << "RESULT fattree data_segments_delivered " << delivered << "\n";
    return 0;
}
