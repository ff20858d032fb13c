"""
The clock's half of a bounce's pause (``moderator.usecases.mail.bounces``): when the time a
believed bounce paused a player's deadline for is up (a ``BOUNCE_END`` deadline), the
deadline he was on runs again with the time it had left (``schedule.timing.resume``),
and the game master and a tournament game's director, who heard of the pause, hear
that it is over.  ``usecases.clock.clockwork`` asks ``pause_over`` when the row is due.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import Due, Lookup, Outcome, game_write
from moderator.ports.deadlines import DONE
from moderator.schedule import timing
from moderator.usecases.mail import bounces


def pause_over(due: Due, lookup: Lookup, now: datetime) -> Outcome:
    """The pause of ``due``'s row is over at ``now``: his deadline runs again; the row is closed."""
    row, sender = due.row, due.sender
    closed = ((row.id, DONE),)
    game = lookup.game(row.game_id)
    seat = row.player or ""
    if game is None or seat not in game.record.undelivered:  # a mail of his ended it meanwhile
        return Outcome(closed=closed)
    record, rows = bounces.resumed(game, seat, now)
    mails = bounces.over(lookup, sender, game, record, seat, now, by_mail=False)
    resumed = game_write(row.game_id, game.seq, record=record, deadlines=rows)
    running = timing.current(record)
    shown = timing.iso(running.due) if running is not None else "none"
    line = f"{row.game_id}: {seat}'s bounce pause is over; deadline now {shown}"
    return Outcome(closed=closed, games=(resumed,), mails=tuple(mails), log=(line,))


__all__ = ["pause_over"]
