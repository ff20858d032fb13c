"""
Standing orders carried out: after every change to a game, while the player it waits
on has a standing order that answers the decision exactly (``orders.standing``), the
moderator gives that order for him, with the shell's dice, and goes on.

Each use is recorded as a ``StandingOrderUsed`` event seen by its owner alone, just
before the events of the order it gave, so his next report and his history say what
was done for him and why; the others see only the order's public events, as if he had
mailed it.  A standing order that no longer fits (the rules refuse what it gives) stops
the run: the game waits for the player as usual.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.orders import render_order
from moderator.orders.errors import OrderError
from moderator.orders.standing import decide_for, read, reason
from moderator.records import record
from moderator.rules import events as ev
from moderator.rules.decide import decide
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.usecases.games.dice import dice_for, seal_order

#: The most decisions standing orders take in a row (a battle is a few hundred).
LIMIT = 2000


@record
class Carried:
    """The game after the standing orders: the events they caused, state and record."""

    events: tuple[ev.Event, ...]
    state: GameState
    record: GameRecord


def carry_out(
    state: GameState, record: GameRecord, game: str = "", trigger: str = "local"
) -> Carried:
    """
    The standing orders of the players to act, carried out from ``state`` on; their
    dice are bound to ``trigger``, the mail or timeout after which they act.
    """
    if not record.standing:
        return Carried((), state, record)
    dice = dice_for(record.dice, game, trigger)
    events: list[ev.Event] = []
    for _ in range(LIMIT):
        actor = to_act(state)
        lines: Sequence[str] = record.standing.get(actor or "", ())
        if actor is None or not lines:
            break
        try:
            standing = read(lines, state.variant)
            command = decide_for(state, standing)
            if command is None:
                break
            line = render_order(command, state)
            dice.at(state.version + 2)  # after the StandingOrderUsed note
            new = decide(state, command, dice)
        except (OrderError, RuleError, IndexError):
            break
        which = reason(state, standing, command)
        note = ev.StandingOrderUsed(player=actor, order=line, standing=which,
                                     visible_to=frozenset({actor}))
        before = state
        for event in (note, *new):
            state = evolve(state, event)
            events.append(event)
        notes, state, record = seal_order(
            before, state, dice, record, player=actor, order=line, events=new
        )
        events.extend(notes)
    if not events:
        return Carried((), state, record)
    return Carried(tuple(events), state, record.but(dice=dice.record()))
