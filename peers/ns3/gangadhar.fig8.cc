// ns-3.44 twin of tcpsim's gangadhar.fig8: throughput vs PER of Reno, Westwood and Westwood+
// for delayed-ACK counts 1..8 (timeout 200 ms), 400-byte segments, the lossy-link set-up of
// lib/lossy_link.h. Points: <variant>_d<count>_p<per>. See README.md.
#include "lib/lossy_link.h"

int main(int argc, char** argv)
{
    std::vector<twin::Point> points;
    for (const char* variant : {"reno", "westwood", "westwood_plus"})
    {
        for (uint32_t count = 1; count <= 8; ++count)
        {
            for (double per : {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05})
            {
                twin::Point p;
                p.variant = variant;
                p.delack = count;
                p.per = per;
                p.name = std::string(variant) + "_d" + std::to_string(count) + "_p" + twin::PerText(per);
                points.push_back(p);
            }
        }
    }
    return twin::Main(argc, argv, points);
}
