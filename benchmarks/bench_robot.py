"""
How strong and how costly the competent robot is (issue 26), printed as tables.

Strength, with fixed seeds (game i of a row has dice seed BASE + i):

- two-player games, the competent robot against the random one, seats alternating
  (target: the competent robot wins at least 95%);
- four-player games, one competent robot and three random ones, its seat going round
  (target: at least 60%; a random seat's share is 25%);
- two competent robots with different seeds (a sanity check: near 50% each seat);
- a rating for each robot kind from all those games: OpenSkill's Plackett-Luce model,
  which rates players from the full order of a multi-player game (winner first, then
  by elimination), so later robots can be rated on the same scale.  Seats of one kind
  in one game are rated as copies and the kind takes their mean.

Cost: the median and 99th percentile of the competent robot's decisions, and a whole
two-player game between competent robots (targets 200 ms, 2 s and 60 s on one core),
in processor time, so that other work on the machine does not count.

Run it with ``nice`` (it takes several minutes at the default size):
``nice python3 benchmarks/bench_robot.py --games 200``.  Its ratings use ``openskill``,
one of the package's dependencies (the tournament ratings use it too).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

from moderator.usecases.games.robot_match import MatchResult, play_match

BASE = 26_000


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Ratings:
    """Plackett-Luce ratings per robot kind (openskill)."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.kinds: dict[str, object] = {}

    def rate(self, result: MatchResult) -> None:
        seats = [s for group in result.placement for s in group]
        ranks = [place for place, group in enumerate(result.placement, 1) for _ in group]
        for kind in set(result.kinds.values()):
            self.kinds.setdefault(kind, self.model.rating(name=kind))
        teams = [
            [self.model.rating(mu=self._mu(s, result), sigma=self._sigma(s, result))] for s in seats
        ]
        rated = self.model.rate(teams, ranks=ranks)
        for kind in set(result.kinds.values()):
            mine = [team[0] for s, team in zip(seats, rated) if result.kinds[s] == kind]
            old = self.kinds[kind]
            old.mu = statistics.fmean(r.mu for r in mine)  # type: ignore[attr-defined]
            old.sigma = statistics.fmean(r.sigma for r in mine)  # type: ignore[attr-defined]

    def _mu(self, seat: str, result: MatchResult) -> float:
        return float(self.kinds[result.kinds[seat]].mu)  # type: ignore[attr-defined]

    def _sigma(self, seat: str, result: MatchResult) -> float:
        return float(self.kinds[result.kinds[seat]].sigma)  # type: ignore[attr-defined]

    def rows(self) -> list[tuple[str, float, float, float]]:
        out = []
        for kind, r in self.kinds.items():
            out.append((kind, r.mu, r.sigma, r.ordinal()))  # type: ignore[attr-defined]
        return sorted(out, key=lambda row: -row[3])


def _series(
    name: str,
    count: int,
    base: int,
    kinds_for: Callable[[int], list[str]],
    results: list[MatchResult],
    progress: bool,
) -> list[MatchResult]:
    out = []
    for i in range(count):
        result = play_match(kinds_for(i), base + i)
        out.append(result)
        results.append(result)
        if progress:
            print(
                f"  {name} {i + 1}/{count}: {result.placement} in {result.turns} turns, "
                f"{result.seconds:.1f} s",
                flush=True,
            )
    return out


def _won(results: list[MatchResult], kind: str) -> int:
    return sum(1 for r in results if r.winner is not None and r.kinds[r.winner] == kind)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="two-player games vs random")
    parser.add_argument("--four", type=int, help="four-player games (default: games / 4)")
    parser.add_argument("--mirror", type=int, help="competent vs competent (default: games / 10)")
    parser.add_argument("--progress", action="store_true", help="a line per game")
    args = parser.parse_args()
    four = args.four if args.four is not None else max(1, args.games // 4)
    mirror = args.mirror if args.mirror is not None else max(1, args.games // 10)
    started = time.perf_counter()
    everything: list[MatchResult] = []

    def two(i: int) -> list[str]:
        return ["competent", "random"] if i % 2 == 0 else ["random", "competent"]

    def four_seats(i: int) -> list[str]:
        seats = ["random"] * 4
        seats[i % 4] = "competent"
        return seats

    duel = _series("2p", args.games, BASE, two, everything, args.progress)
    table = _series("4p", four, BASE + 10_000, four_seats, everything, args.progress)
    mirrored = _series(
        "mirror", mirror, BASE + 20_000, lambda i: ["competent"] * 2, everything, args.progress
    )

    print(f"\nStrength (seeds from {BASE}; game i of a row has seed BASE + row offset + i)")
    print(f"{'row':<44}{'games':>6}{'won':>6}{'share':>8}{'target':>9}{'draws':>7}{'turns':>7}")

    def row(label: str, results: list[MatchResult], won: int, target: str) -> None:
        draws = sum(1 for r in results if r.winner is None)
        turns = statistics.median(r.turns for r in results) if results else 0
        share = won / len(results) if results else 0.0
        print(f"{label:<44}{len(results):>6}{won:>6}{share:>8.1%}{target:>9}{draws:>7}{turns:>7}")

    row("2 players: competent vs random", duel, _won(duel, "competent"), ">= 95%")
    row("4 players: competent vs 3 random", table, _won(table, "competent"), ">= 60%")
    firsts = Counter(r.winner for r in mirrored)
    row("2 competent (different seeds): first seat", mirrored, firsts["Ann"], "~ 50%")

    try:
        ratings = Ratings()
    except ImportError:
        print("\n(no ratings: pip install openskill)")
    else:
        for result in everything:
            ratings.rate(result)
        print(f"\nRatings: OpenSkill Plackett-Luce over all {len(everything)} games")
        print(f"{'kind':<12}{'mu':>8}{'sigma':>8}{'ordinal':>9}")
        for kind, mu, sigma, ordinal in ratings.rows():
            print(f"{kind:<12}{mu:>8.2f}{sigma:>8.2f}{ordinal:>9.2f}")

    decisions = [t for r in everything for t in r.decisions.get("competent", [])]
    whole = [r.cpu_seconds for r in mirrored]
    print("\nCost (processor time on one core, competent robot)")
    print(f"{'measure':<44}{'value':>10}{'target':>10}{'samples':>9}")
    print(
        f"{'median decision':<44}{statistics.median(decisions) * 1000:>8.1f}ms"
        f"{'200 ms':>10}{len(decisions):>9}"
    )
    print(
        f"{'99th percentile decision':<44}{_quantile(decisions, 0.99) * 1000:>8.1f}ms"
        f"{'2 s':>10}{len(decisions):>9}"
    )
    print(f"{'slowest decision':<44}{max(decisions) * 1000:>8.1f}ms{'':>10}{len(decisions):>9}")
    print(
        f"{'2-player competent game, median':<44}{statistics.median(whole):>9.1f}s"
        f"{'60 s':>10}{len(whole):>9}"
    )
    print(f"{'2-player competent game, slowest':<44}{max(whole):>9.1f}s{'60 s':>10}{len(whole):>9}")
    print(f"\n{len(everything)} games in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
