"""
The clock port: where the shell reads the time.

The games' time (deadlines, reminders, a signature's age, the dates in mails) comes
from one ``Clock`` that the composition root (``runtime.bootstrap``) builds and hands
to what needs it, so a test or the demo can run a game on a clock of its own
(``moderator.testing.clocks``).  Leases, the mailbox's lock and apscheduler's timers
count real seconds whatever the games' clock does: they read ``App.wall``, a
``SystemClock`` in every run.  The pure core reads no clock at all: its callers pass
the time in.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Tells the time: an aware ``datetime`` in UTC."""

    def now(self) -> datetime: ...


@runtime_checkable
class SettableClock(Clock, Protocol):
    """A clock moved by hand (``simulate`` plays a game's weeks in seconds on one)."""

    def set(self, moment: datetime) -> datetime: ...

    def advance(self, delta: timedelta | None = None, **parts: float) -> datetime: ...


class SystemClock:
    """The machine's clock, in UTC: the one every production run reads."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def __repr__(self) -> str:
        return "SystemClock()"


__all__ = ["Clock", "SettableClock", "SystemClock"]
