"""Which parts of a scenario draw from the run seed, read from its engine form.

The engine's random streams (crates/tcpsim-core: `rng.rs`, `build_context.rs`) feed exactly
these components: random loss models (`loss/`), RED, RD and PIE queues (`queue/`), a bulk flow's
start jitter (`sim.rs`) and web-like traffic generators (`app/web.rs`). Everything else is
deterministic, so a scenario with none of them gives bit-identical results for every seed, and
replicating it over seeds only yields confidence intervals of zero width.

A component counts only when a draw can change what happens: a Bernoulli loss with p = 0 or 1
draws but always decides the same; a two-state channel whose states lose alike does not care
which state it is in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _uncertain(probability: float) -> bool:
    return 0.0 < probability < 1.0


def _random_loss(loss: Mapping[str, Any]) -> bool:
    kind = loss["kind"]
    if kind == "bernoulli":
        return _uncertain(loss["p"])
    if kind == "bit_error":
        return _uncertain(loss["ber"])
    if kind in ("gilbert_elliott", "two_state"):
        per_packet = _uncertain(loss["good_loss"]) or _uncertain(loss["bad_loss"])
        # Gilbert–Elliott sojourns are exponential draws; two-state ones are fixed, but which
        # state follows is drawn with p_bad.
        timeline = kind == "gilbert_elliott" or _uncertain(loss["p_bad"])
        return per_packet or (timeline and loss["good_loss"] != loss["bad_loss"])
    return False  # scripted, periodic_outage, outage_intervals: fixed in advance


def random_components(canonical: Mapping[str, Any]) -> list[str]:
    """A description of each component of the engine scenario (``Scenario.to_engine()``)
    whose behaviour depends on the seed; empty when the seed changes nothing."""
    found: list[str] = []
    for link in canonical["links"]:
        for direction in ("ab", "ba"):
            side = link[direction]
            if side["queue"]["kind"] in ("red", "rd", "pie"):
                found.append(f"link {link['name']!r} ({direction}): {side['queue']['kind']} queue")
            found += [
                f"link {link['name']!r} ({direction}): {loss['kind']} loss"
                for loss in side["loss"]
                if _random_loss(loss)
            ]
    jittered = [
        flow["name"]
        for flow in canonical["flows"]
        if flow["app"].get("kind") == "bulk" and flow["app"]["start_jitter_ns"]
    ]
    if jittered:
        more = f" and {len(jittered) - 1} more" if len(jittered) > 1 else ""
        found.append(f"flow {jittered[0]!r}{more}: start_jitter")
    found += [f"web generator {web['name']!r}: random arrivals, sizes and clients" for web in canonical["web"]]
    return found
