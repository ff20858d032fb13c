"""
Random legal play, checking the game's invariants after every event.

The default run plays enough games for thousands of turns; set
TITAN_SOAK=N to play N games per player count instead.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from moderator.rules import commands as cmd
from moderator.rules import setup
from moderator.rules.board_events import LegionsPlaced
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.muster import MAX_HEIGHT
from moderator.rules.refusal import refusal_command
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD, load_variant

GAMES = int(os.environ.get("TITAN_SOAK", "40"))
MAX_ACTIONS = 50_000


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, count: int = 1) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(count))


def pick(rng: random.Random, state: GameState) -> cmd.Command:
    """A random legal command: random kind first, so splits do not crowd out the roll."""
    legal = [c for c in legal_commands(state) if not isinstance(c, cmd.UndoMove)]
    if rng.random() < 0.97:
        legal = [c for c in legal if not isinstance(c, cmd.Withdraw)] or legal
    if rng.random() < (0.002 if state.battle is not None else 0.02):
        refusal = refusal_command(state)
        assert refusal is not None
        return refusal
    if state.battle is not None:
        # Fight it out most of the time; enter and move rather than stand still.
        keep = [c for c in legal if not isinstance(c, (cmd.Concede, cmd.ResetManeuver))]
        if keep and rng.random() < 0.995:
            legal = keep
        moves = [c for c in legal if isinstance(c, (cmd.Maneuver, cmd.Strike, cmd.Rangestrike))]
        if moves and rng.random() < 0.95:
            return rng.choice(moves)
    else:
        fight = [c for c in legal if isinstance(c, (cmd.Fight, cmd.NoMore))]
        if fight and rng.random() < 0.6:
            return rng.choice(fight)
    kinds = sorted({type(c).__name__ for c in legal})
    kind = rng.choice(kinds)
    return rng.choice([c for c in legal if type(c).__name__ == kind])


def check_invariants(before: GameState, state: GameState, placed: bool) -> None:
    variant = load_variant(STANDARD)
    # Creature conservation: caretaker + legions + dead (+ slain awaiting 2.5.6.10) = Wolff 3.5.
    total = Counter(state.caretaker) + Counter(state.dead)
    for legion in state.legions.values():
        total.update(legion.contents)
    if state.engagement is not None:
        total.update(state.engagement.slain)
    for name, kind in variant.creatures.items():
        expected = kind.count
        if name == "Titan":  # one per player who got his legions (1.5)
            expected = sum(1 for p in state.players if p.colour is not None) if placed else 0
        assert total[name] == expected, (name, total[name], expected)
    owners_by_land: dict[int, list[str]] = {}
    for legion in state.legions.values():
        assert 1 <= legion.height <= MAX_HEIGHT + 1, legion
        if legion.height > MAX_HEIGHT:
            assert state.player(legion.owner).turns_played == 0, legion
        assert legion.marker in state.player(legion.owner).markers, legion
        assert not state.player(legion.owner).eliminated, legion
        owners_by_land.setdefault(legion.land, []).append(legion.owner)
    for land, owners in owners_by_land.items():
        if len(owners) == 1:
            continue
        if len(set(owners)) == 1:  # split-offs share a land only before movement ends (2.4)
            assert state.step in (Step.SPLIT, Step.MOVE), (land, owners, state.step)
        else:  # enemies share a land only as an engagement, made by moving (7.1)
            engaging = state.step is Step.MOVE or state.step.phase == "engage"
            assert len(owners) == 2 and engaging, (land, owners, state.step)
    if state.battle is not None:
        check_battle(state)
    for old, new in zip(before.players, state.players):
        assert new.score >= old.score
    live_titans = sum(1 for lg in state.legions.values() if "Titan" in lg.contents)
    if state.engagement is not None:  # slain, but eliminated only at 2.5.6.9
        pending = state.engagement.titans_slain
        live_titans += sum(1 for p in pending if not state.player(p).eliminated)
    assert live_titans == len(state.live_players) or not placed


def check_battle(state: GameState) -> None:
    """No character on an illegal hex, the slain gone after each strike phase, turn <= 7."""
    battle = state.battle
    assert battle is not None and state.engagement is not None
    assert 1 <= battle.turn <= 7
    land = load_variant(STANDARD).battlelands[battle.terrain]
    hexes = [f.hex for f in battle.fighters if f.hex is not None]
    assert len(hexes) == len(set(hexes)), hexes
    for f in battle.fighters:
        assert 0 <= f.hits <= f.power, f
        if f.hex is None:
            continue
        where = land.hexes[f.hex].terrain
        assert where != "tree", f
        assert where != "bog" or f.native_to("bog"), f
        assert where != "volcano" or f.native_to("volcano"), f
        if battle.step in ("maneuver", "attacker-concede", "defender-concede"):
            assert not f.slain, f  # removed at the end of the strike phase (12.6)
    for side, marker in (("attacker", state.engagement.attacker), ("defender", state.engagement.defender)):
        fighting = Counter(f.creature for f in battle.fighters if f.side == side)
        assert fighting == Counter(state.legions[marker].contents), (side, fighting)


def play_checked(seed: int, players: int) -> tuple[GameState, list]:
    dice = SeededDice(seed)
    rng = random.Random(seed * 7919 + players)
    events = setup.start_game([f"P{i}" for i in range(players)], dice)
    state = replay(events)
    more = advance(state)
    events = [*events, *more]
    state = replay(more, state)
    placed = any(isinstance(e, LegionsPlaced) for e in events)
    for _ in range(MAX_ACTIONS):
        if to_act(state) is None:
            break
        new = decide(state, pick(rng, state), dice)
        for event in new:
            before, state = state, evolve(state, event)
            placed = placed or isinstance(event, LegionsPlaced)
            check_invariants(before, state, placed)
        events.extend(new)
    return state, events


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant_and_replay_exactly(players: int) -> None:
    """
    Every event keeps conservation (Wolff 3.5), heights (4.1), markers (4.2), one
    legion per land (7.1), growing scores, and in battles legal hexes, damage below
    power for the living and turn <= 7 (10.5); a replay gives the same state.
    """
    turns = 0
    for seed in range(GAMES):
        state, events = play_checked(seed, players)
        assert state.step is Step.OVER, f"seed {seed} did not finish"
        assert state.winner is None or not state.player(state.winner).eliminated
        assert replay(events) == state
        turns += sum(1 for e in events if type(e).__name__ == "TurnStarted")
    assert turns >= GAMES * players  # 40 games a count: about 2,800 turns in all
