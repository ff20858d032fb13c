"""
Moving an account to a new address by mail, confirmed from the old one.

1. From the **new** address the player writes ``change address from OLD@EXAMPLE.ORG``,
   signed with the key registered for the old address or with its ``secret ...`` line:
   the request must prove it is the player's, since the From header proves nothing.
   The moderator keeps the change waiting (the old and new address, the hash of a
   fresh token, the moment) and mails the old address the token; the new address is
   told that confirmation was asked of the old one.  A request that proves nothing is
   not answered (the new address is nobody's), or is refused like any unauthenticated
   mail when the new address is registered; nobody else is mailed.
2. From the **old** address, authenticated as usual, ``confirm address TOKEN`` within
   ``CONFIRM_WITHIN`` moves the account: the player's address becomes the new one (his
   seats name him by his id, so his games follow; tournaments name him by address and
   are rewritten to follow him), and both addresses are told.  ``cancel address
   change`` forgets the waiting change.

So a change needs the player's key or secret *and* his old mailbox.  An address holds
one account: a new address somebody registered is refused.  A mail with one of these
lines does nothing else; its other lines are not read.  Changing the registered key
by mail is not built.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from datetime import datetime, timedelta

from moderator.letters import address, answers
from moderator.letters.moments import moment_line
from moderator.letters.texts import MailInfo, Texts
from moderator.ports import (
    ASK,
    CANCEL,
    MOVE,
    AddressChange,
    Lookup,
    Outcome,
    OutgoingMail,
    PendingAddressChange,
    Player,
)
from moderator.ports.players import normal_address, token_hash, token_matches
from moderator.records import record
from moderator.usecases.games import notify
from moderator.usecases.players import auth

#: How long a change waits for its confirmation from the old address.
CONFIRM_WITHIN = timedelta(days=7)
#: Random bytes in a confirmation token (written as hex).
TOKEN_BYTES = 12

_ADDRESS = r"<?(?P<old>[^\s<>@]{1,128}@[^\s<>@]{1,255}?)>?"
_REQUEST = re.compile(
    rf"^\s*change\s+(?:of\s+)?address\s+from\s*[:=]?\s*{_ADDRESS}\s*\.?\s*$", re.IGNORECASE
)
_CONFIRM = re.compile(r"^\s*confirm\s+address\s*[:=]?\s*(?P<token>\S{1,200})\s*$", re.IGNORECASE)
_CANCEL = re.compile(r"^\s*cancel\s+(?:the\s+)?address\s+change\s*\.?\s*$", re.IGNORECASE)
#: How to ask for a change (what a refusal says).
_ASK_HOW = (
    "To move your account to a new address, write 'change address from YOUR-OLD-ADDRESS' "
    "from the new address, signed with your key or with your secret line."
)
_ANY = re.compile(
    r"^\s*(?:change\s+(?:of\s+)?|confirm\s+|cancel\s+(?:the\s+)?)address\b", re.IGNORECASE
)


@record
class Mail:
    """What this module needs of a mail: nobody in it is trusted yet."""

    sender: str | None  # the From address
    lines: Sequence[str]  # its order lines (of the signed text, when signed)
    signature: auth.Signature
    secret: str | None
    info: MailInfo
    headers: Mapping[str, str] = field(default_factory=dict)  # threading of an answer


@record
class Unauthenticated:
    """
    The mail does not prove it is ``player``'s (the player at its From address): it is
    refused as any such mail is, at most once a day (the handler's refusal).
    """

    player: Player
    why: str
    how: list[str]


def is_address_line(line: str) -> bool:
    """Whether the line asks for, confirms or cancels a change of address."""
    return bool(_ANY.match(line))


def handle(
    mail: Mail,
    lookup: Lookup,
    now: datetime,
    *,
    moderator_address: str,
    checker: auth.SecretChecker,
) -> Outcome | Unauthenticated:
    """What the mail's first address line does at ``now`` (see the module's text)."""
    line = next(line for line in mail.lines if is_address_line(line))
    letter = _Letter(mail, moderator_address)
    request = _REQUEST.match(line)
    if request:
        return _ask(letter, lookup, now, checker, normal_address(request["old"]))
    who = auth.identify(
        lookup, mail.sender, mail.signature, mail.secret, secrets_allowed=True, checker=checker
    )
    if who.player is None:
        return Outcome(rejected=True, note=f"not answered: {who.why}")
    if not who.authenticated:
        return Unauthenticated(who.player, who.why, auth.how_to_authenticate(who.player, True))
    confirm = _CONFIRM.match(line)
    if confirm:
        return _confirm(letter, lookup, now, who.player, confirm["token"])
    if _CANCEL.match(line):
        return _cancel(letter, lookup, who.player)
    return letter.refuse(
        who.player,
        "the line is not one of 'change address from OLD-ADDRESS', "
        "'confirm address TOKEN' or 'cancel address change'",
        [_ASK_HOW],
    )


@record
class _Letter:
    """Answers to one mail."""

    mail: Mail
    moderator_address: str

    @property
    def others(self) -> int:
        """The mail's lines beside the one carried out (not read)."""
        return len(self.mail.lines) - 1

    def to(self, player: Player, kind: str, texts: Texts, *, answer: bool) -> OutgoingMail:
        headers = self.mail.headers if answer else {}
        return notify.mail_to(self.moderator_address, player, kind, texts, None, headers)

    def refuse(self, player: Player, why: str, how: list[str], *changes: AddressChange) -> Outcome:
        """A refusal of an authenticated mail, to the player's registered address."""
        if self.others:
            how = [*how, "The other lines of your mail were not read: send them on their own."]
        texts = answers.refusal(self.mail.info, why, how, once=False)
        mail = self.to(player, notify.REPLY, texts, answer=True)
        return Outcome(mails=(mail,), rejected=True, note=f"refused: {why}", addresses=changes)


def _ask(
    letter: _Letter, lookup: Lookup, now: datetime, checker: auth.SecretChecker, old: str
) -> Outcome | Unauthenticated:
    """``change address from OLD``, from the new address."""
    mail = letter.mail
    new = normal_address(mail.sender or "")
    owner = lookup.player(old)
    method = _proof(owner, mail, checker) if owner is not None else None
    if owner is None or method is None:
        why = f"the request to move the account of {old} proves nothing: it is neither signed with that account's key nor holds its secret line"
        claimed = lookup.player(new) if new else None
        if claimed is None:
            return Outcome(rejected=True, note=f"not answered: {why} (from {new or 'no address'})")
        return Unauthenticated(claimed, why, [_ASK_HOW])
    if not new:
        return Outcome(rejected=True, note="an address change without a sender address")
    if new == owner.address:
        return letter.refuse(owner, f"{new} is your registered address already", [_ASK_HOW])
    if lookup.player(new) is not None:
        return letter.refuse(
            owner,
            f"{new} is registered already, and an address holds one account",
            ["Write from an address nobody registered, or ask the game master."],
        )
    token = secrets.token_hex(TOKEN_BYTES)
    moment = moment_line(now + CONFIRM_WITHIN, owner.time_zone)
    to_old = address.request(
        owner.address, new, token, key=method == auth.PGP, until=moment, others=letter.others
    )
    to_new = address.asked(owner.address, new, until=moment, others=letter.others)
    moved = replace(owner, address=new)
    return Outcome(
        mails=(
            letter.to(owner, notify.NOTICE, to_old, answer=False),
            letter.to(moved, notify.REPLY, to_new, answer=True),
        ),
        note=f"change of address asked: {owner.address} to {new} ({method})",
        addresses=(AddressChange(ASK, owner.address, new, token_hash(token)),),
    )


def _proof(owner: Player, mail: Mail, checker: auth.SecretChecker) -> str | None:
    """How the mail proves it is ``owner``'s: ``pgp``, ``secret`` or None."""
    signature = mail.signature
    if signature.valid and owner.key_fingerprint and signature.fingerprint == owner.key_fingerprint:
        return auth.PGP
    if mail.secret and owner.secret_hash and checker.matches(mail.secret, owner.secret_hash):
        return auth.SECRET
    return None


def _pending(letter: _Letter, lookup: Lookup, player: Player) -> PendingAddressChange | Outcome:
    pending = lookup.pending_address_change(player.address)
    if pending is None:
        return letter.refuse(
            player, f"no change of {player.address} to another address is waiting", [_ASK_HOW]
        )
    return pending


def _confirm(
    letter: _Letter, lookup: Lookup, now: datetime, player: Player, token: str
) -> Outcome:
    """``confirm address TOKEN``, from the old address."""
    pending = _pending(letter, lookup, player)
    if isinstance(pending, Outcome):
        return pending
    forget = AddressChange(CANCEL, player.address)
    asked = moment_line(pending.requested_at, player.time_zone)
    if now - pending.requested_at > CONFIRM_WITHIN:
        return letter.refuse(
            player,
            f"the change to {pending.new} asked on {asked} has expired: a change must be "
            f"confirmed within {CONFIRM_WITHIN.days} days",
            [f"Ask again from {pending.new}: write 'change address from {player.address}'."],
            forget,
        )
    if not token_matches(token, pending.token_hash):
        return letter.refuse(
            player,
            f"the token is not the one mailed to you for the change to {pending.new}",
            [
                (
                    "Copy the line 'confirm address ...' from the latest mail asking you to "
                    "confirm (each new request makes a new token), or write 'cancel address "
                    "change'."
                )
            ],
        )
    if lookup.player(pending.new) is not None:
        return letter.refuse(
            player,
            f"{pending.new} was registered meanwhile, and an address holds one account",
            ["Ask again from another address."],
            forget,
        )
    games = ", ".join(f"{g} (as {seat})" for g, seat in lookup.games_of(player.address))
    moved = replace(player, address=pending.new)
    old, new, games = player.address, pending.new, games or "none"
    to_new = address.moved(old, new, games, here=True, others=letter.others)
    to_old = address.moved(old, new, games, here=False, others=letter.others)
    return Outcome(
        mails=(
            letter.to(moved, notify.NOTICE, to_new, answer=False),
            letter.to(player, notify.REPLY, to_old, answer=True),
        ),
        note=f"address changed: {player.address} to {pending.new}",
        addresses=(AddressChange(MOVE, player.address, pending.new),),
    )


def _cancel(letter: _Letter, lookup: Lookup, player: Player) -> Outcome:
    """``cancel address change``, from the old address."""
    pending = _pending(letter, lookup, player)
    if isinstance(pending, Outcome):
        return pending
    texts = address.cancelled(player.address, pending.new, others=letter.others)
    return Outcome(
        mails=(letter.to(player, notify.REPLY, texts, answer=True),),
        note=f"change of address cancelled: {player.address} to {pending.new}",
        addresses=(AddressChange(CANCEL, player.address),),
    )
