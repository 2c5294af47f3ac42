"""TCP settings: the variants (preset pairs of loss recovery and congestion control), the
congestion-control models with their bandwidth filters, and the [tcp] table."""

import functools
import math
import operator
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, Self

from pydantic import BeforeValidator, Field, model_validator

from tcpsim.scenario.errors import raise_if_any
from tcpsim.scenario.fields import (
    U32_MAX,
    Count,
    DurationNs,
    Flag,
    HeaderSizeBytes,
    Model,
    PacketSizeBytes,
    PositiveDurationNs,
    PositiveSizeBytes,
    Probability,
    UnitFraction,
    Validated,
    bounded_whole,
    choice,
    literal_kind,
)


class Variant(NamedTuple):
    """A user-facing TCP variant: a preset pair of the two halves (docs/architecture.md, "TCP: two axes")."""

    recovery: str
    cc: Mapping[str, Any]
    tcp: Mapping[str, Any] = {}
    """Other [tcp] settings the variant presets where neither the flow's [flows.tcp] nor [tcp]
    writes them (DCTCP turns ECN on with its receiver)."""


RECOVERY_KINDS = ("tahoe", "reno", "newreno", "sack", "vegas_ns2", "westwood_ns2")
"""The engine's `RecoveryKind` values."""

RecoveryName = Annotated[
    str,
    Validated(choice("a recovery algorithm", RECOVERY_KINDS), {"enum": sorted(RECOVERY_KINDS)}),
]


CC_MODELS: list[type["CcModel"]] = []
"""Every congestion control's model, in the order they are defined (`CcModel` subclasses)."""


class CcModel(Model):
    """The model of a congestion control's `[tcp] cc` table; a subclass is registered by being
    defined: it joins `CcSpec` and, through `variants`, the `variant` presets."""

    variants: ClassVar[Mapping[str, str]] = {}
    """Variant presets that pair this algorithm, with its defaults, with a loss recovery:
    variant name → recovery kind."""
    variant_tcp: ClassVar[Mapping[str, Any]] = {}
    """Other [tcp] settings its variants preset (`Variant.tcp`), e.g. DCTCP's ECN."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        CC_MODELS.append(cls)

    @classmethod
    def kind_name(cls) -> str:
        return literal_kind(cls)

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """The engine form of the algorithm with every field at its default."""
        return cls.model_validate({"kind": cls.kind_name()}).model_dump()


class AimdCc(CcModel):
    """RFC 5681 slow start and congestion avoidance (no parameters)."""

    # RFC 6675 recovery with standard AIMD is the "SACK" TCP of casetti Sec. 5 and macura Sec. 5.5.
    variants: ClassVar[Mapping[str, str]] = {"tahoe": "tahoe", "reno": "reno", "newreno": "newreno", "sack": "sack"}
    kind: Literal["aimd"]


def _kind_shorthand(value: object) -> object:
    """`cc = "aimd"` is short for `cc = {kind = "aimd"}`."""
    return {"kind": value} if isinstance(value, str) else value


def _alpha(value: object) -> float:
    """A filter coefficient in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
        raise ValueError(f"{value!r} is not a filter coefficient; use a number in [0, 1), e.g. 0.9")
    return float(value)


Alpha = Annotated[float, Validated(_alpha, {"type": "number", "minimum": 0, "exclusiveMaximum": 1})]


class TustinFilter(Model):
    """`casetti` eq. (2): the Tustin low-pass filter with α_k = (2τ − Δ_k)/(2τ + Δ_k)."""

    kind: Literal["tustin"]


class TustinLatestFilter(Model):
    """Ablation of `tustin`: the same time-varying α_k on the latest sample b_k alone, without the
    trapezoid (b_k + b_{k−1})/2 that over-counts bunched ACKs. Not a paper's filter."""

    kind: Literal["tustin_latest"]


class TustinFixedFilter(Model):
    """Tustin filter with a constant α: ns-2's TCPW code (α = 19/21) or the `gangadhar` ns-3
    code (α = 0.9 on the mean of the last two samples)."""

    kind: Literal["tustin_fixed"]
    alpha: Alpha


class EwmaFilter(Model):
    """Exponentially weighted moving average of the samples with weight α on the old value."""

    kind: Literal["ewma"]
    alpha: Alpha


class TwoStageEwmaFilter(Model):
    """Linux `tcp_westwood.c`: two cascaded 7/8 EWMAs, initialised by the first sample."""

    kind: Literal["two_stage_ewma"]


WestwoodFilterSpec = Annotated[
    TustinFilter | TustinLatestFilter | TustinFixedFilter | EwmaFilter,
    Field(discriminator="kind"),
    BeforeValidator(_kind_shorthand),
]
WestwoodPlusFilterSpec = Annotated[
    TwoStageEwmaFilter | TustinFixedFilter | EwmaFilter, Field(discriminator="kind"), BeforeValidator(_kind_shorthand)
]


class WestwoodCc(CcModel):
    """TCP Westwood (`casetti` Sec. 2–3): per-ACK bandwidth samples (AckedCount), the filter,
    virtual null samples after τ/m without ACKs, faster recovery to BWE·RTTmin."""

    # casetti Sec. 3: "the standard Fast Retransmit/Fast Recovery (à la Reno) then follows".
    variants: ClassVar[Mapping[str, str]] = {"westwood": "reno"}
    kind: Literal["westwood"]
    tau_ns: PositiveDurationNs = Field("500ms", alias="tau", validate_default=True)
    """Filter time constant τ (casetti Sec. 4: 500 ms)."""
    null_sample_divisor: bounded_whole("a divisor", minimum=0, maximum=U32_MAX, example=2) = 2  # type: ignore[valid-type]
    """m of casetti Sec. 2.2: a null sample after τ/m of silence (m ≥ 2; 0 disables them)."""
    filter: WestwoodFilterSpec = Field(default_factory=lambda: TustinFilter(kind="tustin"))
    ns3_fast_recovery: Flag = False
    """ns-3 `TcpWestwood` fast recovery (the `gangadhar` code): start from min(cwnd, ssthresh)
    without inflating it by the n duplicate ACKs, and leave with cwnd = ssthresh even if that
    raises it; false: min(cwnd, ssthresh) at entry and exit, Reno-inflated (`casetti` Sec. 3.1)."""
    sample_tick_ns: DurationNs = Field("0s", alias="sample_tick", validate_default=True)
    """Tick of the clock that times the ACKs of the bandwidth samples: 0 (exact, a simulator's
    clock) or e.g. "10ms" (Linux 2.2 `jiffies`, the `casetti` Sec. 4.3 testbed); ACKs within
    one tick join one sample."""
    acked_count: Annotated[
        str,
        Validated(choice("an AckedCount rule", ["paper", "ns2_agent"]), {"enum": ["ns2_agent", "paper"]}),
    ] = "paper"
    """"paper" (casetti Sec. 2.3: a cumulative ACK the duplicates already counted debits all it
    covers) or "ns2_agent" (ns-2's TCPW agent, `tcp-westwood.cc`: it debits one segment less, and
    no ACK counts more than two segments)."""
    silence: Annotated[
        str,
        Validated(choice("a silence rule", ["whole_silence", "ns2_agent"]), {"enum": ["ns2_agent", "whole_silence"]}),
    ] = "whole_silence"
    """"whole_silence": null samples every tau/m, then the real sample over the whole silence, and a
    loss folds in the silence before it reads the estimate; "ns2_agent" (ns-2's TCPW agent, filter
    type 3): the real sample over the remainder after the null samples (a remainder under 10 ms
    becomes tau/m), the clock from time 0, and a loss reads the last ACK's estimate."""
    timeout_divisor: Flag = False
    """ns-2's TCPW agent's `fr_a_`: a timeout's ssthresh is BWE·RTTmin/a with a = 1 after a loss in
    congestion avoidance, growing by 1 per timeout (1/4 per fast retransmit) in slow start, up to 4;
    false: a = 1 (casetti Sec. 3.2)."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        m = self.null_sample_divisor
        if m == 1:
            raise_if_any([(("null_sample_divisor",), "1 is not allowed; use 0 (no null samples) or m >= 2 (Nyquist)")])
        if m == 0 and isinstance(self.filter, TustinFilter | TustinLatestFilter):
            raise_if_any(
                [
                    (
                        ("null_sample_divisor",),
                        f"0 (no null samples) needs a fixed-coefficient filter "
                        f"(tustin_fixed or ewma); the {self.filter.kind} filter needs m >= 2",
                    )
                ]
            )
        if m > self.tau_ns:
            raise_if_any(
                [
                    (
                        ("null_sample_divisor",),
                        f"{m} is more than tau in nanoseconds ({self.tau_ns}); "
                        f"the null-sample spacing tau/m must be at least 1ns",
                    )
                ]
            )
        return self


class WestwoodPlusCc(CcModel):
    """TCP Westwood+ (`macura` Sec. 2.1, `gangadhar` Sec. 2.5): one bandwidth sample per RTT,
    ssthresh = cwnd = BWE·RTTmin on three duplicate ACKs."""

    # macura Sec. 2.1 and the ns-2/ns-3/Linux implementations build Westwood+ on NewReno.
    variants: ClassVar[Mapping[str, str]] = {"westwood_plus": "newreno"}
    kind: Literal["westwood_plus"]
    filter: WestwoodPlusFilterSpec = Field(default_factory=lambda: TwoStageEwmaFilter(kind="two_stage_ewma"))
    min_window_ns: DurationNs = Field("50ms", alias="min_window", validate_default=True)
    """Shortest sampling interval (Linux: max(RTT, 50 ms)); 0 samples exactly once per RTT."""
    min_decrease_half: Flag = False
    """`moller` Sec. IV modified Westwood+: after a loss the window never drops below half."""
    ns3_fast_recovery: Flag = False
    """ns-3 `TcpWestwood` fast recovery (the `gangadhar` code): start from min(cwnd, ssthresh)
    without the n-segment inflation, leave with cwnd = ssthresh; false: Reno's windows."""
    sampling: Annotated[
        str,
        Validated(choice("a sampling window", ["ack_clocked", "ns3_timer"]), {"enum": ["ack_clocked", "ns3_timer"]}),
    ] = "ack_clocked"
    """"ack_clocked" (Linux): a window ends at the first ACK after max(RTT, min_window) and its
    bytes are divided by the time to that ACK, idle time included; "ns3_timer" (ns-3.17
    `TcpWestwood`, the `gangadhar` code): a window opened by an ACK lasts exactly the latest RTT
    sample of the oldest segment an ACK covered, its bytes are divided by that RTT, and no window
    is open from its end to the next ACK (min_window does not apply)."""
    ssthresh_in_bytes: Flag = False
    """ssthresh = BWE·RTTmin in whole bytes (at least 2 segments), not rounded down to whole
    segments: ns-3.17 `TcpWestwood::DupAck` and `Retransmit` (the `gangadhar` code)."""


def _segments(value: object) -> float:
    """A number of segments >= 0 (Vegas's α, β, γ)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < float("inf"):
        raise ValueError(f"{value!r} is not a number of segments; use a number >= 0, e.g. 1")
    return float(value)


def _loss_decrease(value: object) -> float | str:
    """A fraction of the window in (0, 1), or "ns3"."""
    if value == "ns3":
        return "ns3"
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f'{value!r} is not a window decrease; use a fraction in (0, 1), e.g. 0.25, or "ns3"')
    return float(value)


def _fraction(value: object) -> float:
    """A fraction of the window in (0, 1)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"{value!r} is not a window decrease; use a fraction in (0, 1), e.g. 0.5")
    return float(value)


Segments = Annotated[float, Validated(_segments, {"type": "number", "minimum": 0})]


VEGAS_FLAVOURS: dict[str, dict[str, Any]] = {
    # ns-2.35 tcl/lib/ns-default.tcl and tcp/tcp-vegas.cc (rev. 1.37, unchanged since ns-2.29).
    "ns2": {
        "alpha": 1.0,  # ns-default.tcl: Agent/TCP/Vegas set v_alpha_ 1
        "beta": 3.0,  # ns-default.tcl: v_beta_ 3
        "gamma": 1.0,  # ns-default.tcl: v_gamma_ 1
        "rtt": "mean",  # recv(): rtt = v_sumRTT_ / v_cntRTT_
        "slow_start": "every_other_rtt",  # recv(): v_inc_flag_ = !v_inc_flag_
        "slow_start_exit": "eighth",  # recv(): cwnd_ -= cwnd_/8 when delta > v_gamma_
        "loss_decrease": 0.25,  # recv(), first duplicate ACK: win -= (win >> 2)
        "ecn_decrease": 0.5,  # recv(): ecnecho() → TcpAgent::ecn, CLOSE_CWND_HALF
        "timeout_cwnd": 2,  # timeout(): cwnd_ = v_slowstart_, 2 in reset()
        "min_round_samples": 0,  # recv(): no sample → rtt = currentTime − v_begtime_
        "rtt_input": "sample",  # recv(): rtt = currentTime − v_sendtime_[seqno], transmits == 1
        "diff": "ns2_in_flight",  # recv(): expect = (t_seqno_ − last_ack_)/baseRTT, actual = rttLen/rtt
        "diff_rounding": "nearest",  # recv(): delta = int((expect − v_actual_)·v_baseRTT_ + 0.5)
        "round_end": "ack_beyond",  # recv(): seqno >= v_begseq_, v_begseq_ = t_seqno_
        "increase": "ns2_per_ack",  # recv(): v_incr_, cwnd_ += v_incr_ if cwnd_ − (t_seqno_ − last_ack_) <= 2
        "base_rtt_reset": True,  # recv(): if (rtt < v_baseRTT_ || rttLen <= 1) v_baseRTT_ = rtt
        "closing_sample_next_round": True,  # recv(): v_sumRTT_ += rtt after the once-per-RTT section
        "reno_increase": "ack",  # unused: ns-2 decides every round
    },
    # Linux net/ipv4/tcp_vegas.c (the module's parameters and tcp_vegas_cong_avoid).
    "linux": {
        "alpha": 2.0,  # static int alpha = 2
        "beta": 4.0,  # static int beta = 4
        "gamma": 1.0,  # static int gamma = 1
        "rtt": "min",  # rtt = vegas->minRTT
        "slow_start": "every_rtt",  # tcp_slow_start(tp, acked) on every ACK
        "slow_start_exit": "target",  # snd_cwnd = min(snd_cwnd, target_cwnd + 1)
        "loss_decrease": 0.5,  # .ssthresh = tcp_reno_ssthresh
        "ecn_decrease": None,  # ECN's CWR uses the same .ssthresh
        "timeout_cwnd": 1,  # tcp_enter_loss: snd_cwnd = packets in flight (0) + 1
        "min_round_samples": 3,  # if (vegas->cntRTT <= 2) tcp_reno_cong_avoid(...)
        "rtt_input": "sample",  # tcp_vegas_pkts_acked: sample->rtt_us (ca_rtt_us)
        "diff": "cwnd_over_base",  # diff = snd_cwnd·(rtt − baseRTT)/baseRTT
        "diff_rounding": "floor",  # u32 arithmetic
        "round_end": "ack_beyond",  # if (after(ack, vegas->beg_snd_nxt))
        "increase": "round_end",  # snd_cwnd++ / snd_cwnd-- once per RTT
        "base_rtt_reset": False,  # baseRTT is only ever lowered (or reset by tcp_vegas_init)
        "closing_sample_next_round": False,  # pkts_acked runs before cong_avoid for the same ACK
        "reno_increase": "segments",  # tcp_reno_cong_avoid(sk, ack, acked): counts acked segments
    },
    # ns-3.44 src/internet/model/tcp-vegas.cc (TcpVegas) and tcp-socket-base.cc.
    "ns3": {
        "alpha": 2.0,  # TypeId attribute "Alpha", default 2
        "beta": 4.0,  # "Beta", default 4
        "gamma": 1.0,  # "Gamma", default 1
        "rtt": "min",  # PktsAcked: m_minRtt = min(m_minRtt, rtt)
        "slow_start": "every_rtt",  # IncreaseWindow: TcpNewReno::SlowStart on every ACK
        "slow_start_exit": "target",  # segCwnd = min(segCwnd, targetCwnd + 1)
        "loss_decrease": "ns3",  # GetSsThresh: max(min(ssThresh, cWnd − segSize), 2·segSize)
        "ecn_decrease": None,  # ECN enters CWR through the same GetSsThresh
        "timeout_cwnd": 1,  # TcpSocketBase::ReTxTimeout: m_cWnd = m_segmentSize
        "min_round_samples": 3,  # if (m_cntRtt <= 2) TcpNewReno::IncreaseWindow(...)
        "rtt_input": "smoothed",  # PktsAcked(tcb, segsAcked, m_tcb->m_lastRtt = m_rtt->GetEstimate())
        "diff": "cwnd",  # diff = segCwnd − segCwnd·baseRtt/minRtt
        "diff_rounding": "ceil",  # targetCwnd = static_cast<uint32_t>(segCwnd·tmp)
        "round_end": "ack_covers",  # if (tcb->m_lastAckedSeq >= m_begSndNxt)
        "increase": "round_end",  # segCwnd++ / segCwnd-- once per RTT
        "base_rtt_reset": False,  # m_baseRtt = min(m_baseRtt, rtt)
        "closing_sample_next_round": False,  # PktsAcked before IncreaseWindow for the same ACK
        "reno_increase": "ack",  # TcpNewReno: one segment (slow start) or segSize²/cWnd per call
    },
}
"""Vegas flavours: presets of the `VegasCc` fields, each field with the source line it comes
from. `flavour = "ns2"` sets them all; fields written beside it override the preset."""

_VEGAS_ALIASES = {"timeout_cwnd": "timeout_cwnd_segments"}
VegasFlavour = Annotated[
    str,
    Validated(choice("a Vegas flavour", list(VEGAS_FLAVOURS)), {"enum": sorted(VEGAS_FLAVOURS)}),
]


def _round_samples(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= U32_MAX:
        raise ValueError(f"{value!r} is not a number of RTT samples; use a whole number >= 0, e.g. 3")
    return value


class VegasCc(CcModel):
    """TCP Vegas (`podlesny` Sec. II-B, `macura` Sec. 4, Brakmo & Peterson 1995): once per RTT,
    diff = cwnd·(RTT − BaseRTT)/RTT segments; +1 below α, −1 above β; slow start every other
    RTT until diff > γ; 3/4·cwnd after duplicate ACKs, 2 segments after a timeout. Defaults are
    the papers'; `flavour` sets every field as ns-2, Linux or ns-3 does (README "TCP variants")."""

    # podlesny Sec. II-B.3: "the loss signals for TCP Vegas are similar to those for TCP NewReno".
    variants: ClassVar[Mapping[str, str]] = {"vegas": "newreno"}
    kind: Literal["vegas"]
    flavour: Annotated[VegasFlavour | None, Field(exclude=True)] = None
    """A preset of every other field: "ns2" (ns-2.35 tcp-vegas.cc), "linux" (tcp_vegas.c),
    "ns3" (ns-3.44 TcpVegas); fields written beside it override it."""
    alpha: Segments = 1.0
    """α: grow while fewer than α segments are queued (papers 1; Linux and ns-3 2)."""
    beta: Segments = 3.0
    """β >= α: shrink while more than β segments are queued (papers 3; Linux and ns-3 4)."""
    gamma: Segments = 1.0
    """γ: slow start ends when more than γ segments are queued."""
    rtt: Literal["min", "mean"] = "min"
    """The round's RTT: its smallest sample (Linux, ns-3) or their mean (ns-2)."""
    slow_start: Literal["every_other_rtt", "every_rtt"] = "every_other_rtt"
    """Slow start grows every other RTT (Brakmo & Peterson, ns-2) or every RTT (Linux, ns-3)."""
    slow_start_exit: Literal["eighth", "target"] = "eighth"
    """Leaving slow start: cwnd − cwnd/8 (ns-2) or the window of the actual rate (Linux, ns-3)."""
    loss_decrease: Annotated[
        float | str,
        Validated(
            _loss_decrease,
            {"anyOf": [{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}, {"const": "ns3"}]},
        ),
    ] = 0.25
    """Window cut on duplicate ACKs: 0.25 (papers, ns-2), 0.5 (Linux) or "ns3" (cwnd − 1 segment,
    at most a quarter)."""
    ecn_decrease: Annotated[
        float | None,
        Validated(_fraction, {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
    ] = None
    """Window cut on an ECN echo, a fraction in (0, 1); absent: as on duplicate ACKs (RFC 3168
    §6.1.2). ns-2's Vegas halves (0.5): it answers an ECN echo with TcpAgent's `ecn()`."""
    timeout_cwnd_segments: Count = Field(2, alias="timeout_cwnd", validate_default=True)
    """The window a timeout restarts from: 2 segments (papers, ns-2), 1 (Linux, ns-3)."""
    min_round_samples: Annotated[
        int, Validated(_round_samples, {"type": "integer", "minimum": 0, "maximum": U32_MAX})
    ] = 3
    """A round with fewer RTT samples makes no Vegas decision: Reno's increase once, on its
    closing ACK (Linux and ns-3, `cntRTT <= 2`: 3); 0 decides every round, timing one without
    samples by its duration (ns-2)."""
    rtt_input: Literal["sample", "smoothed"] = "sample"
    """Vegas's RTT: the fresh per-segment sample (Brakmo, ns-2, Linux) or the smoothed RTT (ns-3)."""
    diff: Literal["cwnd", "cwnd_over_base", "ns2_in_flight"] = "cwnd"
    """diff = cwnd·(RTT − BaseRTT)/RTT (papers, ns-3), cwnd·(RTT − BaseRTT)/BaseRTT (Linux), or
    ns-2's (outstanding + 1) − (packets sent in the round)·BaseRTT/RTT."""
    diff_rounding: Literal["none", "nearest", "floor", "ceil"] = "none"
    """diff exact, or rounded as ns-2 (`int(x + 0.5)`), Linux (down) or ns-3 (up)."""
    round_end: Literal["ack_covers", "ack_beyond"] = "ack_covers"
    """A round ends on the ACK covering the previous round's snd_nxt (ns-3) or beyond it (Linux, ns-2)."""
    increase: Literal["round_end", "ns2_per_ack"] = "round_end"
    """±1 segment at the round end, or ns-2's per-ACK `v_incr_` while the window is used."""
    base_rtt_reset: Flag = False
    """ns-2: a round that sent at most one packet resets BaseRTT to its RTT."""
    closing_sample_next_round: Flag = False
    """ns-2: the closing ACK's sample counts in the next round."""
    reno_increase: Literal["ack", "segments"] = "ack"
    """The Reno increase (and slow start) counts each ACK once (ns-3) or its segments (Linux)."""

    @model_validator(mode="before")
    @classmethod
    def _flavour(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or data.get("flavour") not in VEGAS_FLAVOURS:
            return data
        preset = VEGAS_FLAVOURS[data["flavour"]]
        given = set(data) | {_VEGAS_ALIASES.get(k, k) for k in data}
        # None is "absent" (ecn_decrease: as duplicate ACKs), the field's default.
        kept = {k: v for k, v in preset.items() if v is not None and _VEGAS_ALIASES.get(k, k) not in given}
        return {**kept, **data}

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.beta < self.alpha:
            raise_if_any([(("beta",), f"{self.beta:g} must be >= alpha ({self.alpha:g})")])
        if self.increase == "ns2_per_ack" and (self.slow_start, self.slow_start_exit) != ("every_other_rtt", "eighth"):
            raise_if_any(
                [(("increase",), "ns2_per_ack needs slow_start = every_other_rtt and slow_start_exit = eighth")]
            )
        return self


def _cubic_c(value: object) -> float:
    """CUBIC's C, > 0 (segments/s³)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < float("inf"):
        raise ValueError(f"{value!r} is not CUBIC's C; use a number > 0 in segments/s³, e.g. 0.4")
    return float(value)


def _cubic_beta(value: object) -> float:
    """β_cubic in (0, 1)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"{value!r} is not a decrease factor; use a number in (0, 1), e.g. 0.7")
    return float(value)


class CubicCc(CcModel):
    """CUBIC (RFC 9438): W_cubic(t) = C·(t − K)³ + W_max after a loss, grown per ACK toward
    W_cubic(t + RTT), never below the Reno-friendly estimate; ssthresh = β·W on a loss. Slow start
    is RFC 5681's unless `hystart` (RFC 9406). Defaults are the RFC's."""

    # RFC 9438 changes only the window; Linux, whose default it is, recovers with SACK
    # (tcp_sack = 1; its PRR, RFC 6937, is not modelled): RFC 6675 here.
    variants: ClassVar[Mapping[str, str]] = {"cubic": "sack"}
    kind: Literal["cubic"]
    c: Annotated[float, Validated(_cubic_c, {"type": "number", "exclusiveMinimum": 0})] = 0.4
    """C, segments/s³ (RFC 9438: 0.4; Linux and ns-3.44 the same)."""
    beta: Annotated[
        float,
        Validated(_cubic_beta, {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
    ] = 0.7
    """β_cubic, the multiplicative decrease factor (RFC 9438 §4.6: 0.7; Linux 717/1024)."""
    fast_convergence: Flag = True
    """RFC 9438 §4.7: a flow whose window peaks below its previous W_max lowers W_max to
    cwnd·(1 + β)/2 (on in the RFC, Linux and ns-3.44)."""
    reno_friendly: Flag = True
    """RFC 9438 §4.3: never grow slower than the Reno estimate W_est (Linux `tcp_friendliness`)."""
    target_rtt: Literal["smoothed", "min"] = "smoothed"
    """The RTT of the target W_cubic(t + RTT): the smoothed RTT (RFC 9438 §4.4) or the smallest
    sample (Linux and ns-3.44 `delay_min`)."""
    count: Literal["segments", "ack"] = "segments"
    """Growth per segment acknowledged (RFC 9438 §4.3 `segments_acked`; Linux, ns-3.44) or once
    per ACK (§4.4 read literally; with delayed ACKs the window lags the cubic function)."""
    hystart: Flag = False
    """HyStart++ (RFC 9406) in the initial slow start: a round whose minimum RTT rises by
    clamp(RTT/8, 4 ms, 16 ms) starts Conservative Slow Start (a quarter of the growth), five CSS
    rounds end slow start. Off by default, as tcpsim's other controllers have none; RFC 9438
    §4.10 recommends it (Linux and ns-3.44 run their older HyStart, on by default)."""


class DctcpCc(CcModel):
    """DCTCP (RFC 8257 §3.3–3.4; Alizadeh et al., SIGCOMM 2010, Sec. 3.1): α, the moving average
    of the fraction of bytes acknowledged with ECN-Echo per window of data, and
    cwnd ← cwnd·(1 − α/2) at most once per window when ECN-Echo arrives. Needs ecn = true and,
    for the paper's receiver, ecn_receiver = "dctcp" (the "dctcp" variant sets both) and step
    marking queues."""

    # RFC 8257 §3.4: losses as conventional TCP (NewReno here); ECN with DCTCP's echo (§3.2).
    variants: ClassVar[Mapping[str, str]] = {"dctcp": "newreno"}
    variant_tcp: ClassVar[Mapping[str, Any]] = {"ecn": True, "ecn_receiver": "dctcp"}
    kind: Literal["dctcp"]
    g: UnitFraction = 0.0625
    """Weight of the newest window's marked fraction in α, in (0, 1]: 1/16 (RFC 8257 §4.2,
    DCTCP Sec. 3.4; Linux dctcp_shift_g = 4, ns-3 DctcpShiftG 0.0625)."""
    alpha_init: Probability = 1.0
    """α at the start, in [0, 1]: 1 (Linux dctcp_alpha_on_init 1024/1024, ns-3 DctcpAlphaOnInit)."""
    loss_decrease: Literal["halve", "alpha"] = "halve"
    """After a loss: "halve" as Reno (RFC 8257 §3.4, Linux dctcp_react_to_loss) or "alpha",
    cwnd·(1 − α/2) as for ECN-Echo (ns-3.44's TcpDctcp::GetSsThresh)."""


def _gain(minimum: float, maximum: float = float("inf"), *, open_below: bool) -> Any:
    """A gain (a finite number) above `minimum` (at least it unless `open_below`), at most
    `maximum`."""

    def validate(value: object) -> float:
        below = value <= minimum if open_below else value < minimum  # type: ignore[operator]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or below:
            bound = f"> {minimum:g}" if open_below else f">= {minimum:g}"
            raise ValueError(f"{value!r} is not a gain; use a number {bound}, e.g. {max(minimum, 1) * 1.25:g}")
        if value > maximum:
            raise ValueError(f"{value!r} is too large; at most {maximum:g} is allowed here")
        return float(value)

    schema: dict[str, Any] = {"type": "number", ("exclusiveMinimum" if open_below else "minimum"): minimum}
    if maximum != float("inf"):
        schema["maximum"] = maximum
    return Annotated[float, Validated(validate, schema)]


class BbrCc(CcModel):
    """BBR v1 (Cardwell et al., ACM Queue 2016; Linux `tcp_bbr.c`): paces at the bottleneck
    bandwidth it measures (windowed max of delivery-rate samples over 10 rounds) times a gain,
    and keeps cwnd = 2·BDP (with RTprop the windowed min RTT over 10 s) in flight. Defaults are
    Linux's constants (ns-3.44's `TcpBbr` has the same but for a high gain of 2.89 and 3
    segments of cwnd quanta)."""

    # Linux runs BBR with SACK (and RACK) loss recovery; RFC 6675 is the nearest here.
    variants: ClassVar[Mapping[str, str]] = {"bbr": "sack"}
    kind: Literal["bbr"]
    high_gain: _gain(1, open_below=True) = 2.885  # type: ignore[valid-type]
    """STARTUP pacing and cwnd gain: 2/ln 2 ≈ 2.885 (Linux `bbr_high_gain`)."""
    drain_gain: _gain(0, 1, open_below=True) = 1 / 2.885  # type: ignore[valid-type]
    """DRAIN pacing gain, in (0, 1]: 1/2.885 (Linux `bbr_drain_gain`)."""
    cwnd_gain: _gain(1, open_below=False) = 2.0  # type: ignore[valid-type]
    """PROBE_BW cwnd gain, >= 1: 2 (Linux `bbr_cwnd_gain`)."""
    pacing_gain_cycle: Annotated[list[_gain(0, open_below=True)], Field(min_length=2, max_length=64)] = Field(  # type: ignore[valid-type]
        default_factory=lambda: [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    )
    """PROBE_BW pacing gains, one per phase: [1.25, 0.75, 1, 1, 1, 1, 1, 1] (Linux `bbr_pacing_gain`)."""
    cycle_rand: Count = 7
    """The cycle starts at a random phase among the last `cycle_rand` but one (Linux
    `bbr_cycle_rand` 7: never the 0.75 phase); at most the cycle's length."""
    bw_window_rounds: Count = 10
    """BtlBw max-filter window, round trips: 10 (Linux `bbr_bw_rtts`)."""
    min_rtt_window_ns: PositiveDurationNs = Field("10s", alias="min_rtt_window", validate_default=True)
    """RTprop min-filter window: 10 s (Linux `bbr_min_rtt_win_sec`)."""
    probe_rtt_duration_ns: DurationNs = Field("200ms", alias="probe_rtt_duration", validate_default=True)
    """Time at the minimum window in PROBE_RTT: 200 ms (Linux `bbr_probe_rtt_mode_ms`); 0: no PROBE_RTT."""
    min_cwnd_segments: Count = Field(4, alias="min_cwnd", validate_default=True)
    """Minimum cwnd and PROBE_RTT's window, segments: 4 (Linux `bbr_cwnd_min_target`)."""
    full_bw_threshold: _gain(1, open_below=True) = 1.25  # type: ignore[valid-type]
    """STARTUP continues while BtlBw grows by this factor per round: 1.25 (Linux `bbr_full_bw_thresh`)."""
    full_bw_rounds: Count = 3
    """Rounds without that growth that end STARTUP: 3 (Linux `bbr_full_bw_cnt`)."""
    pacing_margin_percent: bounded_whole("a percentage", minimum=0, maximum=99, example=1) = 1  # type: ignore[valid-type]
    """Pace this many percent below pacing_gain·BtlBw: 1 (Linux >= 4.20, ns-3.44 `TcpBbr`)."""
    tso_quanta: Flag = True
    """Add 3 × Linux's TSO segment goal (2 segments above 1.2 Mb/s) to the cwnd target and round it
    up to even; false: neither."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.cycle_rand > len(self.pacing_gain_cycle):
            raise_if_any(
                [
                    (
                        ("cycle_rand",),
                        f"{self.cycle_rand} must be at most the cycle's length ({len(self.pacing_gain_cycle)})",
                    )
                ]
            )
        return self


class PragueCc(CcModel):
    """TCP Prague (RFC 9331 §4.3; draft-briscoe-iccrg-prague-congestion-control-04; Linux
    `tcp_prague.c` 0.7): DCTCP's α (updated once per round from the first mark on) and
    cwnd·(1 − α/2) at most once per window on ECN-Echo, of a fractional window used as whole
    segments (the first cut halves); below `rtt_target` a flow's rate grows as a flow's at
    `rtt_target` does ((RTT/target)² segments per round) and α and the cuts wait that long;
    paced at cwnd/SRTT (twice that while cwnd < ssthresh/2); losses halve the window as Reno.
    Needs ECN with a per-segment echo: the "prague" variant sets ecn = true, ecn_receiver =
    "dctcp", ecn_sender = "linux_dctcp" and ecn_codepoint = "ect1" (Accurate ECN and the
    classic-ECN fallback are not modelled); marks come from DualPI2's L queue or step queues."""

    # Linux runs Prague with SACK (RFC 6675 here); DCTCP's echo stands in for Accurate ECN.
    # Prague sends ECT(1), the L4S identifier (RFC 9331 §4), on every packet, retransmissions
    # and pure ACKs included (Linux TCP_CONG_NEEDS_ECN: `tcp_ecn_send`, as for DCTCP).
    variants: ClassVar[Mapping[str, str]] = {"prague": "sack"}
    variant_tcp: ClassVar[Mapping[str, Any]] = {
        "ecn": True,
        "ecn_receiver": "dctcp",
        "ecn_sender": "linux_dctcp",
        "ecn_codepoint": "ect1",
    }
    kind: Literal["prague"]
    g: UnitFraction = 0.0625
    """Weight of the newest round's marked fraction in α, in (0, 1]: 1/16 (Linux `PRAGUE_SHIFT_G` 4)."""
    alpha_init: Probability = 0.0
    """α before the first update, in [0, 1]: 0 (Linux `prague_alpha_mode` 0; 1 is mode 1 and
    Prague 0.6). The first cut halves the window either way."""
    rtt_scaling: Literal["rate", "none"] = "rate"
    """Reduced RTT-dependence: "rate", flows below `rtt_target` grow their rate as a flow at it
    and update α and cut at most once per `rtt_target` (Linux `RTT_CONTROL_RATE`, draft §2.4.4);
    "none", once per round as DCTCP (Linux 0.6 `RTT_CONTROL_NONE`)."""
    rtt_target_ns: PositiveDurationNs = Field("25ms", alias="rtt_target", validate_default=True)
    """The target RTT of the scaling: 25 ms (Linux `prague_rtt_target`)."""
    rtt_transition_rounds: bounded_whole("a number of rounds", minimum=0, maximum=U32_MAX, example=4) = 4  # type: ignore[valid-type]
    """Rounds out of slow start before the scaling applies: 4 (Linux `prague_rtt_transition`,
    0.7; 500 in 0.6)."""
    pacing_ss_ratio: _gain(0, open_below=True) = 2.0  # type: ignore[valid-type]
    """Pacing rate over cwnd/SRTT while cwnd < ssthresh/2: 2 (Linux Prague)."""
    pacing_ca_ratio: _gain(0, open_below=True) = 1.0  # type: ignore[valid-type]
    """Pacing rate over cwnd/SRTT otherwise: 1 (Linux Prague; its generic pacing would use 1.2)."""


_ANY_CC = functools.reduce(operator.or_, CC_MODELS)
CcSpec = Annotated[
    _ANY_CC,
    Field(discriminator="kind"),
    BeforeValidator(_kind_shorthand, json_schema_input_type=str | _ANY_CC),
]

VARIANTS: dict[str, Variant] = {
    name: Variant(recovery=recovery, cc=model.defaults(), tcp=model.variant_tcp)
    for model in CC_MODELS
    for name, recovery in model.variants.items()
}
"""Preset name → (recovery, congestion control), from the models' `variants`."""

VariantName = Annotated[str, Validated(choice("a variant", list(VARIANTS)), {"enum": sorted(VARIANTS)})]


class TcpOptions(Model):
    """TCP settings. At the top level: defaults for every flow; in a flow: that flow's overrides
    (only the keys written there count)."""

    mss_bytes: PacketSizeBytes = Field(1460, alias="mss", validate_default=True)
    """Payload bytes per segment (SMSS)."""
    header_bytes: HeaderSizeBytes = Field(40, alias="header", validate_default=True)
    """IP + TCP header bytes added on the wire to data and ACK packets."""
    ack_bytes: HeaderSizeBytes | None = Field(None, alias="ack")
    """Size of the receiver's ACKs on the wire if not `header` (ns-2's TCPSink sends 40-byte ACKs
    whatever its sender adds to data; stock ns-2 Vegas data carry no header)."""
    init_cwnd_segments: Count = Field(2, alias="init_cwnd", validate_default=True)
    """Initial window in segments (RFC 5681 §3.1)."""
    init_ssthresh_bytes: PositiveSizeBytes = Field("1GiB", alias="init_ssthresh", validate_default=True)
    """Initial slow-start threshold; RFC 5681 says arbitrarily high."""
    rwnd_bytes: PositiveSizeBytes = Field("1GiB", alias="rwnd", validate_default=True)
    """Receiver's advertised window; the default is effectively unlimited."""
    initial_rto_ns: PositiveDurationNs = Field("1s", alias="initial_rto", validate_default=True)
    """RFC 6298 §2.1 initial retransmission timeout."""
    min_rto_ns: PositiveDurationNs = Field("1s", alias="min_rto", validate_default=True)
    """RFC 6298 §2.4 lower bound on the RTO."""
    max_rto_ns: PositiveDurationNs = Field("60s", alias="max_rto", validate_default=True)
    """RFC 6298 §2.5 upper bound on the RTO."""
    clock_granularity_ns: DurationNs = Field("1ms", alias="clock_granularity", validate_default=True)
    """RFC 6298 clock granularity G."""
    rtt_tick_ns: DurationNs = Field("0s", alias="rtt_tick", validate_default=True)
    """Tick of the clock that times RTT samples; "0s" = exact. Each sample becomes the nearest
    whole number of ticks, at least one, before the RTO estimator and the congestion control
    (Westwood's RTTmin) see it, as in ns-2, whose TCP times RTTs in `tcp_tick_` units
    (100 ms in ns-2 of 2000–2001; `tcp.cc` `rtt_update`)."""
    rtt_sampling: Literal["every_ack", "timed_segment"] = "every_ack"
    """Which ACKs feed the RTO estimator: "every_ack" (RFC 6298 with Karn's rule) or
    "timed_segment", one timed never-sent segment at a time, about one sample per round trip,
    the timing cancelled by a timeout or fast retransmit (ns-2.35's TcpAgent without timestamps,
    tcp/tcp.cc `rtt_active_`/`rtt_seq_`). The congestion control sees every ACK's sample."""
    rto_estimator: Literal["rfc6298", "ns2_ticks"] = "rfc6298"
    """The RTO estimator's arithmetic: "rfc6298" (exact; RTTVAR decays towards 0) or "ns2_ticks",
    ns-2's fixed-point estimator on samples in whole `rtt_tick`s (tcp/tcp.cc `rtt_update`: SRTT in
    1/8, RTTVAR in 1/4 of a tick, truncating shifts, RTO in whole ticks), whose RTTVAR stops
    decaying at up to 3/4 tick; needs `rtt_tick`."""
    partial_ack_timer: Literal["impatient", "slow_but_steady"] = "impatient"
    """Which partial ACKs of a fast recovery restart the retransmission timer (RFC 6582 §4.1):
    "impatient" (the recovery's own rule: NewReno only the first, the RFC's recommendation; SACK
    each) or "slow_but_steady" (every one, as ns-3 and Linux do: a recovery of many losses one
    round trip each then runs to its end instead of timing out)."""
    fast_retransmit_timer: Literal["restart", "keep"] = "restart"
    """What fast retransmit does to a running retransmission timer: "restart" it (ns-2, Linux) or
    "keep" it running from the last ACK of new data (RFC 6298 §5.1 read literally, ns-3.17)."""
    dupack_threshold: Count = 3
    """Duplicate ACKs that trigger fast retransmit (RFC 5681: 3)."""
    delack_count: Count = 2
    """Receiver acknowledges every delack_count-th full segment; 1 = no delayed ACKs."""
    delack_timeout_ns: DurationNs = Field("200ms", alias="delack_timeout", validate_default=True)
    """Longest the receiver withholds an ACK (RFC 5681 §4.2: < 500 ms)."""
    recovery: RecoveryName | None = None
    """Override of the variant's loss-recovery half."""
    cc: CcSpec | None = None
    """Override of the variant's congestion-control half: "aimd" or {kind = "aimd"}."""
    avoid_repeated_fast_retransmit: Flag = True
    """No new fast retransmit for duplicate ACKs below `recover` (RFC 6582 §3.2 step 1)."""
    limited_transmit: Flag = True
    """RFC 3042: a new segment on each of the first dupack_threshold − 1 duplicate ACKs, cwnd
    unchanged (by pipe with SACK, RFC 6675 §5 (1.c)); as ns-2 since 2001/11/28 (`singledup_`),
    ns-3 and Linux. false: ns-2 before that date, ns-3 of 2010–2015, ns-2's Vegas agent."""
    handshake: Flag = False
    """The three-way handshake (RFC 9293 §3.5): a SYN and its SYN-ACK before any data, so each
    connection's data starts one round trip later (a web transfer's FCT counts it). The SYN is
    resent on the initial RTO, doubling; its round trip is the first RTT sample. false: the
    connection exists when it starts, as in ns-2's agents; true, as in ns-3 and Linux."""
    timeout_ssthresh: Literal["first_of_episode", "every"] = "first_of_episode"
    """Which retransmission timeouts reduce ssthresh: "first_of_episode" (RFC 5681 §3.1: not a
    back-off of the same loss, nor one during fast recovery; from FlightSize) or "every"
    (4.4BSD and ns-2's `TcpAgent::timeout`: each expiry, from the un-inflated min(cwnd, rwnd),
    so a retransmission's own timeout leaves ssthresh at 2 segments)."""
    ssthresh_from: Literal["cwnd", "flight_size", "ns3_pipe"] = "cwnd"
    """The window fast retransmit and an ECN-Echo halve: "cwnd" (min(cwnd, rwnd), keeping the
    fraction of a segment congestion avoidance has added: ns-2's `slowdown`, Linux's Reno) or
    "flight_size" (RFC 5681 eq. 4, limited-transmit segments left out). They differ by less than
    a segment, but cuts from FlightSize land on half-segment multiples, which can lock equal-RTT
    flows into a fixed drop order in a noise-free simulation. "ns3_pipe": ns-3.44's
    `BytesInFlight()` at the third duplicate ACK, RFC 6675's pipe with the limited-transmit
    segments in and the duplicate-ACKed ones out; with limited transmit FlightSize − 1 segment
    without SACK, − 2 with SACK, so each cut is half a segment (a segment) deeper."""
    ca_increment: Literal["exact", "ns3", "linux"] = "exact"
    """Congestion-avoidance growth per ACK: "exact" SMSS²/cwnd with fractions carried,
    "ns3" max(1, ⌊SMSS²/cwnd⌋) bytes (ns-3's NewReno of the `gangadhar` era), or "linux" whole
    segments, one more per window of segments acknowledged (Linux, ns-3's TcpLinuxReno and
    TcpDctcp)."""
    ecn: Flag = False
    """ECN (RFC 3168 §6.1): data leaves ECN-capable (ECT(0); retransmissions not), the receiver
    echoes CE marks until the sender's CWR, and the sender reduces its window once per window
    of data, as its congestion control answers a loss, without retransmitting. Marks come from
    RED queues with ecn = true."""
    ecn_immediate_ack: Flag = True
    """With ecn: the receiver acknowledges a CE-marked segment at once (Linux); false keeps the
    delayed-ACK rules, the withheld ACK carrying the echo (ns-2's DelAckSink). RFC 3168 §6.1.3
    allows both."""
    ecn_sender: Literal["rfc3168", "ns2", "linux_dctcp"] = "rfc3168"
    """With ecn: "rfc3168" sends new data ECT(0) and retransmissions not-ECT (§6.1.5), CWR on
    the first new segment after an ECN-Echo reduction (§6.1.2); "ns2" as ns-2.35's TcpAgent
    (tcp/tcp.cc `output`, `slowdown`): every data segment ECT, retransmissions included, and CWR
    on the next segment sent after any reduction (ECN-Echo, fast retransmit, timeout), so a
    timeout's retransmission ends the receiver's echo; "linux_dctcp" as Linux with a congestion
    control that needs ECN (DCTCP; net/ipv4/tcp_output.c `tcp_ecn_send`): every packet ECT(0),
    retransmissions and the receiver's pure ACKs included, CWR as "rfc3168" (a step queue that
    drops what is not ECN-capable above K then never drops the connection's ACKs for it)."""
    ecn_receiver: Literal["rfc3168", "dctcp"] = "rfc3168"
    """With ecn: what the receiver's ECN-Echo says. "rfc3168": every ACK from a CE segment
    until the sender's CWR (§6.1.3); "dctcp": the CE state of the last segment, CWR ignored, and
    a change of state acknowledged at once, the withheld segments first with the old state (RFC
    8257 §3.2 Fig. 1, Linux dctcp_ece_ack_update). The "dctcp" variant sets it."""
    ecn_codepoint: Literal["ect0", "ect1"] = "ect0"
    """With ecn: the codepoint of the ECN-capable packets (data, and the receiver's ACKs with
    ecn_sender = "linux_dctcp"): "ect0" (RFC 3168 §6.1.1) or "ect1", the L4S identifier (RFC
    9331 §4), which a dualpi2 queue serves in its low-latency L queue; every other queue treats
    ECT(1) as ECT(0)."""
    rd_class: Literal["r", "d"] | None = None
    """The RD service class the flow marks its data and ACKs with (`podlesny` Sec. II-C, the
    ToS field), read by RD queues: "r" (throughput-greedy) or "d" (delay-sensitive); default
    by the congestion control: Vegas "d", the others "r" (Sec. III)."""


@functools.cache
def default_tcp() -> TcpOptions:
    """A [tcp] table left out: one instance shared by every table that omits it (models are
    immutable), so that a 1600-flow scenario does not validate the defaults 1600 times."""
    return TcpOptions()
