"""
The game's record as the first releases stored it (schema 0, untyped options), read as
schema 1 (``record.GameRecord.from_json`` calls it before reading the fields).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def upcast_0(bag: Mapping[str, Any]) -> dict[str, Any]:
    """
    Schema 0, the untyped options of the first releases, as schema 1: the dice were
    ``dice_seed``/``dice_script``/``dice_rolled``, the deadline ``deadline`` (its
    moment) with ``deadline_step`` (what it timed), the absences a table per player.
    Keys nobody reads any more are dropped.
    """
    step = bag.get("deadline_step")
    deadline: dict[str, Any] | None = None
    if bag.get("deadline"):
        info = dict(step) if isinstance(step, Mapping) else {}
        deadline = {**info, "due": bag["deadline"]}
    scripted = bool(bag.get("scripted_dice"))
    return {
        "schema": 1,
        "players": bag.get("players") or [],
        "from_position": bag.get("from_position", False),
        "dice": {
            "seed": None if scripted else bag.get("dice_seed"),
            "script": bag.get("dice_script") if scripted else None,
            "rolled": bag.get("dice_rolled", 0),
        },
        "time_limits": bag.get("time_limits"),
        "deadline": deadline,
        "ends_at": bag.get("ends_at"),
        "absences": [
            {**entry, "player": player}
            for player, entries in dict(bag.get("absences") or {}).items()
            for entry in entries
        ],
        "paused": bag.get("paused"),
        "tournament": bag.get("tournament"),
        "allow_secrets": bag.get("allow_secrets", False),
        "reported": bag.get("reported") or {},
        "report_from": bag.get("report_from") or {},
    }


__all__ = ["upcast_0"]
