/*
 * Queue/RD: RD (Rate-Delay) network services in ns-2.35 (podlesny Sec. II-C, III and Fig. 2;
 * Podlesny & Gorinsky, "RD network services"), the project's own port of tcpsim's RD
 * (crates/tcpsim-core/src/queue/rd.rs and flow_counter.rs), with the same choices:
 *
 * - Two drop-tail FIFOs, R (class 0, loss-based flows) and D (class 1, delay-based flows). A
 *   packet's class is its flow id's: `$q mark-d <fid>` puts every packet of flow id <fid> in D
 *   (data and the ACKs a TCPSink sends back, which copy the data packet's flow id); all other
 *   flow ids are R.
 * - The buffer is limit_ packets (ns-2's queue-limit), B_D = round(limit_ * d_share_) and
 *   B_R = limit_ - B_D; each limit counts the packets waiting, not the one on the wire (tcpsim's
 *   limits; ns-2's DropTail counts the one on the wire too).
 * - Fig. 2's dequeue keeps the bytes served from R and D, L_R and L_D, in the ratio
 *   n_D / (k n_R) (eq. 5), with its resets when one queue is empty and the debt dL that D carries
 *   while R is empty. A packet finding the link idle is enqueued and dequeued at once by
 *   Queue::recv, so it passes through Fig. 2 as the only packet of its queue, as in tcpsim.
 * - Every interval_ seconds (checked lazily at each enqueue and dequeue, on a fixed grid) the
 *   flow counts n_R, n_D are recalculated and L_R, L_D and dL restart at 0 (Sec. III: the volume
 *   served since the start of the current interval).
 * - Flow counting: per class a timestamp vector of counter_slots_ last-seen times (Kim &
 *   O'Hallaron, GLOBECOM 2003), linear-counting estimate b ln(b/z) (b ln b when saturated). A
 *   flow is a connection: the unordered pair of its endpoints (address, port), so data and ACKs
 *   of one connection are one flow. The counting window of class x is counter_timeout_ +
 *   counter_delay_multiple_ * D_x, D_x the longest wait of a class-x packet served within the
 *   class's window in force (one backed-off RTO of a flow behind that queue); a multiple of 0
 *   is a fixed window of counter_timeout_.
 * - Where Fig. 2 divides by a count that is still 0 while both queues hold packets, the count is
 *   taken as 1 (a class with a packet waiting has at least one active flow).
 *
 * Read-only diagnostics (Tcl `$q set ...`): n_r_, n_d_ (counts in force), flow_count_r_,
 * flow_count_d_ (their integrals over time, count x seconds, up to the last recalculation).
 */

#include <math.h>
#include <deque>
#include <set>
#include <vector>
#include <utility>

#include "queue.h"
#include "ip.h"
#include "scheduler.h"

/* A hashed vector of last-seen times (flow_counter.rs). */
class RdFlowCounter {
public:
	RdFlowCounter() : salt_(0) {}
	void init(int slots, unsigned long long salt) {
		last_seen_.assign(slots, -1.0);
		salt_ = salt;
	}
	void record(unsigned long long flow, double now) { last_seen_[slot(flow)] = now; }
	/* Estimated number of flows seen within `window` seconds before `now`. */
	double estimate_within(double now, double window) const {
		double b = last_seen_.size();
		int empty = 0;
		for (size_t i = 0; i < last_seen_.size(); i++) {
			double t = last_seen_[i];
			if (t < 0 || now - t > window)
				empty++;
		}
		if (empty == 0)
			return b * log(b);
		return b * log(b / empty);
	}
private:
	/* SplitMix64's finalizer of the flow and the salt, mapped onto [0, size) by a
	 * multiply-high. */
	size_t slot(unsigned long long flow) const {
		unsigned long long x = (flow ^ salt_) + 0x9e3779b97f4a7c15ULL;
		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
		x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
		x ^= x >> 31;
		return (size_t)(((unsigned __int128)x * last_seen_.size()) >> 64);
	}
	std::vector<double> last_seen_;
	unsigned long long salt_;
};

class RDQueue : public Queue {
public:
	RDQueue();
protected:
	void enque(Packet*);
	Packet* deque();
	int command(int argc, const char*const* argv);
private:
	int class_of(Packet* p) const;
	unsigned long long connection(Packet* p) const;
	void ensure_init();
	void recalculate_if_due(double now);
	double counting_window(int x, double now);
	void account(int x, double s, bool r_busy, bool d_busy);
	double count(int x) const { return n_[x] < 1.0 ? 1.0 : n_[x]; }

	double k_;
	double d_share_;
	double interval_;
	int counter_slots_;
	double counter_timeout_;
	double delay_multiple_;
	double n_[2];
	double flow_count_[2];

	std::set<int> d_fids_;
	PacketQueue q_[2];
	std::deque<double> arrived_[2];
	double served_[2];
	double debt_;
	RdFlowCounter counters_[2];
	double window_[2];
	double interval_max_wait_[2];
	std::deque<std::pair<double, double> > waits_[2];
	double last_recalculation_;
	double next_recalculation_;
	bool initialised_;
};

static class RDQueueClass : public TclClass {
public:
	RDQueueClass() : TclClass("Queue/RD") {}
	TclObject* create(int, const char*const*) { return (new RDQueue); }
} class_rd_queue;

RDQueue::RDQueue() : debt_(0), last_recalculation_(0), next_recalculation_(0), initialised_(false)
{
	bind("k_", &k_);
	bind("d_share_", &d_share_);
	bind("interval_", &interval_);
	bind("counter_slots_", &counter_slots_);
	bind("counter_timeout_", &counter_timeout_);
	bind("counter_delay_multiple_", &delay_multiple_);
	bind("n_r_", &n_[0]);
	bind("n_d_", &n_[1]);
	bind("flow_count_r_", &flow_count_[0]);
	bind("flow_count_d_", &flow_count_[1]);
	pq_ = &q_[0];
	for (int x = 0; x < 2; x++) {
		served_[x] = 0;
		interval_max_wait_[x] = 0;
	}
}

int RDQueue::command(int argc, const char*const* argv)
{
	if (argc == 3 && strcmp(argv[1], "mark-d") == 0) {
		d_fids_.insert(atoi(argv[2]));
		return TCL_OK;
	}
	return Queue::command(argc, argv);
}

/* The parameters are bound variables, set after construction: the counters are sized and the
 * first recalculation scheduled at the first packet. */
void RDQueue::ensure_init()
{
	if (initialised_)
		return;
	initialised_ = true;
	/* Fixed salts (tcpsim draws its salt from the queue's random stream): they only decide
	 * which flows share a slot, which the linear-counting estimate corrects for. */
	counters_[0].init(counter_slots_, 0x2545f4914f6cdd1dULL);
	counters_[1].init(counter_slots_, 0x2545f4914f6cdd1dULL ^ 0x5151515151515151ULL);
	window_[0] = window_[1] = counter_timeout_;
	n_[0] = n_[1] = 0;
	flow_count_[0] = flow_count_[1] = 0;
	last_recalculation_ = 0;
	next_recalculation_ = interval_;
}

int RDQueue::class_of(Packet* p) const
{
	return d_fids_.count(hdr_ip::access(p)->flowid()) ? 1 : 0;
}

/* The connection: the unordered pair of its two endpoints (address, port). */
unsigned long long RDQueue::connection(Packet* p) const
{
	hdr_ip* ip = hdr_ip::access(p);
	unsigned long long a = ((unsigned long long)(unsigned)ip->saddr() << 32) | (unsigned)ip->sport();
	unsigned long long b = ((unsigned long long)(unsigned)ip->daddr() << 32) | (unsigned)ip->dport();
	if (a > b) {
		unsigned long long t = a; a = b; b = t;
	}
	return a * 0x9e3779b97f4a7c15ULL ^ b;
}

void RDQueue::recalculate_if_due(double now)
{
	if (now < next_recalculation_)
		return;
	double elapsed = now - last_recalculation_;
	for (int x = 0; x < 2; x++) {
		flow_count_[x] += n_[x] * elapsed;
		window_[x] = counting_window(x, now);
		n_[x] = counters_[x].estimate_within(now, window_[x]);
	}
	last_recalculation_ = now;
	/* Sec. III: L_R and L_D count from the start of the current interval. */
	served_[0] = served_[1] = 0;
	debt_ = 0;
	next_recalculation_ = now - fmod(now - next_recalculation_, interval_) + interval_;
}

/* counter_timeout_ + m D_x over the intervals inside the window in force; older maxima are
 * forgotten. */
double RDQueue::counting_window(int x, double now)
{
	std::deque<std::pair<double, double> >& waits = waits_[x];
	waits.push_back(std::make_pair(now, interval_max_wait_[x]));
	interval_max_wait_[x] = 0;
	if (delay_multiple_ == 0) {
		waits.clear();
		return counter_timeout_;
	}
	double since = now - window_[x];
	double longest = 0;
	for (size_t i = 0; i < waits.size(); i++)
		if (waits[i].first > since && waits[i].second > longest)
			longest = waits[i].second;
	double window = counter_timeout_ + delay_multiple_ * longest;
	double keep_after = now - window;
	while (!waits.empty() && waits.front().first <= keep_after)
		waits.pop_front();
	return window;
}

/* Fig. 2's update of L_R, L_D and dL after serving `s` bytes from queue `x`. */
void RDQueue::account(int x, double s, bool r_busy, bool d_busy)
{
	if (r_busy && d_busy) {
		served_[x] += s;
		double d = served_[0] * count(1) / (k_ * count(0)) - served_[1];
		debt_ = d > 0 ? d : 0;
	} else if (r_busy) {
		served_[0] = served_[1] = 0;
	} else {
		if (debt_ > 0)
			debt_ -= s;
		if (debt_ > 0)
			served_[1] = -debt_;
		else
			served_[0] = served_[1] = 0;
	}
}

/* Drop-tail in the packet's own queue, after noting its flow as active. */
void RDQueue::enque(Packet* p)
{
	ensure_init();
	double now = Scheduler::instance().clock();
	recalculate_if_due(now);
	int x = class_of(p);
	counters_[x].record(connection(p), now);
	int b_d = (int)floor(qlim_ * d_share_ + 0.5);
	if (b_d > qlim_)
		b_d = qlim_;
	int limit = x == 1 ? b_d : qlim_ - b_d;
	if (q_[x].length() >= limit) {
		drop(p);
		return;
	}
	q_[x].enque(p);
	arrived_[x].push_back(now);
}

/* Fig. 2: "RD router operation when link is idle, and buffer is non-empty". */
Packet* RDQueue::deque()
{
	ensure_init();
	double now = Scheduler::instance().clock();
	recalculate_if_due(now);
	bool r_busy = q_[0].length() > 0, d_busy = q_[1].length() > 0;
	int x;
	if (r_busy && d_busy)
		x = k_ * count(0) * served_[1] > count(1) * served_[0] ? 0 : 1;
	else if (r_busy)
		x = 0;
	else if (d_busy)
		x = 1;
	else
		return 0;
	Packet* p = q_[x].deque();
	double wait = now - arrived_[x].front();
	arrived_[x].pop_front();
	if (wait > interval_max_wait_[x])
		interval_max_wait_[x] = wait;
	account(x, hdr_cmn::access(p)->size(), r_busy, d_busy);
	return p;
}
