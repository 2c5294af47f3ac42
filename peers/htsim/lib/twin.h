// Shared parts of the htsim twins (peers/htsim/*.cpp), built from htsim's own classes: links as
// a Queue (or ECNQueue) and a Pipe, a TCP source whose RTO floor, initial window and length are
// parameters, and a sink that calls back when it holds every byte.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "dctcp.h"
#include "ecn.h"
#include "ecnqueue.h"
#include "eventlist.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "tcp.h"

/// One direction of a link: htsim serializes in the queue and delays in the pipe after it.
struct Hop {
    Queue* queue;
    Pipe* pipe;
};

/// A link direction of `rate`, `delay`, holding `waiting` packets of 1500 B; `k` > 0 makes it
/// an ECNQueue marking CE when more than `k` packets' bytes remain after a departure (htsim's
/// DCTCP queue). htsim's byte limit counts the packet in service, tcpsim's packet limit counts
/// only those waiting, hence one packet more here.
inline Hop make_hop(EventList& ev, linkspeed_bps rate, simtime_picosec delay, int waiting, int k) {
    mem_b limit = memFromPkt(waiting + 1);
    Queue* q = k > 0 ? new ECNQueue(rate, limit, ev, nullptr, memFromPkt(k)) : new Queue(rate, limit, ev, nullptr);
    return {q, new Pipe(delay, ev)};
}

/// htsim's TcpSrc (NewReno-style) or DCTCPSrc sending exactly `segments` full packets, with an
/// initial window of `init_cwnd` segments, an unlimited initial ssthresh (RFC 5681 Sec. 3.1),
/// a 1 s initial RTO (RFC 6298 Sec. 2.1) and the RTO floor `min_rto` (RFC 6298 Sec. 2.4) in
/// place of htsim's fixed 250 ms: after each ACK the RTO is re-derived from htsim's own SRTT and
/// RTTVAR with that floor, and a timer the ACK re-armed is re-armed with it.
template <class Base>
class TwinSrc : public Base {
public:
    TwinSrc(EventList& ev, uint64_t segments, uint32_t init_cwnd, simtime_picosec min_rto)
        : Base(nullptr, nullptr, ev), _min_rto(min_rto) {
        this->_cwnd = init_cwnd * this->_mss;
        this->_ssthresh = 0xffffffff;
        this->_rto = timeFromSec(1.0);
        // send_packets() sends while _highest_sent <= _flow_size + 1, the SYN taking sequence
        // number 1: this bound stops it after exactly `segments` data packets.
        this->_flow_size = segments * this->_mss - 1;
    }

    void receivePacket(Packet& pkt) override {
        uint64_t acked = this->_last_acked;
        Base::receivePacket(pkt);
        if (this->_rtt > 0) {
            this->_rto = std::max<simtime_picosec>(this->_rtt + 4 * this->_mdev, _min_rto);
        }
        if (this->_last_acked > acked && this->_RFC2988_RTO_timeout != timeInf) {
            this->_RFC2988_RTO_timeout = this->eventlist().now() + this->_rto;
        }
    }

    /// Data packets sent, first transmissions and retransmissions.
    uint64_t segments_sent() const { return this->_packets_sent / this->_mss; }

private:
    simtime_picosec _min_rto;
};

/// htsim's TcpSink (one ACK per segment, echoing its CE mark) that counts CE-marked arrivals and
/// calls `done` once when it holds `segments` data packets in order.
class TwinSink : public TcpSink {
public:
    TwinSink(uint64_t segments, std::function<void()> done)
        : _last(1 + segments * Packet::data_packet_size()), _done(std::move(done)) {}

    void receivePacket(Packet& pkt) override {
        if (pkt.flags() & ECN_CE) {
            marks++;
        }
        TcpSink::receivePacket(pkt);
        if (!_fired && _cumulative_ack >= _last) {
            _fired = true;
            _done();
        }
    }

    uint64_t marks = 0;
    bool finished() const { return _fired; }

private:
    uint64_t _last;
    std::function<void()> _done;
    bool _fired = false;
};

/// htsim's TcpRtxTimerScanner (every `period`, each sender checks its retransmission timer),
/// except that it forgets a connection once its sink holds every byte and its sender has every
/// byte acknowledged (its timer off for good): a run of thousands of short connections then does
/// not scan every past one at each tick.
class LiveScanner : public EventSource {
public:
    LiveScanner(simtime_picosec period, EventList& ev) : EventSource(ev, "scanner"), _period(period) {
        ev.sourceIsPendingRel(*this, period);
    }

    void add(TcpSrc* src, const TwinSink* sink) { _live.push_back({src, sink}); }

    void doNextEvent() override {
        simtime_picosec now = eventlist().now();
        size_t kept = 0;
        for (const auto& c : _live) {
            if (!c.second->finished() || c.first->_RFC2988_RTO_timeout != timeInf) {
                c.first->rtx_timer_hook(now, _period);
                _live[kept++] = c;
            }
        }
        _live.resize(kept);
        eventlist().sourceIsPendingRel(*this, _period);
    }

private:
    simtime_picosec _period;
    std::vector<std::pair<TcpSrc*, const TwinSink*>> _live;
};

/// `--name=value` of argv, or `fallback`.
inline std::string option(int argc, char** argv, const std::string& name, const std::string& fallback) {
    std::string prefix = "--" + name + "=";
    for (int i = 1; i < argc; i++) {
        if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) {
            return argv[i] + prefix.size();
        }
    }
    return fallback;
}
