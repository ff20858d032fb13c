"""
Absences: ``absent from 2024-08-01 to 2024-08-14`` in a mail to a game tells the
moderator a player will be away (the dates in his time zone, both days included);
``absent cancel`` ends the running absence now, or withdraws the next one.  Pure: the
caller gives the moment, the player's zone and the game's record.

While a player is away his deadlines do not fall: a deadline whose time overlaps his
absence ends the normal limit after the absence ends (``timing.deadline_for``).  The
game's ``TimeLimits`` set how many absences a player may take in a game, the longest
and the total days; an absence must begin today or later and may not overlap another.

The game's record keeps them (``GameRecord.absences``: from and to in UTC and the
days as written; a cancelled running absence has its end cut to the moment it was
cancelled).
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.records import record
from moderator.schedule.limits import TimeLimits
from moderator.schedule.record import Absence, GameRecord

_LINE = re.compile(r"^\s*absen(?:t|ce)\b\s*[:=]?\s*(.*?)\s*$", re.IGNORECASE)
_SPAN = re.compile(
    r"^(?:from\s+)?(\d{4}-\d{2}-\d{2})\s*(?:to|until|till|-)\s*(\d{4}-\d{2}-\d{2})$",
    re.IGNORECASE,
)
_CANCEL = re.compile(r"^(?:cancel(?:led)?|off|back|end)$", re.IGNORECASE)
#: How far ahead an absence may begin.
MAX_AHEAD = timedelta(days=366)
SYNTAX = (
    "write 'absent from YYYY-MM-DD to YYYY-MM-DD' (the first and last days away, in your "
    "time zone) or 'absent cancel'"
)


@record
class Request:
    """An absence line as written: a span of days, or a cancellation."""

    cancel: bool
    first: date | None = None
    last: date | None = None


@record
class Outcome:
    """
    What an absence line did: the game's new record (None: refused), what to answer
    the player, and the absence declared, cut short or withdrawn.
    """

    record: GameRecord | None
    answer: str
    absence: Absence | None = None
    cancelled: bool = False

    @property
    def refused(self) -> bool:
        return self.record is None


def is_absence(line: str) -> bool:
    return bool(_LINE.match(line))


def parse(line: str) -> Request | str:
    """The request in an absence line, or why it cannot be read."""
    found = _LINE.match(line)
    if not found:
        return SYNTAX
    rest = found.group(1).strip()
    if _CANCEL.match(rest):
        return Request(cancel=True)
    span = _SPAN.match(rest)
    if not span:
        return SYNTAX
    try:
        first, last = date.fromisoformat(span.group(1)), date.fromisoformat(span.group(2))
    except ValueError:
        return f"{span.group(1)} or {span.group(2)} is not a date: {SYNTAX}"
    return Request(cancel=False, first=first, last=last)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _days(begins: datetime, ends: datetime) -> int:
    return max(1, math.ceil((ends - begins) / timedelta(days=1)))


def absences(record: GameRecord, player: str) -> list[Absence]:
    """``player``'s absences in the game, earliest first."""
    return record.absences_of(player)


def _with(record: GameRecord, player: str, mine: list[Absence]) -> GameRecord:
    others = tuple(a for a in record.absences if a.player != player)
    return record.but(absences=(*others, *sorted(mine, key=lambda a: a.begins)))


def away(record: GameRecord, player: str, now: datetime) -> Absence | None:
    """The absence ``player`` is on at ``now``, if any."""
    return next((a for a in absences(record, player) if a.begins <= now < a.ends), None)


def request(
    record: GameRecord,
    player: str,
    line: str,
    now: datetime,
    time_zone: str,
    limits: TimeLimits | None,
) -> Outcome:
    """What ``player``'s absence ``line`` does to the game's ``record`` at ``now``."""
    if limits is None:
        return Outcome(None, "this game has no time limits, so there are no deadlines to move")
    asked = parse(line)
    if isinstance(asked, str):
        return Outcome(None, asked)
    mine = absences(record, player)
    zone = _zone(time_zone)
    if asked.cancel:
        return _cancel(record, player, mine, now, zone)
    assert asked.first is not None and asked.last is not None
    today = now.astimezone(zone).date()
    if asked.last < asked.first:
        return Outcome(None, f"the absence ends ({asked.last}) before it begins ({asked.first})")
    if asked.first < today:
        return Outcome(None, f"an absence cannot begin in the past (today is {today} for you)")
    if datetime.combine(asked.first, time(), zone) - now > MAX_AHEAD:
        return Outcome(None, "an absence may be declared at most a year ahead")
    begins = max(now, datetime.combine(asked.first, time(), zone))
    ends = datetime.combine(asked.last + timedelta(days=1), time(), zone)
    days = (asked.last - asked.first).days + 1
    if limits.absences == 0:
        return Outcome(None, "this game allows no absences")
    if len(mine) >= limits.absences:
        return Outcome(
            None, f"you have taken {len(mine)} absences in this game, the most it allows"
        )
    if days > limits.absence_days:
        return Outcome(
            None, f"{days} days is longer than this game allows ({limits.absence_days} days)"
        )
    used = sum(_days(a.begins, a.ends) for a in mine)
    if used + days > limits.absence_total_days:
        left = max(0, limits.absence_total_days - used)
        return Outcome(
            None,
            f"this game allows {limits.absence_total_days} days of absence in all; you have "
            f"{left} left",
        )
    for other in mine:
        if other.begins < ends and begins < other.ends:
            return Outcome(None, f"it overlaps your absence from {other.first} to {other.last}")
    new = Absence(player, begins, ends, str(asked.first), str(asked.last))
    answer = (
        f"you are away from {asked.first} to {asked.last} ({days} day{'s' if days != 1 else ''}, "
        f"{time_zone}); deadlines falling in that time move past it. "
        f"Absences left in this game: {limits.absences - len(mine) - 1}, "
        f"days left: {limits.absence_total_days - used - days}."
    )
    return Outcome(_with(record, player, [*mine, new]), answer, new)


def _cancel(
    record: GameRecord, player: str, mine: list[Absence], now: datetime, zone: ZoneInfo
) -> Outcome:
    running = next((a for a in mine if a.begins <= now < a.ends), None)
    if running is not None:
        cut = Absence(
            player, running.begins, now, running.first, now.astimezone(zone).date().isoformat()
        )
        rest = [a for a in mine if a is not running]
        answer = f"your absence from {running.first} to {running.last} ends now"
        return Outcome(_with(record, player, [*rest, cut]), answer, cut, cancelled=True)
    coming = next((a for a in mine if a.begins > now), None)
    if coming is None:
        return Outcome(None, "you have no absence to cancel")
    rest = [a for a in mine if a is not coming]
    answer = f"your absence from {coming.first} to {coming.last} is withdrawn"
    return Outcome(_with(record, player, rest), answer, coming, cancelled=True)


__all__ = [
    "SYNTAX",
    "Absence",
    "Outcome",
    "Request",
    "absences",
    "away",
    "is_absence",
    "parse",
    "request",
]
