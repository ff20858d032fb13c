"""
The small state updates that the masterboard's folds share (``turn_fold`` and
``engagement_fold``): replacing a legion or a player, sorting and removing
contents, setting slain characters aside (2.5.6.10), the step after the
engagements, and marking a 2.5.6.5/2.5.6.8 decision taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from moderator.records import replace
from moderator.rules.state import GameState, Legion, Player, Step


def with_legion(state: GameState, legion: Legion) -> dict[str, Legion]:
    legions = dict(state.legions)
    legions[legion.marker] = legion
    return legions


def update_player(state: GameState, name: str, **changes: Any) -> tuple[Player, ...]:
    return tuple(replace(p, **changes) if p.name == name else p for p in state.players)


def _add(counts: dict[str, int], creature: str, n: int = 1) -> None:
    counts[creature] = counts.get(creature, 0) + n


def set_aside(state: GameState, characters: Iterable[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Slain characters: lords and demi-lords regenerate, others are dead (2.5.6.10)."""
    caretaker = dict(state.caretaker)
    dead = dict(state.dead)
    variant = state.variant
    for c in characters:
        kind = variant.creature(c)
        if c != "Titan" and (kind.lord or kind.demilord):
            _add(caretaker, c)
        else:
            _add(dead, c)
    return caretaker, dead


def after_engagements(state: GameState) -> Step:
    return Step.ENGAGE if state.engagement_lands() else Step.MUSTER


def ordered(contents: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(contents))


def without(contents: tuple[str, ...], losses: Iterable[str]) -> tuple[str, ...]:
    left = list(contents)
    for c in losses:
        left.remove(c)
    return tuple(left)


def decided(state: GameState, **changes: Any) -> GameState:
    """A 2.5.6.5 or 2.5.6.8 decision was taken: the engagement goes on (see decide.advance)."""
    eng = state.engagement
    if eng is None:
        return replace(state, **changes)
    return replace(state, engagement=replace(eng, option_done=True), step=Step.NEGOTIATE, **changes)
