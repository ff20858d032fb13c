"""
A simple handler of order mails, for tests and local experiments: the game is named by
an ``X-Titan-Game`` header or a ``game NAME`` line, the player is whoever sits in that
game under the sender's address (no authentication at all), and the rest of the body is
order lines, carried out as ``titan-moderator local order`` would.  Every message gets
a reply.  The mail service's handler is ``moderator.usecases.mail.handler.MailGameHandler``.
"""

from __future__ import annotations

import re
from datetime import datetime
from email import message_from_bytes
from email.message import EmailMessage, Message
from email.policy import default
from email.utils import parseaddr

from moderator.ports import GameContext, InboundMessage, Lookup, Outcome, OutgoingMail
from moderator.usecases.games.messages import carry_out

_GAME_LINE = re.compile(r"^\s*game\s+(\S+)\s*$", re.IGNORECASE | re.MULTILINE)


def _parsed(raw: bytes) -> Message:
    return message_from_bytes(raw, policy=default)


def _body(mail: Message) -> str:
    if isinstance(mail, EmailMessage):
        part = mail.get_body(preferencelist=("plain",))
        if part is not None and isinstance(part, EmailMessage):
            return str(part.get_content())
    payload = mail.get_payload(decode=True)
    return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


class OrderMailHandler:
    """The default handler: order lines from seated players (see the module's text)."""

    def game_of(self, message: InboundMessage) -> str | None:
        mail = _parsed(message.raw)
        named = mail.get("X-Titan-Game")
        if named:
            return str(named).strip()
        found = _GAME_LINE.search(_body(mail))
        return found.group(1) if found else None

    def handle(
        self,
        message: InboundMessage,
        game: GameContext | None,
        lookup: Lookup | None = None,
        now: datetime | None = None,
    ) -> Outcome:
        mail = _parsed(message.raw)
        sender = parseaddr(str(mail.get("From", "")))[1].strip().lower()
        subject = str(mail.get("Subject", "")).strip()

        def reply(text: str) -> tuple[OutgoingMail, ...]:
            if not sender:
                return ()
            headers = {"In-Reply-To": message.message_id} if message.message_id else {}
            title = subject if subject.lower().startswith("re:") else f"Re: {subject}".strip()
            return (OutgoingMail(sender, title, text + "\n", headers),)

        if game is None:
            named = self.game_of(message)
            why = f"there is no game {named!r}" if named else "it names no game"
            return Outcome(
                mails=reply(f"Your message was not read: {why}."), rejected=True, note=why
            )
        player = game.seats.get(sender)
        if player is None:
            why = f"{sender or 'the sender'} has no seat in game {game.game_id}"
            return Outcome(
                mails=reply(f"Your message was not read: {why}."), rejected=True, note=why
            )
        text = _GAME_LINE.sub("", _body(mail))
        result = carry_out(game.game_id, game.state, game.record, player, text, list)
        return Outcome(
            events=tuple(result.events),
            mails=reply(result.reply),
            record=result.record if result.events else None,
            note="" if result.ok else "an order was refused",
        )
