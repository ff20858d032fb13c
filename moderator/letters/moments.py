"""
Moments, lengths of time and deadlines as every letter words them, in the reader's
time zone.  The moments come in as arguments: no letter reads the clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.letters.texts import MailInfo
from moderator.schedule.record import GameRecord
from moderator.schedule.timing import KIND_NAMES


def moment_line(moment: datetime, time_zone: str = "UTC") -> str:
    """A moment as mails print it, in the player's time zone: ``2024-07-04 12:00 (Europe/Berlin)``."""
    try:
        zone = ZoneInfo(time_zone)
    except (ValueError, ZoneInfoNotFoundError):
        zone, time_zone = ZoneInfo("UTC"), "UTC"
    return f"{moment.astimezone(zone):%Y-%m-%d %H:%M} ({time_zone})"


def span(length: timedelta) -> str:
    """A length of time in words, rounded: "3 days 4 hours", "about 24 hours", "50 minutes"."""
    minutes = max(0, round(length.total_seconds() / 60))
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = round(minutes / 60)
    if hours <= 48:
        return f"about {hours} hours"
    days, hours = divmod(hours, 24)
    return f"{days} days" + (f" {hours} hour{'s' if hours != 1 else ''}" if hours else "")


def step_name(kind: str | None) -> str:
    """The kind of step a deadline is for, in words ("muster", "battle step"; else "move")."""
    return KIND_NAMES.get(kind or "", "move")


def mail_named(mail: MailInfo, time_zone: str = "UTC") -> str:
    """
    How the signed part of an answer names the mail it answers: by when it came.  Its
    Message-ID, date and subject are its author's words, and the moderator signs
    nothing a player chose (they are echoed in the private part).
    """
    if mail.received is None:
        return "your mail"
    return f"your mail received {moment_line(mail.received, time_zone)}"


def deadline_line(record: GameRecord, time_zone: str = "UTC") -> str:
    """The game's deadline in the player's time zone, or why there is none."""
    if record.deadline is None and record.undelivered:
        who = ", ".join(sorted(record.undelivered))
        ends = [p.until for p in record.undelivered.values() if p.until is not None]
        until = f", at most until {moment_line(max(ends), time_zone)}" if ends else ""
        return f"none while mail to {who} cannot be delivered{until} (the game master is told)"
    if record.deadline is None:
        return "no deadline set"
    return moment_line(record.deadline.due, time_zone)


def deadline_whose(record: GameRecord, viewer: str, time_zone: str = "UTC") -> str:
    """
    The deadline as a report or answer to ``viewer`` prints it: when, in his time zone,
    and whose it is and for what kind of step (``for your muster``, ``for Bob's battle
    step``).
    """
    line = deadline_line(record, time_zone)
    deadline = record.deadline
    if deadline is None or not deadline.player:
        return line
    mine = deadline.player == viewer
    what = KIND_NAMES.get(deadline.kind)
    if what is None:
        return f"{line}, for {'you' if mine else deadline.player} to act"
    whose = "your" if mine else f"{deadline.player}'s"
    return f"{line}, for {whose} {what}"
