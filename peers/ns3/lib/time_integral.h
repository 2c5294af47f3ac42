// The time integral of a traced byte count over the measurement window [warmup, end]: the AQM
// twins' time-averaged queue (area / window), tcpsim's queue-delay measure.
#pragma once

#include "ns3/core-module.h"

#include <algorithm>

namespace twin
{

struct TimeIntegral
{
    double warmup = 0; ///< the window's start, s
    double lastT = 0;
    double value = 0;
    double area = 0;

    /// The count becomes `v` now; Set(value) closes the area up to now.
    void Set(double v)
    {
        double now = ns3::Simulator::Now().GetSeconds();
        double from = std::max(lastT, warmup);
        if (now > from)
        {
            area += value * (now - from);
        }
        lastT = now;
        value = v;
    }
};

} // namespace twin
