// ns-3.44 twin of tcpsim's gangadhar.fig9: throughput vs PER of Reno, Westwood and Westwood+
// for segment payloads 41..1460 bytes (delayed-ACK count 2), the lossy-link set-up of
// lib/lossy_link.h. Points: <variant>_m<payload>_p<per>. See README.md.
#include "lib/lossy_link.h"

int main(int argc, char** argv)
{
    std::vector<twin::Point> points;
    for (const char* variant : {"reno", "westwood", "westwood_plus"})
    {
        for (uint32_t mss : {41u, 100u, 200u, 400u, 536u, 1000u, 1460u})
        {
            for (double per : {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05})
            {
                twin::Point p;
                p.variant = variant;
                p.mss = mss;
                p.per = per;
                p.name = std::string(variant) + "_m" + std::to_string(mss) + "_p" + twin::PerText(per);
                points.push_back(p);
            }
        }
    }
    return twin::Main(argc, argv, points);
}
