"""
Random games with silent players (Wolff 20.4, 21.0, 21.1).

Robot players play 2 to 6 player games; some players fall silent, from the start or
from a random moment on, and a silent player to act takes ``refusal_command`` (Wolff
21.0: missing a deadline is refusing to play).  In some games time is called at a
random moment (Wolff 21.1).  Every game must end within a bound on commands, every
refusal must be one of the legal commands, and a replay of the events must give the
same state.  From sampled states, everybody refusing at once must end the game too.

The default run keeps under a few seconds; TITAN_SOAK=N plays N games per player count.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from moderator import robot
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.refusal import refusal_command, refuse
from moderator.rules.state import GameState, Step
from moderator.rules.timelimit import time_called

DEFAULT_GAMES = 30
GAMES = int(os.environ.get("TITAN_SOAK", str(DEFAULT_GAMES)))
#: A game must end within this many commands (robot games take about 1,000 at six).
MAX_COMMANDS = 20_000
#: From any state, everybody refusing ends the game within this many commands.
MAX_ALL_REFUSING = 400

#: The chance that any other decision is a refusal too (one missed deadline).
LAPSES = 0.03

#: Where refusals happened over the whole run: (step, battle step or "").
SEEN: Counter[tuple[str, str]] = Counter()


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, count: int = 1) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(count))


def where(state: GameState) -> tuple[str, str]:
    step = state.step.value
    if state.step is Step.MOVE and state.moves:
        step = "move-part-way"
    battle = ""
    if state.battle is not None:
        battle = state.battle.step
        if battle == "maneuver" and state.battle.moved:
            battle = "maneuver-part-way"
    return step, battle


def all_refusing(state: GameState) -> int:
    """Everybody refuses from ``state`` on; the number of commands until the game ends."""
    count = 0
    while (player := to_act(state)) is not None:
        before = state.version
        state, events = refuse(state, player)
        assert events and state.version > before
        count += sum(1 for e in events if not isinstance(e, ev.BattleStepBegan))
        assert count <= MAX_ALL_REFUSING, f"no end after {count} refusals ({state.step})"
    return count


def check_time_limit(events: list[ev.Event], state: GameState) -> None:
    """Wolff 21.1/20.5: after time is called every player left has one more full turn, then the score."""
    called = next(i for i, e in enumerate(events) if isinstance(e, ev.TimeCalled))
    scored = [e for e in events if isinstance(e, ev.GameScored)]
    assert len([e for e in events if isinstance(e, ev.TimeCalled)]) == 1
    if not scored:  # the game ended first by eliminations (19.0)
        assert state.winners == ((state.winner,) if state.winner else ())
        return
    (final,) = scored
    assert events[-1] is final
    turns = Counter(e.player for e in events[called:] if isinstance(e, ev.TurnStarted))
    for player in state.live_players:
        assert turns[player.name] == 1, (player.name, turns)
    assert [name for name, *_ in final.scores] == [p.name for p in state.live_players]
    for name, score, value, total in final.scores:
        mine = [lg for lg in state.legions.values() if lg.owner == name]
        assert score == state.player(name).score
        assert value == sum(state.legion_value(lg.contents, name) for lg in mine)
        assert total == score + value
        assert all(lg.known_to is None for lg in mine)  # 20.5: revealed as counted
    best = max(total for *_, total in final.scores)
    assert final.winners == tuple(name for name, *_, total in final.scores if total == best)
    assert state.winners == final.winners


def play(seed: int, players: int) -> tuple[GameState, list[ev.Event], int]:
    rng = random.Random(seed * 104_729 + players)
    dice = SeededDice(seed)
    names = [f"P{i}" for i in range(players)]
    silent_from: dict[str, float] = {}
    for name in names:
        r = rng.random()
        silent_from[name] = 0 if r < 0.15 else rng.randrange(400) if r < 0.65 else float("inf")
    if all(v == float("inf") for v in silent_from.values()):
        silent_from[rng.choice(names)] = rng.randrange(400)
    time_turn = rng.randint(1, 6) if rng.random() < 0.7 else None  # about when time is called
    probe_at = {rng.randrange(400) for _ in range(2)}

    events = setup.start_game(names, dice)
    state = replay(events)
    more = advance(state)
    events.extend(more)
    state = replay(more, state)
    commands = 0
    while commands < MAX_COMMANDS:
        if time_turn is not None and state.turn >= time_turn and rng.random() < 0.05:
            time_turn = None
            called = time_called(state)
            for e in called:
                state = evolve(state, e)
            events.extend(called)
            assert time_called(state) == []  # once only
        player = to_act(state)
        if player is None:
            break
        if commands in probe_at:
            all_refusing(state)
        legal = legal_commands(state)
        refusal = refusal_command(state)
        assert refusal is not None and refusal in legal, (refusal, state.step)
        lapses = LAPSES if state.engagement is not None else LAPSES / 10
        if commands >= silent_from[player] or rng.random() < lapses:
            command = refusal
            SEEN[where(state)] += 1
        else:
            command = robot.pick(state, rng)
        new = decide(state, command, dice)
        for e in new:
            state = evolve(state, e)
        events.extend(new)
        commands += 1
    return state, events, commands


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_20_4_21_1_games_with_silent_players_always_end_and_replay(players: int) -> None:
    """
    Wolff 20.4/21.0: a refusal is always legal and the game always goes on to its end;
    Wolff 21.1/20.5: once time is called the game ends after one more round, scored.
    """
    for seed in range(GAMES):
        state, events, commands = play(seed, players)
        assert state.step is Step.OVER, f"seed {seed} did not end in {commands} commands"
        assert to_act(state) is None and legal_commands(state) == []
        assert replay(events) == state
        if any(isinstance(e, ev.TimeCalled) for e in events):
            check_time_limit(events, state)
        assert time_called(state) == []


def test_20_4_refusals_were_tried_in_every_kind_of_decision() -> None:
    """
    The games above met refusals on the masterboard and in the battle decisions
    (the rarer ones, carry-over and drift, have their own tests in tests/rules).
    """
    if len(SEEN) == 0 or GAMES < DEFAULT_GAMES:
        pytest.skip("needs the full run of the games above")
    steps = {step for step, _ in SEEN}
    battle = {b for _, b in SEEN if b}
    assert {"colour", "split", "move", "move-part-way", "negotiate", "muster"} <= steps, SEEN
    assert {"maneuver-part-way", "strike", "counterstrike", "counter-concede"} <= battle, SEEN
