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
from dataclasses import dataclass

from moderator.orders import render_order
from moderator.orders.errors import OrderError
from moderator.orders.standing import decide_for, read
from moderator.play.dice import dice_for
from moderator.rules import events as ev
from moderator.rules.decide import decide
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord

#: The most decisions standing orders take in a row (a battle is a few hundred).
LIMIT = 2000


@dataclass(frozen=True, slots=True)
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
            standing = read(lines)
            command = decide_for(state, standing)
            if command is None:
                break
            line = render_order(command, state)
            dice.at(state.version + 2)  # after the StandingOrderUsed note
            new = decide(state, command, dice)
        except (OrderError, RuleError, IndexError):
            break
        which = _which(lines, command, state)
        note = ev.StandingOrderUsed(player=actor, order=line, standing=which,
                                     visible_to=frozenset({actor}))
        for event in (note, *new):
            state = evolve(state, event)
            events.append(event)
    if not events:
        return Carried((), state, record)
    return Carried(tuple(events), state, record.but(dice=dice.record()))


def _which(lines: Sequence[str], command: object, state: GameState) -> str:
    """The standing line that gave ``command`` (the closest match, for its owner)."""
    kind = type(command).__name__.lower()
    words = {
        "fight": "attacked", "nomore": "attacked", "flee": "attacked", "concede": "attacked",
        "proceed": "concede", "strike": "strikes", "rangestrike": "strikes", "carry": "strikes",
        "muster": "muster", "done": "muster", "summon": "summon", "decline": "summon",
    }
    word = "strikes" if kind == "done" and state.battle is not None else words.get(kind, "")
    marker = getattr(command, "marker", None) or (
        state.engagement.defender if state.engagement is not None else None
    )
    found = [line for line in lines if word in line.lower()]
    exact = [line for line in found if marker and marker.lower() in line.lower()]
    return (exact or found or [lines[0]])[0]
