"""moller, the closed form of Sec. III alone: Fig. 3 (scenario 1), Fig. 4 (the four Table II scenarios) and
the limits of Prop. 4 against the square-root formula (eqs. (34)–(35))."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.models import moller as model
from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Outcome, Series
from tcpsim.repro.moller.common import TABLE_II, _color, _crossover, _fmt, _identity, _line_style
from tcpsim.repro.plotting import COLUMN_IN, DOUBLE_IN, figure_legend, figure_title

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

# --- the claims' decisions, as pure functions of the model's numbers (unit-tested on their own) ----

EXACT = 1e-9
"""The model's identities hold exactly; 1e-9 absorbs floating-point rounding only."""
SUM_TOLERANCE = 0.01
"""Fig. 3's sum "≈ 1": within 1 % of the link (the paper's axis shows no gap at that resolution)."""
LIMIT_TOLERANCE = 1e-3
"""Prop. 4's and eq. (35)'s limits, reached within 1e-3 at the ends of B/CT in [1e-6, 1e6]."""


def equal_shares(newreno: float, westwood_plus: float, beta: float) -> bool:
    """Fig. 3 at B = CT: the two shares are equal and β = CT/(CT + B) = 1/2, exactly."""
    return abs(newreno - westwood_plus) < EXACT and abs(beta - 0.5) < EXACT


def ahead_on_each_side(buffers: np.ndarray, ct: float, newreno: np.ndarray, westwood_plus: np.ndarray) -> bool:
    """Fig. 3: Westwood+ strictly ahead at every B < CT, NewReno strictly ahead at every B > CT."""
    below, above = buffers < ct - EXACT, buffers > ct + EXACT
    return bool(
        below.any()
        and above.any()
        and np.all(westwood_plus[below] > newreno[below])
        and np.all(newreno[above] > westwood_plus[above])
    )


def sums_to_one(total: np.ndarray, tolerance: float = SUM_TOLERANCE) -> bool:
    """Fig. 3: |sum − 1| ≤ `tolerance` at every buffer size."""
    return bool(np.all(np.abs(np.asarray(total) - 1) <= tolerance))


def curves_coincide(stacks: Sequence[np.ndarray], tolerance: float) -> bool:
    """Fig. 4: for each curve (rows = scenarios, columns = B/CT), max − min over the scenarios ≤
    `tolerance` at every B/CT."""
    return all(float(np.max(s.max(axis=0) - s.min(axis=0))) <= tolerance for s in stacks)


SLIGHT_RANGE = (0.95, 0.999)
"""Fig. 4's "slightly" under-utilizes: a smallest utilization in [0.95, 0.999): visible, but close to 1."""
FULL_UTILIZATION = 0.9999


def slightly_under_utilizes(worst_small: float, worst_large: float, others_worst_small: Sequence[float]) -> bool:
    """Fig. 4, scenario 3 for B ≪ CT: its smallest utilization for B/CT < 0.5 (`worst_small`) is in
    `SLIGHT_RANGE` and below every other scenario's there (NaN where a scenario has no such B), and
    the link is full (≥ `FULL_UTILIZATION`) for B ≥ CT (`worst_large`)."""
    low, high = SLIGHT_RANGE
    return (
        low <= worst_small < high
        and worst_large >= FULL_UTILIZATION
        and all(worst_small < v for v in others_worst_small if math.isfinite(v))
    )


def converges(toward_limit: np.ndarray, limit: float, tolerance: float = LIMIT_TOLERANCE) -> bool:
    """Prop. 4: values ordered towards the limit (B growing for B → ∞, shrinking for B → 0) end
    within `tolerance` of it and never move away from it (distance non-increasing, up to rounding)."""
    distance = np.abs(np.asarray(toward_limit, dtype=float) - limit)
    return bool(distance[-1] < tolerance and np.all(np.diff(distance) <= 1e-12))


def sqrt_ratio_tends_elsewhere(sqrt_ratio: np.ndarray, model_ratio: np.ndarray) -> bool:
    """Eqs. (34)–(35), over B/CT ascending: the square-root formulas' Westwood+/NewReno ratio ends
    within 1e-3 of 1/√2 and is never below it, while the model's ends within 1e-3 of 1/3; both exceed
    100 at the smallest buffer (the paper's agreement as B → 0)."""
    floor = 1 / math.sqrt(2)
    return bool(
        abs(sqrt_ratio[-1] - floor) < LIMIT_TOLERANCE
        and np.all(sqrt_ratio >= floor - 1e-12)
        and abs(model_ratio[-1] - 1 / 3) < LIMIT_TOLERANCE
        and sqrt_ratio[0] > 100
        and model_ratio[0] > 100
    )


# --- analytical experiments ----------------------------------------------------------------


@register
class Fig3(Experiment):
    id = "moller.fig3"
    kind = "model"
    title = "model, scenario 1: normalized throughput vs buffer size"
    setup = (
        "The closed-form fluid model of Sec. III alone, no simulation: Table II scenario 1 (C = 10 Mb/s, T = "
        "50 ms, CT ≈ 42 packets of 1500 bytes), normalized throughput of NewReno, Westwood+ and their sum "
        "for buffers B from 2 packets to 2·CT, at the fully synchronized fixed point of eq. (30); direct "
        "numerical integration of the hybrid system (eqs. (2)–(3)) at seven buffer sizes cross-checks the "
        "closed form. Checked: equal shares at B = CT (β = 1/2), Westwood+ ahead below CT and NewReno above, "
        "and the sum within 1 % of the link; the values at B = CT are model checks."
    )
    paper = "moller"
    xlabel = "buffer size B (packets)"
    ylabel = "normalized throughput"
    hybrid_buffers = (2, 5, 10, 21, 42, 63, 84)
    """Where the closed form is cross-checked by direct integration of eqs. (2)–(3)."""

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting = TABLE_II[1]
        ct = setting.bdp_pkts
        grid = np.unique(np.concatenate([np.linspace(2, 2 * ct, 400), [ct]]))
        curves = setting.model(grid)
        nr, wp, total = (curves[c].to_numpy() for c in ("newreno", "westwood_plus", "utilization"))
        at_ct = setting.model([ct]).iloc[0]
        beta = model.westwood_decrease_factor(ct, ct)
        below, above = grid < ct - EXACT, grid > ct + EXACT
        cross = _crossover(grid, wp - nr)
        hybrid = [
            model.simulate_hybrid(
                model.MollerParams(setting.capacity_bps, setting.rtt_s, b), epochs=20, warmup_epochs=30
            )
            for b in self.hybrid_buffers
        ]
        hybrid_gap = max(
            max(abs(h.newreno - n), abs(h.westwood_plus - w))
            for h, n, w in zip(
                hybrid,
                setting.model(self.hybrid_buffers)["newreno"],
                setting.model(self.hybrid_buffers)["westwood_plus"],
            )
        )
        claims = [
            Claim(
                "equal shares at B = CT (β = 1/2)",
                equal_shares(float(at_ct["newreno"]), float(at_ct["westwood_plus"]), float(beta)),
                f"test: |NewReno − Westwood+| < {EXACT:g} and |β − 1/2| < {EXACT:g} at B = CT (the model's identity, "
                f"exact up to rounding); "
                f"CT = {ct:.2f} pkt: β = {float(beta):.3f}, NewReno {at_ct['newreno']:.4f}, Westwood+ "
                f"{at_ct['westwood_plus']:.4f}; the curves cross at B = {cross:.2f} pkt",
            ),
            Claim(
                "Westwood+ larger for B < CT, NewReno larger for B > CT",
                ahead_on_each_side(grid, ct, nr, wp),
                f"test: strict inequality at every grid point on each side of CT (no tolerance: the paper states "
                f"the order, not a margin); "
                f"over {len(grid)} sizes in [2, {2 * ct:.1f}] pkt: smallest Westwood+ − NewReno for B < CT "
                f"{np.min(wp[below] - nr[below]):.4f} (at B → CT), largest {np.max(wp[below] - nr[below]):.3f} "
                f"(B = 2: {wp[0]:.3f} vs {nr[0]:.3f}); smallest NewReno − Westwood+ for B > CT "
                f"{np.min(nr[above] - wp[above]):.4f}, at B = {2 * ct:.1f}: {nr[-1]:.3f} vs {wp[-1]:.3f}",
            ),
            Claim(
                "sum ≈ 1",
                sums_to_one(total),
                f"test: |sum − 1| ≤ {SUM_TOLERANCE} at every grid point; "
                f"utilization in [{total.min():.4f}, {total.max():.4f}] over B in [2, {2 * ct:.1f}] pkt "
                f"(Prop. 1 holds at {int(curves['full_utilization'].sum())} of {len(grid)} sizes)",
            ),
        ]
        checks = [
            _identity(name, paper, measured)
            for name, paper, measured in (
                ("NewReno normalized throughput at B = CT", 0.5, float(at_ct["newreno"])),
                ("Westwood+ normalized throughput at B = CT", 0.5, float(at_ct["westwood_plus"])),
                ("β = CT/(CT + B) at B = CT", 0.5, float(beta)),
                ("B/CT where the shares are equal", 1.0, cross / ct),
            )
        ]
        series = [
            Series("NewReno (model)", grid, nr),
            Series("Westwood+ (model)", grid, wp),
            Series("sum (model)", grid, total),
            Series(
                "NewReno (direct integration of eqs. (2)–(3))", list(self.hybrid_buffers), [h.newreno for h in hybrid]
            ),
            Series(
                "Westwood+ (direct integration of eqs. (2)–(3))",
                list(self.hybrid_buffers),
                [h.westwood_plus for h in hybrid],
            ),
        ]
        notes = [
            f"{setting.label}; the closed form of Sec. III with the fully synchronized fixed point X* of eq. (30); "
            "normalized throughput = rate / C, both in bytes of 1500-byte packets",
            f"cross-check: direct numerical integration of eqs. (2)–(3) with synchronized losses "
            f"(tcpsim.models.moller.simulate_hybrid, 20 epochs after 30) at B = "
            f"{', '.join(map(str, self.hybrid_buffers))} pkt agrees with the closed form within {hybrid_gap:.3f}",
        ]
        return Outcome(series=series, claims=claims, model_checks=checks, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(COLUMN_IN, 3.9)
        ax = fig.add_subplot()
        for s in outcome.series:
            if "direct integration" in s.label:
                ax.plot(
                    s.x,
                    s.y,
                    linestyle="none",
                    marker="s",
                    mfc="none",
                    markersize=5,
                    color=_color(s.label),
                    label=s.label,
                )
            else:
                ax.plot(s.x, s.y, linestyle=_line_style(s.label), color=_color(s.label), label=s.label)
        ct = TABLE_II[1].bdp_pkts
        ax.axvline(ct, color="gray", linewidth=0.8, alpha=0.6)
        ax.annotate("B = CT", (ct, 0.03), color="gray", xytext=(3, 0), textcoords="offset points")
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_ylim(0, 1.08)
        ax.grid(alpha=0.3)
        figure_legend(fig, ax, columns=1)
        ax.set_title(figure_title(self))


@register
class Fig4(Experiment):
    id = "moller.fig4"
    kind = "model"
    title = "model, all four scenarios vs normalized buffer size"
    setup = (
        "The same closed form for the four Table II scenarios (C = 1 or 10 Mb/s, T = 50 or 200 ms: CT = 4.2, "
        "42, 16.7 and 167 packets), each from B = 2 packets to 2·CT, on one axis of normalized buffer size "
        "B/CT; under-utilization uses the reconstructed t* of Prop. 3, as the printed eq. (21) gives "
        "utilizations above 1. Checked: the four scenarios' curves nearly coincide (within 0.03 of the link "
        "wherever all are defined), and scenario 3 slightly under-utilizes the link for B ≪ CT (minimum "
        "between 0.95 and 0.999, below the others'); where the shares cross (B/CT = 1) is a model check per "
        "scenario."
    )
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"
    coincide_tolerance = 0.03
    """"Barely distinguishable" curves: within 0.03 of capacity of each other (about a line width
    on the paper's 0–1 axis)."""

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        series, curves = [], {}
        for number, setting in TABLE_II.items():
            ct = setting.bdp_pkts
            buffers = np.linspace(2, 2 * ct, 300)
            c = setting.model(buffers)
            curves[number] = c
            for column, name in (("newreno", "NewReno"), ("westwood_plus", "Westwood+"), ("utilization", "sum")):
                series.append(Series(f"{name}, scenario {number}", c["buffer_over_bdp"], c[column]))
        # Compare on the range every scenario covers (B from 2 packets up to 2CT in each).
        low = max(2 / s.bdp_pkts for s in TABLE_II.values())
        x = np.linspace(low, 2.0, 200)
        stacks, details = [], []
        on_x = {n: setting.model(x * setting.bdp_pkts) for n, setting in TABLE_II.items()}
        for column, name in (("newreno", "NewReno"), ("westwood_plus", "Westwood+"), ("utilization", "sum")):
            stack = np.array([on_x[n][column].to_numpy() for n in TABLE_II])
            stacks.append(stack)
            spread = stack.max(axis=0) - stack.min(axis=0)
            details.append(f"{name} {spread.max():.4f} (at B/CT = {x[np.argmax(spread)]:.2f})")
        # Scenarios 1–3 also share [2/16.7, 2].
        low123 = max(2 / TABLE_II[n].bdp_pkts for n in (1, 2, 3))
        x123 = np.linspace(low123, 2.0, 200)
        stack123 = np.array(
            [TABLE_II[n].model(x123 * TABLE_II[n].bdp_pkts)[["newreno", "westwood_plus"]].to_numpy() for n in (1, 2, 3)]
        )
        spread123 = float((stack123.max(axis=0) - stack123.min(axis=0)).max())
        # Each of NewReno and Westwood+ over scenarios 1–3, as (scenario, B/CT) stacks.
        stacks += [stack123[:, :, 0], stack123[:, :, 1]]
        crossings = {
            n: _crossover(c["buffer_over_bdp"].to_numpy(), (c["westwood_plus"] - c["newreno"]).to_numpy())
            for n, c in curves.items()
        }
        # Under-utilization for B << CT.
        small = {n: c[c["buffer_over_bdp"] < 0.5] for n, c in curves.items()}
        s3 = small[3]
        worst3 = float(s3["utilization"].min())
        worst3_at = float(s3["buffer_over_bdp"].iloc[int(np.argmin(s3["utilization"].to_numpy()))])
        others_min = {n: float(small[n]["utilization"].min()) if len(small[n]) else math.nan for n in (0, 1, 2)}
        same_x = {
            n: float(TABLE_II[n].model([worst3_at * TABLE_II[n].bdp_pkts])["utilization"].iloc[0])
            for n in (1, 2)
            if worst3_at * TABLE_II[n].bdp_pkts >= 2
        }
        large3 = float(curves[3][curves[3]["buffer_over_bdp"] >= 1]["utilization"].min())
        claims = [
            Claim(
                "the four scenarios' curves nearly coincide",
                curves_coincide(stacks, self.coincide_tolerance),
                f"test: max − min over the scenarios ≤ {self.coincide_tolerance} at every B/CT, for each curve; "
                f"largest spread between the four scenarios over B/CT in [{low:.2f}, 2] (where all have B ≥ 2 pkt): "
                f"{'; '.join(details)}; scenarios 1–3 over [{low123:.2f}, 2]: {spread123:.4f}; the shares cross at "
                f"B/CT = {', '.join(f'{crossings[n]:.3f} (scenario {n})' for n in TABLE_II)}",
            ),
            Claim(
                "scenario 3 slightly under-utilizes for B ≪ CT",
                slightly_under_utilizes(worst3, large3, list(others_min.values())),
                f"test: scenario 3's smallest utilization for B/CT < 0.5 in [{SLIGHT_RANGE[0]}, {SLIGHT_RANGE[1]}) "
                f"(slight), ≥ {FULL_UTILIZATION} for B ≥ CT, and below scenarios 0–2's; "
                f"scenario 3 utilization for B/CT < 0.5: min {worst3:.4f} at B/CT = {worst3_at:.2f} "
                f"(Prop. 1 fails at {int((~s3['full_utilization']).sum())} of {len(s3)} sizes), ≥ {large3:.5f} "
                f"for B ≥ CT; at the same B/CT: "
                f"{', '.join(f'scenario {n} {v:.4f}' for n, v in same_x.items())}; minimum for B/CT < 0.5 in "
                f"scenarios 0–2: {', '.join(f'{v:.4f}' for v in others_min.values())}",
            ),
        ]
        checks = [_identity(f"B/CT where the shares are equal, scenario {n}", 1.0, crossings[n]) for n in TABLE_II]
        notes = [
            "each scenario's curves run from B = 2 packets to 2·CT (Table II: CT = 4.2, 42, 16.7, 167 packets), "
            "as in the paper; scenario 3 solid, as in the paper's Fig. 4",
            "under-utilization uses the reconstructed t* of Prop. 3 (see tcpsim/models/moller.py): the printed "
            "eq. (21) would give utilizations above 1 for scenario 3",
        ]
        return Outcome(series=series, claims=claims, model_checks=checks, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(DOUBLE_IN, 3.2)
        ax = fig.add_subplot()
        styles = {"3": "-", "1": "--", "2": "-.", "0": ":"}
        for s in outcome.series:
            number = s.label.rsplit(" ", 1)[-1]
            ax.plot(
                s.x,
                s.y,
                linestyle=styles[number],
                color=_color(s.label),
                linewidth=1.6 if number == "3" else 1.1,
                label=s.label,
            )
        ax.axvline(1.0, color="gray", linewidth=0.8, alpha=0.6)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_ylim(0, 1.08)
        ax.grid(alpha=0.3)
        ax.legend(ncol=4, loc="lower right", fontsize=5.5)
        ax.set_title(figure_title(self))


@register
class Limits(Experiment):
    id = "moller.limits"
    kind = "model"
    title = "Prop. 4 and the square-root formula ratio (eqs. (34)–(35))"
    setup = (
        "The closed form of scenario 1 over B/CT from 1e-6 to 1e6, no simulation, against Prop. 4 and eqs. "
        "(34)–(35). Checked: as B → ∞ NewReno's share tends to 3/4 and Westwood+'s to 1/4 (ratio 1/3), as B "
        "→ 0 Westwood+ takes the whole link, while the square-root formulas' ratio (eq. (35), fed the "
        "model's mean queueing delay) tends to 1/√2 instead; the limiting values are model checks."
    )
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting = TABLE_II[1]
        ct = setting.bdp_pkts
        x = np.logspace(-6, 6, 241)
        curves = setting.model(x * ct)
        nr, wp = curves["newreno"].to_numpy(), curves["westwood_plus"].to_numpy()
        # Eq. (35) needs the mean queueing delay; from the model, the mean RTT over a round trip
        # is t*/s* (virtual time counts round trips), so T_q = t*/s* − T. Where s* = 0 (B below
        # about a packet, see the model's docstring) the queue stays at B: T_q = B/C.
        rtts = curves["epoch_rtts"].to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            queueing = np.where(rtts > 0, curves["epoch_s"].to_numpy() / rtts - setting.rtt_s, x * setting.rtt_s)
        sqrt_ratio = model.sqrt_formula_ratio(setting.rtt_s, queueing)
        ratio = wp / nr
        big = x >= 1e2
        tiny = x <= 1e-2
        nr_inf, wp_inf = model.prop4_limit_shares("infinity")
        nr_zero, wp_zero = model.prop4_limit_shares("zero")
        far = -1
        claims = [
            Claim(
                "B → ∞: Westwood+ gets 1/4, NewReno 3/4",
                converges(nr[big], nr_inf) and converges(wp[big], wp_inf),
                f"test: within {LIMIT_TOLERANCE:g} of 3/4 and 1/4 at B/CT = 1e6, the distance shrinking "
                f"monotonically from B/CT = "
                f"100; B/CT = 1e2, 1e4, 1e6: NewReno {_fmt(nr[np.isin(x, [1e2, 1e4, 1e6])], 5)}, Westwood+ "
                f"{_fmt(wp[np.isin(x, [1e2, 1e4, 1e6])], 5)} (distance to 3/4, 1/4 shrinks monotonically for "
                f"B/CT ≥ 100); W+/NR ratio at B/CT = 1e6: {ratio[far]:.5f} (Prop. 4: D2/D1 → 1/3)",
            ),
            Claim(
                "B → 0: Westwood+ gets everything",
                converges(wp[tiny][::-1], wp_zero) and converges(nr[tiny][::-1], nr_zero),
                f"test: within {LIMIT_TOLERANCE:g} of (0, 1) at B/CT = 1e-6, each share's distance to its limit "
                f"shrinking monotonically as B → 0 below B/CT = 0.01; "
                f"B/CT = 1e-6, 1e-4, 1e-2: Westwood+ {_fmt(wp[np.isin(x, [1e-6, 1e-4, 1e-2])], 5)}, NewReno "
                f"{_fmt(nr[np.isin(x, [1e-6, 1e-4, 1e-2])], 5)}; sum {curves['utilization'].iloc[0]:.5f}",
            ),
            Claim(
                "square-root formula ratio tends to 1/√2 for large buffers instead",
                sqrt_ratio_tends_elsewhere(sqrt_ratio, ratio),
                f"test: eq. (35) within {LIMIT_TOLERANCE:g} of 1/√2 at B/CT = 1e6 and never below it, the model's "
                f"ratio within {LIMIT_TOLERANCE:g} "
                f"of 1/3 there, both > 100 at B/CT = 1e-6; "
                f"eq. (35) with the model's mean queueing delay T_q = t*/s* − T: ratio {sqrt_ratio[far]:.5f} at "
                f"B/CT = 1e6 (T_q = {queueing[far]:.3g} s), never below 1/√2 = {1 / math.sqrt(2):.5f}; the model's "
                f"ratio there is {ratio[far]:.5f} (→ 1/3). Both → ∞ as B → 0 (eq. (35) {sqrt_ratio[0]:.3g}, model "
                f"{ratio[0]:.3g} at B/CT = 1e-6), the paper's 'perfect agreement'; eq. (35) = 1 at T_q = T "
                f"({float(model.sqrt_formula_ratio(1.0, 1.0)):.3f})",
            ),
        ]
        checks = [
            _identity(name, paper, measured)
            for name, paper, measured in (
                ("NewReno share, B → ∞ (B/CT = 1e6)", nr_inf, float(nr[far])),
                ("Westwood+ share, B → ∞ (B/CT = 1e6)", wp_inf, float(wp[far])),
                ("Westwood+/NewReno ratio, B → ∞ (B/CT = 1e6)", 1 / 3, float(ratio[far])),
                ("Westwood+ share, B → 0 (B/CT = 1e-6)", wp_zero, float(wp[0])),
                ("eq. (35) ratio, B → ∞ (B/CT = 1e6)", 1 / math.sqrt(2), float(sqrt_ratio[far])),
            )
        ]
        series = [
            Series("NewReno (model)", x, nr),
            Series("Westwood+ (model)", x, wp),
            Series("ratio Westwood+/NewReno (model)", x, ratio),
            Series("ratio, eq. (35) with the model's T_q", x, sqrt_ratio),
        ]
        notes = [
            f"{setting.label}; the limits do not depend on the scenario (Prop. 4)",
            "eq. (35) is evaluated with T_q = t*/s* − T, the model's mean queueing delay per round trip "
            "(virtual time s counts round trips, so t*/s* is the mean RTT)",
        ]
        return Outcome(series=series, claims=claims, model_checks=checks, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(DOUBLE_IN, 2.8)
        left, right = fig.subplots(1, 2)
        for s in outcome.series:
            if s.label.startswith("ratio"):
                right.plot(
                    s.x,
                    s.y,
                    linestyle="--" if "eq. (35)" in s.label else "-",
                    color="tab:gray" if "eq. (35)" in s.label else "black",
                    label=s.label,
                )
            else:
                left.plot(s.x, s.y, linestyle=_line_style(s.label), color=_color(s.label), label=s.label)
        for value, text, ax in (
            (0.75, "3/4", left),
            (0.25, "1/4", left),
            (1 / 3, "1/3", right),
            (1 / math.sqrt(2), "1/√2", right),
        ):
            ax.axhline(value, color="gray", linewidth=0.7, linestyle=":")
            ax.annotate(text, (1e-6, value), color="gray", xytext=(2, 2), textcoords="offset points")
        left.set_ylim(0, 1.05)
        left.set_ylabel(self.ylabel)
        right.set_yscale("log")
        right.set_ylim(0.1, 1e3)
        right.set_ylabel("throughput ratio Westwood+/NewReno")
        for ax in (left, right):
            ax.set_xscale("log")
            ax.set_xlabel(self.xlabel)
            ax.grid(alpha=0.3)
            ax.legend()
        fig.suptitle(figure_title(self))
