"""
Deadlines as the use cases decide and read them: a change to one of a game's deadlines
(``DeadlineChange``, which the unit of work applies), a deadline row as read back
(``Deadline``), their kinds and states, and the pure steps from the schedule's policy to
the changes to write.  The store keeps the rows (``moderator.store.deadlines``).

A game has at most one open **acting** deadline (any kind but ``GAME_END``,
``ABSENCE_END``, ``BOUNCE_END`` and ``DIGEST``): it follows the player to act.
``GAME_END`` is the game's end date (Wolff 21.1); ``ABSENCE_END`` the end of one
player's absence (its ``step`` names the absence); ``BOUNCE_END`` the end of the pause a
bounce of his mail gave one player's deadline (``step``: ``BOUNCE_STEP``); ``DIGEST`` the
next daily digest of a player who chose one; ``ROBOT_TURN`` the moment a robot that
holds the seat to act gives its order, in a game whose robots wait.  ``reminded`` counts the reminders already
sent for a deadline.
"""

from __future__ import annotations

from datetime import datetime

from moderator.records import record
from moderator.rules.state import GameState
from moderator.schedule import timing
from moderator.schedule.record import GameRecord

__all__ = [
    "ABSENCE_END",
    "BOUNCE_END",
    "BOUNCE_STEP",
    "CANCELLED",
    "DIGEST",
    "DONE",
    "DUE",
    "GAME_END",
    "NOT_ACTING",
    "ROBOT_TURN",
    "Deadline",
    "DeadlineChange",
    "Due",
    "deadline_change",
    "rows_touched",
    "with_time_limits",
]

#: Deadline states.
DUE, DONE, CANCELLED = "due", "done", "cancelled"
#: Kinds of deadline that do not follow the player to act.
GAME_END, ABSENCE_END, DIGEST = "game-end", "absence-end", "digest"
#: The end of a bounce's pause of a player's deadline, and the ``step`` of its row.
BOUNCE_END, BOUNCE_STEP = "bounce-end", "bounce"
#: The moment a robot holding the seat to act gives its order, in a game whose robots
#: wait (``GameRecord.robot_delay``; ``step``: the step it waits on, ``player``: the seat).
ROBOT_TURN = "robot"
NOT_ACTING = (GAME_END, ABSENCE_END, BOUNCE_END, DIGEST, ROBOT_TURN)


@record
class Deadline:
    id: int
    game_id: str
    player: str | None
    kind: str
    due_at: datetime
    status: str
    step: str | None = None
    seq: int | None = None
    reminded: int = 0
    created_at: datetime | None = None

    @property
    def acting(self) -> bool:
        """Whether it follows the player to act (not a game's end, an absence's, a pause's)."""
        return self.kind not in NOT_ACTING


@record
class Due:
    """
    What the clock's deciders are asked: a deadline ``row`` to deal with (as the runner
    read it, or as the decider read it again), its mails to come from ``sender``.
    """

    row: Deadline
    sender: str


@record
class DeadlineChange:
    """
    A change to one of a game's deadlines, as a use case returns it (the unit of work
    applies it with the game's events).  ``due_at`` None closes the deadline.

    - an acting ``kind``: the game's acting deadline is now this one (``step``); an open
      one for another step is cancelled, one for the same step moved to ``due_at``;
    - ``GAME_END``: the game's end date;
    - ``ABSENCE_END``: the end of ``player``'s absence named ``step``;
    - ``BOUNCE_END``: the end of ``player``'s bounce pause (``step``: ``BOUNCE_STEP``);
    - ``DIGEST``: ``player``'s next daily digest (``step``: ``digest``);
    - ``ROBOT_TURN``: the robot holding seat ``player`` acts in step ``step``.
    """

    kind: str
    due_at: datetime | None
    player: str | None = None
    step: str | None = None
    reminded: int = 0


def rows_touched(
    found: list[Deadline], change: DeadlineChange
) -> tuple[Deadline | None, list[Deadline]]:
    """
    Which of a game's open rows ``change`` moves (the first it names, or None: a new row
    if it has a time) and which it cancels: the copies of that one and, for an acting
    change, the acting rows of other steps.  One rule for every store, so a fake cannot
    drift from the database's.
    """
    if change.kind == GAME_END:
        same = [row for row in found if row.kind == GAME_END]
        others: list[Deadline] = []
    elif change.kind in NOT_ACTING:
        same = [
            row
            for row in found
            if row.kind == change.kind and row.player == change.player and row.step == change.step
        ]
        others = []
    else:  # an acting deadline: at most one open, for the step the game waits on
        same = [row for row in found if row.acting and row.step == change.step and change.step]
        others = [row for row in found if row.acting and row not in same]
    return (same[0] if same else None), [*others, *same[1:]]


def deadline_change(change: timing.Change | None) -> tuple[DeadlineChange, ...]:
    """The ``deadline`` table's change for a change of the acting deadline."""
    if change is None:
        return ()
    row = DeadlineChange(change.kind or "", change.due, change.player, change.key, change.reminded)
    return (row,)


def with_time_limits(
    state: GameState,
    record: GameRecord,
    now: datetime,
    limits: timing.TimeLimits | None,
    ends_at: datetime | None = None,
) -> tuple[GameRecord, list[DeadlineChange]]:
    """
    A game's record with its time limits (and end date, Wolff 21.1) and the first
    deadline, and the ``deadline`` rows to write once the game's events are stored.
    """
    changes: list[DeadlineChange] = []
    if limits is not None:
        record, change = timing.follow(state, record.but(time_limits=limits), now)
        changes.extend(deadline_change(change))
    if ends_at is not None:
        if ends_at.tzinfo is None:
            msg = f"a game's end date needs a time zone ({ends_at!r})"
            raise ValueError(msg)
        record = record.but(ends_at=ends_at)
        changes.append(DeadlineChange(GAME_END, ends_at))
    return record, changes
