"""The network: links, their queues and their loss models."""

import functools
import operator
from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import BeforeValidator, Field, model_validator

from tcpsim.scenario.errors import Loc, Problem, Problems, raise_if_any
from tcpsim.scenario.fields import (
    ByteLimitValue,
    Direction,
    DurationNs,
    Flag,
    InitialState,
    MeanPackets,
    Model,
    Name,
    OutageWindow,
    PacketLimitValue,
    PacketSizeBytes,
    PositiveDurationNs,
    PositiveSizeBytes,
    Probability,
    QueueLimitValue,
    QueueThresholdValue,
    RateBps,
    SegmentNumber,
    UnitFraction,
    Validated,
    bounded_whole,
    choice,
    literal_kind,
)
from tcpsim.scenario.on_use import on_use
from tcpsim.units import NS_PER_S, QueueLimit, QueueThreshold, bdp_bytes, format_duration, parse_queue_limit

MAX_COUNTER_SLOTS = 1 << 24
"""Bound on an RD counter's slots (128 MiB per class), checked before the engine allocates them."""


QUEUE_MODELS: list[type["QueueDisciplineModel"]] = []
"""Every queue discipline's model, in the order they are defined (`QueueDisciplineModel` subclasses)."""


class QueueDisciplineModel(Model):
    """The model of a queue discipline (`queue = {kind = ...}`); a subclass is registered by
    being defined: it joins `QueueModel`. What the rest of tcpsim needs to know about a kind it
    asks here, never from a list of kinds."""

    random: ClassVar[bool] = False
    """The discipline draws from the run seed (the engine gives it a random stream)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        QUEUE_MODELS.append(cls)

    @classmethod
    def kind_name(cls) -> str:
        return literal_kind(cls)

    @staticmethod
    def marks_ecn(engine: Mapping[str, Any]) -> bool:
        """Whether the discipline in engine form `engine` sets CE on ECN-capable packets."""
        return False

    def limits(self) -> list[QueueLimit]:
        """The limits the user wrote, for the cross-checks that size them."""
        raise NotImplementedError

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        """The engine form, on a link of `rate_bps` whose BDP limits use `bdp_rtt_ns`."""
        raise NotImplementedError


def queue_model(kind: str) -> type[QueueDisciplineModel]:
    """The model of the discipline called `kind` in the engine form."""
    return next(model for model in QUEUE_MODELS if model.kind_name() == kind)


class DropTailQueue(QueueDisciplineModel):
    """FIFO that drops arrivals when full. Give `limit`, or `packets` and/or `bytes` (with
    both, reaching either drops)."""

    kind: Literal["drop_tail"]
    limit: QueueLimitValue | None = None
    """One limit with its unit: "100pkt", "64KB" or "1.5BDP"."""
    packet_limit: PacketLimitValue | None = Field(None, alias="packets")
    """Limit in packets: 100 or "100pkt"."""
    byte_limit: ByteLimitValue | None = Field(None, alias="bytes")
    """Limit in bytes: 64000, "64KB", or a multiple of the link's BDP, "1.5BDP"."""
    counts_transmitting: Flag = False
    """Whether the limit counts the packet on the wire, as ns-2's DropTail does: ns-2.35's
    `queue/drop-tail.cc` drops an arrival when `waiting + 1 >= limit_` (bytes: `waiting bytes +
    size >= limit_`), so its limit L holds L - 1 packets waiting behind the one being sent.
    By default (false) the limit counts the waiting packets only, as ns-2's RED and ns-3's
    queues do. Set it to run a buffer stated as an ns-2 `queue-limit`."""

    @model_validator(mode="after")
    def _one_way_to_limit(self) -> Self:
        if self.limit is not None and (self.packet_limit is not None or self.byte_limit is not None):
            raise Problems([(("limit",), "give either `limit` or `packets`/`bytes`, not both")])
        if not self.limits():
            raise Problems(
                [((), 'needs a limit: `limit`, `packets` or `bytes`, e.g. {kind = "drop_tail", limit = "100pkt"}')]
            )
        if self.counts_transmitting and any(limit.unit == "packets" and limit.amount < 2 for limit in self.limits()):
            raise Problems(
                [
                    (
                        ("limit",),
                        "with counts_transmitting the packet limit must be at least 2 (at 1, ns-2 drops every packet)",
                    )
                ]
            )
        return self

    def limits(self) -> list[QueueLimit]:
        """The limits in force (one or two)."""
        return [limit for limit in (self.limit, self.packet_limit, self.byte_limit) if limit is not None]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        engine: dict[str, Any] = {"kind": "drop_tail", "limit_packets": None, "limit_bytes": None}
        # ns-2's `>=` test: the limit L admits L - 1 packets (or bytes) waiting.
        on_the_wire = 1 if self.counts_transmitting else 0
        for limit in reversed(self.limits()):  # the first limit of each kind wins
            if limit.unit == "packets":
                engine["limit_packets"] = limit.amount - on_the_wire
            else:
                engine["limit_bytes"] = limit_bytes(limit, rate_bps, bdp_rtt_ns) - on_the_wire
        return engine


_DEFAULT_MIN_TH = QueueThreshold("packets", Fraction(5), "5pkt")


class RedQueue(QueueDisciplineModel, defer_build=True):
    """Random Early Detection (Floyd & Jacobson 1993, as ns-2's `queue/red.cc`): each arrival is
    dropped — or, with `ecn`, an ECN-capable one marked CE — with a probability that rises with
    the average queue from 0 at `min_th` to `max_p` at `max_th` (then to 1 at 2·max_th if
    `gentle`, else every arrival above max_th is dropped); a full buffer drops as drop-tail.

    Defaults are ns-2's, because the papers reproduced here simulated with ns-2: the parameter
    set of its `ns-default.tcl` up to 2004 (thresh_ 5, maxthresh_ 15, q_weight_ 0.002, linterm_
    10 so max_p 0.1, wait_, mean_pktsize_ 500, packet mode), which is Floyd's recommended set,
    with gentle_ as in ns-2's later releases. ns-3's `RedQueueDisc` differs only in max_p = 0.02
    (`LInterm` 50, the value of F&J's own simulations) and its 25-packet default limit: set
    max_p = 0.02. ns-2's later automatic thresholds are thresholds = "auto"."""

    random: ClassVar[bool] = True

    @staticmethod
    def marks_ecn(engine: Mapping[str, Any]) -> bool:
        return bool(engine["ecn"])

    kind: Literal["red"]
    limit: QueueLimitValue
    """The buffer: "100pkt", "64KB" or "1BDP"; an arrival that does not fit is dropped."""
    min_th: QueueThresholdValue | None = None
    """Lower threshold of the average queue: packets ("5pkt") or, in byte mode, bytes ("5KB").
    Default 5pkt (ns-2 thresh_, ns-3 MinTh)."""
    max_th: QueueThresholdValue | None = None
    """Upper threshold, > min_th. Default 3·min_th (ns-2's rule; 15pkt with the default min_th)."""
    thresholds: Annotated[str | None, Validated(choice("a threshold rule", ("auto",)), {"enum": ["auto"]})] = None
    """ "auto": min_th = max(5, target_delay·C/(8·mean_packet)/2) packets, max_th = 3·min_th
    (ns-2 `initialize_params`, ns-3 `InitializeParams`: half the queue that drains in
    target_delay at the link rate C; Floyd, Gummadi & Shenker, "Adaptive RED", 2001)."""
    target_delay_ns: PositiveDurationNs | None = Field(None, alias="target_delay")
    """With thresholds = "auto": the target queueing delay (default 5ms, ns-2 targetdelay_)."""
    max_p: UnitFraction = 0.1
    """Drop probability at max_th, in (0, 1] (ns-2 1/linterm_ = 0.1; ns-3 and F&J 0.02)."""
    w_q: UnitFraction = 0.002
    """Weight of the newest queue sample in the average, in (0, 1] (F&J Sec. 6: 0.002)."""
    gentle: Flag = True
    """Between max_th and 2·max_th the probability rises from max_p to 1 (Floyd 2000; ns-2 and
    ns-3 default); false: every arrival above max_th is dropped."""
    wait: Flag = True
    """Space drops uniformly between 1/p and 2/p arrivals (ns-2 wait_, ns-3 Wait, both default);
    false: F&J Sec. 7's p_b/(1 − count·p_b), between 1 and 1/p."""
    mode: Annotated[str, Validated(choice("a RED mode", ("packet", "byte")), {"enum": ["packet", "byte"]})] = "packet"
    """ "packet": the average counts packets; "byte": it counts bytes, thresholds may be given in
    bytes (packets count `mean_packet` each), and a packet's drop probability scales with its
    size (F&J Sec. 4)."""
    mean_packet_bytes: PacketSizeBytes = Field(500, alias="mean_packet", validate_default=True)
    """Typical packet size: after an idle period the average decays once per packet of this size
    the link could have sent (F&J Fig. 2); byte mode's unit. Default 500B (ns-2, ns-3)."""
    ecn: Flag = False
    """Mark ECN-capable packets CE instead of dropping them early (RFC 3168 §5); forced drops and
    a full buffer still drop. Flows opt in with [tcp] ecn = true."""
    mark_p: Probability = 1.0
    """With `ecn`: mark only while the drop probability p_b <= mark_p, drop above it (ns-2
    use_mark_p_ with mark_p_ = 0.1); 1 marks in the gentle band too (ns-3 UseEcn)."""
    count_bytes: Flag = False
    """Byte mode: count the traffic since the last early drop in mean-sized packets of its bytes,
    space drops with the unscaled probability and scale by size/mean after (ns-2's `modify_p`
    with bytes_, queue/red.cc); false: count arrivals, scale first (F&J Sec. 4). They differ
    when sizes mix: an ACK is a whole arrival in F&J's order, 40/500 of one in ns-2's."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        given = [key for key in ("min_th", "max_th") if getattr(self, key) is not None]
        if self.thresholds == "auto":
            problems += [((key,), 'give either thresholds = "auto" or min_th/max_th, not both') for key in given]
        elif self.target_delay_ns is not None:
            problems.append(
                (("target_delay",), 'applies only with thresholds = "auto"; min_th and max_th are used otherwise')
            )
        if self.mode == "packet":
            for key in given:
                threshold: QueueThreshold = getattr(self, key)
                if threshold.unit == "bytes":
                    problems.append(
                        (
                            (key,),
                            f'{threshold.text!r} is in bytes; byte thresholds need mode = "byte", or give packets ("5pkt")',
                        )
                    )
        if not problems and self.thresholds is None:
            low, high = self._fixed_thresholds()
            if low >= high:
                problems.append(
                    (
                        ("min_th" if self.min_th is not None else "max_th",),
                        f"min_th ({self._describe(self.min_th, low)}) must be less than max_th "
                        f"({self._describe(self.max_th, high)})",
                    )
                )
        raise_if_any(problems)
        return self

    def _in_mode_unit(self, threshold: QueueThreshold) -> Fraction:
        """A threshold in the unit the average counts (a packet is `mean_packet` bytes in byte
        mode, ns-2's `th_min = th_min_pkts · mean_pktsize`)."""
        if self.mode == "byte" and threshold.unit == "packets":
            return threshold.amount * self.mean_packet_bytes
        return threshold.amount

    def _fixed_thresholds(self) -> tuple[Fraction, Fraction]:
        """(min_th, max_th) in the mode's unit, defaults filled in."""
        low = self._in_mode_unit(self.min_th or _DEFAULT_MIN_TH)
        high = self._in_mode_unit(self.max_th) if self.max_th is not None else 3 * low
        return low, high

    def _describe(self, threshold: QueueThreshold | None, value: Fraction) -> str:
        """A threshold for messages: as written (or "default"), with its value in the mode's
        unit when it was written in another one."""
        in_mode_unit = f"{float(value):g}{'B' if self.mode == 'byte' else 'pkt'}"
        if threshold is None:
            return f"default {in_mode_unit}"
        same_unit = threshold.unit == ("bytes" if self.mode == "byte" else "packets")
        return threshold.text if same_unit else f"{threshold.text} = {in_mode_unit}"

    def engine_thresholds(self, rate_bps: int) -> tuple[float, float]:
        """(min_th, max_th) in the mode's unit for a link of `rate_bps`."""
        if self.thresholds != "auto":
            low, high = self._fixed_thresholds()
            return float(low), float(high)
        target_ns = self.target_delay_ns if self.target_delay_ns is not None else 5_000_000
        packets_per_s = Fraction(rate_bps, 8 * self.mean_packet_bytes)
        low = max(Fraction(5), Fraction(target_ns, NS_PER_S) * packets_per_s / 2)
        if self.mode == "byte":
            low *= self.mean_packet_bytes
        return float(low), float(3 * low)

    def limits(self) -> list[QueueLimit]:
        return [self.limit]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        in_packets = self.limit.unit == "packets"
        min_th, max_th = self.engine_thresholds(rate_bps)
        return {
            "kind": "red",
            "limit_packets": self.limit.amount if in_packets else None,
            "limit_bytes": None if in_packets else limit_bytes(self.limit, rate_bps, bdp_rtt_ns),
            "mode": self.mode,
            "min_th": min_th,
            "max_th": max_th,
            "max_p": self.max_p,
            "w_q": self.w_q,
            "gentle": self.gentle,
            "wait": self.wait,
            "mean_packet_bytes": self.mean_packet_bytes,
            "ecn": self.ecn,
            "mark_p": self.mark_p,
            "count_bytes": self.count_bytes,
        }


def _positive_number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < float("inf"):
        raise ValueError(f"{value!r} is not a positive number; use a number above 0, e.g. 1")
    return float(value)


def _non_negative_number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < float("inf"):
        raise ValueError(f"{value!r} is not a number >= 0; use e.g. 0 or 2")
    return float(value)


def _open_fraction(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"{value!r} is not in (0, 1); use a number strictly between 0 and 1, e.g. 0.1")
    return float(value)


class RdQueue(QueueDisciplineModel, defer_build=True):
    """RD (Rate-Delay) Network Services (`podlesny` Sec. II-C, III, Fig. 2): an R queue for
    throughput-greedy flows and a D queue for delay-sensitive ones, each drop-tail in its share
    of the buffer, served so that the bytes sent from them follow k·n_R : n_D, the counts of
    their active flows (timestamp vectors, Kim & O'Hallaron 2003). A flow's class is its
    [tcp] rd_class, by default D for Vegas and R for the loss-based variants (Sec. III).

    Defaults: k = 1 and 10 % of the buffer for D are the paper's (Sec. III). It is silent on
    the recalculation period and the flow counter; chosen here, before any result: counts and
    shares recalculated every 100 ms (a few times per RTT of its 20–300 ms flows, so a change
    in the flow mix is seen within a few RTTs, and the O(slots) count is off the per-packet
    path), 4096 slots per class (linear counting within about 1 % up to 2000 flows). How long a
    flow stays counted after its last packet, also unstated (the cited counting method's window
    is the user's choice): 1 s plus twice the longest wait of the class's packets in its queue
    within that window, so that a flow is not forgotten while it waits out one backed-off
    retransmission timeout, whose RTT holds that wait (`queue::rd` in the core); the 1 s covers
    the propagation RTT and the timeout's margins. `counter_delay_multiple = 0` gives the fixed
    1 s window of tcpsim's earlier rule."""

    random: ClassVar[bool] = True  # the salt of its flow counters' hash

    kind: Literal["rd"]
    limit: QueueLimitValue
    """The whole buffer, shared by R and D: "100pkt", "64KB" or "1BDP"."""
    k: Annotated[float, Validated(_positive_number, {"type": "number", "exclusiveMinimum": 0})] = 1.0
    """Target ratio of the per-flow throughputs R : D (eq. 5); 1 = equal per-flow shares."""
    d_share: Annotated[
        float | None,
        Validated(_open_fraction, {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
    ] = None
    """Fraction of the buffer for the D queue, in (0, 1); default 0.1 (Sec. III)."""
    d_delay_bound_ns: PositiveDurationNs | None = Field(None, alias="d_delay_bound")
    """Instead of d_share: B_D = S_D·d, the bytes the D queue drains in d at its service rate
    S_D (eq. 7), recalculated with the counts (Sec. II-C); needs a byte or BDP limit."""
    interval_ns: PositiveDurationNs = Field("100ms", alias="interval", validate_default=True)
    """Recalculation period of the flow counts and the buffer split."""
    counter_slots: bounded_whole("a count", minimum=1, maximum=MAX_COUNTER_SLOTS, example=4096) = 4096  # type: ignore[valid-type]
    """Slots of each class's timestamp vector (8 bytes each), at most 2^24: counting a few
    thousand flows needs a few thousand slots (Whang et al.'s linear counting)."""
    counter_timeout_ns: PositiveDurationNs = Field("1s", alias="counter_timeout", validate_default=True)
    """The base of the counting window: with counter_delay_multiple 0, a flow not seen for longer
    than this no longer counts as active."""
    counter_delay_multiple: Annotated[float, Validated(_non_negative_number, {"type": "number", "minimum": 0})] = 2.0
    """m: a class's counting window is counter_timeout + m × the longest queueing delay of its
    packets within the window (2: one RTO back-off of a flow behind that queue); 0: fixed."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        if self.d_share is not None and self.d_delay_bound_ns is not None:
            problems.append((("d_delay_bound",), "give either d_share or d_delay_bound, not both"))
        if self.d_delay_bound_ns is not None and self.limit.unit == "packets":
            problems.append(
                (
                    ("d_delay_bound",),
                    f"sizes the D buffer in bytes: give the limit in bytes or BDP, not {self.limit.text!r}",
                )
            )
        raise_if_any(problems)
        return self

    def limits(self) -> list[QueueLimit]:
        return [self.limit]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        return {
            "kind": "rd",
            **one_limit(self.limit, rate_bps, bdp_rtt_ns),
            "k": self.k,
            "d_share": 0.1 if self.d_share is None and self.d_delay_bound_ns is None else self.d_share,
            "d_delay_bound_ns": self.d_delay_bound_ns,
            "interval_ns": self.interval_ns,
            "counter_slots": self.counter_slots,
            "counter_timeout_ns": self.counter_timeout_ns,
            "counter_delay_multiple": self.counter_delay_multiple,
        }


class PieQueue(QueueDisciplineModel, defer_build=True):
    """PIE, Proportional Integral controller Enhanced (RFC 8033; Pan et al., HPSR 2013): each
    arrival is dropped — or, with `ecn`, an ECN-capable one marked CE while the probability is
    at most `mark_ecn_th` — with a probability p that a PI controller on the queueing delay
    updates every `t_update`: p += α·(delay − target) + β·(delay − previous delay), the step
    scaled down while p is small (§4.2). No early drop during the burst allowance, while the
    previous delay is under target/2 and p < 0.2, or while at most two `mean_packet`s wait
    (§4.1, §4.4); a full buffer drops as drop-tail.

    Defaults are RFC 8033's (target 15 ms, T_UPDATE 15 ms, α 0.125, β 1.25, MAX_BURST 150 ms,
    DQ_THRESHOLD 16 KB, mark_ecnth 0.1, §5.5's cap on, de-randomization off), which are also
    ns-3.44's `PieQueueDisc` attribute defaults; the delay is measured by timestamps, as ns-3.44
    (`UseDequeueRateEstimator` false) and Linux's `sch_pie` do by default. See
    `crates/tcpsim-core/src/queue/pie.rs` for the rules and `docs/ns3-comparison/pie.md` for
    where ns-3 differs."""

    random: ClassVar[bool] = True  # the early drops draw from the run seed

    @staticmethod
    def marks_ecn(engine: Mapping[str, Any]) -> bool:
        return bool(engine["ecn"])

    kind: Literal["pie"]
    limit: QueueLimitValue
    """The buffer: "100pkt", "64KB" or "1BDP"; an arrival that does not fit is dropped."""
    target_ns: PositiveDurationNs = Field("15ms", alias="target", validate_default=True)
    """QDELAY_REF, the queueing delay PIE steers to. Default 15ms (RFC 8033 §4.2, ns-3, Linux)."""
    t_update_ns: PositiveDurationNs = Field("15ms", alias="t_update", validate_default=True)
    """T_UPDATE, the period of the drop-probability update. Default 15ms (RFC 8033 §4.2)."""
    alpha: Annotated[float, Validated(_non_negative_number, {"type": "number", "minimum": 0})] = 0.125
    """α in Hz: weight of the delay's distance from the target. Default 0.125 (RFC 8033 §4.2)."""
    beta: Annotated[float, Validated(_non_negative_number, {"type": "number", "minimum": 0})] = 1.25
    """β in Hz: weight of the delay's change since the previous update. Default 1.25 (§4.2)."""
    max_burst_ns: DurationNs = Field("150ms", alias="max_burst", validate_default=True)
    """MAX_BURST: no early drop for this long at the start and after each quiet period (an arrival
    while p = 0 and the delays are under target/2 re-arms it). Default 150ms (RFC 8033 §4.4, ns-3.44 MaxBurstAllowance)."""
    mean_packet_bytes: PacketSizeBytes = Field(1500, alias="mean_packet", validate_default=True)
    """MEAN_PKTSIZE of §4.1's safeguard: no early drop while at most two such packets wait.
    Default 1500B (an Ethernet MTU, Linux's test `backlog < 2·mtu`; with full-sized packets
    ns-3's packet-mode `qSize <= 2`)."""
    delay_estimator: Annotated[
        str,
        Validated(
            choice("a PIE delay estimator", ("timestamp", "dequeue_rate")), {"enum": ["timestamp", "dequeue_rate"]}
        ),
    ] = "timestamp"
    """ "timestamp": the sojourn time of the packet last dequeued (ns-3.44 and Linux default);
    "dequeue_rate": queued bytes over the departure rate measured in cycles of `dq_threshold`
    bytes (RFC 8033 §4.3, §5.2)."""
    dq_threshold_bytes: PositiveSizeBytes = Field(16384, alias="dq_threshold", validate_default=True)
    """DQ_THRESHOLD of the dequeue-rate estimator. Default 16384B (RFC 8033 §5.2)."""
    ecn: Flag = False
    """Mark ECN-capable packets CE instead of dropping them early while p <= mark_ecn_th (RFC 8033
    §5.1, Linux; ns-3 marks only below it); a full buffer still drops. Flows opt in with [tcp]
    ecn = true."""
    mark_ecn_th: Probability = 0.1
    """With `ecn`: above this drop probability ECN-capable packets are dropped too. Default 0.1
    (RFC 8033 §5.1, ns-3 MarkEcnThreshold)."""
    cap_drop_adjustment: Flag = True
    """An update raises p by at most 0.02 while p >= 0.1 (RFC 8033 §5.5; ns-3 default, Linux)."""

    def limits(self) -> list[QueueLimit]:
        return [self.limit]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        return {
            "kind": "pie",
            **one_limit(self.limit, rate_bps, bdp_rtt_ns),
            "target_ns": self.target_ns,
            "t_update_ns": self.t_update_ns,
            "alpha": self.alpha,
            "beta": self.beta,
            "max_burst_ns": self.max_burst_ns,
            "mean_packet_bytes": self.mean_packet_bytes,
            "delay_estimator": self.delay_estimator,
            "dq_threshold_bytes": self.dq_threshold_bytes,
            "ecn": self.ecn,
            "mark_ecn_th": self.mark_ecn_th,
            "cap_drop_adjustment": self.cap_drop_adjustment,
        }


class StepQueue(QueueDisciplineModel, defer_build=True):
    """Step marking, the switch of DCTCP (Alizadeh et al., SIGCOMM 2010, Sec. 3.1; RFC 8257
    §3.1): a FIFO that marks CE on an ECN-capable arrival that finds more than `threshold`
    (K) waiting — the instantaneous queue, no average. A packet that is not ECN-capable finding
    more than K is dropped (`non_ect = "drop"`, as Linux `red … ecn` and ns-3's RedQueueDisc);
    a full buffer drops as drop-tail. DCTCP Sec. 3.4: K > C·RTT/7 (C in packets/s); the paper
    uses 20 packets at 1 Gb/s, 65 at 10 Gb/s."""

    @staticmethod
    def marks_ecn(engine: Mapping[str, Any]) -> bool:
        return True

    kind: Literal["step"]
    limit: QueueLimitValue
    """The buffer: "100pkt", "64KB" or "1BDP"; an arrival that does not fit is dropped."""
    threshold: QueueThresholdValue
    """K, in packets ("20pkt", the paper's unit) or bytes ("30KB", Linux's); an arrival that
    finds more than K waiting is marked. Whole packets or bytes."""
    non_ect: Literal["drop", "enqueue"] = "drop"
    """A packet that is not ECN-capable and finds more than K: "drop" (Linux, ns-3) or
    "enqueue" (unmarked; only the buffer limit drops it)."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        amount = self.threshold.amount
        if amount.denominator != 1:
            raise Problems([(("threshold",), f"{self.threshold.text!r}: K counts whole packets or bytes")])
        if self.limit.unit == "packets" and self.threshold.unit == "packets" and amount >= self.limit.amount:
            raise Problems([(("threshold",), f"{self.threshold.text!r} must be below the limit, else it never marks")])
        return self

    def limits(self) -> list[QueueLimit]:
        return [self.limit]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        return {
            "kind": "step",
            **one_limit(self.limit, rate_bps, bdp_rtt_ns),
            "threshold": int(self.threshold.amount),
            "unit": self.threshold.unit,
            "non_ect": self.non_ect,
        }


MtuBytes = bounded_whole("a size in bytes", minimum=0, maximum=2**32 - 1, example=1514)
"""A link MTU in bytes, as CoDel's and FQ-CoDel's `mtu` (Linux 1514)."""


class CodelQueue(QueueDisciplineModel, defer_build=True):
    """CoDel, Controlled Delay (RFC 8289; Nichols & Jacobson 2012): once every packet leaving
    has waited longer than `target` for a whole `interval`, the head is dropped (or, with
    `ecn`, an ECN-capable one marked CE) at intervals shrinking as interval/sqrt(count), until
    a packet leaves having waited less than target. Defaults: target 5ms and interval 100ms
    (RFC 8289 §4.2, §4.3), limit 1000 packets and mtu 1514 bytes (Linux `sch_codel`)."""

    @staticmethod
    def marks_ecn(engine: Mapping[str, Any]) -> bool:
        return bool(engine["ecn"])

    kind: Literal["codel"]
    packet_limit: PacketLimitValue = Field(1000, alias="packets", validate_default=True)
    """Buffer in packets: arrivals beyond it are dropped (Linux `limit`, 1000)."""
    target_ns: PositiveDurationNs = Field("5ms", alias="target", validate_default=True)
    """Acceptable standing queue delay (RFC 8289 §4.2: 5ms)."""
    interval_ns: PositiveDurationNs = Field("100ms", alias="interval", validate_default=True)
    """Window over which the sojourn must stay above target before dropping (§4.3: 100ms)."""
    ecn: Flag = False
    """Mark ECN-capable packets CE instead of dropping them (Linux `ecn`; default off)."""
    mtu_bytes: MtuBytes = Field(1514, alias="mtu")
    """A departure leaving at most this many bytes queued is never above target (RFC 8289
    §4.2 "maxpacket"; Linux `mtu` 1514)."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.interval_ns <= self.target_ns:
            raise Problems([(("interval",), "must be longer than target")])
        return self

    def limits(self) -> list[QueueLimit]:
        return [self.packet_limit]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        return {
            "kind": "codel",
            "limit_packets": self.packet_limit.amount,
            "target_ns": self.target_ns,
            "interval_ns": self.interval_ns,
            "ecn": self.ecn,
            "mtu_bytes": self.mtu_bytes,
        }


FQ_CODEL_MAX_PACKETS = 2**20
"""Bound on FQ-CoDel's buffer (the engine's `MAX_LIMIT_PACKETS`; its slots are allocated at build)."""


class FqCodelQueue(QueueDisciplineModel, defer_build=True):
    """FQ-CoDel, Flow Queue CoDel (RFC 8290): arrivals are hashed by connection into `flows`
    sub-queues, served by deficit round robin with `quantum` bytes a round; a sub-queue that
    becomes active goes ahead of those with a standing backlog (new flows first, §4.2), and each
    sub-queue is a CoDel queue (RFC 8289, as `codel`) with its own drop state. When the buffer
    (`packets`) overflows, the sub-queue holding the most bytes loses up to `drop_batch` packets
    from its head, stopping at half its bytes (§4.1, Linux `fq_codel_drop`). Defaults are Linux
    `sch_fq_codel`'s (also ns-3.44 `FqCoDelQueueDisc`'s): 10240 packets, 1024 flows, quantum
    1514B, drop batch 64, target 5ms, interval 100ms, ECN on (only flows with [tcp] ecn = true
    are ECN-capable). See `crates/tcpsim-core/src/queue/fq_codel.rs`."""

    random: ClassVar[bool] = True  # the hash classifier's perturbation is drawn from the run seed

    @staticmethod
    def marks_ecn(engine: Mapping[str, Any]) -> bool:
        return bool(engine["ecn"])

    kind: Literal["fq_codel"]
    packet_limit: PacketLimitValue = Field(10240, alias="packets", validate_default=True)
    """Buffer of all sub-queues together, packets (RFC 8290 §4.1; Linux `limit`, 10240)."""
    flows: bounded_whole("a number of sub-queues", minimum=1, maximum=65536, example=1024) = 1024  # type: ignore[valid-type]
    """Number of sub-queues (RFC 8290 §5.2; Linux `flows`, 1024, at most 65536)."""
    quantum_bytes: PositiveSizeBytes = Field(1514, alias="quantum", validate_default=True)
    """Bytes a sub-queue sends per round-robin turn (RFC 8290 §4.2, §5.2: one MTU; Linux 1514B)."""
    drop_batch: bounded_whole("a packet count", minimum=1, maximum=2**32 - 1, example=64) = 64  # type: ignore[valid-type]
    """Most packets one overflow drops from the fattest sub-queue (Linux `drop_batch_size`, 64)."""
    target_ns: PositiveDurationNs = Field("5ms", alias="target", validate_default=True)
    """CoDel's acceptable standing delay of each sub-queue (RFC 8289 §4.2, RFC 8290 §5.2: 5ms)."""
    interval_ns: PositiveDurationNs = Field("100ms", alias="interval", validate_default=True)
    """CoDel's interval (RFC 8289 §4.3, RFC 8290 §5.2: 100ms)."""
    ecn: Flag = True
    """Mark ECN-capable packets CE instead of dropping them (RFC 8290 §5.2, Linux and ns-3: on by default)."""
    mtu_bytes: MtuBytes = Field(1514, alias="mtu")
    """A departure leaving at most this many bytes queued (`maxpacket_backlog`) is never above
    target (RFC 8289 §4.2 "maxpacket"; Linux `mtu` 1514)."""
    maxpacket_backlog: Annotated[
        str,
        Validated(choice("a maxpacket backlog", ("queue", "sub_queue")), {"enum": ["queue", "sub_queue"]}),
    ] = "queue"
    """Whose bytes the `mtu` test reads, which RFC 8290 leaves open: "queue", the whole queue's
    (Linux `sch_fq_codel`, so a sub-queue down to its last packet still drops while others hold
    more than an MTU); "sub_queue", the departing packet's sub-queue's (ns-3.44
    `FqCoDelQueueDisc`, whose sub-queues are CoDel queue discs testing their own `MinBytes`)."""
    classifier: Annotated[
        str,
        Validated(choice("an FQ-CoDel classifier", ("hash", "exact")), {"enum": ["hash", "exact"]}),
    ] = "hash"
    """ "hash": a hash of the connection with a perturbation drawn from the run seed (RFC 8290
    §4.1, Linux; two connections may share a sub-queue); "exact": connection i (TCP flows, then
    UDP flows) in sub-queue i mod `flows`."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.interval_ns <= self.target_ns:
            raise Problems([(("interval",), "must be longer than target")])
        if self.packet_limit.amount > FQ_CODEL_MAX_PACKETS:
            raise Problems([(("packets",), f"{self.packet_limit.amount} is more than {FQ_CODEL_MAX_PACKETS} packets")])
        return self

    def limits(self) -> list[QueueLimit]:
        return [self.packet_limit]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        return {
            "kind": "fq_codel",
            "limit_packets": self.packet_limit.amount,
            "flows": self.flows,
            "quantum_bytes": self.quantum_bytes,
            "drop_batch_size": self.drop_batch,
            "target_ns": self.target_ns,
            "interval_ns": self.interval_ns,
            "ecn": self.ecn,
            "mtu_bytes": self.mtu_bytes,
            "classifier": self.classifier,
            # Written only when not the default, so that existing scenarios keep their hash.
            **({"maxpacket_backlog": self.maxpacket_backlog} if self.maxpacket_backlog != "queue" else {}),
        }


class DualPi2Queue(QueueDisciplineModel, defer_build=True):
    """DualPI2, the Dual-Queue Coupled AQM of L4S (RFC 9332 §2 and Appendix A, Linux
    `sch_dualpi2`): ECT(1) and CE packets (RFC 9331, [tcp] ecn_codepoint = "ect1") wait in an
    L queue, the rest in a C queue, in one shared buffer. A PI controller on the C queue's delay
    updates a base probability p' every `t_update` (p' += α·(delay − target) + β·(delay −
    previous delay)); C packets are dropped, or if ECT(0) marked, with p'² and L packets marked
    with max(k·p', the L step); above k·p' = 1 (overload) L packets are dropped with p'² too.
    The L step marks every L packet that waited more than `step_thresh` (or, with
    `step_range`, RFC 9332's ramp). A WRR gives L priority but keeps `c_protection` % of the
    link for C. Marks and drops are taken at dequeue, none while under 2 `mtu` are queued.

    Defaults are Linux's (limit 10000 packets, target 15 ms, t_update 16 ms, α 0.16 Hz, β 3.2 Hz,
    k = 2, step 1 ms, c_protection 10 %, drop on overload); RFC 9332 A.1 gives 15 ms, 0.15 Hz and
    3 Hz for a 100 ms RTT_max and a ramp from 800 to 1200 µs. See
    `crates/tcpsim-core/src/queue/dualpi2.rs`."""

    random: ClassVar[bool] = True  # the marks and drops draw from the run seed

    @staticmethod
    def marks_ecn(engine: Mapping[str, Any]) -> bool:
        return True

    kind: Literal["dualpi2"]
    limit: QueueLimitValue = Field("10000pkt", validate_default=True)
    """The buffer the L and C queues share: "10000pkt" (Linux's default), "1MB" or "1BDP"; an
    arrival that does not fit is dropped."""
    target_ns: PositiveDurationNs = Field("15ms", alias="target", validate_default=True)
    """The C queue's target delay. Default 15ms (RFC 9332 A.1, Linux)."""
    t_update_ns: PositiveDurationNs = Field("16ms", alias="t_update", validate_default=True)
    """Period of the p' update. Default 16ms (Linux; RFC 9332 A.1: 15ms)."""
    alpha: Annotated[float, Validated(_non_negative_number, {"type": "number", "minimum": 0})] = 0.16
    """α in Hz, the integral gain. Default 0.16 (Linux; RFC 9332 A.1: 0.1·t_update/RTT_max²)."""
    beta: Annotated[float, Validated(_non_negative_number, {"type": "number", "minimum": 0})] = 3.2
    """β in Hz, the proportional gain. Default 3.2 (Linux; RFC 9332 A.1: 0.3/RTT_max)."""
    coupling: Annotated[float, Validated(_positive_number, {"type": "number", "exclusiveMinimum": 0})] = 2.0
    """k, the coupling factor: L packets are marked with k·p'. Default 2 (RFC 9332 §2.1, Linux)."""
    step_thresh_ns: DurationNs = Field("1ms", alias="step_thresh", validate_default=True)
    """The L queue's marking threshold on a packet's sojourn time. Default 1ms (Linux
    step_thresh; RFC 9332 A.1's ramp starts at 800us)."""
    step_range_ns: DurationNs = Field("0s", alias="step_range", validate_default=True)
    """Width of a ramp from step_thresh to full marking; 0s (the default) is Linux's step. RFC
    9332 A.1: 400us."""
    pi_delay: Literal["classic", "max"] = "classic"
    """The delay the PI controller reads: "classic", the C queue head's (RFC 9332 A.1), or
    "max", the larger of the two queue heads' (Linux)."""
    c_protection: bounded_whole("a percentage", minimum=0, maximum=100, example=10) = 10  # type: ignore[valid-type]
    """The C queue's WRR weight in %: its share of the link while both queues wait. Default 10
    (Linux c_protection)."""
    drop_overload: Flag = True
    """Above k·p' = 1 drop L packets with p'² and drop (not mark) ECT(0) C packets (RFC 9332
    §4.2.3, Linux's default); false caps p' at 1/k and only marks."""
    mtu_bytes: PacketSizeBytes = Field(1514, alias="mtu", validate_default=True)
    """No p'-based mark or drop while fewer than 2 mtu are queued; also the WRR credit's unit.
    Default 1514B (Linux psched_mtu on Ethernet)."""

    def limits(self) -> list[QueueLimit]:
        return [self.limit]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        return {
            "kind": "dualpi2",
            **one_limit(self.limit, rate_bps, bdp_rtt_ns),
            "target_ns": self.target_ns,
            "t_update_ns": self.t_update_ns,
            "alpha": self.alpha,
            "beta": self.beta,
            "coupling": self.coupling,
            "step_thresh_ns": self.step_thresh_ns,
            "step_range_ns": self.step_range_ns,
            "pi_delay": self.pi_delay,
            "c_protection": self.c_protection,
            "drop_overload": self.drop_overload,
            "mtu_bytes": self.mtu_bytes,
        }


QueueModel = functools.reduce(operator.or_, map(on_use, QUEUE_MODELS))
"""Every queue discipline's model."""


def one_limit(limit: QueueLimit, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, int | None]:
    """The engine's `limit_packets`/`limit_bytes` pair of a buffer given as one limit."""
    in_packets = limit.unit == "packets"
    return {
        "limit_packets": limit.amount if in_packets else None,
        "limit_bytes": None if in_packets else limit_bytes(limit, rate_bps, bdp_rtt_ns),
    }


def limit_bytes(limit: QueueLimit, rate_bps: int, bdp_rtt_ns: int | None) -> int:
    """Bytes of a byte or BDP limit; the caller has checked that a BDP limit has its RTT."""
    if limit.unit == "bdp":
        assert bdp_rtt_ns is not None
        return bdp_bytes(limit.amount, rate_bps, bdp_rtt_ns)
    return int(limit.amount)


def _queue_shorthand(value: object) -> object:
    """`queue = "100pkt"` is short for `queue = {kind = "drop_tail", limit = "100pkt"}`.

    The limit is parsed here so that a bad one is reported at `queue`, where the user wrote it.
    """
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return {"kind": "drop_tail", "limit": parse_queue_limit(value)}
    return value


QueueSpec = Annotated[
    QueueModel,
    Field(discriminator="kind"),
    BeforeValidator(_queue_shorthand, json_schema_input_type=QueueLimitValue | QueueModel),
]


class BernoulliLoss(Model):
    """Each packet independently lost with probability p (after it occupied the link)."""

    kind: Literal["bernoulli"]
    p: Probability
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        return {"kind": "bernoulli", "p": self.p}


class ScriptedLoss(Model, defer_build=True):
    """Drop the first transmission of the listed data segments of one flow (segment n carries
    bytes [(n-1)·mss, n·mss), counting from 1)."""

    kind: Literal["scripted"]
    flow: Name
    """The flow's name (a replicated flow's copies are "name.0", "name.1", ...)."""
    segments: list[SegmentNumber] = Field(min_length=1)
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        return {"kind": "scripted", "flow": flow_index[self.flow], "segments": list(self.segments)}


class BitErrorLoss(Model, defer_build=True):
    """Independent bit errors (`casetti` Sec. 5.1): a packet of w bytes on the wire is lost with
    probability 1 − (1 − ber)^(8·w), so data packets suffer more than ACKs. Give `ber`, or
    `one_per`, the data per bit error: one_per = "64KiB" is casetti's "1 bit in 64 kBytes",
    i.e. ber = 1 / (8 · 65536) ≈ 1.9e-6."""

    kind: Literal["bit_error"]
    ber: Probability | None = None
    """Bit error rate, e.g. 1.9e-6."""
    one_per_bytes: PositiveSizeBytes | None = Field(None, alias="one_per")
    """Mean data between two bit errors, e.g. "64KiB" (ber = 1 / (8 · one_per))."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.ber is None and self.one_per_bytes is None:
            raise Problems([((), 'needs the error rate: `ber` (e.g. 1.9e-6) or `one_per` (e.g. "64KiB")')])
        if self.ber is not None and self.one_per_bytes is not None:
            raise Problems([(("one_per",), "give either `ber` or `one_per`, not both")])
        return self

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        ber = self.ber if self.ber is not None else 1 / (8 * self.one_per_bytes)  # type: ignore[operator]
        return {"kind": "bit_error", "ber": ber}


class GilbertElliottLoss(Model, defer_build=True):
    """Two-state Markov channel (`casetti` Sec. 5.2): Good and Bad alternate, each lasting an
    exponentially distributed time of mean `good_mean` / `bad_mean`; each packet is lost with
    the current state's probability. Fading (Sec. 5.2.1): good_mean = "8s", bad_mean = "4s",
    good_loss = 1e-5, bad_loss = 0.05; blackouts (Sec. 5.2.2): good_mean = "4s",
    bad_mean = "100ms", bad_loss = 1. Long-run loss rate: π_G·good_loss + π_B·bad_loss with
    π_B = bad_mean / (good_mean + bad_mean)."""

    kind: Literal["gilbert_elliott"]
    good_mean_ns: PositiveDurationNs = Field(alias="good_mean")
    """Mean time in the Good state."""
    bad_mean_ns: PositiveDurationNs = Field(alias="bad_mean")
    """Mean time in the Bad state."""
    good_loss: Probability = 0.0
    """Packet loss probability in Good."""
    bad_loss: Probability
    """Packet loss probability in Bad (1: blackout)."""
    initial: InitialState = "good"
    """State at time 0: "good", "bad", or "stationary" (Bad with probability π_B)."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""
    correlated: Flag = False
    """With direction "both": one Good/Bad timeline for both directions (a fade or blackout
    hits data and ACKs at once); each direction still draws its own per-packet losses.
    False: each direction has its own independent timeline."""
    clock_rate_bps: RateBps | None = Field(None, alias="clock_rate")
    """Unset: sojourns are simulated time. A rate (e.g. "2Mbps"): ns-2's two-state clock of
    2000 (`ErrorModel/TwoState`, `ErrorModel/Expo` with `unit time`), which advances only by
    each packet's transmission time at this rate and stands still while the link is idle; a
    packet whose transmission touches a Bad sojourn is judged by `bad_loss`."""

    @model_validator(mode="after")
    def _check_correlated(self) -> Self:
        if self.correlated and self.direction != "both":
            raise Problems(
                [
                    (
                        ("correlated",),
                        f'needs direction = "both" (got {self.direction!r}): it ties the two directions together',
                    )
                ]
            )
        if self.correlated and self.clock_rate_bps is not None:
            raise Problems(
                [
                    (
                        ("clock_rate",),
                        "cannot be combined with correlated = true: a transmission-time clock "
                        "counts one direction's packets, a shared timeline runs on time",
                    )
                ]
            )
        return self

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        engine = {
            "kind": "gilbert_elliott",
            "good_mean_ns": self.good_mean_ns,
            "bad_mean_ns": self.bad_mean_ns,
            "good_loss": self.good_loss,
            "bad_loss": self.bad_loss,
            "initial": self.initial,
        }
        if self.clock_rate_bps is not None:
            engine["clock_rate_bps"] = self.clock_rate_bps
        return engine


class TwoStateLoss(Model, defer_build=True):
    """Two-state channel with deterministic sojourns (`macura` Sec. 5.5): every Good sojourn
    lasts `good_sojourn`, every Bad one `bad_sojourn`; when one ends, the next is Bad with
    probability `p_bad`, else Good (a state may repeat). Each packet is lost with the current
    state's probability. macura: good_sojourn = "1s", bad_sojourn = "0.1ms"…"100ms",
    good_loss = 0, bad_loss = 0.1, p_bad = 0.5. Long-run loss rate: π_G·good_loss +
    π_B·bad_loss with π_B = p_bad·bad_sojourn / (p_bad·bad_sojourn + (1 − p_bad)·good_sojourn)."""

    kind: Literal["two_state"]
    good_sojourn_ns: PositiveDurationNs = Field(alias="good_sojourn")
    """Length of every Good sojourn."""
    bad_sojourn_ns: PositiveDurationNs = Field(alias="bad_sojourn")
    """Length of every Bad sojourn."""
    good_loss: Probability = 0.0
    """Packet loss probability in Good."""
    bad_loss: Probability
    """Packet loss probability in Bad."""
    p_bad: Probability = 0.5
    """Probability that the sojourn after any sojourn is Bad (macura: 0.5)."""
    initial: InitialState = "good"
    """State at time 0: "good", "bad", or "stationary" (Bad with probability π_B, at a random
    point of its sojourn)."""
    transitions: Literal["time", "ns2_multistate"] = "time"
    """When the state changes: "time", at each sojourn end in simulated time; "ns2_multistate", at
    packets, as ns-2's `ErrorModel/MultiState` (`sttype time`): a sojourn starts at the first packet
    of its state, and once it has elapsed every packet draws the next state until it changes, so a
    Bad state judges at least one packet however short (not with initial = "stationary")."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.transitions == "ns2_multistate" and self.initial == "stationary":
            raise_if_any([(("initial",), '"stationary" has no ns-2 counterpart with transitions = "ns2_multistate"')])
        return self

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        engine = {
            "kind": "two_state",
            "good_sojourn_ns": self.good_sojourn_ns,
            "bad_sojourn_ns": self.bad_sojourn_ns,
            "good_loss": self.good_loss,
            "bad_loss": self.bad_loss,
            "p_bad": self.p_bad,
            "initial": self.initial,
        }
        if self.transitions != "time":  # the default is left out: existing scenarios keep their hash
            engine["transitions"] = self.transitions
        return engine


class PacketMarkovLoss(Model, defer_build=True):
    """Two-state Markov chain stepped by packets, as ns-2's `ErrorModel/MultiState` with
    `sttype pkt` runs it: each packet of the link direction first moves the chain (Good → Bad
    with probability 1/`good_mean`, Bad → Good with 1/`bad_mean`), then is lost with the new
    state's probability. Sojourns are geometric, counted in this direction's packets (ACKs on
    the ACK direction); the chain stands still while no packet crosses. `casetti`'s fading read
    with sojourns in packets: good_mean = 8, bad_mean = 4, good_loss = 1e-5, bad_loss = 0.05.
    Long-run fraction of packets in Bad: bad_mean / (good_mean + bad_mean)."""

    kind: Literal["packet_markov"]
    good_mean_pkts: MeanPackets = Field(alias="good_mean")
    """Mean number of packets in a run of Good (>= 1)."""
    bad_mean_pkts: MeanPackets = Field(alias="bad_mean")
    """Mean number of packets in a run of Bad (>= 1)."""
    good_loss: Probability = 0.0
    """Packet loss probability in Good."""
    bad_loss: Probability
    """Packet loss probability in Bad."""
    initial: InitialState = "good"
    """State before the first packet: "good", "bad", or "stationary" (Bad with probability
    bad_mean / (good_mean + bad_mean); ns-2 starts in a given state)."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        return {
            "kind": "packet_markov",
            "good_mean_pkts": self.good_mean_pkts,
            "bad_mean_pkts": self.bad_mean_pkts,
            "good_loss": self.good_loss,
            "bad_loss": self.bad_loss,
            "initial": self.initial,
        }


class OutageLoss(Model, defer_build=True):
    """Scheduled total loss: every packet finishing transmission inside a window is lost.
    Periodic: an outage of `duration` every `period`, the first at `offset` (`casetti` Sec. 5.3,
    LEO hand-offs: period = "4s", duration = "100ms"); or listed windows [start, end):
    intervals = [["10s", "12s"], ["30s", "30.5s"]]."""

    kind: Literal["outage"]
    period_ns: PositiveDurationNs | None = Field(None, alias="period")
    """Time from the start of one periodic outage to the next."""
    duration_ns: PositiveDurationNs | None = Field(None, alias="duration")
    """Length of each periodic outage (at most `period`)."""
    offset_ns: DurationNs = Field("0s", alias="offset", validate_default=True)
    """Start of the first periodic outage."""
    intervals_ns: Annotated[list[OutageWindow], Field(min_length=1)] | None = Field(None, alias="intervals")
    """Outage windows [start, end) in time order, instead of a period."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        periodic_keys = {"period_ns": "period", "duration_ns": "duration", "offset_ns": "offset"}
        periodic = [key for name, key in periodic_keys.items() if name in self.model_fields_set]
        if self.intervals_ns is not None:
            problems += [((key,), "give either `intervals` or `period` and `duration`, not both") for key in periodic]
            for index, (start_ns, _end_ns) in enumerate(self.intervals_ns[1:], start=1):
                previous_end_ns = self.intervals_ns[index - 1][1]
                if start_ns < previous_end_ns:
                    problems.append(
                        (
                            ("intervals", index),
                            f"starts at {format_duration(start_ns)}, before the previous window ends "
                            f"({format_duration(previous_end_ns)}); list windows in time order without overlap",
                        )
                    )
        elif self.period_ns is None and self.duration_ns is None:
            problems.append(
                (
                    (),
                    'needs a schedule: `period` and `duration` (e.g. period = "4s", duration = "100ms") '
                    'or `intervals` (e.g. [["10s", "12s"]])',
                )
            )
        elif self.period_ns is None or self.duration_ns is None:
            missing = "period" if self.period_ns is None else "duration"
            problems.append(((missing,), "required key is missing; a periodic outage needs `period` and `duration`"))
        elif self.duration_ns > self.period_ns:
            problems.append(
                (
                    ("duration",),
                    f"{format_duration(self.duration_ns)} must not exceed period ({format_duration(self.period_ns)})",
                )
            )
        raise_if_any(problems)
        return self

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        if self.intervals_ns is not None:
            return {"kind": "outage_intervals", "intervals_ns": [list(window) for window in self.intervals_ns]}
        return {
            "kind": "periodic_outage",
            "period_ns": self.period_ns,
            "duration_ns": self.duration_ns,
            "offset_ns": self.offset_ns,
        }


_LOSS_MODELS = (
    BernoulliLoss,
    BitErrorLoss,
    GilbertElliottLoss,
    TwoStateLoss,
    PacketMarkovLoss,
    OutageLoss,
    ScriptedLoss,
)
LossSpec = Annotated[
    functools.reduce(operator.or_, map(on_use, _LOSS_MODELS)),
    Field(discriminator="kind"),
]


def _no_losses() -> list[Any]:
    return []


class DirectionSpec(Model):
    """Settings of one direction of a link that differ from the link's own."""

    queue: QueueSpec


def _shared_state(engine: dict[str, Any], loss: "LossSpec", index: int) -> dict[str, Any]:
    """A correlated Gilbert–Elliott model's engine form names its timeline after its position in
    the link's `loss` list, the same in both directions (the engine's `shared_state`)."""
    if isinstance(loss, GilbertElliottLoss) and loss.correlated:
        return {**engine, "shared_state": index}
    return engine


class LinkSpec(Model):
    """A full-duplex point-to-point link; its endpoints' names create the nodes."""

    name: Name | None = None
    """Defaults to "a-b"."""
    a: Name
    b: Name
    rate_bps: RateBps = Field(alias="rate")
    delay_ns: DurationNs = Field(alias="delay")
    """One-way propagation delay."""
    queue: QueueSpec | None = None
    """Queue of both directions: "100pkt", "64KB", "1.5BDP" or a table such as
    {kind = "drop_tail", packets = 100, bytes = "64KB"}."""
    # A factory, not `= []`, which pydantic deep-copies for each of a large scenario's links;
    # the schema still says what the default is. A function, not `list`: pydantic reads a
    # factory's signature, and a builtin's is parsed from text with `tokenize`, whose patterns
    # take 2 ms to compile at import.
    loss: list[LossSpec] = Field(default_factory=_no_losses, json_schema_extra={"default": []})
    ab: DirectionSpec | None = None
    """Overrides for the direction a → b."""
    ba: DirectionSpec | None = None
    """Overrides for the direction b → a."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        if self.a == self.b:
            problems.append((("b",), f"{self.b!r} is also `a`; a link joins two different nodes"))
        if self.queue is None and (self.ab is None or self.ba is None):
            problems.append(
                (
                    ("queue",),
                    'required key is missing (unless both ab.queue and ba.queue are given), e.g. queue = "100pkt"',
                )
            )
        raise_if_any(problems)
        return self

    @property
    def display_name(self) -> str:
        return self.name if self.name is not None else f"{self.a}-{self.b}"

    def queues(self) -> dict[str, tuple[Loc, QueueModel]]:
        """Direction ("ab", "ba") → (user path below the link, queue in force)."""
        result = {}
        for direction in ("ab", "ba"):
            override: DirectionSpec | None = getattr(self, direction)
            if override is not None:
                result[direction] = ((direction, "queue"), override.queue)
            else:
                assert self.queue is not None
                result[direction] = (("queue",), self.queue)
        return result

    def to_engine(
        self, node_index: Mapping[str, int], flow_index: Mapping[str, int], bdp_rtt_ns: int | None
    ) -> dict[str, Any]:
        directions = {
            direction: {
                "queue": queue.to_engine(self.rate_bps, bdp_rtt_ns),
                "loss": [
                    _shared_state(loss.to_engine(flow_index), loss, index)
                    for index, loss in enumerate(self.loss)
                    if loss.direction in (direction, "both")
                ],
            }
            for direction, (_, queue) in self.queues().items()
        }
        return {
            "name": self.display_name,
            "a": node_index[self.a],
            "b": node_index[self.b],
            "rate_bps": self.rate_bps,
            "delay_ns": self.delay_ns,
            **directions,
        }


class SharedBufferSpec(Model):
    """A switch whose output queues share one buffer (`net/shared_buffer.rs`): a port takes an
    arriving packet only while its queue holds fewer than `alpha` times the buffer's free bytes
    (the dynamic threshold of Choudhury & Hahne, IEEE/ACM ToN 1998), as commodity data-centre
    switches do. Each port's own queue discipline and limit still apply."""

    node: Name
    """The switch: a node named by the links."""
    size_bytes: PositiveSizeBytes = Field(alias="size")
    """Memory its output queues share, counted in wire bytes of waiting packets, e.g. "4MB"."""
    alpha: Annotated[float, Validated(_positive_number, {"type": "number", "exclusiveMinimum": 0})] = 1.0
    """The threshold's multiple of the free memory. 1 (Choudhury & Hahne's example value): one
    congested port holds at most half the buffer, N congested ports 1/(N + 1) each."""


ROUTING_MODES = ("shortest", "ecmp")
ECMP_SELECTIONS = ("flow_hash", "packet_spray")


class NetworkSpec(Model):
    """How packets find their way (`net/routing.rs`). Every route has the fewest hops; this
    table says what a router does when several next hops give one."""

    routing: Annotated[str, Validated(choice("a routing mode", ROUTING_MODES), {"enum": list(ROUTING_MODES)})] = (
        "shortest"
    )
    """ "shortest": one path per destination; among equal-hop paths the one through the links
    written first. "ecmp": equal-cost multipath, a router with several next hops on shortest
    paths picks one for each packet as `ecmp` says (RFC 2992)."""
    ecmp: Annotated[
        str | None,
        Validated(choice("an ECMP selection", ECMP_SELECTIONS), {"enum": list(ECMP_SELECTIONS)}),
    ] = None
    """With routing = "ecmp": "flow_hash" (the default) hashes the packet's connection and
    direction with a salt of the router's own (from the run seed), so each connection direction
    keeps one path (no reordering), each new web connection may take another, and data and ACKs
    need not share a path; "packet_spray" draws every packet's next hop at random (random packet
    spraying), which reorders packets."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        if self.ecmp is not None and self.routing != "ecmp":
            problems.append((("ecmp",), f'{self.ecmp!r} needs routing = "ecmp" (routing is {self.routing!r})'))
        seen: set[str] = set()
        for i, buffer in enumerate(self.shared_buffers):
            if buffer.node in seen:
                problems.append((("shared_buffers", i, "node"), f"{buffer.node!r} already has a shared buffer"))
            seen.add(buffer.node)
        raise_if_any(problems)
        return self

    shared_buffers: list[SharedBufferSpec] = []
    """Switches whose output queues share one buffer, e.g. under `[network]`:
    `shared_buffers = [{node = "tor0", size = "4MB"}]`."""

    def shared_buffers_to_engine(self, node_index: Mapping[str, int]) -> list[dict[str, Any]]:
        """The engine's `shared_buffers` (empty: left out, so hashes stay)."""
        return [{"node": node_index[b.node], "size_bytes": b.size_bytes, "alpha": b.alpha} for b in self.shared_buffers]

    def to_engine(self) -> dict[str, str] | None:
        """The engine's `routing`, or None for the default (left out, so hashes stay)."""
        if self.routing == "shortest":
            return None
        return {"mode": "ecmp", "select": self.ecmp or "flow_hash"}
