"""
The robot players that play by mail (issue 26): the demo's and the tests' mail robots
(``testing.mailrobot``) and ``simulate``'s (``simulate.composer``) play with the
competent robot by default, which is handed the seat's view only, so scrambling what
the seat cannot see never changes what they mail; the random robot stays a switch away.
"""

from __future__ import annotations

import random

import pytest

from moderator.orders import parse_order
from moderator.rules.legal import legal_commands, to_act
from moderator.simulate.composer import DEFAULT, RANDOM, STRICT, Composer
from moderator.testing.mailrobot import COMPETENT, seat_order

from .test_robot import random_positions, scrambled


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (4, 32)])
def test_a_mail_robot_orders_the_same_with_the_hidden_truth_scrambled(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    hidden = 0
    for state in random_positions(players, seed, 900)[::6]:
        seat = to_act(state)
        assert seat is not None
        other = scrambled(state, seat, rng)
        hidden += other.legions != state.legions
        line = seat_order(COMPETENT, state, seat, random.Random(seed))
        assert parse_order(line, seat, state) in legal_commands(state)
        assert seat_order(COMPETENT, other, seat, random.Random(seed)) == line
    assert hidden > 20


@pytest.mark.parametrize("mode", [STRICT, DEFAULT])
def test_a_simulated_robot_mails_the_same_with_the_hidden_truth_scrambled(mode: str) -> None:
    rng = random.Random(33)
    hidden = 0
    for state in random_positions(3, 33, 900)[::9]:
        seat = to_act(state)
        assert seat is not None
        other = scrambled(state, seat, rng)
        hidden += other.legions != state.legions
        mail = Composer(seat, mode, random.Random(7)).order_mail(state)
        assert Composer(seat, mode, random.Random(7)).order_mail(other) == mail
    assert hidden > 10


def test_the_random_robot_is_a_switch_away() -> None:
    state = random_positions(2, 34, 40)[-1]
    seat = to_act(state)
    assert seat is not None
    line = seat_order("random", state, seat, random.Random(1))
    assert parse_order(line, seat, state) in legal_commands(state)
    assert Composer(seat, STRICT, random.Random(1), kind=RANDOM).order_mail(state)
    with pytest.raises(ValueError, match="competent, random"):
        seat_order("clever", state, seat, random.Random(1))
    with pytest.raises(ValueError, match="competent, random"):
        Composer(seat, STRICT, random.Random(1), kind="clever")
