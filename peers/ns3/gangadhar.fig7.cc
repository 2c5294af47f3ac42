// ns-3.44 twin of tcpsim's gangadhar.fig7: throughput vs bottleneck bandwidth 1..8 Mb/s of Reno,
// Westwood and Westwood+ at PER 0.005 (delay 0.01 ms, 400-byte segments, delayed-ACK count 2),
// the lossy-link set-up of lib/lossy_link.h. Points: <variant>_r<Mb/s>. The advertised window's
// two readings are run.py configurations (TWIN_SET). See README.md.
#include "lib/lossy_link.h"

int main(int argc, char** argv)
{
    std::vector<twin::Point> points;
    for (const char* variant : {"reno", "westwood", "westwood_plus"})
    {
        for (uint32_t mbps = 1; mbps <= 8; ++mbps)
        {
            twin::Point p;
            p.variant = variant;
            p.rate = std::to_string(mbps) + "Mbps";
            p.name = std::string(variant) + "_r" + std::to_string(mbps);
            points.push_back(p);
        }
    }
    return twin::Main(argc, argv, points);
}
