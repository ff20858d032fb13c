"""
What a mail must pass before it may act, and the answers of the mails that do not.

The handler's flows (sign-on, play, tournament lines) trust what reaches them: a mail
read within the intake's caps, whose signature or secret text acts once and within its
time window (``moderator.usecases.mail.seals``), that names a game its author may pick.
Each check, and the answer of a mail that fails it, is here, so the order in which
``MailGameHandler.handle`` applies them reads as a list.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from moderator.letters import answers
from moderator.mail.intake import Disposition
from moderator.ports import GameContext, InboundMessage, Lookup, Outcome, Player, Seal
from moderator.usecases.games.notify import REFUSAL, REPLY
from moderator.usecases.mail import seals
from moderator.usecases.mail.mail_reading import ReadMail, reasons
from moderator.usecases.mail.replies import Replies
from moderator.usecases.players import auth

_REGISTERED = "this address is registered already"


def over_caps(
    moderator_address: str, message: InboundMessage, read: ReadMail, lookup: Lookup, now: datetime
) -> Outcome:
    """A mail over the intake's caps: archived, not read, its registered sender told once a day."""
    why = read.over or ""
    player = lookup.player(read.hints.sender) if read.hints.sender else None
    note = f"over the intake's limits, not read: {why}"
    if player is None or lookup.mails_today(player.address, (REFUSAL,), now=now):
        return Outcome(rejected=True, note=note)
    replies = Replies.to(moderator_address, message, read)
    how = [
        (
            "Send your orders as plain text (or signed text) in a mail of their own, "
            "without large attachments."
        )
    ]
    texts = answers.refusal(replies.info, f"the mail is too large to read ({why})", how)
    mail = replies.answer(player, REFUSAL, texts, None)
    return Outcome(mails=(mail,), rejected=True, note=note)


def cannot_read(
    replies: Replies, lookup: Lookup, now: datetime, sender: str | None, disposition: Disposition
) -> Outcome:
    """An encrypted mail: its registered sender is told to sign instead."""
    player = lookup.player(sender) if sender else None
    why = f"the mail cannot be read ({reasons(disposition)})"
    if player is None:
        return Outcome(rejected=True, note=f"not answered: {why}")
    how = [
        (
            "Send your orders signed but not encrypted: the moderator reads only signed "
            "or plain text."
        )
    ]
    return replies.refuse(lookup, now, player, why, how)


def seal(
    replies: Replies,
    lookup: Lookup,
    now: datetime,
    sender: str | None,
    signature: auth.Signature,
    secret: str | None,
    text: str,
    window: timedelta,
) -> Seal | Outcome | None:
    """
    The seal this mail will leave (``moderator.usecases.mail.seals``), or the refusal of a
    mail whose signature or secret text was used before, or whose signature is out
    of the time ``window`` around ``now``.  None: nothing authenticates the mail (yet).
    """
    if signature.valid:
        found = seals.signature_seal(signature, window)
        why = seals.age_problem(signature.signed_at, now, window)
    elif secret and sender:
        found, why = seals.secret_seal(sender, text), None
    else:
        return None
    earlier = lookup.seal_used(found.digest)
    if earlier is not None:
        why = seals.replay_answer(earlier, secret=found.kind == seals.SECRET_SEAL)
    if why is None:
        return found
    owner = _owner(lookup, signature, sender)
    note = f"replayed: seal of message {earlier.inbound_id}" if earlier else why
    if owner is None:
        return Outcome(rejected=True, note=f"not answered: {note}")
    how = ["Write your orders in a new mail and sign it (or add your secret) again."]
    refused = replies.refuse(lookup, now, owner, why, how)
    told = "refused" if refused.mails else "refused, not answered (refused today)"
    return replace(refused, note=f"{told}: {note}")


def sealed(outcome: Outcome, seal: Seal | None) -> Outcome:
    """``outcome`` keeping ``seal``: the mail's signature or secret text is used up."""
    return outcome if seal is None else replace(outcome, seals=(*outcome.seals, seal))


def registered(
    replies: Replies, lookup: Lookup, now: datetime, player: Player, *, proved: bool
) -> Outcome:
    """
    A sign-on from an address that is registered already: answered with what he may want
    instead, when the mail proved it is his; else refused like any mail that does not.
    """
    how = _registered_how(player)
    if not proved:
        return replies.refuse(lookup, now, player, _REGISTERED, how)
    texts = answers.refusal(replies.info, _REGISTERED, how, once=False)
    mail = replies.answer(player, REPLY, texts, None)
    return Outcome(mails=(mail,), rejected=True, note="a sign-on from a registered address")


def trusted_game(
    read: ReadMail, game: GameContext | None, lookup: Lookup, player: Player
) -> tuple[GameContext | None, str]:
    """
    The game a signed mail may act on: the one its signed text names; the subject's
    tag (which no signature covers) only while the signer plays one game alone.
    (None, why) when the tag may not pick it.
    """
    if game is None or not read.signature.valid or read.signed_hints.body_game:
        return game, ""
    active = [g for g, _seat in lookup.active_games_of(player.address)]
    if active == [game.game_id]:
        return game, ""
    return None, (
        f"your signed text names no game and you play {len(active)} games: the "
        f"[titan {game.game_id}] tag of the subject is not signed, so it cannot pick "
        f"one; write the line 'game NAME' inside the signed text"
    )


def no_game(replies: Replies, lookup: Lookup, player: Player, why: str) -> Outcome:
    """An authenticated mail for no game the player sits in."""
    games = ", ".join(f"{g} (as {seat})" for g, seat in lookup.games_of(player.address))
    how = [
        (
            "Name the game in your mail: a line 'game NAME', or keep the [titan NAME] tag "
            "in the subject of an answer to one of its reports."
        )
    ]
    texts = answers.refusal(replies.info, why, how, games=games or "none yet", once=False)
    mail = replies.answer(player, REPLY, texts, None)
    return Outcome(mails=(mail,), rejected=True, note=why)


def _owner(lookup: Lookup, signature: auth.Signature, sender: str | None) -> Player | None:
    """Whose mail this is, by the key that signed it or else by its sender."""
    if signature.valid and signature.fingerprint:
        signers = lookup.players_with_key(signature.fingerprint)
        return signers[0] if signers else None
    return lookup.player(sender) if sender else None


def _registered_how(player: Player) -> list[str]:
    """What a registered player who signs on again may want instead."""
    return [
        f"You are registered as {player.name} <{player.address}>; nothing needs doing.",
        (
            f"To move to another address, write 'change address from {player.address}' "
            "from the new address (signed with your key or with your secret line); the "
            "change is confirmed from this address."
        ),
        (
            "To register another key, ask the game master: a key is changed by hand, so "
            "that nobody can take over your games with a key of his own."
        ),
    ]
