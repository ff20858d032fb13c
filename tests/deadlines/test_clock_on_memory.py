"""
The clock's use cases on the in-memory store (``moderator.testing``), no database: each
is asked ``(ask, lookup, now)`` and returns an ``Outcome``; the recording unit of work
applies it as the clock's runner does, and the next decision reads what was applied.
The SQL side of the same rules is ``test_timeouts.py``, ``test_reminders.py`` and
``test_outage.py`` (through the runner).
"""

from __future__ import annotations

import pytest

from moderator.ports import ConflictError, Deadline, Outcome
from moderator.ports.deadlines import DONE
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.schedule import timing
from moderator.testing.clocks import TestClock as Clock
from moderator.testing.memory import MemoryLookup
from moderator.usecases.clock import clockwork, outages

from ..service.conftest import MODERATOR, address
from ..service.memory_table import MemoryTable, memory_table
from .conftest import LIMITS, hours, position

THREE = ("Ann", "Bob", "Cy")


def split_phase(clock: Clock) -> MemoryTable:
    """Ann, Bob and Cy with time limits, Ann to split: her turn's deadline runs."""
    start = position(
        [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan")],
        players=THREE,
        phase="split",
    )
    return memory_table(clock, None, position=start, seated=THREE, limits=LIMITS)


def acting(memory: MemoryLookup) -> Deadline:
    (row,) = [r for r in memory.open_deadlines() if r.acting]
    return row


def test_wolff_20_4_on_memory_a_deadline_passed_gives_the_refusal_for_the_player_to_act(
    clock: Clock,
) -> None:
    """Wolff 21.0/20.4: at his deadline Ann is treated as refusing to continue (in her
    split, she withdraws); everyone is told, and Bob's deadline starts from that moment."""
    table = split_phase(clock)
    memory = table.memory
    row = acting(memory)
    assert (row.player, row.kind, row.due_at) == ("Ann", timing.TURN, clock.now() + hours(72))
    assert clockwork.due_now(memory, row.due_at) == [row]
    due = clockwork.Due(row, MODERATOR)
    outcome = clockwork.deadline_due(due, memory, row.due_at)
    assert outcome.closed == ((row.id, DONE),)
    (changed,) = outcome.games
    assert ev.PlayerWithdrew in {type(e) for e in changed.events}
    table.unit.apply(outcome, now=row.due_at)
    closed = memory.deadline(row.id)
    assert closed is not None and closed.status == DONE
    assert to_act(table.state) == "Bob"
    following = acting(memory)
    assert (following.player, following.due_at) == ("Bob", row.due_at + hours(72))
    told = sorted(m.recipient for m in memory.outbox() if "deadline passed" in m.subject)
    assert told == sorted(address(name) for name in THREE)
    assert clockwork.deadline_due(due, memory, row.due_at) == Outcome()  # dealt with once


def test_wolff_21_0_on_memory_a_reminder_goes_once(clock: Clock) -> None:
    """A day before the deadline the player to act is reminded, once: a second worker
    that decided on the same count conflicts and sends nothing."""
    table = split_phase(clock)
    memory = table.memory
    row = acting(memory)
    assert clockwork.due_now(memory, row.due_at - hours(25)) == []
    moment = row.due_at - hours(23)
    assert clockwork.due_now(memory, moment) == [row]
    outcome = clockwork.deadline_due(clockwork.Due(row, MODERATOR), memory, moment)
    assert outcome.reminded == ((row.id, 0, 1),)
    assert [m.recipient for m in outcome.mails] == [address("Ann")]
    sent = len(memory.outbox())
    table.unit.apply(outcome, now=moment)
    assert acting(memory).reminded == 1 and len(memory.outbox()) == sent + 1
    assert clockwork.due_now(memory, moment) == []
    with pytest.raises(ConflictError):
        table.unit.apply(outcome, now=moment)
    assert len(memory.outbox()) == sent + 1


def test_an_outage_on_memory_moves_the_running_deadline_on_by_the_time_lost(
    clock: Clock,
) -> None:
    """The service down longer than ``max_outage`` (its heartbeat says since when): the
    deadline moves on by the gap instead of timing Ann out, and the summary beats again."""
    table = split_phase(clock)
    memory = table.memory
    row = acting(memory)
    start = clock.now()
    table.unit.apply(Outcome(beat=start), now=start)
    assert memory.heartbeat() == start
    back = start + hours(10)
    assert outages.outage_of(memory, back, hours(12), MODERATOR) is None
    outage = outages.outage_of(memory, back, hours(1), MODERATOR)
    assert outage is not None and outage.games == ("g1",)
    moved = outages.moved_on(outage.of("g1"), memory, back)
    table.unit.apply(moved, now=back)
    after = acting(memory)
    assert (after.id, after.due_at) == (row.id, row.due_at + hours(10))
    table.unit.apply(outages.summary(outage, list(moved.log), hours(1), back), now=back)
    assert memory.heartbeat() == back
