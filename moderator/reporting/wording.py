"""
The words that narrating events shares: lists ("A, B and C"), grouped characters,
legions named with their owners, and the table each narrating module files its
describers in.  Split out of ``narrate`` so the masterboard and battle narration can
share them without importing each other or the history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from moderator.reporting.views import marker_names
from moderator.rules import events as ev
from moderator.rules.state import GameState
from moderator.rules.variant import Variant

#: One event's line, given the game as it stood before the event.
Describer = Callable[[Any, GameState], str]
Describers = dict[type[ev.Event], Describer]


def registrar(table: Describers) -> Callable[[type[ev.Event]], Callable[[Describer], Describer]]:
    """A decorator ``@on(EventClass)`` that files a describer in ``table``."""

    def on(cls: type[ev.Event]) -> Callable[[Describer], Describer]:
        def register(fn: Describer) -> Describer:
            table[cls] = fn
            return fn

        return register

    return on


def _and(items: Iterable[str]) -> str:
    words = list(items)
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _chars(variant: Variant, characters: Iterable[str]) -> str:
    """Characters grouped with counts: "Angel, 2 Centaurs"-style, in a stable order."""
    counts: dict[str, int] = {}
    for c in characters:
        counts[c] = counts.get(c, 0) + 1
    if not counts:
        return "nothing"
    return ", ".join(c if n == 1 else f"{n} {_plural(variant, c)}" for c, n in sorted(counts.items()))


def _plural(variant: Variant, creature: str) -> str:
    try:
        return variant.creature(creature).plural
    except KeyError:
        return f"{creature}s"


def _a(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _owner(marker: str, state: GameState | None) -> str | None:
    if state is None:
        return None
    legion = state.legions.get(marker)
    if legion is not None:
        return legion.owner
    for p in state.players:
        if marker in p.markers:
            return p.name
    return None


def _legion(marker: str, state: GameState | None, *, name: bool = False) -> str:
    """ "Ann's Rd01" (with the marker's picture, "Ann's Rd01 (Cross)", when ``name``)."""
    owner = _owner(marker, state)
    text = f"{owner}'s {marker}" if owner else marker
    picture = marker_names(state.variant).get(marker) if state is not None else None
    return f"{text} ({picture})" if name and picture else text
