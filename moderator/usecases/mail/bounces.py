"""
Bounces of the moderator's own mail: an undelivered report is not a late player, and a
mail that only looks like a bounce is not one.

Every mail goes out with a VERP return path naming its outbox row
(``moderator.mail.verp``, used by ``moderator.runtime.sender``), so the bounce, which
goes back to the return path, says which mail did not arrive.  But a player sees his
own return paths (``Return-Path``), and a mail anybody writes may look like a bounce:
a believed bounce must not let a player stop his own clock (Wolff 21.0).  ``handle``
takes a mail the intake read as a bounce (``moderator.mail.intake.bounce_of``):

1. it finds the mail: by the return path the bounce was delivered to (its tag checked
   against the moderator's key), else by a Message-ID of ours that the bounce quotes,
   when the recipient that failed is that mail's;
2. it believes the bounce only if it is a delivery report (RFC 3464) whose block for
   that mail's recipient says ``failed`` with a 5.x.x status, sent neither from the
   address of a player (``From``, ``Sender``, ``Return-Path``) nor signed by a player's
   key (``doubt``).  Anything else is logged and dropped, answered to nobody, and the
   mail is not marked;
3. it marks the outbox row ``undelivered``, the bounce's reason in ``last_error``;
4. when the mail went to a player seated in a game with time limits, it pauses his
   deadline for ``pause`` (the setting ``bounce_pause_hours``), once per deadline
   (``schedule.timing.undelivered``): meanwhile no reminder and no timeout comes.  The
   pause ends at its time (a ``BOUNCE_END`` deadline: ``moderator.usecases.clock.bounce_clock``)
   or at his next authenticated mail (``delivered``), and the deadline he was on runs
   on with the time it had left;
5. it tells the game master (``gm_address``) and a tournament game's director of every
   bounce it believes: whose mail, the failure as the bounce gives it, and what became
   of his deadline (paused until when, paused already, or paused once already and
   running on).  They hear again when the pause ends.

The other players are not mailed: they could do nothing about it, mail is what issue 15
asks to spare, and their reports show that no deadline runs.  Nothing is sent to the
player whose mail bounces.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta

from moderator.letters import bounces as letters

#: What a believed bounce did to the deadline of the player whose mail bounced.
from moderator.letters.bounces import ALREADY, NO_LIMITS, ONCE, PAUSED
from moderator.letters.moments import moment_line
from moderator.mail import verp
from moderator.mail.intake import Bounce
from moderator.ports import (
    DeadlineChange,
    GameContext,
    GameWrite,
    Lookup,
    Outcome,
    OutgoingMail,
    Player,
    StoredMail,
    game_write,
)
from moderator.ports.deadlines import BOUNCE_END, BOUNCE_STEP, deadline_change
from moderator.ports.mail import UNDELIVERED
from moderator.ports.players import normal_address
from moderator.records import record
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.schedule import timing
from moderator.schedule.record import GameRecord
from moderator.usecases.games import notify

log = logging.getLogger(__name__)

#: How long a believed bounce pauses a deadline, unless the setting says otherwise.
PAUSE = timedelta(hours=48)

@record
class Returned:
    """A mail of ours a bounce returns, and how it was recognised."""

    mail: StoredMail
    how: str


def handle(
    bounce: Bounce,
    game: GameContext | None,
    lookup: Lookup,
    now: datetime,
    *,
    moderator_address: str,
    verp_key: bytes | None,
    gm_address: str | None,
    pause: timedelta = PAUSE,
    signer: str | None = None,
) -> Outcome | None:
    """
    What a bounce does at ``now`` (see the module's text); None when it returns no mail of ours
    (the handler drops it).  ``game`` is the message's own game, if the handler found
    one: its changes then go in the outcome's record, not in ``games``.  ``signer``: the
    fingerprint of the bounce's good signature, if it has one.
    """
    returned = find(bounce, lookup, moderator_address, verp_key)
    if returned is None:
        log.info("bounce dropped: it returns no mail of ours (%s)", bounce.reason)
        return None
    mail = returned.mail
    why = doubt(bounce, mail, lookup, signer)
    if why is not None:
        log.info("bounce of mail %s not believed, dropped: %s", mail.id, why)
        note = f"dropped: a bounce of mail {mail.id} not believed: {why}"
        return Outcome(rejected=True, note=note)
    if mail.status == UNDELIVERED:
        return Outcome(rejected=True, note=f"dropped: mail {mail.id} bounced before")
    reason = _reason(bounce, mail)
    # ``mail list --bounced`` (store.mail_status) finds a mail's bounce by this note's start
    note = f"mail {mail.id} to {mail.recipient} undelivered ({returned.how}): {reason}"
    marked = Outcome(undelivered=((mail.id, reason),), note=note)
    same = game is not None and game.game_id == mail.game_id
    played = game if same else lookup.game(mail.game_id) if mail.game_id else None
    seat = _seat(played, mail.recipient)
    if played is None or seat is None:
        return marked
    told = _told(lookup, gm_address, played, mail.recipient)
    verdict, record, change = _pause(played, seat, now, pause, told)
    shown = record.undelivered.get(seat)
    until = shown.until if shown is not None else None
    mails = tell(
        lookup, moderator_address, told, played, seat, returned, bounce, now, verdict, until
    )
    said = f"{seat}'s deadline {verdict}" + (f" until {timing.iso(until)}" if until else "")
    marked = replace(marked, mails=tuple(mails), note=f"{note}; {said}")
    if verdict != PAUSED:
        return marked
    assert until is not None
    rows = (*deadline_change(change), DeadlineChange(BOUNCE_END, until, seat, BOUNCE_STEP))
    if same:
        return replace(marked, record=record, deadlines=rows)
    paused = game_write(played.game_id, played.seq, record=record, deadlines=rows)
    return replace(marked, games=(paused,))


def find(
    bounce: Bounce, lookup: Lookup, moderator_address: str, verp_key: bytes | None
) -> Returned | None:
    """
    The mail of ours ``bounce`` returns: the one its return path names (with a good
    tag), else one whose Message-ID it quotes and whose recipient failed.
    """
    if verp_key is not None:
        for address in bounce.delivered_to:
            mail_id = verp.mail_of(address, moderator_address, verp_key)
            found = lookup.outbox_mail(mail_id) if mail_id is not None else None
            if found is not None:
                return Returned(found, f"by its return path {address}")
    for message_id in bounce.returned:
        found = lookup.outbox_mail_by_message_id(message_id)
        if found is not None and normal_address(found.recipient) in bounce.failed:
            return Returned(found, f"by its Message-ID {message_id}")
    return None


def doubt(bounce: Bounce, mail: StoredMail, lookup: Lookup, signer: str | None) -> str | None:
    """
    Why ``bounce`` of ``mail`` is not believed, or None: it must be a delivery report
    whose block for the mail's recipient failed for good, from no player's address and
    signed by no player's key.  A mailer daemon is never a player; a player who forges
    a bounce of his own report to stop his clock usually is one.
    """
    recipient = normal_address(mail.recipient)
    if not bounce.recipients:
        return "it is no delivery status notification (RFC 3464)"
    status = bounce.status_for(recipient)
    if status is None:
        blocks = "; ".join(block.line for block in bounce.recipients[:5])
        return f"its report says nothing of {recipient} (only {blocks})"
    if not status.permanent:
        return f"its report says {status.line} for {recipient}, not failed with 5.x.x"
    for address in bounce.senders:
        if lookup.player(address) is not None:
            return f"it was sent from {address}, a player's address"
    if signer and lookup.players_with_key(signer):
        return f"it is signed by a player's key ({signer})"
    return None


def _reason(bounce: Bounce, mail: StoredMail) -> str:
    """The failure in one line, from the report's block for the mail's recipient."""
    status = bounce.status_for(normal_address(mail.recipient))
    if status is None:
        return bounce.reason
    said = [f"failed: {status.final or status.original}", f"status {status.status}"]
    return "; ".join([*said, status.diagnostic] if status.diagnostic else said)


def _pause(
    game: GameContext, seat: str, now: datetime, pause: timedelta, told: tuple[str, ...]
) -> tuple[str, GameRecord, timing.Change | None]:
    """What a believed bounce does to ``seat``'s deadline: the verdict, record, change."""
    record = game.record
    if seat in record.undelivered:
        return ALREADY, record, None
    if record.time_limits is None:
        return NO_LIMITS, record, None
    if timing.paused_once(record, seat):
        return ONCE, record, None
    record, change = timing.undelivered(game.state, record, seat, now, now + pause, told)
    return PAUSED, record, change


@record
class Cleared:
    """
    What a player's authenticated mail changes of his paused deadlines (``delivered``):
    the message's ``game`` with its record resumed (``record``: that record, None if
    it did not change), that game's deadline ``rows``, the writes of his ``others``, and
    the ``mails`` telling those who heard of each pause that it is over.
    """

    game: GameContext | None
    record: GameRecord | None = None
    rows: tuple[DeadlineChange, ...] = ()
    others: tuple[GameWrite, ...] = ()
    mails: tuple[OutgoingMail, ...] = ()

    def keep(self, outcome: Outcome) -> Outcome:
        """
        ``outcome`` of the mail's flow with these changes: the message's game keeps
        its resumed record even when the flow changed nothing, the resumed deadline
        comes before the flow's own deadline changes, the other games' writes and the
        notices go too.
        """
        if self.record is not None:
            record = outcome.record if outcome.record is not None else self.record
            outcome = replace(outcome, record=record, deadlines=(*self.rows, *outcome.deadlines))
        if self.others:
            outcome = replace(outcome, games=(*outcome.games, *self.others))
        if self.mails:
            outcome = replace(outcome, mails=(*outcome.mails, *self.mails))
        return outcome


def delivered(
    player: Player, game: GameContext | None, lookup: Lookup, now: datetime, sender: str
) -> Cleared:
    """
    ``player``'s authenticated mail shows he reads his mail: at ``now`` his pause ends in every
    game he sits in (``timing.resume``: the deadline he was on runs on with the time it
    had left), its ``BOUNCE_END`` row is closed, and those told of the pause hear it is
    over.  ``game`` is the message's own game, held by the runner.
    """
    cleared = Cleared(game)
    others: list[GameWrite] = []
    mails: list[OutgoingMail] = []
    for game_id, seat in lookup.games_of(player.address):
        if game is not None and game_id == game.game_id:
            if seat in game.record.undelivered:
                record, rows = resumed(game, seat, now)
                mails.extend(over(lookup, sender, game, record, seat, now, by_mail=True))
                cleared = Cleared(replace(game, record=record), record, rows)
            continue
        stored = lookup.record(game_id)
        other = lookup.game(game_id) if stored is not None and seat in stored.undelivered else None
        if other is not None:
            record, rows = resumed(other, seat, now)
            mails.extend(over(lookup, sender, other, record, seat, now, by_mail=True))
            others.append(game_write(game_id, other.seq, record=record, deadlines=rows))
    return replace(cleared, others=tuple(others), mails=tuple(mails))


def resumed(
    game: GameContext, seat: str, now: datetime
) -> tuple[GameRecord, tuple[DeadlineChange, ...]]:
    """``seat``'s pause over at ``now``: the game's record and its deadline rows."""
    record, change = timing.resume(game.state, game.record, seat, now)
    ended = DeadlineChange(BOUNCE_END, None, seat, BOUNCE_STEP)
    return record, (*deadline_change(change), ended)


def over(
    lookup: Lookup,
    sender: str,
    game: GameContext,
    record: GameRecord,
    seat: str,
    now: datetime,
    *,
    by_mail: bool,
) -> list[OutgoingMail]:
    """The notice that ``seat``'s pause is over, to those who heard of it."""
    pause = game.record.undelivered.get(seat)
    if pause is None:
        return []
    mails: list[OutgoingMail] = []
    for reader in _readers(lookup, pause.told):
        zone = reader.time_zone
        running = timing.current(record)
        texts = letters.pause_over(
            game.game_id,
            seat,
            since=moment_line(pause.since, zone),
            ended=moment_line(now, zone),
            by_mail=by_mail,
            to_act=to_act(game.state) == seat,
            due=moment_line(running.due, zone)
            if running is not None and running.player == seat
            else "",
            over=game.state.step is Step.OVER,
        )
        mails.append(notify.mail_to(sender, reader, notify.NOTICE, texts, game.game_id, {}))
    return mails


def tell(
    lookup: Lookup,
    sender: str,
    told: tuple[str, ...],
    game: GameContext,
    seat: str,
    returned: Returned,
    bounce: Bounce,
    now: datetime,
    verdict: str = PAUSED,
    until: datetime | None = None,
) -> list[OutgoingMail]:
    """
    The notice of a believed bounce to ``told`` (the game master and a tournament
    game's director): ``game`` as it was before the bounce, ``verdict`` what the bounce
    did to ``seat``'s deadline, ``until`` when his pause ends.
    """
    mail = returned.mail
    status = bounce.status_for(normal_address(mail.recipient))
    before = timing.current(game.record)
    mails: list[OutgoingMail] = []
    for reader in _readers(lookup, told):
        zone = reader.time_zone
        texts = letters.undelivered(
            letters.Undelivered(
                game=game.game_id,
                seat=seat,
                address=mail.recipient,
                kind=mail.kind or "mail",
                subject=mail.subject,
                written=moment_line(mail.created_at or now, zone),
                message_id=mail.message_id,
                mail_id=mail.id,
                failed=", ".join(bounce.failed),
                status=status.status if status is not None else bounce.status,
                diagnostic=status.diagnostic if status is not None else bounce.diagnostic,
                arrived=moment_line(now, zone),
                how=returned.how,
                verdict=verdict,
                was_due=moment_line(before.due, zone)
                if before is not None and before.player == seat
                else "",
                until=moment_line(until, zone) if until is not None else "",
                tournament=bool(game.record.tournament),
                to_act=to_act(game.state) == seat,
            )
        )
        mails.append(notify.mail_to(sender, reader, notify.NOTICE, texts, game.game_id, {}))
    return mails


def _told(
    lookup: Lookup, gm_address: str | None, game: GameContext, recipient: str
) -> tuple[str, ...]:
    """Who hears of a bounce: the game master and a tournament game's director, not him."""
    addresses = [gm_address] if gm_address else []
    if game.record.tournament:
        addresses.append(lookup.director(game.record.tournament) or "")
    his = normal_address(recipient)  # his mail bounces: telling him would bounce too
    found = (normal_address(a) for a in addresses if a)
    return tuple(dict.fromkeys(a for a in found if a != his))


def _readers(lookup: Lookup, addresses: tuple[str, ...]) -> list[Player]:
    """The players (or a game master nobody registered) at ``addresses``."""
    return [
        lookup.player(a) or Player(0, "Game master", a, "UTC", None, None) for a in addresses
    ]


def _seat(game: GameContext | None, recipient: str) -> str | None:
    """The seat ``recipient`` holds in ``game``, while it is in play."""
    if game is None or game.state.step is Step.OVER:
        return None
    seat = game.seats.get(normal_address(recipient))
    return seat if seat is not None and game.state.has_player(seat) else None


__all__ = [
    "ALREADY",
    "NO_LIMITS",
    "ONCE",
    "PAUSE",
    "PAUSED",
    "Cleared",
    "Returned",
    "delivered",
    "doubt",
    "find",
    "handle",
    "over",
    "resumed",
    "tell",
]
