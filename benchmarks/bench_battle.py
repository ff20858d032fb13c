"""
Battle benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_battle.py [--games N]

- maneuver reach: where one character may move (11.x and the hazard chart);
- strike options: every legal strike of one character at one target, with
  the carry-over reductions (Wolff 12.x);
- robot games with battles, in-process.
"""

from __future__ import annotations

import argparse
import time

from moderator.rules import battle as battle_rules
from moderator.rules.battlefield import enemies_in_contact
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.rules.strikes import strike_options
from moderator.usecases.games.robot_games import play_robot_game


def _battle_states(events: list) -> list[GameState]:
    states = []
    state = GameState()
    for event in events:
        state = evolve(state, event)
        if state.battle is not None and state.battle.step in ("maneuver", "strike", "counterstrike"):
            states.append(state)
    return states


def _rate(label: str, work: list, run: object, unit: str) -> None:
    assert callable(run)
    started = time.perf_counter()
    count = 0
    for item in work:
        count += run(item)
    elapsed = time.perf_counter() - started
    per = elapsed / max(count, 1)
    print(f"{label}: {count / elapsed:,.0f} {unit} per second ({per * 1e6:.1f} µs each, {count:,} in all)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()

    started = time.perf_counter()
    games = [play_robot_game(6, seed) for seed in range(args.games)]
    elapsed = time.perf_counter() - started
    battles = sum(1 for g in games for e in g.events if type(e).__name__ == "BattleStarted")
    print(
        f"robot games with battles (6 players): {args.games / elapsed * 60:,.0f} per minute "
        f"({elapsed / args.games:.2f} s a game, {battles / args.games:.1f} battles a game)"
    )

    states = [s for g in games for s in _battle_states(g.events)][:3000]

    def reach_all(state: GameState) -> int:
        battle = state.battle
        assert battle is not None
        fighters = [f for f in battle.fighters if f.side == battle.phasing and not f.slain]
        for f in fighters:
            battle_rules.destinations(battle, f)
        return len(fighters)

    def strikes_all(state: GameState) -> int:
        battle = state.battle
        assert battle is not None
        land = battle_rules.land_of(battle)
        n = 0
        for f in battle.fighters:
            if f.hex is None or f.slain:
                continue
            for target in enemies_in_contact(f, battle.fighters, land):
                strike_options(land, f, target, battle.fighters)
                n += 1
        return n

    _rate("maneuver reach", states, reach_all, "characters")
    _rate("strike options", states, strikes_all, "striker-target pairs")


if __name__ == "__main__":
    main()
