"""
Outages of the service (part of the clock's work, ``service.clockwork``): when the
heartbeat the clock writes every minute is older than ``max_outage``, the service was
down, and the players' mail may be waiting unread.  Every running deadline moves on by
the time it was down instead of timing players out, each game's players are told, and
the moderator gets a summary.  Each game is changed in a transaction of its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from moderator.letters import notices
from moderator.letters.moments import deadline_line, span
from moderator.ports import Player, Work, game_write
from moderator.ports.deadlines import deadline_change
from moderator.rules.legal import to_act
from moderator.schedule import timing
from moderator.service import notify
from moderator.store import EventStore, deadlines, players
from moderator.store.unit_of_work import write


def after_outage(store: EventStore, sender: str, now: datetime, max_outage: timedelta) -> list[str]:
    """Extend every running deadline if the heartbeat is older than ``max_outage``."""
    with store.reading() as tx:
        last = deadlines.heartbeat(tx)
        rows = deadlines.open_deadlines(tx)
    if last is None or now - last <= max_outage:
        return []
    down = now - last
    summary: list[str] = []
    for game_id in sorted({r.game_id for r in rows if r.acting}):
        with store.transaction() as tx:
            tx.game(game_id, lock=True)
            loaded = tx.load(game_id)
            record, change = timing.extend(loaded.record, down, now)
            if change is None or change.due is None:
                continue
            actor = to_act(loaded.state)
            seated = sorted(players.seated_players(tx, game_id).items())
            mails = [
                notify.mail_to(
                    sender,
                    player,
                    notify.NOTICE,
                    notices.outage(
                        game_id,
                        last,
                        now,
                        actor=actor,
                        deadline=deadline_line(record, player.time_zone),
                        time_zone=player.time_zone,
                    ),
                    game_id,
                    {},
                )
                for seat, player in seated
                if loaded.state.has_player(seat)
            ]
            moved = game_write(
                game_id, loaded.seq, record=record, deadlines=deadline_change(change)
            )
            write(tx, Work(games=(moved,), mails=tuple(mails)))
            summary.append(f"{game_id}: {actor} to act, deadline now {timing.iso(change.due)}")
    with store.transaction() as tx:
        moderator = Player(0, "Moderator", sender, "UTC", None, None)
        texts = notices.outage_summary(last, now, max_outage, summary)
        write(tx, Work(mails=(notify.mail_to(sender, moderator, notify.NOTICE, texts, None, {}),)))
        deadlines.beat(tx, now)
    head = (
        f"the service was down from {timing.iso(last)} to {timing.iso(now)}: "
        f"{len(summary)} deadline(s) extended by {span(down)}"
    )
    return [head, *summary]


__all__ = ["after_outage"]
