"""
Events told in plain English, and the game record one player may read.

``describe(event, state)`` gives one line per event; ``state`` is the game *before*
the event and only lends public facts (who owns a marker, the legions of an
engagement), so the line says no more than the event itself.  ``history_lines``
shows a viewer only the events he may see (etiquette 16/27: a record of the game).

The describers live in ``narrate_board`` (masterboard events) and ``narrate_battle``
(battle events), their shared words in ``wording`` and who sees what in
``visibility``; this module assembles them into lines and the record.
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.reporting import narrate_battle, narrate_board
from moderator.reporting.visibility import (
    before_his_hold,
    is_bookkeeping,
    may_see,
    order_unseen,
    robot_marks,
)
from moderator.reporting.wording import Describers
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState

__all__ = ["describe", "history_lines", "is_bookkeeping", "may_see"]

_DESCRIBERS: Describers = {**narrate_board.DESCRIBERS, **narrate_battle.DESCRIBERS}


def describe(event: ev.Event, state: GameState) -> str:
    """One readable line for ``event``; ``state`` (the game before it) names the owners."""
    describer = _DESCRIBERS.get(type(event))
    if describer is None:
        return f"{event.TYPE}"
    return describer(event, state)


# -- the record -----------------------------------------------------------------------------


def history_lines(
    events: Iterable[ev.Event],
    viewer: str | None,
    first_turn: int | None = None,
    last_turn: int | None = None,
    held_since: int = 0,
) -> list[str]:
    """
    The game record for ``viewer``: the events he may see, one line each, under
    "Turn N — NAME" headings (setup events under "Setup", shown with turn 1).
    ``first_turn``/``last_turn`` keep only the turns (rounds) between them, inclusive.
    ``held_since``: the version his seat became his at; the messages relayed before it
    were its former holder's (``visibility.before_his_hold``).
    """
    lines: list[str] = []
    state = GameState()
    turn = 0
    heading = "Setup"
    pending: str | None = heading

    def wanted() -> bool:
        shown = max(turn, 1)
        if first_turn is not None and shown < first_turn:
            return False
        return last_turn is None or shown <= last_turn

    unseen = False  # the viewer missed an event of the order being read
    for event in events:
        before = state
        state = evolve(state, event)
        missed, unseen = unseen, order_unseen(event, viewer, unseen)
        if isinstance(event, ev.TurnStarted):
            turn = event.turn
            pending = f"Turn {event.turn} — {event.player}"
            continue
        if isinstance(event, ev.PositionLoaded):
            if wanted() and may_see(event, viewer):
                if pending:
                    lines.append(pending)
                    pending = None
                lines.append(f"  {describe(event, before)}")
            turn = event.turn
            pending = f"Turn {event.turn} — {event.active}"
            continue
        signed, unsigned = robot_marks(event, saw_all=not missed)
        mark = signed or unsigned  # a history is all in the private part
        if mark is not None and may_see(event, viewer) and wanted():
            lines.append(f"  {mark}")
        if not may_see(event, viewer) or not wanted() or is_bookkeeping(event):
            continue
        if before_his_hold(event, state.version, held_since):
            continue
        if pending:
            lines.append(pending)
            pending = None
        lines.append(f"  {describe(event, before)}")
    return lines
