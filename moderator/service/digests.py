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

from moderator.ports import Deadline, DeadlineChange, GameContext, Work, game_write
from moderator.ports.deadlines import DIGEST, DONE
from moderator.rules.state import Step
from moderator.schedule import notify as notify_choice
from moderator.service import notify
from moderator.store import Tx, players
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write

#: The ``step`` of every digest deadline (one per player and game).
STEP = "digest"


def digest_change(
    stored: str | None, player: str, now: datetime, time_zone: str
) -> DeadlineChange:
    """The digest deadline a notification choice calls for: the next one, or none."""
    choice = notify_choice.choice_of(stored)
    due = notify_choice.next_digest(choice, now, time_zone)
    return DeadlineChange(DIGEST, due, player, STEP)


def send_digest(tx: Tx, sender: str, row: Deadline, now: datetime) -> list[str]:
    """``row``'s player's digest, and his next one; one line per thing done."""
    write(tx, Work(closed=((row.id, DONE),)))
    loaded = tx.load(row.game_id)
    seat = row.player or ""
    seated = players.seated_players(tx, row.game_id)
    player = seated.get(seat)
    choice = notify_choice.choice_of(loaded.record.notify.get(seat))
    if player is None or choice.mode != notify_choice.DIGEST or loaded.state.step is Step.OVER:
        return []
    context = GameContext(row.game_id, loaded.state, loaded.seq, loaded.record, {})
    record, mails, _ = notify.report_round(
        sender, context, SqlLookup(tx), [], loaded.state, loaded.record, set(),
        catch_up=frozenset({seat}), digest=True,
    )
    following = digest_change(loaded.record.notify.get(seat), seat, now, player.time_zone)
    game = game_write(row.game_id, loaded.seq, [], record=record, deadlines=(following,))
    write(tx, Work(games=(game,), mails=tuple(mails)), game_id=row.game_id)
    told = "sent" if mails else "not needed (nothing new)"
    return [f"{row.game_id}: {seat}'s daily digest {told}"]
