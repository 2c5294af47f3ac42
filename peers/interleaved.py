"""Whole-process timing of tcpsim beside a twin in another simulator (ns-3, htsim),
interleaved (A B A B …) so that both sides see the same machine load: wall and user CPU (`/usr/bin/time`), medians and ratios.
The peer's name is taken from `sides`; used by the `*_compare.py --speed` options of
peers/ns3 and peers/htsim."""

from __future__ import annotations

import statistics
import subprocess
import time


def time_pairs(sides: dict[str, list[str]], pairs: int) -> dict[str, list[float]]:
    """Run each command of `sides` ({"tcpsim": argv, "<peer>": argv}) once per pair, in turn;
    print every run and the medians and the peer / tcpsim ratios; return {side: [wall s, user s,
    max RSS kB]} medians."""
    times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in sides}
    for pair in range(pairs):
        for name, command in sides.items():
            started = time.time()
            done = subprocess.run(
                ["/usr/bin/time", "-f", "TIME %e %U %M", *command], capture_output=True, text=True, check=True
            )
            line = [x for x in done.stderr.splitlines() if x.startswith("TIME ")][-1].split()
            wall, user, rss = float(line[1]), float(line[2]), float(line[3])
            times[name].append((wall, user, rss))
            print(
                f"pair {pair + 1} {name}: wall {wall:.2f} s, user {user:.2f} s, max RSS {rss / 1024:.0f} MB "
                f"(ended {time.strftime('%H:%M:%S', time.gmtime())}, {time.time() - started:.1f} s)",
                flush=True,
            )
    med = {name: [statistics.median(x[i] for x in t) for i in range(3)] for name, t in times.items()}
    for name, (wall, user, rss) in med.items():
        print(f"median {name}: wall {wall:.2f} s, user {user:.2f} s, max RSS {rss / 1024:.0f} MB")
    peer = next(name for name in sides if name != "tcpsim")
    print(
        f"{peer} / tcpsim: wall {med[peer][0] / med['tcpsim'][0]:.3f}x, "
        f"user CPU {med[peer][1] / max(med['tcpsim'][1], 1e-9):.3f}x"
    )
    return med
