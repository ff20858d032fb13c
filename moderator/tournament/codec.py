"""
Tournament events to and from JSON-able dicts (``{"type", "version", "payload"}``),
with the game events' value helpers (``moderator.rules.codec``).  An old version's
payload is upcast step by step before the event is built, as the game's codec does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from moderator.rules.codec import plain, tupled
from moderator.tournament.events import EVENT_TYPES, TournamentEvent

#: (type, version) -> function turning that version's payload into the next version's.
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    # Reliability recorded before seats lost were counted: none lost.
    ("reliability-recorded", 1): lambda payload: {"seats_lost": 0, **payload},
    # A result recorded before a seat its player dropped out of scored for nobody.
    ("game-finished", 1): lambda payload: {"unscored": (), **payload},
}


def encode(event: TournamentEvent) -> dict[str, Any]:
    payload = {f.name: plain(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return {"type": event.TYPE, "version": event.VERSION, "payload": payload}


def decode(record: Mapping[str, Any]) -> TournamentEvent:
    """
    Raises:
        ValueError: the type is unknown.
    """
    kind = record["type"]
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        msg = f"unknown tournament event type {kind!r}"
        raise ValueError(msg)
    payload = dict(record["payload"])
    version = int(record.get("version", 1))
    while version < cls.VERSION:
        payload = UPCASTERS[(kind, version)](payload)
        version += 1
    return cls(**{name: tupled(value) for name, value in payload.items()})
