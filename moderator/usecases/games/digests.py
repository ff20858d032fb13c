"""
The daily digest of a player who chose ``notify digest HH:MM`` (``schedule.notify``).

His reports are held back except when he must act; once a day, at the hour he named in
his own time zone, a ``DIGEST`` deadline comes due and he is sent one report of all he
may see since his last one (nothing, if nothing happened).  The next day's digest is set
in the same transaction.  A player who changed his mind meanwhile (``notify turn``)
has his digest deadline closed by the mail that said so; one found still open is closed
here and not set again.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import DeadlineChange, Due, Lookup, Outcome, game_write
from moderator.ports.deadlines import DIGEST, DONE
from moderator.rules.state import Step
from moderator.schedule import notify as notify_choice
from moderator.usecases.games import notify
from moderator.usecases.games.asked import Asked

#: The ``step`` of every digest deadline (one per player and game).
STEP = "digest"


def digest_change(
    stored: str | None, player: str, now: datetime, time_zone: str
) -> DeadlineChange:
    """The digest deadline a notification choice calls for: the next one, or none."""
    choice = notify_choice.choice_of(stored)
    due = notify_choice.next_digest(choice, now, time_zone)
    return DeadlineChange(DIGEST, due, player, STEP)


def send_digest(due: Due, lookup: Lookup, now: datetime) -> Outcome:
    """The digest of ``due``'s row's player, and his next one; the row is closed."""
    row, sender = due.row, due.sender
    closed = ((row.id, DONE),)
    game = lookup.game(row.game_id)
    seat = row.player or ""
    player = lookup.seated_players(row.game_id).get(seat)
    if game is None or player is None:
        return Outcome(closed=closed)
    choice = notify_choice.choice_of(game.record.notify.get(seat))
    if choice.mode != notify_choice.DIGEST or game.state.step is Step.OVER:
        return Outcome(closed=closed)
    asked = Asked(catch_up=frozenset({seat}), digest=True)
    record, mails, _ = notify.report_round(
        sender, game, lookup, [], game.state, game.record, asked
    )
    following = digest_change(game.record.notify.get(seat), seat, now, player.time_zone)
    reported = game_write(row.game_id, game.seq, [], record=record, deadlines=(following,))
    told = "sent" if mails else "not needed (nothing new)"
    line = f"{row.game_id}: {seat}'s daily digest {told}"
    return Outcome(closed=closed, games=(reported,), mails=tuple(mails), log=(line,))
