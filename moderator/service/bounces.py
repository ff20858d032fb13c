"""
Bounces of the moderator's own mail: an undelivered report is not a late player.

Every mail goes out with a VERP return path naming its outbox row
(``moderator.mail.verp``, used by ``moderator.runtime.sender``), so the bounce, which
goes back to the return path, says which mail did not arrive.  ``handle`` takes a mail
the intake read as a bounce (``moderator.mail.intake.bounce_of``):

1. it finds the mail: by the return path the bounce was delivered to (its tag checked
   against the moderator's key), else by a Message-ID of ours that the bounce quotes,
   when the recipient that failed is that mail's.  A bounce of no mail of ours, or with
   a forged tag, changes nothing and is dropped unanswered, as every bounce was before;
2. it marks the outbox row ``undelivered``, the bounce's reason in ``last_error``;
3. when the mail went to a player seated in its game, it puts him in the game's
   ``undelivered`` (``schedule.timing.undelivered``): no deadline runs against him, so
   no reminder and no timeout comes while his mail bounces;
4. it tells the game master (``gm_address``) and a tournament game's director, by a
   notice: whose mail, the failure as the bounce gives it, and that his deadline waits.

The other players are not mailed: they could do nothing about it, mail is what issue 15
asks to spare, and their reports show that no deadline runs.  Nothing is sent to the
player whose mail bounces.

``delivered`` is the other half: an authenticated mail of the player shows he reads his
mail again, so he leaves ``undelivered`` in every game he sits in, and the deadline
of the game that waits for him starts afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from moderator.mail import verp
from moderator.mail.intake import Bounce
from moderator.reporting.render import render
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.schedule import timing
from moderator.schedule.record import GameRecord
from moderator.service import notices, notify, reports
from moderator.store.deadlines import DeadlineChange, deadline_change
from moderator.store.inbox import GameContext, Lookup, Outcome
from moderator.store.outbox import OutgoingMail, StoredMail
from moderator.store.players import Player, normal_address
from moderator.store.tables import UNDELIVERED
from moderator.store.unit_of_work import GameWrite, game_write


@dataclass(frozen=True, slots=True)
class Returned:
    """A mail of ours a bounce returns, and how it was recognised."""

    mail: StoredMail
    how: str


def handle(
    bounce: Bounce,
    game: GameContext | None,
    lookup: Lookup,
    *,
    moderator_address: str,
    verp_key: bytes | None,
    gm_address: str | None,
) -> Outcome | None:
    """
    What a bounce does (see the module's text); None when it returns no mail of ours
    (the handler drops it).  ``game`` is the message's own game, if the handler found
    one: its changes then go in the outcome's record, not in ``games``.
    """
    returned = find(bounce, lookup, moderator_address, verp_key)
    if returned is None:
        return None
    mail = returned.mail
    if mail.status == UNDELIVERED:
        return Outcome(rejected=True, note=f"dropped: mail {mail.id} bounced before")
    note = f"mail {mail.id} to {mail.recipient} undelivered ({returned.how}): {bounce.reason}"
    marked = Outcome(undelivered=((mail.id, bounce.reason),), note=note)
    same = game is not None and game.game_id == mail.game_id
    played = game if same else lookup.game(mail.game_id) if mail.game_id else None
    seat = _seat(played, mail.recipient)
    if played is None or seat is None:
        return marked
    now = lookup.now()
    record, change = timing.undelivered(played.state, played.record, seat, now, now)
    if record == played.record:
        return replace(marked, note=f"{note}; {seat} is in undelivered already")
    rows = deadline_change(change)
    told = tell(lookup, moderator_address, gm_address, played, seat, returned, bounce, now)
    marked = replace(marked, mails=tuple(told), note=f"{note}; {seat}'s deadline waits")
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


@dataclass(frozen=True, slots=True)
class Cleared:
    """
    What a player's authenticated mail changes of his undelivered mail (``delivered``):
    the message's ``game`` with its record cleared (``record``: that record, None if
    it did not change), that game's deadline ``rows``, and the writes of his ``others``.
    """

    game: GameContext | None
    record: GameRecord | None = None
    rows: tuple[DeadlineChange, ...] = ()
    others: tuple[GameWrite, ...] = ()

    def keep(self, outcome: Outcome) -> Outcome:
        """
        ``outcome`` of the mail's flow with these changes: the message's game keeps
        its cleared record even when the flow changed nothing, the restarted deadline
        comes before the flow's own deadline changes, the other games' writes go too.
        """
        if self.record is not None:
            record = outcome.record if outcome.record is not None else self.record
            outcome = replace(outcome, record=record, deadlines=(*self.rows, *outcome.deadlines))
        if self.others:
            outcome = replace(outcome, games=(*outcome.games, *self.others))
        return outcome


def delivered(lookup: Lookup, player: Player, game: GameContext | None) -> Cleared:
    """
    ``player``'s authenticated mail shows he reads his mail: he leaves ``undelivered``
    in every game he sits in (``timing.delivered``; a game waiting for him starts his
    deadline afresh).  ``game`` is the message's own game, held by the runner.
    """
    now = lookup.now()
    cleared = Cleared(game)
    others: list[GameWrite] = []
    for game_id, seat in lookup.games_of(player.address):
        if game is not None and game_id == game.game_id:
            if seat in game.record.undelivered:
                record, change = timing.delivered(game.state, game.record, seat, now)
                cleared = Cleared(replace(game, record=record), record, deadline_change(change))
            continue
        stored = lookup.record(game_id)
        other = lookup.game(game_id) if stored is not None and seat in stored.undelivered else None
        if other is not None:
            record, change = timing.delivered(other.state, other.record, seat, now)
            rows = deadline_change(change)
            others.append(game_write(game_id, other.seq, record=record, deadlines=rows))
    return replace(cleared, others=tuple(others))


def tell(
    lookup: Lookup,
    sender: str,
    gm_address: str | None,
    game: GameContext,
    seat: str,
    returned: Returned,
    bounce: Bounce,
    now: datetime,
) -> list[OutgoingMail]:
    """The notice to the game master and a tournament game's director."""
    addresses = [gm_address] if gm_address else []
    if game.record.tournament:
        addresses.append(lookup.director(game.record.tournament) or "")
    mail = returned.mail
    mails: list[OutgoingMail] = []
    for address in dict.fromkeys(normal_address(a) for a in addresses if a):
        if address == normal_address(mail.recipient):
            continue  # his mail bounces: telling him would bounce too
        reader = lookup.player(address) or Player(0, "Game master", address, "UTC", None, None)
        zone = reader.time_zone
        running = timing.current(game.record)
        text = render(
            "gm.undelivered.txt.j2",
            game=game.game_id,
            seat=seat,
            address=mail.recipient,
            kind=mail.kind or "mail",
            subject=mail.subject,
            written=reports.moment_line(mail.created_at or now, zone),
            message_id=mail.message_id,
            mail_id=mail.id,
            failed=", ".join(bounce.failed),
            status=bounce.status,
            diagnostic=bounce.diagnostic,
            arrived=reports.moment_line(now, zone),
            how=returned.how,
            was_due=reports.moment_line(running.due, zone)
            if running is not None and running.player == seat
            else "",
            limits=game.record.time_limits is not None,
            to_act=to_act(game.state) == seat,
            tournament=bool(game.record.tournament),
        )
        subject = f"Undelivered: mail to {seat} in {game.game_id} bounced; his deadline waits"
        texts = reports.Texts(subject, text)
        mails.append(notify.mail_to(sender, reader, notices.NOTICE, texts, game.game_id, {}))
    return mails


def _seat(game: GameContext | None, recipient: str) -> str | None:
    """The seat ``recipient`` holds in ``game``, while it is in play."""
    if game is None or game.state.step is Step.OVER:
        return None
    seat = game.seats.get(normal_address(recipient))
    return seat if seat is not None and game.state.has_player(seat) else None


__all__ = ["Cleared", "Returned", "delivered", "find", "handle", "tell"]
