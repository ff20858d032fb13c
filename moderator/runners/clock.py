"""
The clock's runner: the jobs that run because time passed (``runtime.service`` calls
``check_deadlines`` about once a minute and ``service_started`` at start-up, with the
moment to act on).  What is due is read once; each deadline is then decided
(``usecases.clock.clockwork.deadline_due``) and applied in a unit of work of its own, with its
game's row held (on PostgreSQL a game another worker holds is left for the next check);
an outage (``usecases.clock.outages``) moves every running deadline on, one game at a time,
before anything times out.  The heartbeat is written last.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from moderator.ports import Outcome
from moderator.ports.errors import ConflictError
from moderator.runners import unit
from moderator.store.eventstore import EventStore
from moderator.usecases.clock import clockwork, outages
from moderator.usecases.games import robot_seats

log = logging.getLogger(__name__)


def check_deadlines(
    store: EventStore,
    moderator_address: str,
    now: datetime,
    *,
    max_outage: timedelta | None = None,
) -> list[str]:
    """
    Everything due at ``now``: reminders, timeouts with their default actions, games'
    end dates, absences ending, digests, bounce pauses over; each deadline in a unit of
    work of its own.  Returns one line per thing done.  With ``max_outage``, a heartbeat
    older than that is treated as an outage first (see ``service_started``).
    """
    lines: list[str] = []
    if max_outage is not None:
        lines.extend(after_outage(store, moderator_address, now, max_outage))
    rows = unit.read(store, lambda lookup, _now: clockwork.due_now(lookup, now))
    for row in rows:
        due = clockwork.Due(row, moderator_address)
        try:
            done = unit.run(
                store, _at(due, now), hold=row.game_id, robots=robot_seats.acting_for(moderator_address)
            )
        except unit.GameBusyError:
            lines.append(f"{row.game_id}: busy; tried again at the next check")
            continue
        except ConflictError:
            lines.append(f"{row.game_id}: changed meanwhile; tried again at the next check")
            continue
        except Exception as exc:  # one game's trouble must not stop the others
            log.exception("deadline %s of game %s failed", row.id, row.game_id)
            lines.append(f"{row.game_id}: deadline {row.id} failed: {type(exc).__name__}: {exc}")
            continue
        lines.extend(done.log)
    unit.run(store, lambda _lookup, _now: Outcome(beat=now))
    return lines


def service_started(
    store: EventStore, moderator_address: str, now: datetime, *, max_outage: timedelta
) -> list[str]:
    """
    At start-up: if the service was down (no heartbeat) for longer than ``max_outage``,
    every running deadline is extended by the time it was down, and the moderator and
    the players are told by mail; then whatever is due is dealt with as usual.
    """
    lines = after_outage(store, moderator_address, now, max_outage)
    return [*lines, *check_deadlines(store, moderator_address, now)]


def after_outage(
    store: EventStore, sender: str, now: datetime, max_outage: timedelta
) -> list[str]:
    """Extend every running deadline if the heartbeat is older than ``max_outage``."""
    outage = unit.read(store, lambda lookup, _now: outages.outage_of(lookup, now, max_outage, sender))
    if outage is None:
        return []
    moved: list[str] = []
    for game_id in outage.games:
        moved.extend(unit.run(store, _moving(outage, game_id, now)).log)
    return list(unit.run(store, lambda _l, _n: outages.summary(outage, moved, max_outage, now)).log)


def _at(due: clockwork.Due, now: datetime) -> unit.Decide:
    """``deadline_due`` at the check's ``now`` (every deadline of a check sees one moment)."""
    return lambda lookup, _now: clockwork.deadline_due(due, lookup, now)


def _moving(outage: outages.Outage, game_id: str, now: datetime) -> unit.Decide:
    return lambda lookup, _now: outages.moved_on(outage.of(game_id), lookup, now)


__all__ = ["after_outage", "check_deadlines", "service_started"]
