"""
Tournament events to and from JSON-able dicts (``{"type", "version", "payload"}``),
with the game events' value helpers (``moderator.rules.codec``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from moderator.rules.codec import plain, tupled
from moderator.tournament.events import EVENT_TYPES, TournamentEvent


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
    return cls(**{name: tupled(value) for name, value in payload.items()})
