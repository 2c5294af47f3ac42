
/* peers/ns2/westwood/trace: ErrorModel/SeqList drops the first arrival of each listed TCP
 * sequence number and nothing else (tcpsim's `scripted` loss), so ns-2 and tcpsim can lose the
 * same first transmissions. Appended to queue/errmodel.cc of the trace build only. */
#include <set>
#include "tcp.h"

class SeqListErrorModel : public ErrorModel {
public:
	SeqListErrorModel() : ErrorModel() {}
	virtual int corrupt(Packet* p) {
		if (hdr_cmn::access(p)->ptype() != PT_TCP)
			return 0;
		std::set<int>::iterator it = pending_.find(hdr_tcp::access(p)->seqno());
		if (it == pending_.end())
			return 0;
		pending_.erase(it);
		return 1;
	}
protected:
	/* "$em add SEQNO": drop the next arrival of SEQNO. */
	virtual int command(int argc, const char*const* argv) {
		if (argc == 3 && strcmp(argv[1], "add") == 0) {
			pending_.insert(atoi(argv[2]));
			return TCL_OK;
		}
		return ErrorModel::command(argc, argv);
	}
	std::set<int> pending_;
};

static class SeqListErrorModelClass : public TclClass {
public:
	SeqListErrorModelClass() : TclClass("ErrorModel/SeqList") {}
	TclObject* create(int, const char*const*) { return new SeqListErrorModel; }
} class_seqlist_errmodel;
