// Sensitivity runs of the twins: attribute defaults overridden after a twin has set its own.
// Two spellings, as the twins' command lines have them: the TWIN_SET environment variable
// ("ns3::Type::Attribute=value;..."; the gangadhar, dctcp, incast and fattree twins) and the
// `--set=ns3::Type::Attribute=value` options (codel, pie, fq_codel).
#pragma once

#include "ns3/core-module.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace twin
{

/// Applies TWIN_SET's `attribute=value` items, `;`-separated; an item without `=` is skipped.
inline void
ApplyTwinSet()
{
    const char* set = std::getenv("TWIN_SET");
    if (!set)
    {
        return;
    }
    std::string all = set;
    for (size_t at = 0; at < all.size();)
    {
        size_t end = all.find(';', at);
        std::string item = all.substr(at, end == std::string::npos ? std::string::npos : end - at);
        size_t eq = item.find('=');
        if (eq != std::string::npos)
        {
            ns3::Config::SetDefault(item.substr(0, eq), ns3::StringValue(item.substr(eq + 1)));
        }
        at = end == std::string::npos ? all.size() : end + 1;
    }
}

/// Applies the `--set=` items (given without the `--set=`); an item without `=` aborts.
inline void
ApplySets(const std::vector<std::string>& sets)
{
    for (const auto& item : sets)
    {
        size_t eq = item.find('=');
        NS_ABORT_MSG_IF(eq == std::string::npos, "--set needs ns3::Type::Attribute=value");
        ns3::Config::SetDefault(item.substr(0, eq), ns3::StringValue(item.substr(eq + 1)));
    }
}

} // namespace twin
