"""
A robot mails a step's orders at once, as a player does (issue 28): every line of a
batch is legal when the moderator reaches it, the batch stops at a die or at another
player's turn, and it is decided from the seat's view alone.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from moderator.orders import parse_order
from moderator.robots.batch import MOST_LINES, after_own, seen_after
from moderator.robots.view import seat_view, sketch
from moderator.rules import commands as cmd
from moderator.rules.decide import decide
from moderator.rules.evolve import evolve
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState, Step
from moderator.testing.mailrobot import COMPETENT, RANDOM, seat_orders
from moderator.usecases.games.dice import CountingDice

from .test_robot import STRONG, position, random_positions, scrambled


def _played(state: GameState, seat: str, lines: list[str], seed: int) -> list[GameState]:
    """The real game after each line in turn, as the moderator runs a mail's lines."""
    dice = CountingDice(seed=seed)
    states = [state]
    for line in lines:
        command = parse_order(line, seat, state)
        assert command in legal_commands(state), line
        dice.at(state.version + 1)
        for event in decide(state, command, dice):
            state = evolve(state, event)
        states.append(state)
    return states


@pytest.mark.parametrize("kind", [COMPETENT, RANDOM])
@pytest.mark.parametrize(("players", "seed"), [(2, 41), (3, 42)])
def test_every_line_of_a_robots_batch_is_legal_when_the_moderator_reaches_it(
    kind: str, players: int, seed: int
) -> None:
    batches = 0
    for state in random_positions(players, seed, 700)[::5]:
        seat = to_act(state)
        assert seat is not None
        lines = seat_orders(kind, state, seat, random.Random(seed))
        assert 1 <= len(lines) <= MOST_LINES
        states = _played(state, seat, lines, seed)
        for before, after in pairwise(states[:-1]):  # every line but the last
            assert to_act(after) == seat and after.step is before.step
        batches += len(lines) > 1
    assert batches > 5  # some steps did take more than one order


def test_a_batch_is_the_same_whatever_the_seat_cannot_see() -> None:
    rng = random.Random(43)
    hidden = 0
    for state in random_positions(3, 43, 900)[::7]:
        seat = to_act(state)
        assert seat is not None
        other = scrambled(state, seat, rng)
        hidden += other.legions != state.legions
        lines = seat_orders(COMPETENT, state, seat, random.Random(5))
        assert seat_orders(COMPETENT, other, seat, random.Random(5)) == lines
    assert hidden > 10


def test_a_movement_phase_goes_in_one_mail_and_ends_with_done() -> None:
    state = position(
        [
            {"marker": "Rd01", "land": 100, "contents": ["Titan", "Ogre", "Ogre"]},
            {"marker": "Rd02", "land": 1, "contents": ["Centaur", "Centaur", "Gargoyle"]},
            {"marker": "Rd03", "land": 20, "contents": ["Ogre", "Troll"]},
            {"marker": "Bu01", "land": 400, "contents": STRONG},
        ]
    )
    lines = seat_orders(COMPETENT, state, "Ann", random.Random(1))
    states = _played(state, "Ann", lines, 1)
    commands = [parse_order(line, "Ann", s) for line, s in zip(lines, states)]
    assert all(isinstance(c, cmd.MoveLegion) for c in commands[:-1])
    assert len(commands) >= 2 and isinstance(commands[-1], cmd.Done)
    assert states[-1].step is not Step.MOVE  # the phase ended with the mail


def test_a_batch_ends_with_the_order_that_rolls_a_die() -> None:
    """The split phase's last order rolls for the movement: nothing after it is known."""
    state = position(
        [
            {"marker": "Rd01", "land": 100, "contents": STRONG},
            {"marker": "Bu01", "land": 400, "contents": ["Titan", "Ogre"]},
        ],
        phase="split",
    )
    lines = seat_orders(COMPETENT, state, "Ann", random.Random(2))
    last = parse_order(lines[-1], "Ann", _played(state, "Ann", lines[:-1], 2)[-1])
    assert after_own(_played(state, "Ann", lines[:-1], 2)[-1], last) is None  # it rolls
    assert all(after_own(s, parse_order(line, "Ann", s)) is not None
               for s, line in zip(_played(state, "Ann", lines[:-1], 2), lines[:-1]))


def test_a_guess_about_another_legion_never_becomes_knowledge_in_a_batch() -> None:
    state = position(
        [
            {"marker": "Rd01", "land": 100, "contents": ["Titan", "Ogre", "Ogre"]},
            {"marker": "Rd02", "land": 1, "contents": ["Centaur", "Centaur"]},
            {"marker": "Bu01", "land": 400, "contents": STRONG},
        ]
    )
    view = seat_view(state, "Ann")
    assert view.legion("Bu01").known == ()
    sketched = sketch(view)
    move = next(c for c in view.legal if isinstance(c, cmd.MoveLegion))
    after = after_own(sketched, move)
    assert after is not None
    again = seen_after(view, after)
    assert again.legion("Bu01").known == ()  # the sketch's guess stays a guess
    assert again.legion(move.marker).land == move.land and again.legion(move.marker).complete
    assert again.legal == tuple(legal_commands(after))
