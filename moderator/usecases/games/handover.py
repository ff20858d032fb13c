"""
A seat handed to another player (the operator's or a director's ``replace``, a standby
taking it): what the old holder leaves behind is cleared in the same unit of work.

``schedule.seats.handed`` drops from the record what was his rather than the seat's (his
misses, standing orders, absences, ``notify`` and ``pictures`` choices); here the
deadline rows those absences and a daily digest kept open are closed with it, and the new
holder is told which choices he starts with, since he never wrote them.  The old holder
is named among the seat's former holders (``schedule.holders``).
"""

from __future__ import annotations

from moderator.ports import DeadlineChange
from moderator.ports.deadlines import ABSENCE_END, DIGEST
from moderator.schedule import holders, seats
from moderator.schedule import notify as notify_choice
from moderator.schedule import pictures as pictures_choice
from moderator.schedule.record import GameRecord
from moderator.usecases.games.digests import STEP as DIGEST_STEP


def handed(
    record: GameRecord, seat: str, old_address: str, at: int
) -> tuple[GameRecord, tuple[DeadlineChange, ...]]:
    """
    The record once ``seat`` changed hands at the game's version ``at``, ``old_address``
    named among its former holders (``schedule.holders``: the messages relayed to him
    stay his, and he is sent the public audit bundle at the end); and the deadline rows
    of his absences and digest closed (an absence of his would otherwise end, and be
    announced, in the new holder's time).
    """
    former = holders.handed_over(record.former, seat, old_address, at)
    rows = [DeadlineChange(ABSENCE_END, None, seat, a.key) for a in record.absences_of(seat)]
    if notify_choice.choice_of(record.notify.get(seat)).mode == notify_choice.DIGEST:
        rows.append(DeadlineChange(DIGEST, None, seat, DIGEST_STEP))
    return seats.handed(record, seat).but(former=former), tuple(rows)


def choices_lines() -> list[str]:
    """What the new holder is told of the choices he starts with, and how to change them."""
    return [
        (
            f"You start with the default choices 'notify {notify_choice.DEFAULT}' and "
            f"'pictures {pictures_choice.DEFAULT}': the seat's former holder's choices and "
            "absences were his and ended with his play. To change them, write a line such "
            "as 'notify all', 'notify digest 18:00' or 'pictures none' in a mail to the "
            "game; 'absent from YYYY-MM-DD to YYYY-MM-DD' declares an absence of yours."
        )
    ]


__all__ = ["choices_lines", "handed"]
