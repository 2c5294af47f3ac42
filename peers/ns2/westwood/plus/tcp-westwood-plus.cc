/*
 * Agent/TCP/WestwoodPlusNR: the TCPW-NR agent (tcp/tcp-westwood-nr.cc, UCLA/Politecnico,
 * built by peers/ns2/westwood/build.sh) with the Westwood+ bandwidth estimator in place of its
 * per-ACK filter. Written for tcpsim's ns-2 peer (peers/ns2/westwood/plus/build.sh); everything
 * but the estimator is the TCPW-NR agent's: NewReno recovery, ssthresh = max(2,
 * BWE * RTTmin / size) on the third duplicate ACK, cwnd = min(cwnd, ssthresh), the timeout's
 * CLOSE_FASTER, and RTTmin = the smallest timed RTT sample in tcpTick_ units.
 *
 * Estimator (Westwood+: Grieco & Mascolo, ACM CCR 34(2), 2004, Sec. 2; moller Sec. II: "Westwood+
 * collects a round trip time worth of ACKs before forming a bandwidth sample"): the packets each
 * ACK acknowledges are counted as the TCPW-NR agent counts them (a duplicate ACK counts one and is
 * remembered; a cumulative ACK is debited by what duplicate ACKs already counted; at most two),
 * summed with the time since the previous ACK; once the summed time exceeds the latest RTT sample,
 * b_k = bits / time is one sample and the estimate becomes alpha * BWE + (1 - alpha) * b_k with
 * alpha = fr_alpha_ (0.9), and the sums restart. This is the "filter type 5" (per-RTT EWMA) of a
 * later public modification of tcp-westwood-nr.cc (see README.md); this file does not copy it.
 */

#include "tcp-westwood-nr.h"

class WestwoodPlusNRTcpAgent : public WestwoodNRTcpAgent {
public:
	WestwoodPlusNRTcpAgent() : WestwoodNRTcpAgent(), sum_bits_(0.0), sum_time_(0.0) {}
protected:
	virtual void bwe_computation(Packet *pkt);
	double sum_bits_;  /* bits acknowledged in the open sampling window */
	double sum_time_;  /* seconds the open sampling window spans so far */
};

static class WestwoodPlusNRTcpClass : public TclClass {
public:
	WestwoodPlusNRTcpClass() : TclClass("Agent/TCP/WestwoodPlusNR") {}
	TclObject* create(int, const char*const*) {
		return (new WestwoodPlusNRTcpAgent());
	}
} class_westwoodplusnr;

void WestwoodPlusNRTcpAgent::bwe_computation(Packet *pkt)
{
	hdr_tcp *tcph = hdr_tcp::access(pkt);
	double now = Scheduler::instance().clock();

	/* packets this ACK accounts for (last_ack_ is still the previous ACK's number) */
	int acked = tcph->seqno_ - last_ack_;
	myseqno_ = tcph->seqno_;
	if (acked == 0) {
		/* duplicate ACK: one packet has left the network */
		unaccounted_++;
		acked = 1;
	} else if (acked > 1) {
		if (unaccounted_ >= acked) {
			unaccounted_ -= acked - 1;
			acked = 1;
		} else {
			acked -= unaccounted_;
			unaccounted_ = 0;
		}
	}
	if (acked > 2)
		acked = 2;

	/* RTTmin: the smallest timed RTT sample (ticks) seen so far */
	double rtt = t_rtt_ * tcp_tick_;
	if (rtt > 0 && rtt < min_rtt_estimate)
		min_rtt_estimate = rtt;

	sum_bits_ += 8.0 * size_ * acked;
	sum_time_ += now - lastackrx_;
	if (rtt > 0 && sum_time_ > rtt) {
		double sample = sum_bits_ / sum_time_;
		current_bwe_ = fr_alpha_ * current_bwe_ + (1.0 - fr_alpha_) * sample;
		last_bwe_sample_ = sample;
		sum_bits_ = 0.0;
		sum_time_ = 0.0;
	}
	lastackrx_ = now;
}
