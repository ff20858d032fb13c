"""
A game's time limits (Wolff 21.0) and absence allowance: what the moderator or a
tournament sets when a game starts.  Kept apart from ``timing`` (which computes the
deadlines) so that the game's record (``moderator.schedule.record``) can hold them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from datetime import timedelta
from typing import Any

from moderator.records import record
from moderator.rules.policies import POLICIES, WOLFF

#: Kinds of step (the ``deadline`` table's ``kind`` of an acting deadline).
SETUP, TURN, ENGAGEMENT, BATTLE, MUSTER = "setup", "turn", "engagement", "battle", "muster"
KINDS = (SETUP, TURN, ENGAGEMENT, BATTLE, MUSTER)


@record
class TimeLimits:
    """
    A game's time limits (Wolff 21.0), in hours, and its absence allowance.

    The defaults suit a game by mail that runs for months, with players who read their
    mail once or twice a day: three days for a masterboard turn (split, roll, move:
    the longest thinking), two days for every other step, never less than a day
    (``minimum_hours``: also the least time left after a deadline is moved), and
    reminders a day and four hours before (DPjudge's warnings).  A player may be away
    three times a game, at most 15 days at a time and 30 days in all (njudge's limits).
    """

    setup_hours: float = 72.0
    turn_hours: float = 72.0
    engagement_hours: float = 48.0
    battle_hours: float = 48.0
    muster_hours: float = 48.0
    minimum_hours: float = 24.0
    #: Hours before a deadline at which the acting player is reminded, each once.
    reminder_hours: tuple[float, ...] = (24.0, 4.0)
    #: Absences a player may declare in a game (0: none).
    absences: int = 3
    #: The longest absence, in days.
    absence_days: int = 15
    #: All of a player's absences in a game together, in days.
    absence_total_days: int = 30
    #: What a missed deadline means (``moderator.rules.lateness``): ``wolff``, the
    #: player refuses to continue (Wolff 21.0/20.4); ``21.2``, rulebook 21.2's timed
    #: moves (a legion moved at random, characters not on the battleland lost).
    lateness: str = WOLFF

    def __post_init__(self) -> None:
        hours = [getattr(self, f"{kind}_hours") for kind in KINDS]
        if self.minimum_hours <= 0 or any(h <= 0 for h in hours):
            msg = "time limits must be positive numbers of hours"
            raise ValueError(msg)
        if any(h <= 0 for h in self.reminder_hours):
            msg = "reminders must come a positive number of hours before a deadline"
            raise ValueError(msg)
        if min(self.absences, self.absence_days, self.absence_total_days) < 0:
            msg = "absence limits cannot be negative"
            raise ValueError(msg)
        if self.lateness not in POLICIES:
            msg = f"lateness is one of {', '.join(POLICIES)}, not {self.lateness!r}"
            raise ValueError(msg)

    def limit(self, kind: str) -> timedelta:
        """The time a player has for a step of ``kind`` (never less than the minimum)."""
        hours = getattr(self, f"{kind}_hours") if kind in KINDS else self.turn_hours
        return timedelta(hours=max(float(hours), self.minimum_hours))

    @property
    def minimum(self) -> timedelta:
        return timedelta(hours=self.minimum_hours)

    @property
    def reminders(self) -> tuple[timedelta, ...]:
        """The reminders' leads, longest first."""
        return tuple(timedelta(hours=h) for h in sorted(set(self.reminder_hours), reverse=True))

    def to_json(self) -> dict[str, Any]:
        """The limits as stored in a game's record."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "lateness" and value == WOLFF:
                continue  # the default: records written before the choice existed read the same
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def parse(cls, limits: Sequence[str] = (), reminders: str | None = None) -> TimeLimits:
        """
        The defaults changed by ``KIND=HOURS`` settings (``turn=96``, ``battle=24``,
        ``minimum=12``, ``absences=2``, ``absence_days=10``, and ``lateness=21.2``) and
        ``reminders`` as comma-separated hours (``24,4``); ValueError says what is wrong.
        """
        names = [*KINDS, "minimum"]
        counts = ("absences", "absence_days", "absence_total_days")
        values: dict[str, Any] = {}
        for item in limits:
            key, sep, raw = item.partition("=")
            key = key.strip().lower()
            if sep and key == "lateness":
                values["lateness"] = _lateness(raw)
                continue
            if not sep or key not in (*names, *counts):
                msg = (
                    f"{item!r}: write KIND=HOURS with KIND one of {', '.join(names)} "
                    f"(or {', '.join(counts)}=NUMBER, or lateness={'|'.join(POLICIES)})"
                )
                raise ValueError(msg)
            try:
                number = float(raw)
            except ValueError:
                raise ValueError(f"{item!r}: {raw.strip()!r} is not a number") from None
            if key in counts:
                if number != int(number):
                    raise ValueError(f"{item!r}: {key} is a whole number")
                values[key] = int(number)
            else:
                values[f"{key}_hours"] = number
        if reminders is not None:
            try:
                values["reminder_hours"] = tuple(
                    float(h) for h in reminders.split(",") if h.strip()
                )
            except ValueError:
                msg = f"reminders {reminders!r}: write hours before the deadline, e.g. 24,4"
                raise ValueError(msg) from None
        return cls(**values)

    @classmethod
    def from_json(cls, stored: Any) -> TimeLimits | None:
        """Stored limits (``to_json``'s), or None for none (unknown keys are ignored)."""
        if not isinstance(stored, Mapping):
            return None
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in stored.items():
            if key not in known:
                continue
            if key == "reminder_hours":
                values[key] = tuple(float(v) for v in value)
            elif key == "lateness":
                values[key] = _lateness(str(value))
            elif key in ("absences", "absence_days", "absence_total_days"):
                values[key] = int(value)
            else:
                values[key] = float(value)
        return cls(**values)


def _lateness(raw: str) -> str:
    """A lateness policy as written (``wolff`` or ``21.2``); ValueError names the choices."""
    value = raw.strip().lower()
    if value not in POLICIES:
        msg = f"lateness={raw.strip()}: write lateness=wolff (Wolff 20.4) or lateness=21.2 (rulebook 21.2)"
        raise ValueError(msg)
    return value


__all__ = ["BATTLE", "ENGAGEMENT", "KINDS", "MUSTER", "SETUP", "TURN", "TimeLimits"]
