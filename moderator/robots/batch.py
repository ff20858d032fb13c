"""
A step's orders in one mail, as a player by mail gives them (issue 28).

A player does not mail one move and wait for its answer: he writes all the moves of
his movement phase, all his musters, all his splits, every maneuver of a battle turn,
in one mail, because he knows what each of his own orders does.  ``batch`` does the
same for a robot: it takes the robot's choice, applies it to the robot's own picture
of the game (the rules core's ``apply``, with dice that may not roll), and asks the
robot again, until what comes next is something the seat cannot know yet:

- a die (a strike, the movement roll): the order that rolls is the batch's last;
- another player's choice: the seat is no longer the one to act;
- a new step of the game (engagements after the moves, the next turn): what the
  moderator then reports may depend on what the seat cannot see;
- an order its own picture refuses (a picture that guessed wrong): the batch stops
  before it, and the moderator's answer tells the robot where the game stands.

The competent robot's picture is the ``sketch`` of its seat's view, and the view it
decides the next order from keeps only what the seat knew (``seen_after``): a guess
filled in for the sketch never becomes knowledge.  Pure, like the robots.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from moderator.robots.robot import order
from moderator.robots.view import SeatView, seat_view, sketch
from moderator.rules import commands as cmd
from moderator.rules.decide import apply
from moderator.rules.errors import RuleError
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step

#: The most lines one mail carries: a bound on a robot's batch whatever its picture
#: says (a full movement phase of twelve legions, with its ``done``, fits).
MOST_LINES = 24

#: A robot's choice on a state: its order line and the command it reads as.
Pick = Callable[[GameState], tuple[str, cmd.Command]]


class _RollNeeded(Exception):
    """The order asked for a die: its result is for the moderator to tell."""


class _Unseen:
    """Dice the robot's picture may not roll (see ``after_own``)."""

    def roll(self, count: int = 1) -> tuple[int, ...]:
        raise _RollNeeded


def after_own(state: GameState, command: cmd.Command) -> GameState | None:
    """
    ``state`` after the seat's own ``command`` when nothing in it is left to chance or
    to the moderator; None when it rolls a die or the picture refuses it.
    """
    try:
        return apply(state, command, _Unseen())[0]
    except (_RollNeeded, RuleError):
        return None


def goes_on(before: GameState, after: GameState, seat: str) -> bool:
    """Whether ``seat`` may order on after ``before`` became ``after`` in one mail: he
    is still to act, in the same step of the same turn (a battle's strikes and
    maneuvers are one step: each strike rolls, and ends a batch by itself)."""
    return (
        after.step is before.step
        and after.step is not Step.OVER
        and after.turn == before.turn
        and to_act(after) == seat
    )


def batch(state: GameState, seat: str, pick: Pick, most: int = MOST_LINES) -> list[str]:
    """
    The lines ``seat`` (to act in ``state``) mails at once: ``pick``'s order, then its
    order on the state that follows, while ``goes_on`` and ``after_own`` allow.
    """
    lines: list[str] = []
    while True:
        line, command = pick(state)
        lines.append(line)
        if len(lines) >= most:
            return lines
        following = after_own(state, command)
        if following is None or not goes_on(state, following, seat):
            return lines
        state = following


def seen_after(view: SeatView, state: GameState) -> SeatView:
    """
    The seat's view of ``state``, the sketch of ``view`` after the seat's own orders:
    its own legions as they now stand, and of the others only what ``view`` knew.
    """
    others = {
        marker: dataclasses.replace(lg, known_to=frozenset(), shown_to=frozenset())
        for marker, lg in state.legions.items()
        if lg.owner != view.seat
    }
    certain = {lg.marker: lg.known for lg in view.others()}
    hidden = dataclasses.replace(state, legions={**state.legions, **others})
    return seat_view(hidden, view.seat, certain)


def orders(view: SeatView, rng: random.Random, most: int = MOST_LINES) -> list[str]:
    """The competent robot's lines for one mail from ``view`` (see the module)."""
    start = sketch(view)

    def pick(state: GameState) -> tuple[str, cmd.Command]:
        # The first order from the view itself (its legal orders are the moderator's).
        return order(view if state is start else seen_after(view, state), rng)

    return batch(start, view.seat, pick, most)
