"""
Audit benchmark (issue 16): how big a long six-player game's audit bundle is and how
long ``titan-moderator verify`` takes on it; prints figures, asserts nothing.

    python benchmarks/bench_audit.py [--games N] [--seed S]

Robot games (``play.robot_games.play_robot_game`` with ``bound``) are played with the
dice bound as by mail and the audit's notes in their events, exactly as the mail
service writes them; the longest of ``--games`` six-player games is measured: the
bundle as mailed (``audit.bundle.dumps``) and gzipped (what a mail client's archive
would hold), the time to make it, and the time ``audit.verify.verify`` takes on it
after ``json.loads`` (the best of three), which is what ``verify`` does.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import statistics
import time

from moderator.audit.bundle import dumps, make_bundle
from moderator.audit.verify import verify
from moderator.usecases.games.robot_games import play_robot_game


def secret_of(seed: int) -> int:
    """The secret seed ``play_robot_game(bound=...)`` plays with."""
    return int.from_bytes(hashlib.sha256(f"robot-seed:{seed}".encode()).digest(), "big")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="six-player games to play")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    longest = None
    for seed in range(args.seed, args.seed + args.games):
        summary = play_robot_game(6, seed=seed, bound=f"bench-{seed}")
        print(f"game {seed}: {summary.turns} turns, {len(summary.events)} events, "
              f"{summary.actions} orders")
        if longest is None or len(summary.events) > len(longest[1].events):
            longest = (seed, summary)
    assert longest is not None
    seed, summary = longest
    game = f"bench-{seed}"
    started = time.perf_counter()
    text = dumps(make_bundle(game, secret_of(seed), summary.events, "2026-11-24T00:00:00Z", "Ann"))
    made = time.perf_counter() - started
    times = []
    for _ in range(3):
        started = time.perf_counter()
        verdict = verify(json.loads(text))
        times.append(time.perf_counter() - started)
    raw = text.encode()
    print()
    print(f"longest game: {game}, {summary.turns} turns, {len(summary.events)} events, "
          f"{summary.actions} orders, finished: {summary.finished}")
    print(f"bundle: {len(raw) / 1024:.0f} KB as mailed, {len(gzip.compress(raw)) / 1024:.0f} KB "
          f"gzipped, made in {made * 1000:.0f} ms")
    print(f"verify: {'passes' if verdict.ok else f'FAILS: {verdict.problem}'} in "
          f"{min(times) * 1000:.0f} ms (best of 3; median {statistics.median(times) * 1000:.0f} ms)")
    for line in verdict.checked:
        print(f"  {line}")


if __name__ == "__main__":
    main()
