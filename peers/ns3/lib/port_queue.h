// The switch port queue disc the DCTCP twins install (dctcp, incast, fattree): for DCTCP, ns-3's
// RED in DCTCP mode, marking every ECN-capable arrival that finds more than K packets waiting
// (RFC 8257 §3.1's step marking: QW = 1, MinTh = MaxTh = K, no gentle region, no hard drop); for
// the other variants a drop-tail FIFO of the same size.
#pragma once
#include "ns3/core-module.h"
#include "ns3/traffic-control-module.h"

#include <string>

namespace ns3
{
/// A queue-disc helper holding `size` packets (e.g. "99p"); with `dctcp`, marking above `k`
/// packets, RED's rate and delay set to the link's (`rate`, `delay`: ns-3 strings).
inline TrafficControlHelper
PortQueue(bool dctcp, const std::string& size, double k, const std::string& rate, const std::string& delay)
{
    TrafficControlHelper tch;
    if (dctcp)
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", QueueSizeValue(QueueSize(size)),
                             "QW", DoubleValue(1),
                             "MinTh", DoubleValue(k),
                             "MaxTh", DoubleValue(k),
                             "Gentle", BooleanValue(false),
                             "UseEcn", BooleanValue(true),
                             "UseHardDrop", BooleanValue(false),
                             "MeanPktSize", UintegerValue(1500),
                             "LinkBandwidth", StringValue(rate),
                             "LinkDelay", StringValue(delay));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize(size)));
    }
    return tch;
}
} // namespace ns3
