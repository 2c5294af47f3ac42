"""tcpsim's scenarios/cubic.toml beside its ns-3.44 twin (peers/ns3/cubic.cc), same metrics.

    peers/ns3/build.sh cubic
    .venv/bin/python peers/ns3/cubic_compare.py            # tcpsim (two RTT readings) and ns-3 (PRR, classic)

Metrics over the 60 s run: payload throughput, bottleneck drops (all, and after the 2 s of
start-up), reductions (fast retransmits
and timeouts) after 2 s, their mean spacing, the mean window a reduction cuts and the mean
ssthresh it sets. See docs/ns3-comparison/cubic.md.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import tcpsim

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = ROOT / "python" / "tcpsim" / "scenarios" / "cubic.toml"
TWIN = Path("/tmp/ns3-twins/bin/cubic")


def tcpsim_side(target_rtt: str) -> dict[str, float]:
    r = tcpsim.run(SCENARIO, seed=1, **{"trace.cwnd": True, "tcp.cc": {"kind": "cubic", "target_rtt": target_rtt}})
    flow = r.flows.iloc[0]
    link = r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]
    # The same run cut at 2 s (deterministic, so the same first 2 s): the drops after the start-up.
    early = tcpsim.run(SCENARIO, seed=1, duration="2s", **{"tcp.cc": {"kind": "cubic", "target_rtt": target_rtt}})
    early_drops = int(
        early.links[(early.links["name"] == "bottleneck") & (early.links["direction"] == "ab")].iloc[0]["drops_queue"]
    )
    c = r.trace("cwnd")
    t, w, ss = c["time_s"].to_numpy(), c["cwnd_bytes"].to_numpy(), c["ssthresh_bytes"].to_numpy()
    # Every reduction sets ssthresh below the window it cuts (SACK recovery: cwnd = ssthresh).
    cut = [i for i in range(1, len(t)) if ss[i] < w[i - 1] and (ss[i] != ss[i - 1] or w[i] < w[i - 1]) and t[i] > 2]
    times = t[cut]
    return {
        "throughput_mbps": flow["throughput_bps"] / 1e6,
        "router_drops": int(link["drops_queue"]),
        "router_drops_after_2s": int(link["drops_queue"]) - early_drops,
        "reductions_after_2s": len(cut),
        "mean_spacing_s": float(np.diff(times).mean()) if len(times) > 1 else 0.0,
        "mean_cwnd_before_bytes": float(w[[i - 1 for i in cut]].mean()),
        "mean_ssthresh_after_bytes": float(ss[cut].mean()),
    }


def ns3_side(recovery: str) -> dict[str, float]:
    out = subprocess.run([str(TWIN), f"--recovery={recovery}"], check=True, capture_output=True, text=True).stdout
    values = {line.split()[2]: float(line.split()[3]) for line in out.splitlines() if line.startswith("RESULT")}
    values.pop("reductions_total", None)
    return values


def main() -> None:
    columns = {
        "tcpsim (srtt)": tcpsim_side("smoothed"),
        "tcpsim (min RTT)": tcpsim_side("min"),
    }
    if TWIN.exists():
        columns["ns-3 PRR"] = ns3_side("prr")
        columns["ns-3 classic"] = ns3_side("classic")
    else:
        print(f"{TWIN} missing: run peers/ns3/build.sh cubic", file=sys.stderr)
    metrics = list(next(iter(columns.values())))
    print("| metric | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for m in metrics:
        print(f"| {m} | " + " | ".join(f"{col.get(m, float('nan')):.7g}" for col in columns.values()) + " |")


if __name__ == "__main__":
    main()
