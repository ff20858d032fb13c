"""
Events to and from plain JSON-able dicts, with versioned upcasting.

Events hold only strings, ints, bools, None and (nested) tuples, so a
generic walk suffices: lists come back as tuples, ``visible_to`` as a
frozenset.  An old payload is upcast step by step before it is built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from moderator.rules.events import EVENT_TYPES, Event
from moderator.rules.variant import STANDARD

#: (type, version) -> function turning that version's payload into the next version's.
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    # An order sealed before the audit recorded what orders said: no line, no chain.
    ("order-sealed", 1): lambda payload: {"player": None, "order": "", "mac": "", **payload},
    # A game set up or restored before games named their variant: the standard game.
    ("game-created", 1): lambda payload: {"variant": STANDARD, **payload},
    ("position-loaded", 1): lambda payload: {"variant": STANDARD, **payload},
}


def plain(value: Any) -> Any:
    """A field's value as JSON takes it: tuples (nested) as lists, a frozenset sorted, a
    mapping as a dict (the tournament events' settings; the game's events hold none)."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


def tupled(value: Any) -> Any:
    """``plain``'s lists back as (nested) tuples."""
    if isinstance(value, list):
        return tuple(tupled(v) for v in value)
    return value


def encode(event: Event) -> dict[str, Any]:
    """``{"type", "version", "payload"}`` for storage or the wire."""
    payload = {f.name: plain(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return {"type": event.TYPE, "version": event.VERSION, "payload": payload}


def decode(record: dict[str, Any]) -> Event:
    """Rebuild an event, upcasting an old version first."""
    kind, version = record["type"], record["version"]
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        msg = f"unknown event type {kind!r}"
        raise ValueError(msg)
    payload = dict(record["payload"])
    while version < cls.VERSION:
        payload = UPCASTERS[(kind, version)](payload)
        version += 1
    fields = {}
    for name, value in payload.items():
        if name == "visible_to":
            fields[name] = None if value is None else frozenset(value)
        else:
            fields[name] = tupled(value)
    return cls(**fields)
