"""
The stamps that make a robot player's mail the same bytes in every run of a seed, on
the demo's clock (``moderator.testing.clocks.DemoClock``); the demo and the tests that
play by mail use them.

A mail's dice are bound to the SHA-256 of the mail as it came (``usecases.games.dice``): its
Date and Message-ID headers, its MIME boundary and its signature, whose time is in
it.  So for ``demo --seed N`` to play the same game again, nothing in a robot's mail
may come from the machine's clock or from chance.  ``DemoClock`` does not run by
itself: it starts at ``DEMO_START`` whatever the day, moves on one ``step`` for every
mail a robot sends (``MailStamps``), and jumps to the next deadline only when the
demo moves it there (``next_deadline_time``: a silent robot's reminders and timeouts).
The moderator reads the same clock, so a signature is never older or newer than the
moderator expects, and no deadline passes by the machine's time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from moderator.ports import Deadline
from moderator.schedule.limits import TimeLimits
from moderator.schedule.timing import reminders_behind
from moderator.testing.clocks import DemoClock
from moderator.testing.player_keys import ROBOT_DOMAIN


@dataclass
class MailStamps:
    """
    The Message-ID and time of each robot mail of a demo: the seed and a count, and the
    demo clock moved on a step.  Shared by the robots of one demo, which mail one at a
    time in an order the game decides.
    """

    seed: int
    clock: DemoClock
    sent: int = 0

    def next(self, name: str) -> tuple[str, datetime]:
        """(Message-ID, time) for ``name``'s next mail; its signature is made at the time."""
        self.sent += 1
        return (
            f"<demo-{self.seed}-{self.sent}-{name.lower()}@{ROBOT_DOMAIN}>",
            self.clock.tick(),
        )


def boundary_for(message_id: str) -> str:
    """A MIME boundary from a mail's Message-ID: the same mail, the same bytes."""
    return "=_robot_" + hashlib.sha256(message_id.encode()).hexdigest()[:24]


def next_deadline_time(
    rows: Iterable[Deadline], limits: TimeLimits, now: datetime
) -> datetime | None:
    """
    The next moment after ``now`` at which the moderator has something to do about
    ``rows`` (open deadlines): a reminder (``limits``' leads before a deadline) or the
    deadline itself.  None: nothing is ahead.
    """
    rows = list(rows)
    if any(
        row.due_at <= now or (row.acting and reminders_behind(limits, row.due_at, now) > row.reminded)
        for row in rows
    ):
        return None  # something is due already: the moderator acts on it before the clock moves
    moments = [
        moment
        for row in rows
        for moment in (row.due_at, *(row.due_at - lead for lead in limits.reminders))
        if moment > now
    ]
    return min(moments, default=None)


__all__ = ["MailStamps", "boundary_for", "next_deadline_time"]
