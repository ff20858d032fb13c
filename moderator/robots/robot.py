"""
The competent robot: one decision from a seat's view, as an order line.

``decide(view, rng)`` dispatches on the step the game waits on to the masterboard
(``board``), engagement (``engage``) and battle (``fight``) decisions; each returns
one of ``view.legal``, the rules core's own list, so the robot can only give a legal
order.  ``rng`` is the caller's: the robot has no randomness of its own, and uses it
only to break near ties between moves, so two robots with different seeds play
different games.  ``order`` renders the command as the line a player would write and
checks that it reads back as the same command.
"""

from __future__ import annotations

import random

from moderator.orders import parse_order, render_order
from moderator.robots import board, engage, fight
from moderator.robots.view import SeatView, sketch
from moderator.rules import commands as cmd
from moderator.rules.state import Step

#: Never chosen while anything else is legal.
NEVER: tuple[type[cmd.Command], ...] = (cmd.Withdraw, cmd.UndoMove, cmd.ResetManeuver)


class NothingToDoError(RuntimeError):
    """The seat has no order to give: another player is to act, or the game is over."""


def decide(view: SeatView, rng: random.Random) -> cmd.Command:
    """The robot's command for the seat of ``view`` (one of ``view.legal``)."""
    if not view.legal:
        raise NothingToDoError(f"{view.seat} has nothing to order in step {view.step.value}")
    chosen = _choose(view, rng)
    if chosen not in view.legal:  # a bug in the robot must not become an illegal order
        raise AssertionError(f"the robot chose {chosen!r}, which is not legal now")
    return chosen


def _choose(view: SeatView, rng: random.Random) -> cmd.Command:
    step = view.step
    if step is Step.COLOUR:
        colours = [c for c in view.legal if isinstance(c, cmd.ChooseColour)]
        return rng.choice(colours) if colours else view.legal[0]
    if step is Step.SPLIT:
        return board.split_or_roll(view)
    if step is Step.MOVE:
        return board.move(view, rng)
    if step is Step.ENGAGE:
        return board.engage(view)
    if step is Step.NEGOTIATE:
        return engage.negotiate(view)
    if step is Step.BATTLE:
        return fight.battle_order(view)
    if step is Step.SUMMON:
        return board.summon(view)
    if step is Step.REINFORCE:
        return board.reinforce(view)
    if step is Step.ACQUIRE:
        return board.acquire(view)
    if step is Step.MUSTER:
        return board.muster(view)
    return next((c for c in view.legal if not isinstance(c, NEVER)), view.legal[0])


def order(view: SeatView, rng: random.Random) -> tuple[str, cmd.Command]:
    """The robot's order line and its command (checked to read back as the same)."""
    command = decide(view, rng)
    state = sketch(view)
    line = render_order(command, state)
    parsed = parse_order(line, view.seat, state)
    if parsed != command:
        raise AssertionError(f"order {line!r} reads as {parsed!r}, not {command!r}")
    return line, command
