// ns-3.44 twin of tcpsim's gangadhar.fig5: throughput vs PER of the bottleneck link (both
// directions) of Reno/NewReno (ns-3.44's TcpNewReno, lossy_link.h's "reno"), Westwood and
// Westwood+, 400-byte segments, delayed-ACK count 2, the lossy-link set-up of lib/lossy_link.h.
// Points: <variant>_p<per>. See README.md.
#include "lib/lossy_link.h"

int main(int argc, char** argv)
{
    std::vector<twin::Point> points;
    for (const char* variant : {"reno", "westwood", "westwood_plus"})
    {
        for (double per : {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05})
        {
            twin::Point p;
            p.variant = variant;
            p.per = per;
            p.name = std::string(variant) + "_p" + twin::PerText(per);
            points.push_back(p);
        }
    }
    return twin::Main(argc, argv, points);
}
