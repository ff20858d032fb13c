"""
The clock's half of a bounce's pause (``moderator.service.bounces``): when the time a
believed bounce paused a player's deadline for is up (a ``BOUNCE_END`` deadline), the
deadline he was on runs again with the time it had left (``schedule.timing.resume``),
and the game master and a tournament game's director, who heard of the pause, hear
that it is over.  ``service.clockwork`` calls ``pause_over`` in the game's transaction.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import Deadline, GameContext, Work, game_write
from moderator.ports.deadlines import DONE
from moderator.schedule import timing
from moderator.service import bounces
from moderator.store import Tx, players
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write


def pause_over(tx: Tx, sender: str, row: Deadline, now: datetime) -> list[str]:
    """``row``'s pause is over at ``now``: his deadline runs again; returns a log line."""
    write(tx, Work(closed=((row.id, DONE),)))
    loaded = tx.load(row.game_id)
    seat = row.player or ""
    if seat not in loaded.record.undelivered:  # a mail of his ended it meanwhile
        return []
    game = GameContext(
        row.game_id, loaded.state, loaded.seq, loaded.record, players.seats(tx, row.game_id)
    )
    record, rows = bounces.resumed(game, seat, now)
    mails = bounces.over(SqlLookup(tx), sender, game, record, seat, now, by_mail=False)
    resumed = game_write(row.game_id, loaded.seq, record=record, deadlines=rows)
    write(tx, Work(games=(resumed,), mails=tuple(mails)), game_id=row.game_id)
    running = timing.current(record)
    shown = timing.iso(running.due) if running is not None else "none"
    return [f"{row.game_id}: {seat}'s bounce pause is over; deadline now {shown}"]


__all__ = ["pause_over"]
