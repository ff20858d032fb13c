"""
The two clocks that are not the machine's (``moderator.clock.SystemClock``).

``TestClock`` stands still until a test (or ``simulate``) moves it: a deadline passes
when the test says so, not when the machine's second hand gets there.  ``DemoClock``
is the demo's: it starts at a fixed moment whatever the day, moves one ``step`` for
each robot mail, jumps to a deadline when the demo moves it there, and, with a
``speed``, also runs on by itself that many times faster than real time (the
tournament demo, where days of play pass in minutes).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

#: Where a test clock starts unless told: a Monday morning, after the test keys were made.
TEST_START = datetime(2024, 7, 1, 10, 0, tzinfo=UTC)
#: Where every demo game begins: a fixed moment, after the robots' keys were made.
DEMO_START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
#: How far the demo clock moves for each robot mail: far from any deadline (a day at least).
MAIL_STEP = timedelta(minutes=1)


class TestClock:
    """A clock that moves only when told (``set``, ``advance``)."""

    __test__ = False  # not a test class, whatever its name says to pytest

    def __init__(self, start: datetime = TEST_START) -> None:
        self._now = start

    def now(self) -> datetime:
        return self._now

    def set(self, moment: datetime) -> datetime:
        """Put the clock at ``moment`` (earlier too: a test may go back); the new time."""
        self._now = moment
        return self._now

    def advance(self, delta: timedelta | None = None, **parts: float) -> datetime:
        """Move on by ``delta`` or by ``timedelta(**parts)``; the new time."""
        self._now += (delta or timedelta()) + timedelta(**parts)
        return self._now

    def __repr__(self) -> str:
        return f"TestClock({self._now.isoformat()})"


class DemoClock:
    """The demo's clock (see the module's text): hand-moved, and optionally running."""

    def __init__(
        self,
        start: datetime = DEMO_START,
        step: timedelta = MAIL_STEP,
        *,
        speed: float = 0.0,
    ) -> None:
        self.step = step
        self.speed = speed
        self._base = start
        self._t0 = time.monotonic()

    @classmethod
    def running(cls, speed: float, start: datetime) -> DemoClock:
        """A clock ``speed`` times faster than real time from ``start`` on."""
        return cls(start, speed=speed)

    def now(self) -> datetime:
        if not self.speed:
            return self._base
        return self._base + timedelta(seconds=(time.monotonic() - self._t0) * self.speed)

    def tick(self) -> datetime:
        """One step on (a robot's mail); the new time."""
        self._base += self.step
        return self.now()

    def advance_to(self, moment: datetime) -> datetime:
        """On to ``moment`` if it is later (a deadline's time); the new time."""
        self._base += max(timedelta(), moment - self.now())
        return self.now()


__all__ = ["DEMO_START", "MAIL_STEP", "TEST_START", "DemoClock", "TestClock"]
