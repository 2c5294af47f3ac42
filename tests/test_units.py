"""Human units → canonical integers: exact values, and errors that say what is allowed."""

from fractions import Fraction

import pytest
from tcpsim.units import (
    QueueLimit,
    bdp_bytes,
    format_duration,
    parse_duration_ns,
    parse_queue_limit,
    parse_rate_bps,
    parse_size_bytes,
)


@pytest.mark.parametrize(
    ("text", "expected_ns"),
    [
        ("45ms", 45_000_000),
        ("0.01ms", 10_000),
        ("1.5s", 1_500_000_000),
        ("250us", 250_000),
        ("2min", 120_000_000_000),
        ("10ns", 10),
        ("0s", 0),
        ("1e-3s", 1_000_000),
        ("0.1s", 100_000_000),
        (" 20 ms ", 20_000_000),
        (".5ms", 500_000),
    ],
)
def test_duration_is_exact_nanoseconds(text, expected_ns):
    assert parse_duration_ns(text) == expected_ns


@pytest.mark.parametrize("value", ["-2ms", "45 parsecs", "ms", "", "1.5.2s", "45MS", None, True, [1]])
def test_bad_duration_names_the_allowed_units(value):
    with pytest.raises(ValueError, match=r"ns, us, ms, s or min, e\.g\. '45ms'") as error:
        parse_duration_ns(value)
    assert repr(value) in str(error.value)


@pytest.mark.parametrize("value", [45, 1.5, "45"])
def test_bare_number_duration_is_rejected_with_an_example(value):
    with pytest.raises(ValueError, match=rf"has no unit; .*e\.g\. '{value}s' or '{value}ms'"):
        parse_duration_ns(value)


def test_duration_finer_than_a_nanosecond_is_rejected():
    with pytest.raises(ValueError, match="not a whole number of nanoseconds"):
        parse_duration_ns("1.5ns")


def test_huge_duration_is_rejected_not_wrapped():
    with pytest.raises(ValueError, match="too large"):
        parse_duration_ns("1e999s")


@pytest.mark.parametrize(
    ("text", "expected_bps"),
    [
        ("10Mbps", 10_000_000),
        ("500kbps", 500_000),
        ("500Kbps", 500_000),
        ("1Gbps", 1_000_000_000),
        ("2.5Mb/s", 2_500_000),
        ("1e6bps", 1_000_000),
        ("2Mbps", 2_000_000),
        ("100 mbps", 100_000_000),
    ],
)
def test_rate_is_exact_bits_per_second(text, expected_bps):
    assert parse_rate_bps(text) == expected_bps


def test_negative_rate_message():
    with pytest.raises(ValueError) as error:
        parse_rate_bps("-2Mbps")
    assert str(error.value) == (
        "'-2Mbps' is not a rate; use a positive number with bps, kbps, Mbps or Gbps, e.g. '10Mbps'"
    )


@pytest.mark.parametrize("value", ["0Mbps", "10MBps", "10MB/s", "fast", None, True])
def test_bad_rate_names_the_allowed_units(value):
    with pytest.raises(ValueError, match=r"bps, kbps, Mbps or Gbps, e\.g\. '10Mbps'"):
        parse_rate_bps(value)


@pytest.mark.parametrize("value", [10, "10", 2.5])
def test_bare_number_rate_is_rejected_with_an_example(value):
    with pytest.raises(ValueError, match=rf"has no unit; .*e\.g\. '{value}Mbps'"):
        parse_rate_bps(value)


def test_fractional_bit_rate_is_rejected():
    with pytest.raises(ValueError, match="whole number of bits per second"):
        parse_rate_bps("1.5bps")


@pytest.mark.parametrize(
    ("value", "expected_bytes"),
    [
        ("1500B", 1500),
        ("64KB", 64_000),
        ("64kB", 64_000),
        ("1.5MB", 1_500_000),
        ("1GB", 1_000_000_000),
        ("64KiB", 65_536),
        ("1GiB", 2**30),
        (1460, 1460),
        (0, 0),
    ],
)
def test_size_is_bytes_with_si_and_binary_prefixes(value, expected_bytes):
    assert parse_size_bytes(value) == expected_bytes


@pytest.mark.parametrize("value", ["10Mb", "-5KB", -1, 1.5, True, "lots", None])
def test_bad_size_names_the_allowed_units(value):
    with pytest.raises(ValueError, match=r"B, KB, MB, GB, KiB, MiB or GiB, e\.g\. '64KB'"):
        parse_size_bytes(value)


def test_fractional_byte_is_rejected():
    with pytest.raises(ValueError, match="not a whole number of bytes"):
        parse_size_bytes("1.5B")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("100pkt", QueueLimit("packets", 100, "100pkt")),
        ("100pkts", QueueLimit("packets", 100, "100pkts")),
        ("100p", QueueLimit("packets", 100, "100p")),
        ("64KB", QueueLimit("bytes", 64_000, "64KB")),
        ("1.5BDP", QueueLimit("bdp", Fraction(3, 2), "1.5BDP")),
    ],
)
def test_queue_limit_units(text, expected):
    assert parse_queue_limit(text) == expected


@pytest.mark.parametrize("value", ["0pkt", "0BDP", "0B", "-3pkt", "xBDP", "100 packets", None])
def test_bad_queue_limit_names_the_allowed_forms(value):
    with pytest.raises(ValueError, match=r"'100pkt'.*'64KB'.*'1\.5BDP'"):
        parse_queue_limit(value)


def test_bare_number_queue_limit_is_ambiguous_and_rejected():
    with pytest.raises(ValueError, match=r"100 has no unit; .*'100pkt'.*'100B'.*'100BDP'"):
        parse_queue_limit(100)


def test_fractional_packet_limit_is_rejected():
    with pytest.raises(ValueError, match="not a whole number of packets"):
        parse_queue_limit("1.5pkt")


def test_bdp_bytes_of_the_single_flow_bottleneck():
    assert bdp_bytes(Fraction(1), 2_000_000, 250_000_000) == 62_500
    assert bdp_bytes(Fraction(3, 2), 10_000_000, 50_000_000) == 93_750


def test_bdp_bytes_rounds_to_the_nearest_byte():
    assert bdp_bytes(Fraction(1), 1_000_001, 1_000_000) == 125  # 125.000125 bytes


@pytest.mark.parametrize(
    ("duration_ns", "text"),
    [(0, "0s"), (300_000_000_000, "300s"), (45_000_000, "45ms"), (10_000, "10us"), (1_500, "1500ns")],
)
def test_format_duration_quotes_values_back_exactly(duration_ns, text):
    assert format_duration(duration_ns) == text
    assert parse_duration_ns(text) == duration_ns


def test_durations_are_exact_for_every_spelling_of_a_decimal():
    """The parser's integer arithmetic agrees with exact fractions: whole nanoseconds are
    returned, anything else refused, for signs, exponents and leading or trailing dots."""
    import random

    rng = random.Random(1)
    numbers = ["0", "+1", ".5", "5.", "0.000001", "12.345678", "1e3", "1E-3", "+.25", "2.5e-1", "00012.500", "1e-10"]
    for _ in range(3000):
        whole = str(rng.randint(0, 10 ** rng.randint(0, 8)))
        decimals = str(rng.randint(0, 10 ** rng.randint(0, 8))).zfill(rng.randint(1, 9))
        exponent = rng.choice(["", f"e{rng.randint(-12, 12)}", f"E+{rng.randint(0, 5)}"])
        numbers.append(rng.choice(["", "+"]) + rng.choice([whole, f"{whole}.{decimals}", f".{decimals}"]) + exponent)
    for number in numbers:
        for unit, factor in (("ns", 1), ("us", 10**3), ("ms", 10**6), ("s", 10**9), ("min", 60 * 10**9)):
            exact = Fraction(number) * factor
            if exact > 2**64 - 1:
                with pytest.raises(ValueError, match="too large|whole number"):
                    parse_duration_ns(f"{number}{unit}")
            elif exact.denominator == 1:
                assert parse_duration_ns(f"{number}{unit}") == exact, f"{number}{unit}"
            else:
                with pytest.raises(ValueError, match="whole number of nanoseconds"):
                    parse_duration_ns(f"{number}{unit}")
