"""
Forming games from the waiting list.

When at least ``players_per_game`` players are free (on the waiting list, with games
left to play under ``rounds`` and room under ``max_games``), as many games as the
pool allows are formed, each player in at most one new game per formation:

1. **Who plays.**  Those who have played the fewest games first, then those who
   have waited longest.  Players of the same tier as the last one taken may be
   swapped in for a better mix.
2. **Who plays with whom.**  The players are split into games so that as few pairs
   as possible meet again (then: as few repeated meetings in all).  A local search
   (swap two players while that helps) runs from the waiting-list order and from a
   few orders shuffled with the seed; the best split wins, the first found on a tie.
3. **Seat order.**  Shuffled with the seed (towers are rolled by the game anyway).

Everything is deterministic given the state and the seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from moderator.tournament.state import TournamentState

#: Shuffled starting points the search tries besides the waiting-list order.
RESTARTS = 12

Groups = list[list[str]]
Met = Counter[frozenset[str]]


def cost(groups: Sequence[Sequence[str]], met: Met) -> tuple[int, int]:
    """(pairs in the same game who met before, their earlier meetings in all)."""
    repeated = total = 0
    for group in groups:
        for a, b in combinations(group, 2):
            times = met.get(frozenset((a, b)), 0)
            if times:
                repeated += 1
                total += times
    return repeated, total


def formable(state: TournamentState) -> bool:
    """Whether at least one game can be formed now."""
    return len(state.pool()) >= state.settings.players_per_game


def plan(state: TournamentState, seed: int) -> list[tuple[str, ...]]:
    """The games to form now: each a tuple of players in seat order (maybe none)."""
    size = state.settings.players_per_game
    pool = state.pool()
    count = len(pool) // size
    if count == 0:
        return []
    taken = pool[: count * size]
    tier = state.games_placed(taken[-1])
    bench = [p for p in pool[count * size :] if state.games_placed(p) == tier]
    swappable = {p for p in taken if state.games_placed(p) == tier} | set(bench)
    met = state.pairs_met()
    rng = random.Random(seed)
    best: tuple[tuple[int, int], Groups] | None = None
    for attempt in range(RESTARTS + 1):
        order = list(taken)
        if attempt:
            rng.shuffle(order)
        groups = [order[i * size : (i + 1) * size] for i in range(count)]
        groups = _improve(groups, list(bench), swappable, met)
        score = cost(groups, met)
        if best is None or score < best[0]:
            best = (score, groups)
        if score == (0, 0):
            break
    assert best is not None
    games = []
    for group in best[1]:
        seated = sorted(group)
        rng.shuffle(seated)
        games.append(tuple(seated))
    return games


def _improve(groups: Groups, bench: list[str], swappable: set[str], met: Met) -> Groups:
    """Swap players between games (and with the bench) while that lowers the cost."""
    groups = [list(g) for g in groups]
    current = cost(groups, met)
    improved = True
    while improved and current != (0, 0):
        improved = False
        for gi, gj, i, j in _swaps(groups):
            groups[gi][i], groups[gj][j] = groups[gj][j], groups[gi][i]
            score = cost(groups, met)
            if score < current:
                current, improved = score, True
                break
            groups[gi][i], groups[gj][j] = groups[gj][j], groups[gi][i]
        if improved:
            continue
        for gi, i, b in _bench_swaps(groups, bench, swappable):
            groups[gi][i], bench[b] = bench[b], groups[gi][i]
            score = cost(groups, met)
            if score < current:
                current, improved = score, True
                break
            groups[gi][i], bench[b] = bench[b], groups[gi][i]
    return groups


def _swaps(groups: Groups) -> list[tuple[int, int, int, int]]:
    return [
        (gi, gj, i, j)
        for gi, gj in combinations(range(len(groups)), 2)
        for i in range(len(groups[gi]))
        for j in range(len(groups[gj]))
    ]


def _bench_swaps(
    groups: Groups, bench: list[str], swappable: set[str]
) -> list[tuple[int, int, int]]:
    return [
        (gi, i, b)
        for gi, group in enumerate(groups)
        for i, player in enumerate(group)
        if player in swappable
        for b in range(len(bench))
    ]
