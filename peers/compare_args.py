"""The command-line options the compare scripts of peers/ns3 and peers/htsim share: the
workload's (`fattree_arguments`, `incast_arguments`) and `--speed`. Each script adds its own."""

from __future__ import annotations

import argparse


def fattree_arguments(parser: argparse.ArgumentParser, seed_help: str, raw: str, raw_help: str) -> None:
    """The fat-tree workload: offered load, simulated seconds, seed, variants, figure, raw folder."""
    parser.add_argument("--load", type=float, default=0.6)
    parser.add_argument("--duration", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=1, help=seed_help)
    parser.add_argument("--variants", nargs="+", default=["newreno", "dctcp"])
    parser.add_argument("--plot", help="write the slowdown figure to this file")
    parser.add_argument("--raw", default=raw, help=raw_help)


def incast_arguments(parser: argparse.ArgumentParser, raw: str) -> None:
    """The incast workload: sender counts, queries, variants, and where --speed's scenario goes."""
    parser.add_argument("--senders", type=int, nargs="+", default=[1, 2, 3, 4, 8, 16, 32, 40, 48])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--variants", nargs="+", default=["newreno", "dctcp"])
    parser.add_argument("--raw", default=raw, help="the speed runs' scenario file goes here")


def speed_argument(parser: argparse.ArgumentParser) -> None:
    """--speed PAIRS: time interleaved whole-process runs (`interleaved.time_pairs`) instead."""
    parser.add_argument("--speed", type=int, metavar="PAIRS", help="time PAIRS interleaved runs instead")
