"""
Time limits (Wolff 21.0) and the deadline that follows the acting player.  Pure: no
I/O, no clock (the moment is always passed in).

A game has time limits when its record holds them (``GameRecord.time_limits``, set
at creation): Wolff 20.4 leaves refusal to play to a tournament director unless
time limits were set at the start, so a game without them has no deadlines.

At every moment one player is to act (Wolff 1.3) in a step of one **kind**: ``setup``
(colours), ``turn`` (split, roll and move on the masterboard), ``engagement`` (choosing
the next engagement, flight, negotiation, a summons or reinforcement after a battle,
an angel for points), ``battle`` (a step on the battleland) or ``muster``.  A deadline
starts whenever the player to act or the kind of step changes (``step_key``), and runs
for the kind's limit; while the same player goes on acting in the same kind of step,
the same deadline runs on.  A deadline whose time overlaps one of the acting player's
absences ends the kind's limit after that absence ends (``deadline_for``).

A player whose mail bounces (``GameRecord.undelivered``) is not late: an undelivered
report is not a player who will not answer.  A bounce the service believes pauses his
deadline (``undelivered``) for a bounded time, once per deadline (``paused_once``):
while he is paused no deadline runs against him (``follow`` sets none, so there is no
reminder and no timeout).  The pause ends when its time is up or when a mail of his
shows he reads his mail again (``resume``): the deadline he was on runs on with the
time it had left, and one that would have started during the pause starts then.

The game's record keeps the current deadline (``GameRecord.deadline``: when it falls,
what the reports print in each player's zone, and what it times: the step key, the
player, the kind, when it started).  The ``deadline`` table mirrors it for the
service's clock (``moderator.store.deadlines``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from moderator.records import record
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule.limits import (
    BATTLE,
    ENGAGEMENT,
    KINDS,
    MUSTER,
    SETUP,
    TURN,
    TimeLimits,
)
from moderator.schedule.record import Deadline, GameRecord, Undelivered, iso, moment

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


@record
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


def absences_of(record: GameRecord, player: str) -> list[tuple[datetime, datetime]]:
    """``player``'s absences in the game (declared, not cancelled before they began)."""
    return [(a.begins, a.ends) for a in record.absences_of(player) if a.ends > a.begins]


def _with_deadline(
    record: GameRecord, key: str, player: str, kind: str, started: datetime, due: datetime
) -> GameRecord:
    return record.but(deadline=Deadline(key, player, kind, started, due))


def _running(record: GameRecord) -> Deadline | None:
    """The deadline running, if it times a step (one set by hand times none)."""
    return record.deadline if record.deadline is not None and record.deadline.key else None


def follow(
    state: GameState, record: GameRecord, now: datetime
) -> tuple[GameRecord, Change | None]:
    """
    The deadline after a change that led to ``state``: the game's record with it, and
    how it changed (None: the running deadline goes on, or the game has no limits).
    """
    limits = record.time_limits
    if limits is None:  # a deadline a GM wrote in by hand is shown, never enforced
        return record, None
    running = _running(record)
    key = step_key(state)
    if key is None:
        if record.deadline is None:
            return record, None
        return record.but(deadline=None), Change(None, None, None, None)
    player = to_act(state)
    if player in record.undelivered:  # his mail bounces: nothing runs against him
        if record.deadline is None:
            return record, None
        return record.but(deadline=None), Change(None, None, None, None)
    if running is not None and running.key == key:
        return record, None
    kind = step_kind(state)
    assert player is not None and kind is not None
    due = deadline_for(limits, kind, now, absences_of(record, player))
    change = Change(key, player, kind, due, reminders_behind(limits, due, now))
    return _with_deadline(record, key, player, kind, now, due), change


def paused_once(record: GameRecord, player: str) -> bool:
    """Whether the deadline running against ``player`` was paused by a bounce already."""
    running = _running(record)
    return (
        running is not None
        and running.player == player
        and record.bounce_paused.get(player) == running.key
    )


def undelivered(
    state: GameState,
    record: GameRecord,
    player: str,
    since: datetime,
    until: datetime,
    told: tuple[str, ...] = (),
) -> tuple[GameRecord, Change | None]:
    """
    ``player``'s mail bounced at ``since``: his deadline paused until ``until`` at the
    latest.  The record with him in ``undelivered`` (the deadline running against him
    held there, and named in ``bounce_paused``) and the deadline as ``follow`` then has
    it (none, while he is the player to act).  Unchanged when he is paused already or
    his deadline was paused once (``paused_once``).
    """
    if player in record.undelivered or paused_once(record, player):
        return record, None
    running = _running(record)
    held = running if running is not None and running.player == player else None
    pause = Undelivered(since, until, held, told)
    record = record.but(undelivered={**record.undelivered, player: pause})
    if held is not None:
        record = record.but(bounce_paused={**record.bounce_paused, player: held.key})
    return follow(state, record, since)


def resume(
    state: GameState, record: GameRecord, player: str, now: datetime
) -> tuple[GameRecord, Change | None]:
    """
    ``player``'s pause is over at ``now`` (its time is up, or a mail of his came): the
    record without him in ``undelivered``.  If he is to act, the deadline he was on
    runs on, moved later by the time paused (its reminders counted again), and is named
    in ``bounce_paused``; a deadline that would have started during the pause starts
    ``now``.  Otherwise the deadline is as ``follow`` has it.
    """
    pause = record.undelivered.get(player)
    if pause is None:
        return record, None
    rest = {seat: held for seat, held in record.undelivered.items() if seat != player}
    record = record.but(undelivered=rest)
    key = step_key(state)
    limits = record.time_limits
    if limits is None or key is None or to_act(state) != player:
        return follow(state, record, now)
    record = record.but(bounce_paused={**record.bounce_paused, player: key})
    held = pause.held
    if held is None or held.key != key:
        return follow(state, record.but(deadline=None), now)
    paused = max(now - pause.since, timedelta(0))
    due, started = held.due + paused, held.started + paused
    change = Change(key, player, held.kind, due, reminders_behind(limits, due, now))
    return _with_deadline(record, key, player, held.kind, started, due), change


def recompute(record: GameRecord, now: datetime) -> tuple[GameRecord, Change | None]:
    """
    The running deadline again after the acting player's absences changed: from when
    it started, with his absences now, but never earlier than the game's minimum from
    ``now`` when it moves earlier.  None: it did not move.
    """
    limits = record.time_limits
    running = _running(record)
    if limits is None or running is None:
        return record, None
    due = deadline_for(limits, running.kind, running.started, absences_of(record, running.player))
    if due < running.due:
        due = min(running.due, max(due, now + limits.minimum))
    if due == running.due:
        return record, None
    change = Change(
        running.key, running.player, running.kind, due, reminders_behind(limits, due, now)
    )
    return (
        _with_deadline(record, running.key, running.player, running.kind, running.started, due),
        change,
    )


def extend(record: GameRecord, by: timedelta, now: datetime) -> tuple[GameRecord, Change | None]:
    """
    The running deadline moved ``by`` later (after an outage of the service), and at
    least the game's minimum from ``now``.  None: there is no deadline running.
    """
    limits = record.time_limits
    running = _running(record)
    if limits is None or running is None:
        return record, None
    due = max(running.due + by, now + limits.minimum)
    change = Change(
        running.key, running.player, running.kind, due, reminders_behind(limits, due, now)
    )
    return (
        _with_deadline(record, running.key, running.player, running.kind, running.started, due),
        change,
    )


def current(record: GameRecord) -> Deadline | None:
    """The deadline running now (one that times a step)."""
    return _running(record)


__all__ = [
    "BATTLE",
    "ENGAGEMENT",
    "KINDS",
    "KIND_NAMES",
    "MUSTER",
    "SETUP",
    "TURN",
    "Change",
    "TimeLimits",
    "absences_of",
    "current",
    "deadline_for",
    "extend",
    "follow",
    "iso",
    "moment",
    "paused_once",
    "recompute",
    "reminders_behind",
    "resume",
    "step_key",
    "step_kind",
    "undelivered",
]
