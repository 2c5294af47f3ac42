// The htsim twin of tcpsim.topologies.incast (docs/datacenter.md's incast): N workers behind one
// switch answer each query with 1 MB / N over a new connection each, through the switch port to
// the aggregator; the next query starts when the aggregator holds every response.
//
//   incast <newreno|dctcp> --senders=N [--rounds=10] [--min-rto-ms=300] [--k=20] [--port=100]
//          [--queue=1000] [--rate-mbps=1000] [--delay-us=25] [--init-cwnd=3] [--tick-us=1000]
//
// Prints `RESPONSE <r> <worker> <end s> <data packets sent> <fast retransmits>` per response, `ROUND <r> <start s>
// <end s> <port drops> <marks> <resent data packets>` per completed query and `RESULT` lines (totals
// over the completed queries but for the port's drops).
#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>

#include "lib/twin.h"

namespace {

const uint64_t QUERY_BYTES = 1000000;
const int PAYLOAD = 1460;  // tcpsim's MSS: a response of B bytes is ceil(B / 1460) packets of 1500 B

/// The rounds of queries, each a fresh set of connections (as tcpsim's barrier generator).
class Query : public EventSource {
public:
    Query(EventList& ev, bool dctcp, int senders, int rounds, uint64_t segments, uint32_t init_cwnd,
          simtime_picosec min_rto, std::vector<std::vector<Hop>> up, std::vector<std::vector<Hop>> down,
          Queue* port, LiveScanner& scanner)
        : EventSource(ev, "query"), _dctcp(dctcp), _senders(senders), _rounds(rounds), _segments(segments),
          _init_cwnd(init_cwnd), _min_rto(min_rto), _up(std::move(up)), _down(std::move(down)), _port(port),
          _scanner(scanner) {}

    /// Start the next round now.
    void doNextEvent() override {
        _start = eventlist().now();
        _done = 0;
        _drops_before = _port->num_drops();
        _sinks.clear();
        _round_sources.clear();
        for (int i = 0; i < _senders; i++) {
            TcpSrc* src = _dctcp ? static_cast<TcpSrc*>(new TwinSrc<DCTCPSrc>(eventlist(), _segments, _init_cwnd, _min_rto))
                                 : static_cast<TcpSrc*>(new TwinSrc<TcpSrc>(eventlist(), _segments, _init_cwnd, _min_rto));
            TwinSink* sink = new TwinSink(_segments, [this, i, src] {
                std::cout << "RESPONSE " << _round << " " << i << " " << timeAsSec(eventlist().now()) << " "
                          << src->_packets_sent / src->_mss << " " << src->_drops << "\n";
                finished();
            });
            _sinks.push_back(sink);
            _round_sources.push_back(src);
            Route* out = route(_up[i]);
            out->push_back(sink);
            Route* back = route(_down[i]);
            back->push_back(src);
            _scanner.add(src, sink);
            src->connect(*out, *back, *sink, eventlist().now());
        }
    }

    uint64_t marks = 0, resent = 0;

private:
    static Route* route(const std::vector<Hop>& hops) {
        Route* r = new Route();
        for (const Hop& h : hops) {
            r->push_back(h.queue);
            r->push_back(h.pipe);
        }
        return r;
    }

    void finished() {
        if (++_done < _senders) {
            return;
        }
        uint64_t round_marks = 0;
        for (TwinSink* s : _sinks) {
            round_marks += s->marks;
        }
        marks += round_marks;
        uint64_t round_resent = 0;
        for (TcpSrc* src : _round_sources) {
            round_resent += src->_packets_sent / src->_mss - _segments;
        }
        resent += round_resent;
        std::cout << "ROUND " << _round << " " << timeAsSec(_start) << " " << timeAsSec(eventlist().now()) << " "
                  << _port->num_drops() - _drops_before << " " << round_marks << " " << round_resent << "\n";
        if (++_round < _rounds) {
            eventlist().sourceIsPending(*this, eventlist().now());
        } else {
            eventlist().setEndtime(eventlist().now());  // the timer scanner would tick on to the end
        }
    }

    bool _dctcp;
    int _senders, _rounds, _round = 0, _done = 0, _drops_before = 0;
    uint64_t _segments;
    uint32_t _init_cwnd;
    simtime_picosec _min_rto, _start = 0;
    std::vector<std::vector<Hop>> _up, _down;
    Queue* _port;
    LiveScanner& _scanner;
    std::vector<TwinSink*> _sinks;
    std::vector<TcpSrc*> _round_sources;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || (std::string(argv[1]) != "newreno" && std::string(argv[1]) != "dctcp")) {
        std::cerr << "usage: incast <newreno|dctcp> --senders=N [--rounds=10] ...\n";
        return 2;
    }
    bool dctcp = std::string(argv[1]) == "dctcp";
    int senders = std::stoi(option(argc, argv, "senders", "1"));
    int rounds = std::stoi(option(argc, argv, "rounds", "10"));
    simtime_picosec min_rto = timeFromMs(std::stod(option(argc, argv, "min-rto-ms", "300")));
    int k = dctcp ? std::stoi(option(argc, argv, "k", "20")) : 0;
    int port_waiting = std::stoi(option(argc, argv, "port", "100"));
    int queue_waiting = std::stoi(option(argc, argv, "queue", "1000"));
    linkspeed_bps rate = speedFromMbps(std::stod(option(argc, argv, "rate-mbps", "1000")));
    simtime_picosec delay = timeFromUs(std::stod(option(argc, argv, "delay-us", "25")));
    uint32_t init_cwnd = std::stoul(option(argc, argv, "init-cwnd", "3"));

    std::cout << std::setprecision(12);
    Packet::set_packet_size(PAYLOAD + 40);
    EventList ev;
    ev.setEndtime(timeFromSec(std::max(5, rounds)));
    LiveScanner scanner(timeFromUs(std::stod(option(argc, argv, "tick-us", "1000"))), ev);

    // Worker i's data: its NIC, then the switch port to the aggregator (shared by all).
    // Its ACKs: the aggregator's NIC (shared), then the switch's port to worker i.
    Hop port = make_hop(ev, rate, delay, port_waiting, k);
    Hop agg_nic = make_hop(ev, rate, delay, queue_waiting, 0);
    std::vector<std::vector<Hop>> up, down;
    for (int i = 0; i < senders; i++) {
        up.push_back({make_hop(ev, rate, delay, queue_waiting, 0), port});
        down.push_back({agg_nic, make_hop(ev, rate, delay, queue_waiting, 0)});
    }
    uint64_t bytes = QUERY_BYTES / senders;
    uint64_t segments = (bytes + PAYLOAD - 1) / PAYLOAD;
    Query query(ev, dctcp, senders, rounds, segments, init_cwnd, min_rto, up, down, port.queue, scanner);
    ev.sourceIsPending(query, 0);
    while (ev.doNextEvent()) {
    }

    std::cout << "RESULT incast port_drops " << port.queue->num_drops() << "\n";
    std::cout << "RESULT incast port_marks " << query.marks << "\n";
    std::cout << "RESULT incast resent_segments " << query.resent << "\n";
    return 0;
}
