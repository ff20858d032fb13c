"""
The answers to one inbound mail: refusals within their daily budget, replies threaded
under the mail, and mails of the same moment to other players.

Every flow of the handler (the gate, sign-on, play, tournament lines) answers the mail
it reads; ``Replies`` holds what those answers share (the moderator's address, the
mail, what an answer quotes of it), so the flows need no handler to answer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from email.message import EmailMessage

from moderator.letters import answers
from moderator.letters.texts import MailInfo, Texts
from moderator.mail.checks.base import header_text
from moderator.ports import InboundMessage, Lookup, Outcome, OutgoingMail, Player
from moderator.records import record
from moderator.usecases.games import notify
from moderator.usecases.games.notify import REFUSAL
from moderator.usecases.mail.mail_reading import ReadMail, mail_info
from moderator.usecases.players import auth


@record
class Replies:
    """
    Answers to ``message`` (``msg`` as parsed, ``info`` what answers quote of it), from
    ``moderator_address``.
    """

    moderator_address: str
    message: InboundMessage
    msg: EmailMessage
    info: MailInfo

    @property
    def message_digest(self) -> str:
        """The SHA-256 of the mail as it came: what its dice are bound to (``play.dice``)."""
        return hashlib.sha256(self.message.raw).hexdigest()

    @classmethod
    def to(cls, moderator_address: str, message: InboundMessage, read: ReadMail) -> Replies:
        """The answers to ``message`` as ``read``; they name it by when it came."""
        info = replace(mail_info(read, message), received=message.received_at)
        return cls(moderator_address, message, read.msg, info)

    def refuse(
        self,
        lookup: Lookup,
        now: datetime,
        player: Player,
        why: str,
        how: Sequence[str],
        *,
        kind: str = REFUSAL,
        per_day: int = auth.REFUSALS_PER_DAY,
    ) -> Outcome:
        """A mail not carried out: ``per_day`` refusals of its ``kind`` a day (UTC, of
        ``now``) to the address."""
        if lookup.mails_today(player.address, (kind,), now=now) >= per_day:
            return Outcome(rejected=True, note=f"refused, not answered (refused today): {why}")
        texts = answers.refusal(self.info, why, how, per_day=per_day, time_zone=player.time_zone)
        mail = self.answer(player, kind, texts, None)
        return Outcome(mails=(mail,), rejected=True, note=f"refused: {why}")

    def answer(
        self, player: Player, kind: str, texts: Texts, game_id: str | None
    ) -> OutgoingMail:
        """A mail answering the message, to the player's registered address."""
        return self.mail(player, kind, texts, game_id, self.reply_headers())

    def reply_headers(self) -> dict[str, str]:
        """The threading headers of an answer to the message."""
        headers: dict[str, str] = {}
        if self.message.message_id:
            headers["In-Reply-To"] = self.message.message_id
            earlier = header_text(self.msg, "References")
            headers["References"] = f"{earlier} {self.message.message_id}".strip()
        return headers

    def mail(
        self,
        player: Player,
        kind: str,
        texts: Texts,
        game_id: str | None,
        headers: Mapping[str, str],
    ) -> OutgoingMail:
        """A mail from the moderator to the player's registered address."""
        return notify.mail_to(self.moderator_address, player, kind, texts, game_id, headers)
