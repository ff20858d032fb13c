"""
A tournament's clock settings (``timing turn=72``, ``absence count=2``): the short names a
director writes spelt out and checked against the games' ``TimeLimits`` when the
tournament is created, so that no game it forms later fails to start on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from moderator.schedule import timing
from moderator.tournament import errors as err
from moderator.tournament.errors import TournamentError
from moderator.tournament.settings import Settings

#: Short names a director may use for the clock settings (``timing turn=72``).
_ALIASES = {
    "setup": "setup_hours",
    "turn": "turn_hours",
    "engagement": "engagement_hours",
    "battle": "battle_hours",
    "muster": "muster_hours",
    "minimum": "minimum_hours",
    "reminders": "reminder_hours",
    "count": "absences",
    "days": "absence_days",
    "total": "absence_total_days",
}


def checked_clock(settings: Settings) -> Settings:
    """The settings with the clock's keys spelt out, checked against ``TimeLimits``."""
    known = {f.name for f in fields(timing.TimeLimits)}

    def spelt(mapping: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in mapping.items():
            name = _ALIASES.get(key, key)
            if name not in known:
                allowed = ", ".join(sorted({*known, *_ALIASES}))
                raise TournamentError(err.E_SETTINGS, f"{key!r} is not a clock setting ({allowed})")
            if name == "reminder_hours":
                value = [float(v) for v in str(value).split(",") if v]
            out[name] = value
        return out

    try:
        timing_part, absence_part = spelt(settings.time_limits), spelt(settings.absence)
        timing.TimeLimits.from_json({**timing_part, **absence_part})
    except TournamentError:
        raise
    except (TypeError, ValueError) as exc:
        raise TournamentError(err.E_SETTINGS, f"the clock settings cannot be used: {exc}") from exc
    return Settings(
        **{f.name: getattr(settings, f.name) for f in fields(Settings)}
        | {"time_limits": timing_part, "absence": absence_part}
    )


__all__ = ["checked_clock"]
