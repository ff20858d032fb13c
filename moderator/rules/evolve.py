"""
The fold: ``evolve(state, event)`` gives the next state; ``replay`` folds many.

Every rule decision was taken in ``decide``; here we only apply facts.  The
few derived transitions (which step follows) are computed from the state so
that a replay reaches exactly the same place.

The handlers live by rule area: ``turn_fold`` (setup and the turn),
``engagement_fold`` (engagements and after) and ``battle_fold`` (battles).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from moderator.records import replace
from moderator.rules import battle_fold, engagement_fold, turn_fold
from moderator.rules import events as ev
from moderator.rules.fold import HANDLERS as _HANDLERS
from moderator.rules.state import GameState

#: Importing the folds registers their handlers in ``fold.HANDLERS``.
_FOLDS = (turn_fold, engagement_fold, battle_fold)


def evolve(state: GameState, event: ev.Event) -> GameState:
    """Apply one event; the result's ``version`` counts the events folded."""
    new = _HANDLERS[type(event)](state, event)
    public = state.public_events + (event.visible_to is None)
    return replace(new, version=state.version + 1, public_events=public, **_steps(state, event))


def _steps(state: GameState, event: ev.Event) -> dict[str, Any]:
    """
    The step counts after ``event``: a move of play advances those of the players who
    may see it; an aside (a show, a message: Wolff 4.5) or an audit note advances none,
    as it leaves the game where it was.
    """
    if ev.is_aside(event):
        return {}
    if event.visible_to is None:
        return {"public_steps": state.public_steps + 1}
    own = dict(state.own_steps)
    for player in event.visible_to:
        own[player] = own.get(player, 0) + 1
    return {"own_steps": tuple(sorted(own.items()))}


def replay(events: Iterable[ev.Event], state: GameState | None = None) -> GameState:
    state = state or GameState()
    for event in events:
        state = evolve(state, event)
    return state
