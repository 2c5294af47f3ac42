// The command line of the AQM twins (codel, pie, fq_codel):
//   <twin> <queue> <run> [--duration=S] [--warmup=S] [--set=ns3::Type::Attribute=value ...] [own options]
// <queue> picks the bottleneck's queue disc, <run> the RNG run. An option the twin does not
// know is ignored.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace twin
{

struct AqmArgs
{
    std::string queue;
    uint32_t run = 0;
    double duration = 0;           ///< simulated seconds
    double warmup = 0;             ///< seconds before the measurement window
    std::vector<std::string> sets; ///< the --set= items, for ApplySets (lib/default_overrides.h)
};

/// Parses argv over the twin's default `duration` and `warmup`; `own` sees every other option.
/// Exits with status 2 and `usage` on stderr without <queue> and <run>.
inline AqmArgs
ParseAqmArgs(int argc,
             char* argv[],
             double duration,
             double warmup,
             const char* usage,
             const std::function<void(const std::string&)>& own = nullptr)
{
    if (argc < 3)
    {
        std::fprintf(stderr, "%s\n", usage);
        std::exit(2);
    }
    AqmArgs args;
    args.duration = duration;
    args.warmup = warmup;
    args.queue = argv[1];
    args.run = std::stoul(argv[2]);
    for (int i = 3; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a.rfind("--duration=", 0) == 0)
        {
            args.duration = std::stod(a.substr(11));
        }
        else if (a.rfind("--warmup=", 0) == 0)
        {
            args.warmup = std::stod(a.substr(9));
        }
        else if (a.rfind("--set=", 0) == 0)
        {
            args.sets.push_back(a.substr(6));
        }
        else if (own)
        {
            own(a);
        }
    }
    return args;
}

} // namespace twin
