"""
Time limits (Wolff 21.0) and the deadline that follows the acting player.  Pure: no
I/O, no clock (the moment is always passed in).

A game has time limits when its options hold ``time_limits`` (``TimeLimits.to_options``,
written at creation): Wolff 20.4 leaves refusal to play to a tournament director unless
time limits were set at the start, so a game without them has no deadlines.

At every moment one player is to act (Wolff 1.3) in a step of one **kind**: ``setup``
(colours), ``turn`` (split, roll and move on the masterboard), ``engagement`` (choosing
the next engagement, flight, negotiation, a summons or reinforcement after a battle,
an angel for points), ``battle`` (a step on the battleland) or ``muster``.  A deadline
starts whenever the player to act or the kind of step changes (``step_key``), and runs
for the kind's limit; while the same player goes on acting in the same kind of step,
the same deadline runs on.  A deadline whose time overlaps one of the acting player's
absences ends the kind's limit after that absence ends (``deadline_for``).

The game options keep the current deadline: ``deadline`` (its moment, ISO 8601 in UTC:
what the reports print, in each player's zone) and ``deadline_step`` (what it times:
the step key, the player, the kind, when it started).  The ``deadline`` table mirrors
them for the service's clock (``moderator.store.deadlines``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any

from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step

#: Game options.
TIME_LIMITS = "time_limits"
DEADLINE = "deadline"  # the same key ``reports.deadline_line`` prints
DEADLINE_STEP = "deadline_step"
ENDS_AT = "ends_at"  # Wolff 21.1: the game's end date (ISO 8601), if any
ABSENCES = "absences"  # see ``moderator.schedule.absence``

#: Kinds of step (the ``deadline`` table's ``kind`` of an acting deadline).
SETUP, TURN, ENGAGEMENT, BATTLE, MUSTER = "setup", "turn", "engagement", "battle", "muster"
KINDS = (SETUP, TURN, ENGAGEMENT, BATTLE, MUSTER)

_KIND_OF_STEP = {
    Step.COLOUR: SETUP,
    Step.SPLIT: TURN,
    Step.MOVE: TURN,
    Step.ENGAGE: ENGAGEMENT,
    Step.NEGOTIATE: ENGAGEMENT,
    Step.SUMMON: ENGAGEMENT,
    Step.REINFORCE: ENGAGEMENT,
    Step.ACQUIRE: ENGAGEMENT,
    Step.BATTLE: BATTLE,
    Step.MUSTER: MUSTER,
}

#: What a kind of step is called in mails.
KIND_NAMES = {
    SETUP: "choice of colour",
    TURN: "masterboard turn (split, roll and move)",
    ENGAGEMENT: "engagement step",
    BATTLE: "battle step",
    MUSTER: "muster",
}


@dataclass(frozen=True, slots=True)
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

    def to_options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def parse(cls, limits: Sequence[str] = (), reminders: str | None = None) -> TimeLimits:
        """
        The defaults changed by ``KIND=HOURS`` settings (``turn=96``, ``battle=24``,
        ``minimum=12``, ``absences=2``, ``absence_days=10``) and ``reminders`` as
        comma-separated hours (``24,4``); ValueError says what is wrong.
        """
        names = [*KINDS, "minimum"]
        counts = ("absences", "absence_days", "absence_total_days")
        values: dict[str, Any] = {}
        for item in limits:
            key, sep, raw = item.partition("=")
            key = key.strip().lower()
            if not sep or key not in (*names, *counts):
                msg = (
                    f"{item!r}: write KIND=HOURS with KIND one of {', '.join(names)} "
                    f"(or {', '.join(counts)}=NUMBER)"
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
    def from_options(cls, options: Mapping[str, Any]) -> TimeLimits | None:
        """The game's time limits, or None if it has none (unknown keys are ignored)."""
        stored = options.get(TIME_LIMITS)
        if not isinstance(stored, Mapping):
            return None
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in stored.items():
            if key not in known:
                continue
            if key == "reminder_hours":
                values[key] = tuple(float(v) for v in value)
            elif key in ("absences", "absence_days", "absence_total_days"):
                values[key] = int(value)
            else:
                values[key] = float(value)
        return cls(**values)


@dataclass(frozen=True, slots=True)
class Current:
    """The deadline running now (from the game's options)."""

    key: str
    player: str
    kind: str
    started: datetime
    due: datetime


@dataclass(frozen=True, slots=True)
class Change:
    """
    How a game's acting deadline changed: a new or moved one (``due``), or none any
    more (``due`` None).  ``reminded``: how many of the reminders are already behind.
    """

    key: str | None
    player: str | None
    kind: str | None
    due: datetime | None
    reminded: int = 0


# -- the step and its deadline ---------------------------------------------------------


def step_kind(state: GameState) -> str | None:
    """The kind of step the game waits on, or None when nobody is to act."""
    if to_act(state) is None:
        return None
    return _KIND_OF_STEP.get(state.step)


def step_key(state: GameState) -> str | None:
    """
    What the running deadline times: the player to act, the kind of step and the game
    turn (``Ann/turn/3``).  A new deadline starts when it changes.
    """
    player = to_act(state)
    kind = step_kind(state)
    if player is None or kind is None:
        return None
    return f"{player}/{kind}/{state.turn}"


def deadline_for(
    limits: TimeLimits,
    kind: str,
    start: datetime,
    absences: Sequence[tuple[datetime, datetime]] = (),
) -> datetime:
    """
    When a deadline of ``kind`` that starts at ``start`` falls: after the kind's limit,
    or, if that time overlaps an absence of the acting player (``(from, to)`` moments),
    the limit after the absence ends.
    """
    limit = limits.limit(kind)
    due = start + limit
    for begins, ends in sorted(absences):
        if begins < due and ends > start:
            due = max(due, ends + limit)
    return due


def reminders_behind(limits: TimeLimits, due: datetime, now: datetime) -> int:
    """How many of the reminders (longest lead first) are due by ``now``."""
    return sum(1 for lead in limits.reminders if due - lead <= now)


def moment(value: Any) -> datetime | None:
    """An ISO 8601 moment from the options (UTC if it has no zone), or None."""
    if not value:
        return None
    try:
        found = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat()


def current(options: Mapping[str, Any]) -> Current | None:
    """The deadline running now, as the options record it."""
    info = options.get(DEADLINE_STEP)
    due = moment(options.get(DEADLINE))
    if not isinstance(info, Mapping) or due is None:
        return None
    started = moment(info.get("started")) or due
    return Current(str(info["key"]), str(info["player"]), str(info["kind"]), started, due)


def absences_of(options: Mapping[str, Any], player: str) -> list[tuple[datetime, datetime]]:
    """``player``'s absences in the game (declared, not cancelled before they began)."""
    out: list[tuple[datetime, datetime]] = []
    for entry in dict(options.get(ABSENCES) or {}).get(player, []):
        begins, ends = moment(entry.get("from")), moment(entry.get("to"))
        if begins is not None and ends is not None and ends > begins:
            out.append((begins, ends))
    return out


def _with_deadline(
    options: Mapping[str, Any], key: str, player: str, kind: str, started: datetime, due: datetime
) -> dict[str, Any]:
    out = dict(options)
    out[DEADLINE] = iso(due)
    out[DEADLINE_STEP] = {"key": key, "player": player, "kind": kind, "started": iso(started)}
    return out


def _without_deadline(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in (DEADLINE, DEADLINE_STEP)}


def follow(
    state: GameState, options: Mapping[str, Any], now: datetime
) -> tuple[dict[str, Any], Change | None]:
    """
    The deadline after a change that led to ``state``: the game's options with it, and
    how it changed (None: the running deadline goes on, or the game has no limits).
    """
    limits = TimeLimits.from_options(options)
    if limits is None:  # a ``deadline`` a GM wrote in by hand is shown, never enforced
        return dict(options), None
    running = current(options)
    key = step_key(state)
    if key is None:
        if running is None and DEADLINE not in options:
            return dict(options), None
        return _without_deadline(options), Change(None, None, None, None)
    if running is not None and running.key == key:
        return dict(options), None
    player = to_act(state)
    kind = step_kind(state)
    assert player is not None and kind is not None
    due = deadline_for(limits, kind, now, absences_of(options, player))
    change = Change(key, player, kind, due, reminders_behind(limits, due, now))
    return _with_deadline(options, key, player, kind, now, due), change


def recompute(options: Mapping[str, Any], now: datetime) -> tuple[dict[str, Any], Change | None]:
    """
    The running deadline again after the acting player's absences changed: from when
    it started, with his absences now, but never earlier than the game's minimum from
    ``now`` when it moves earlier.  None: it did not move.
    """
    limits = TimeLimits.from_options(options)
    running = current(options)
    if limits is None or running is None:
        return dict(options), None
    due = deadline_for(limits, running.kind, running.started, absences_of(options, running.player))
    if due < running.due:
        due = min(running.due, max(due, now + limits.minimum))
    if due == running.due:
        return dict(options), None
    change = Change(
        running.key, running.player, running.kind, due, reminders_behind(limits, due, now)
    )
    return (
        _with_deadline(options, running.key, running.player, running.kind, running.started, due),
        change,
    )


def extend(
    options: Mapping[str, Any], by: timedelta, now: datetime
) -> tuple[dict[str, Any], Change | None]:
    """
    The running deadline moved ``by`` later (after an outage of the service), and at
    least the game's minimum from ``now``.  None: there is no deadline running.
    """
    limits = TimeLimits.from_options(options)
    running = current(options)
    if limits is None or running is None:
        return dict(options), None
    due = max(running.due + by, now + limits.minimum)
    change = Change(
        running.key, running.player, running.kind, due, reminders_behind(limits, due, now)
    )
    return (
        _with_deadline(options, running.key, running.player, running.kind, running.started, due),
        change,
    )


def ends_at(options: Mapping[str, Any]) -> datetime | None:
    """The game's end date (Wolff 21.1), if it has one."""
    return moment(options.get(ENDS_AT))


__all__ = [
    "ABSENCES",
    "BATTLE",
    "DEADLINE",
    "DEADLINE_STEP",
    "ENDS_AT",
    "ENGAGEMENT",
    "KINDS",
    "KIND_NAMES",
    "MUSTER",
    "SETUP",
    "TIME_LIMITS",
    "TURN",
    "Change",
    "Current",
    "TimeLimits",
    "absences_of",
    "current",
    "deadline_for",
    "ends_at",
    "extend",
    "follow",
    "iso",
    "moment",
    "recompute",
    "reminders_behind",
    "step_key",
    "step_kind",
]
