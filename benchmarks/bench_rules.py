"""
Rules-core benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_rules.py [--games N]

- legal-move enumeration: every legal command of the mover at the start of
  his movement (all legions, all destinations, entry sides, teleports);
- event replay: folding a long game's events from nothing;
- robot games: whole 6-player games (with battles) played in-process by the
  robot players through the order language.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands
from moderator.rules.state import GameState, Step
from moderator.usecases.games.robot_games import play_robot_game


def _move_states(events: list, limit: int = 400) -> list[GameState]:
    """States at the start of a movement phase, sampled from a finished game."""
    states = []
    state = GameState()
    from moderator.rules.evolve import evolve

    for event in events:
        state = evolve(state, event)
        if state.step is Step.MOVE and not state.moves:
            states.append(state)
    random.Random(0).shuffle(states)
    return states[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()

    started = time.perf_counter()
    games = [play_robot_game(6, seed) for seed in range(args.games)]
    elapsed = time.perf_counter() - started
    per_game = [g.seconds for g in games]
    print(f"robot games (6 players, with battles): {args.games / elapsed * 60:,.0f} per minute; "
          f"median {statistics.median(per_game) * 1000:.1f} ms, max {max(per_game) * 1000:.1f} ms, "
          f"median {statistics.median(g.turns for g in games):.0f} turns")

    events = max((g.events for g in games), key=len)
    started = time.perf_counter()
    rounds = 0
    while time.perf_counter() - started < 2.0:
        replay(events)
        rounds += 1
    rate = rounds * len(events) / (time.perf_counter() - started)
    print(f"event replay: {rate:,.0f} events per second ({len(events)} events a game)")

    states = [s for g in games for s in _move_states(g.events)]
    timings = []
    moves = 0
    for state in states:
        t0 = time.perf_counter()
        commands = legal_commands(state)
        timings.append(time.perf_counter() - t0)
        moves += len(commands)
    timings.sort()
    print(
        f"legal moves of a turn: {len(states) / sum(timings):,.0f} enumerations per second; "
        f"median {statistics.median(timings) * 1e3:.3f} ms, 99th percentile "
        f"{timings[int(len(timings) * 0.99)] * 1e3:.3f} ms, max {timings[-1] * 1e3:.3f} ms "
        f"({moves / len(states):.0f} commands on average)"
    )


if __name__ == "__main__":
    main()
