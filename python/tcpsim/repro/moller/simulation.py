"""moller, simulation against the model: Fig. 5 (the Table II scenarios), Fig. 6 (Westwood+ starting 50 s
late), Fig. 7 (the modified Westwood+ of Sec. IV) and Fig. 8 (NewReno against NewReno or Westwood+)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.models import moller as model
from tcpsim.repro import register
from tcpsim.repro.aggregate import FRACTION, Curve
from tcpsim.repro.framework import Claim, Experiment, MissCause, Number, Outcome, Series
from tcpsim.repro.moller.common import (
    COMMON_NOTES,
    DISTINGUISHABLE,
    MATCH_TOLERANCE,
    PACKET_BYTES,
    SMALL_BUFFER_PKTS,
    TABLE_II,
    WESTWOOD_DELAY_S,
    Setting,
    _fmt,
    _kendall,
    _model_match_claim,
    _model_series,
    _point_list,
    _sim_notes,
    _sim_series,
    _sim_setting,
    _stat,
    _westwood_rtt_min_s,
    buffer_axis,
    buffer_curves,
    buffers_of,
    draw_overlay,
    require_westwood_plus,
    run_length,
    two_flow_scenario,
)
from tcpsim.repro.plotting import DOUBLE_IN, PALETTE, figure_title
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.runner import RunSpec

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

# --- simulation experiments ----------------------------------------------------------------


def _fig5_scenarios(configured: Sequence[int]) -> list[int]:
    text = os.environ.get("TCPSIM_MOLLER_FIG5_SCENARIOS")
    chosen = [int(part) for part in text.replace(" ", "").split(",") if part] if text else list(configured)
    unknown = [n for n in chosen if n not in TABLE_II]
    if unknown or not chosen:
        raise ValueError(f"TCPSIM_MOLLER_FIG5_SCENARIOS / Fig5.scenarios: {chosen} must be Table II scenarios 0–3")
    return sorted(set(chosen))


@register
class Fig5(Experiment):
    id = "moller.fig5"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "Full mode: the shares at B = CT match (0.521 and 0.478 against 0.5 each; ns-2.35 0.531 and 0.466), the "
            "ratio falls towards 1/3 as the paper says, and at B = 2CT it is 0.603 against the model's 0.670 "
            "(ns-2.35: 0.602); but at B = 53, 56 and 80 packets both flows stand 0.051-0.062 from the model (the "
            "project's 0.05 reading of 'match remarkably well'). ns-2.35 on the same set-up (peers/ns2/moller.fig5.tcl; no Westwood+ agent exists "
            "in ns-2, so the UCLA TCPW-NR agent with a per-RTT Westwood+ estimator, EWMA 0.9) also misses the "
            "0.05 reading, at B = 5 and 10 (Westwood+ 0.099 and 0.069 below the model), with NewReno above the "
            "model at every B >= 5 as in tcpsim; its ratio at 2CT is 0.602 (-10 %). Before tcpsim halved cwnd "
            "as ns-2 does (ssthresh_from), tcpsim given that estimator and ns-2's timers (min RTO 200 ms, 10 ms "
            "ticks) reproduced ns-2 (ratio 0.608; shares within 0.01 at B = 10, 26, 83, 0.035 at B = 5 and CT); "
            "its own main reading now does (0.603). Where along B the shares leave the model and by how much depends "
            "on the Westwood+ filter and the timers, which the paper does not state (it refers to [1] for the "
            "estimator and gives no ns-2 parameters). ns-2's per-ACK Westwood agent is far off the model (ratio "
            "0.96 at 2CT) and does not stand for Westwood+."
        ),
    )
    title = "simulation vs model: NewReno and Westwood+ vs buffer size"
    setup = (
        "The paper's Fig. 2 topology simulated against the model: a NewReno and a Westwood+ flow from two "
        "senders on 100 Mb/s, 0.1 ms links into a router whose link to the destination is the bottleneck, "
        "Table II scenario 1 (10 Mb/s, round-trip propagation 50 ms) with a drop-tail buffer of B = 2…2·CT "
        "packets (8 sizes in quick mode, 30 in full); 1500-byte packets, no delayed ACKs, starts uniform in "
        "[0, 1] s, a 60 s warm-up then about 400 s (quick) or 2000 s measured; the other scenarios run when "
        "TCPSIM_MOLLER_FIG5_SCENARIOS names them. Shares are payload throughput scaled to 1500-byte packets, "
        "over C. Checked: NewReno, Westwood+ and their sum within 0.05 of the model at every B ≥ 5 packets, "
        "and the Westwood+/NewReno ratio falling with B towards the model's 1/3 rather than the square-root "
        "formula's 1/√2; numbers: both shares 0.5 at B = CT, and the ratio at the largest buffer against "
        "the model's ratio at that buffer (1/3 is the B → ∞ limit, which moller.limits checks)."
    )
    paper = "moller"
    xlabel = "buffer size B (packets)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    scenarios: tuple[int, ...] = (1,)
    """Table II scenarios of a full run (quick runs scenario 1 only); the environment variable
    TCPSIM_MOLLER_FIG5_SCENARIOS="0,1,2,3" overrides it."""

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        specs = []
        for number in [1] if quick else _fig5_scenarios(self.scenarios):
            setting = TABLE_II[number]
            duration, warmup = run_length(setting, quick)
            specs += Sweep(buffer_axis(setting)).specs(
                lambda buffer, s=setting, d=duration, w=warmup: two_flow_scenario(s, buffer, duration_s=d, warmup_s=w),
                quick,
                self.replications(quick, seeds),
                scenario=number,
            )
        return specs

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        numbers_run = sorted({key["scenario"] for key in results})
        series, claims, numbers, notes = [], [], [], list(COMMON_NOTES)
        for number in numbers_run:
            setting = TABLE_II[number]
            duration, warmup = run_length(setting, quick)
            sim = buffer_curves(results, setting, scenario=number)
            prefix = f"scenario {number}: "
            for s in [*_model_series(setting, lambda b: b), *_sim_series(sim, "Westwood+")]:
                series.append(Series(prefix + s.label, s.x, s.y, s.y_ci_low, s.y_ci_high))
            claims.append(_model_match_claim(setting, sim, "Westwood+")[0])
            notes += _sim_notes(setting, sim, duration, warmup)
            rtt_min = sim["second_rtt_min_s"].mean
            notes.append(
                f"{setting.label}: Westwood+'s RTTmin estimate (mean over seeds) "
                f"{_fmt(rtt_min * 1e3, 1)} ms for B = {', '.join(map(str, buffers_of(sim)))} pkt; base RTT "
                f"{setting.base_rtt_s * 1e3:.2f} ms ({_westwood_rtt_min_s(next(iter(results.values())))[1]})"
            )
            if number == 1:
                claim, ratio_numbers = self._ratio_claim(setting, sim)
                claims.append(claim)
                numbers += self._share_numbers(setting, sim) + ratio_numbers
        return Outcome(series=series, claims=claims, numbers=numbers, notes=notes)

    @staticmethod
    def _share_numbers(setting: Setting, sim: Mapping[str, Curve]) -> list[Number]:
        buffers = np.array(buffers_of(sim))
        i = int(np.argmin(np.abs(buffers - setting.bdp_pkts)))
        out = []
        for metric, name in (("first", "NewReno"), ("second", "Westwood+")):
            mean, low, high = (v[i] for v in _stat(sim[metric]))
            # The name carries no measured value, so that ns-2's value (ns2_reference) finds it.
            out.append(
                Number(
                    f"{name} normalized throughput at B = CT ({buffers[i]} pkt), scenario {setting.number} simulation",
                    0.5,
                    float(mean),
                    explanation=f"95% CI over the seeds {low:.3f}–{high:.3f}",
                )
            )
        return out

    @staticmethod
    def _ratio_claim(setting: Setting, sim: Mapping[str, Curve]) -> tuple[Claim, list[Number]]:
        """W+/NR ratio falls with B, towards 1/3 (Prop. 4) and not 1/√2 (eq. (35))."""
        buffers = np.array(buffers_of(sim), dtype=float)
        ratio = sim["ratio"].mean
        fitted = setting.model(buffers)
        model_ratio = (fitted["westwood_plus"] / fitted["newreno"]).to_numpy()
        sqrt_ratio = model.sqrt_formula_ratio(setting.rtt_s, sim["queue_delay_s"].mean)
        considered = buffers >= SMALL_BUFFER_PKTS
        b, r = buffers[considered], ratio[considered]
        tau = -_kendall(b, r)  # Kendall's τ of the ratio against −B
        large = buffers > setting.bdp_pkts
        closer = np.abs(ratio[large] - model_ratio[large]) < np.abs(ratio[large] - sqrt_ratio[large])
        last = len(buffers) - 1
        holds = bool(tau >= 0.8 and large.any() and closer.all() and ratio[last] < 1 / math.sqrt(2))
        detail = (
            f"test: Kendall's τ of the ratio against −B over B ≥ 5 ≥ 0.8, the ratio closer to the model (→ 1/3) "
            f"than to eq. (35) (→ 1/√2) at every B > CT, and below 1/√2 at the largest B; "
            f"simulated Westwood+/NewReno ratio for B = {', '.join(f'{v:g}' for v in buffers)} pkt: "
            f"{_fmt(ratio)}; Kendall's τ of the ratio against −B (B ≥ 5): {tau:.2f}; for B > CT the model (→ 1/3) "
            f"gives {_fmt(model_ratio[large])}, eq. (35) with the measured mean queueing delay "
            f"({_fmt(sim['queue_delay_s'].mean[large] * 1e3, 1)} ms) gives {_fmt(sqrt_ratio[large])} (→ 1/√2, and "
            f"never below it); the simulation is closer to the model at {int(closer.sum())} of {int(large.sum())} "
            f"of them; at B = {buffers[last]:g} the ratio {ratio[last]:.3f} is "
            f"{'below' if ratio[last] < 1 / math.sqrt(2) else 'not below'} 1/√2 = {1 / math.sqrt(2):.3f}"
        )
        claim = Claim("W+/NR ratio falls with B, towards 1/3 (not 1/√2)", holds, detail)
        # Like with like (Sec. V, "the ratio decreases as the buffer size is increased and it
        # tends to 1/3"): 1/3 is the B → ∞ limit of the model (Prop. 4), which no finite buffer of
        # Fig. 5 reaches, so the claim above checks the trend towards it, and the number compares
        # the simulated ratio at the largest buffer with the paper's model curve (the Fig. 5
        # theory) at that same buffer. moller.limits checks the model's limit 1/3 itself.
        number = Number(
            f"Westwood+/NewReno throughput ratio at the largest buffer (B = {buffers[last]:g} pkt = "
            f"{buffers[last] / setting.bdp_pkts:.2f}·CT), against the paper's model curve at that B "
            "(the paper: tends to 1/3 as B → ∞)",
            float(model_ratio[last]),
            float(ratio[last]),
        )
        return claim, [number]

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        # Series labels start with "scenario N: "; one panel per scenario.
        scenarios = sorted({int(s.label.split(":")[0].split()[1]) for s in outcome.series})

        def panel(ax: Axes, number: int) -> None:
            chosen = [
                Series(s.label.split(": ", 1)[1], s.x, s.y, s.y_ci_low, s.y_ci_high)
                for s in outcome.series
                if s.label.startswith(f"scenario {number}:")
            ]
            draw_overlay(ax, chosen, self.xlabel, self.ylabel)
            ax.axvline(TABLE_II[number].bdp_pkts, color="gray", linewidth=0.8, alpha=0.6)

        if len(scenarios) == 1:
            fig.set_size_inches(DOUBLE_IN, 3.2)
            ax = fig.add_subplot()
            panel(ax, scenarios[0])
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
            ax.set_title(f"{figure_title(self)}\n{TABLE_II[scenarios[0]].label}")
            return
        fig.set_size_inches(DOUBLE_IN, 5.5)
        axes = np.atleast_1d(fig.subplots(2, 2) if len(scenarios) > 2 else fig.subplots(1, len(scenarios))).ravel()
        for ax, number in zip(axes, scenarios):
            panel(ax, number)
            ax.set_title(TABLE_II[number].label)
        axes[0].legend(ncol=2, fontsize=5)
        fig.suptitle(figure_title(self))


@register
class Fig6(Experiment):
    id = "moller.fig6"
    kind = "simulation"
    title = "as fig5, Westwood+ starting about 50 s after NewReno"
    setup = (
        "The set-up of fig5 (scenario 1) with Westwood+ starting at 50 s (plus uniform [0, 1] s) while "
        "NewReno starts at once, beside the simultaneous start, the measurement window shifted by the same "
        "50 s. Checked: Westwood+'s RTTmin estimate rises with B beyond CT to at least 1.2·T at the largest "
        "buffer (NewReno alone never drains the queue there) while with a simultaneous start it stays at the "
        "base RTT, and Westwood+'s share is larger with the late start wherever its estimate is inflated by "
        "at least 5 ms; number: the largest RTTmin estimate against the paper's ~80 ms (true T: 50 ms)."
    )
    paper = "moller"
    xlabel = "buffer size B (packets)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    paper_rtt_min_s = 0.080

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        setting, _, duration, warmup = _sim_setting(quick)

        def scenario(start: str, buffer: int) -> dict[str, Any]:
            if start == "together":
                return two_flow_scenario(setting, buffer, duration_s=duration, warmup_s=warmup)
            return two_flow_scenario(
                setting,
                buffer,
                duration_s=duration + WESTWOOD_DELAY_S,
                warmup_s=warmup + WESTWOOD_DELAY_S,
                second_start_s=WESTWOOD_DELAY_S,
            )

        return Sweep(Axis("start", ("delayed", "together")), buffer_axis(setting)).specs(
            scenario, quick, self.replications(quick, seeds)
        )

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting, _, duration, warmup = _sim_setting(quick)
        ct = setting.bdp_pkts
        delayed = buffer_curves(results, setting, start="delayed")
        together = buffer_curves(results, setting, start="together")
        buffers = np.array(buffers_of(delayed), dtype=float)
        rtt_mean, rtt_low, rtt_high = _stat(delayed["second_rtt_min_s"])
        rtt_together = together["second_rtt_min_s"].mean
        source = _westwood_rtt_min_s(next(iter(results.values())))[1]
        # Beyond CT, NewReno alone never drains the queue (its window after halving, (CT + B)/2,
        # exceeds CT), so a late starter cannot see T; at B <= CT it can. "Inflated at large B":
        # the estimate grows with B beyond CT and is well above T (>= 1.2·T) at the largest B,
        # while with a simultaneous start it stays at the base RTT.
        beyond_ct = buffers >= ct
        queue_before = delayed["queue_before_delayed_start_pkts"].mean
        queue_min = delayed["queue_min_after_delayed_start_pkts"].mean
        # RTTmin = the base RTT plus the smallest queueing delay Westwood+ ever saw.
        implied = setting.base_rtt_s + queue_min * PACKET_BYTES * 8 / setting.capacity_bps
        top = int(np.argmax(rtt_mean))
        last = len(buffers) - 1
        tau = _kendall(buffers[beyond_ct], rtt_mean[beyond_ct])
        baseline = bool(np.all(np.abs(rtt_together - setting.base_rtt_s) <= 0.001))
        inflated = bool(beyond_ct.sum() >= 2 and tau >= 0.8 and rtt_mean[last] >= 1.2 * setting.rtt_s and baseline)
        claims = [
            Claim(
                "Westwood+'s RTTmin estimate is inflated (up to ~80 ms vs true 50 ms) at large B",
                inflated,
                f"test (Required, below): the estimate rises with B beyond CT, ≥ 1.2·T at the largest B, base RTT "
                f"with a simultaneous start; Westwood+ RTTmin estimate (mean over seeds, {source}) for B = "
                f"{', '.join(f'{b:g}' for b in buffers)} pkt: {_fmt(rtt_mean * 1e3, 1)} ms, vs "
                f"{_fmt(rtt_together * 1e3, 1)} ms when both start together; true T = {setting.rtt_s * 1e3:g} ms "
                f"(base RTT with serialization {setting.base_rtt_s * 1e3:.2f} ms). Required: Kendall's τ of the estimate "
                f"against B for B ≥ CT ≥ 0.8 (got {tau:.2f}), ≥ 1.2·T at the largest B (got {rtt_mean[last] * 1e3:.1f} ms), "
                f"simultaneous-start estimate within 1 ms of the base RTT (got {'yes' if baseline else 'no'}). Bottleneck "
                f"queue (1 s samples) in the 5 s before Westwood+ starts: {_fmt(queue_before, 1)} pkt; smallest after it "
                f"starts: {_fmt(queue_min, 1)} pkt, i.e. base RTT + that delay = {_fmt(implied * 1e3, 1)} ms",
            )
        ]
        gain = delayed["second"].mean - together["second"].mean
        wp_model = setting.model(buffers)["westwood_plus"].to_numpy()
        # The disadvantage shrinks *because* of the inflated estimate: check wherever the estimate
        # is inflated by at least 10% of T over the simultaneous start.
        affected = (rtt_mean - rtt_together) >= 0.1 * setting.rtt_s
        claims.append(
            Claim(
                "so its large-buffer disadvantage shrinks",
                bool(affected.any() and np.all(gain[affected] > 0)),
                f"test: Westwood+ share, delayed start minus simultaneous start, > 0 wherever its RTTmin estimate is "
                f"inflated; {_point_list(buffers, gain)}; required > 0 "
                f"wherever the RTTmin estimate is inflated by ≥ {0.1 * setting.rtt_s * 1e3:g} ms "
                f"(B = {', '.join(f'{b:g}' for b in buffers[affected]) or 'none'} pkt); delayed-start Westwood+ share "
                f"there {_fmt(delayed['second'].mean[affected])} vs simultaneous {_fmt(together['second'].mean[affected])} "
                f"and model (RTTmin = T) {_fmt(wp_model[affected])}",
            )
        )
        number = Number("largest Westwood+ RTTmin estimate over B (s)", self.paper_rtt_min_s, float(rtt_mean[top]))
        # The estimate is set by how far NewReno's sawtooth drains the queue after Westwood+
        # starts; if the 1 s queue samples account for it (within 5 ms, the samples can only
        # overestimate the minimum), a gap to the paper's 80 ms is that queue's, and is explained.
        mechanism = math.isfinite(implied[top]) and -0.002 <= implied[top] - rtt_mean[top] <= 0.005
        if number.status == "missed" and mechanism:
            number.explanation = (
                f"the estimate is the base RTT ({setting.base_rtt_s * 1e3:.1f} ms) plus the smallest queueing delay "
                f"Westwood+ ever sees, i.e. how far NewReno's sawtooth drains the queue after Westwood+ starts, which "
                f"the paper does not report: at B = {buffers[top]:g} pkt the smallest sampled queue after the start is "
                f"{queue_min[top]:.1f} pkt → {implied[top] * 1e3:.1f} ms, against the measured estimate "
                f"{rtt_mean[top] * 1e3:.1f} ms (95% CI {rtt_low[top] * 1e3:.1f}–{rtt_high[top] * 1e3:.1f} ms)"
            )
        series = [
            *_model_series(setting, lambda b: b),
            *_sim_series(delayed, "Westwood+", suffix=", delayed start"),
            together["second"].series("Westwood+ (reference: simultaneous start, sim, mean ± 95% CI)"),
            Series("Westwood+ RTTmin estimate (s), delayed start", list(buffers), rtt_mean, rtt_low, rtt_high),
        ]
        notes = [
            *COMMON_NOTES,
            f"Westwood+ starts at {WESTWOOD_DELAY_S:g} s + uniform [0, 1] s; the measurement window starts "
            f"{WESTWOOD_DELAY_S:g} s later than fig5's ({warmup + WESTWOOD_DELAY_S:g} s of "
            f"{duration + WESTWOOD_DELAY_S:g} s); the simultaneous-start runs are fig5's set-up",
            *_sim_notes(setting, delayed, duration + WESTWOOD_DELAY_S, warmup + WESTWOOD_DELAY_S),
        ]
        return Outcome(series=series, claims=claims, numbers=[number], notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(DOUBLE_IN, 3.2)
        left, right = fig.subplots(1, 2)
        shares = [s for s in outcome.series if "RTTmin" not in s.label]
        draw_overlay(left, shares, self.xlabel, self.ylabel)
        left.legend(ncol=1, loc="lower right", fontsize=5)
        ct = TABLE_II[1].bdp_pkts
        left.axvline(ct, color="gray", linewidth=0.8, alpha=0.6)
        left.set_title("shares (Westwood+ delayed 50 s)")
        for s in outcome.series:
            if "RTTmin" in s.label:
                y = np.asarray(s.y, dtype=float) * 1e3
                right.errorbar(
                    s.x,
                    y,
                    yerr=[
                        np.clip(y - np.asarray(s.y_ci_low) * 1e3, 0, None),
                        np.clip(np.asarray(s.y_ci_high) * 1e3 - y, 0, None),
                    ],
                    fmt="+",
                    color=PALETTE[1],
                    capsize=2.5,
                    label="Westwood+ RTTmin estimate (sim)",
                )
        right.axhline(TABLE_II[1].rtt_s * 1e3, color="gray", linestyle="--", linewidth=0.9, label="true T = 50 ms")
        right.axhline(
            self.paper_rtt_min_s * 1e3, color="black", linestyle=":", linewidth=0.9, label="paper: up to ~80 ms"
        )
        right.set_xlabel(self.xlabel)
        right.set_ylabel("RTTmin estimate (ms)")
        right.grid(alpha=0.3)
        right.legend()
        fig.suptitle(figure_title(self))


@register
class Fig7(Experiment):
    id = "moller.fig7"
    kind = "simulation"
    title = "modified Westwood+ (never below half the previous window)"
    setup = (
        "The set-up of fig5 (scenario 1) with the modified Westwood+ of Sec. IV (after a loss the window "
        "never falls below half its previous value: β = max(CT/(CT + B), 1/2) in the model) beside the "
        "unmodified one, against the model with the same change, on a B/CT axis. Checked: for B > CT the two "
        "shares come within 0.1 of each other, and for B < CT neither flow's share moves by more than 0.05 "
        "from the unmodified runs."
    )
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    equal_tolerance = 0.1
    """"About equal" shares: within 0.1 of each other (each 0.45–0.55 of a full link)."""

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        setting, _, duration, warmup = _sim_setting(quick)
        return Sweep(buffer_axis(setting), Axis("westwood", ("modified", "unmodified"))).specs(
            lambda buffer, westwood: two_flow_scenario(
                setting, buffer, duration_s=duration, warmup_s=warmup, modified=westwood == "modified"
            ),
            quick,
            self.replications(quick, seeds),
        )

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting, _, duration, warmup = _sim_setting(quick)
        ct = setting.bdp_pkts
        modified = buffer_curves(results, setting, westwood="modified")
        plain = buffer_curves(results, setting, westwood="unmodified")
        buffers = np.array(buffers_of(modified), dtype=float)
        x = buffers / ct
        m_nr, m_wp = modified["first"].mean, modified["second"].mean
        p_nr, p_wp = plain["first"].mean, plain["second"].mean
        above = buffers > ct
        gap = np.abs(m_nr - m_wp)
        # "Unchanged for B < CT": where the model gives the same curves (β ≥ 1/2 there), and the
        # simulations of the two variants should agree within the model tolerance.
        below = buffers < ct
        change_nr, change_wp = m_nr - p_nr, m_wp - p_wp
        claims = [
            Claim(
                "for B > CT the shares become about equal",
                bool(above.any() and np.all(gap[above] <= self.equal_tolerance)),
                f"test: |NewReno − modified Westwood+| ≤ {self.equal_tolerance} at every B > CT; "
                f"|NewReno − modified Westwood+| for B > CT ({', '.join(f'{b:g}' for b in buffers[above])} pkt): "
                f"{_fmt(gap[above])} (unmodified: {_fmt(np.abs(p_nr - p_wp)[above])}); required ≤ "
                f"{self.equal_tolerance}; modified Westwood+ share {_fmt(m_wp[above])}, NewReno {_fmt(m_nr[above])}",
            ),
            Claim(
                "for B < CT results are unchanged",
                bool(
                    below.any()
                    and np.all(np.abs(change_nr[below]) <= MATCH_TOLERANCE)
                    and np.all(np.abs(change_wp[below]) <= MATCH_TOLERANCE)
                ),
                f"test: modified − unmodified within ±{MATCH_TOLERANCE} for both flows at every B < CT; "
                f"modified − unmodified for B < CT, NewReno: {_point_list(buffers[below], change_nr[below])}; "
                f"Westwood+: {_point_list(buffers[below], change_wp[below])}; required within ±{MATCH_TOLERANCE}",
            ),
        ]
        series = [
            *_model_series(setting, lambda b: b / ct, modified=True, name="modified Westwood+"),
            *_sim_series(modified, "modified Westwood+", list(x)),
            plain["first"].series("NewReno (reference: against unmodified W+, sim, mean ± 95% CI)", list(x)),
            plain["second"].series("Westwood+ (reference: unmodified, sim, mean ± 95% CI)", list(x)),
        ]
        notes = [
            *COMMON_NOTES,
            'modified Westwood+ = flow tcp.cc = {kind = "westwood_plus", min_decrease_half = true}: after a loss '
            "ssthresh = max(BWE·RTTmin, NewReno's halved window); the model curve uses β = max(CT/(CT + B), 1/2) "
            "in eqs. (27)–(30); unmodified Westwood+ (fig5's runs) shown faded for comparison",
            *_sim_notes(setting, modified, duration, warmup, "modified Westwood+"),
        ]
        return Outcome(series=series, claims=claims, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        _plot_against_normalized_buffer(self, outcome, fig)


@register
class Fig8(Experiment):
    id = "moller.fig8"
    kind = "simulation"
    title = "NewReno competing with NewReno vs with Westwood+"
    setup = (
        "The set-up of fig5 (scenario 1) with a NewReno flow as the second flow, compared with the "
        "NewReno/Westwood+ pair: NewReno's share and each pair's utilization vs B/CT, against the model "
        "(both decrease factors 1/2 for two NewReno flows). Checked: two NewReno flows under-utilize small "
        "buffers (below 97 % of the link, and below the mixed pair, for B ≤ CT/4), and NewReno loses "
        "throughput to Westwood+ for B < CT and gains for B > CT, wherever the model separates the two cases "
        "by at least 0.03."
    )
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    small_buffer = 0.25
    """"Small buffers" for the under-utilization claim: B ≤ CT/4."""
    underused = 0.97
    """Under-utilized: the pair carries less than 97% of the link."""

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        setting, _, duration, warmup = _sim_setting(quick)
        return Sweep(buffer_axis(setting), Axis("competitor", ("newreno", "westwood_plus"))).specs(
            lambda buffer, competitor: two_flow_scenario(
                setting, buffer, duration_s=duration, warmup_s=warmup, second_variant=competitor
            ),
            quick,
            self.replications(quick, seeds),
        )

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting, _, duration, warmup = _sim_setting(quick)
        ct = setting.bdp_pkts
        pair = buffer_curves(results, setting, competitor="newreno")
        mixed = buffer_curves(results, setting, competitor="westwood_plus")
        buffers = np.array(buffers_of(pair), dtype=float)
        x = buffers / ct
        # A NewReno flow competing with NewReno: the mean of the two (both are such flows).
        pair["per_flow"] = Curve.of(
            {b: (pair["first"].samples[b] + pair["second"].samples[b]) / 2 for b in buffers_of(pair)}, FRACTION
        )
        util_pair, util_mixed = pair["sum"].mean, mixed["sum"].mean
        nr_pair, nr_mixed = pair["per_flow"].mean, mixed["first"].mean
        small = x <= self.small_buffer
        claims = [
            Claim(
                "two NewReno flows under-utilize small buffers",
                bool(
                    small.any()
                    and np.all(util_pair[small] < self.underused)
                    and np.all(util_pair[small] < util_mixed[small])
                ),
                f"test: NewReno-pair utilization < {self.underused} and below the mixed pair's at every B ≤ CT/4; "
                f"utilization for B ≤ CT/4 ({', '.join(f'{b:g}' for b in buffers[small])} pkt): NewReno+NewReno "
                f"{_fmt(util_pair[small])}, NewReno+Westwood+ {_fmt(util_mixed[small])} (required: NewReno pair < "
                f"{self.underused} and below the mixed pair); NewReno pair for B ≥ CT: {_fmt(util_pair[buffers >= ct])}",
            )
        ]
        model_mixed = setting.model(buffers)["newreno"].to_numpy()
        model_pair = setting.newreno_pair_model(buffers)["per_flow"].to_numpy()
        distinct = np.abs(model_mixed - model_pair) >= DISTINGUISHABLE
        lose = distinct & (buffers < ct)
        gain = distinct & (buffers > ct)
        difference = nr_mixed - nr_pair
        claims.append(
            Claim(
                "NewReno loses throughput to Westwood+ for B < CT and gains for B > CT",
                bool(lose.any() and gain.any() and np.all(difference[lose] < 0) and np.all(difference[gain] > 0)),
                f"test: NewReno's share with Westwood+ minus with NewReno < 0 at every B < CT and > 0 at every B > CT "
                f"where the model separates them; {_point_list(buffers, difference)}; checked "
                f"where the model separates the two by ≥ {DISTINGUISHABLE} (B < CT: "
                f"{', '.join(f'{b:g}' for b in buffers[lose])}; B > CT: {', '.join(f'{b:g}' for b in buffers[gain])} pkt); "
                f"model difference there: {_fmt((model_mixed - model_pair)[lose | gain])}",
            )
        )
        fine = np.linspace(2, 2 * ct, 300)
        fine_pair = setting.newreno_pair_model(fine)
        fine_mixed = setting.model(fine)
        series = [
            Series("NewReno with NewReno (model)", fine / ct, fine_pair["per_flow"]),
            Series("NewReno with Westwood+ (model)", fine / ct, fine_mixed["newreno"]),
            Series("utilization NewReno+NewReno (model)", fine / ct, fine_pair["utilization"]),
            Series("utilization NewReno+Westwood+ (model)", fine / ct, fine_mixed["utilization"]),
            pair["per_flow"].series("NewReno with NewReno (sim, per flow, mean ± 95% CI)", list(x)),
            mixed["first"].series("NewReno with Westwood+ (sim, mean ± 95% CI)", list(x)),
            pair["sum"].series("utilization NewReno+NewReno (sim, mean ± 95% CI)", list(x)),
            mixed["sum"].series("utilization NewReno+Westwood+ (sim, mean ± 95% CI)", list(x)),
        ]
        notes = [
            *COMMON_NOTES,
            "NewReno competing with NewReno: the mean of the two NewReno flows' shares (each competes with a "
            "NewReno); utilization = sum of the two flows' shares",
            "model of two NewReno flows: the same closed form with both decrease factors 1/2 (fixed point "
            "w1 = w2 = (CT + B + m)/4 of eq. (29))",
            *_sim_notes(setting, mixed, duration, warmup),
            *(f"NewReno pair: {note}" for note in _sim_notes(setting, pair, duration, warmup, "NewReno")[1:2]),
        ]
        return Outcome(series=series, claims=claims, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        _plot_against_normalized_buffer(self, outcome, fig)


def _plot_against_normalized_buffer(experiment: Experiment, outcome: Outcome, fig: Figure) -> None:
    """One panel against B/(CT), the legend beside it and B = CT marked (figs. 7 and 8)."""
    fig.set_size_inches(DOUBLE_IN, 3.2)
    ax = fig.add_subplot()
    draw_overlay(ax, outcome.series, experiment.xlabel, experiment.ylabel)
    ax.axvline(1.0, color="gray", linewidth=0.8, alpha=0.6)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(figure_title(experiment))
