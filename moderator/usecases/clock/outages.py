"""
Outages of the service (part of the clock's work, ``usecases.clock.clockwork``): when the
heartbeat the clock writes every minute is older than ``max_outage``, the service was
down, and the players' mail may be waiting unread.  Every running deadline moves on by
the time it was down instead of timing players out, each game's players are told, and
the moderator gets a summary.  The clock's runner (``moderator.runners.clock``) asks
``outage_of`` whether there was one, applies ``moved_on`` for each game in a unit of
work of its own (asked ``outage.of(game)``), then ``summary`` with the heartbeat.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from moderator.letters import notices
from moderator.letters.moments import deadline_line, span
from moderator.ports import Lookup, Outcome, Player, game_write
from moderator.ports.deadlines import deadline_change
from moderator.records import record
from moderator.rules.legal import to_act
from moderator.schedule import timing
from moderator.usecases.games import notify


@record
class Outage:
    """The service was down from ``last`` (its last heartbeat) to the clock's ``now``;
    ``games``: those with a running deadline; mails come from ``sender``."""

    last: datetime
    games: tuple[str, ...]
    sender: str

    def of(self, game_id: str) -> OutageGame:
        """What ``moved_on`` is asked for ``game_id``."""
        return OutageGame(self, game_id)


@record
class OutageGame:
    """One game's part of an ``outage``: the ask of ``moved_on``."""

    outage: Outage
    game_id: str


def outage_of(lookup: Lookup, now: datetime, max_outage: timedelta, sender: str) -> Outage | None:
    """The outage ending at ``now``, if the heartbeat is older than ``max_outage``."""
    last = lookup.heartbeat()
    if last is None or now - last <= max_outage:
        return None
    games = sorted({row.game_id for row in lookup.open_deadlines() if row.acting})
    return Outage(last, tuple(games), sender)


def moved_on(ask: OutageGame, lookup: Lookup, now: datetime) -> Outcome:
    """The game's running deadline moved on by the outage, and its players told."""
    outage, game_id = ask.outage, ask.game_id
    game = lookup.game(game_id)
    if game is None:
        return Outcome()
    record, change = timing.extend(game.record, now - outage.last, now)
    if change is None or change.due is None:
        return Outcome()
    actor = to_act(game.state)
    seated = sorted(lookup.seated_players(game_id).items())
    mails = [
        notify.mail_to(
            outage.sender,
            player,
            notify.NOTICE,
            notices.outage(
                game_id,
                outage.last,
                now,
                actor=actor,
                deadline=deadline_line(record, player.time_zone),
                time_zone=player.time_zone,
            ),
            game_id,
            {},
        )
        for seat, player in seated
        if game.state.has_player(seat)
    ]
    moved = game_write(game_id, game.seq, record=record, deadlines=deadline_change(change))
    line = f"{game_id}: {actor} to act, deadline now {timing.iso(change.due)}"
    return Outcome(games=(moved,), mails=tuple(mails), log=(line,))


def summary(
    outage: Outage, moved: list[str], max_outage: timedelta, now: datetime
) -> Outcome:
    """The moderator's summary of the outage, and the heartbeat that ends it."""
    moderator = Player(0, "Moderator", outage.sender, "UTC", None, None)
    texts = notices.outage_summary(outage.last, now, max_outage, moved)
    mail = notify.mail_to(outage.sender, moderator, notify.NOTICE, texts, None, {})
    head = (
        f"the service was down from {timing.iso(outage.last)} to {timing.iso(now)}: "
        f"{len(moved)} deadline(s) extended by {span(now - outage.last)}"
    )
    return Outcome(mails=(mail,), beat=now, log=(head, *moved))


__all__ = ["Outage", "OutageGame", "moved_on", "outage_of", "summary"]
