"""
What a letter gives and what an answer quotes: ``Texts`` (a mail's subject, its signed
public part, its private part and the pictures to draw when it is sent),
``MailInfo`` (what the answer to a mail may say of it, and where) and ``LineResult``
(what became of one line of it, as the answers to order and tournament mails word it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from moderator.records import record

if TYPE_CHECKING:  # a picture's type only: the text of a view needs nothing drawn
    from moderator.pictures.spec import Picture


@record
class Texts:
    """
    A mail's subject, its public (signed) part, its private part (None: none) and the
    pictures to draw when it is sent.
    """

    subject: str
    public: str
    private: str | None = None
    pictures: tuple[Picture, ...] = ()


@record
class MailInfo:
    """
    What an answer quotes of the mail it answers: what its author wrote (only ever in
    the private part) and when the moderator received it (``received``).
    """

    sender: str
    subject: str  # as written
    date: str
    message_id: str
    topic: str = "your mail"  # the subject without "Re:" and step references
    received: datetime | None = None


class LineResult(Protocol):
    """
    What became of one line of a mail (``usecases.games.run.LineResult`` for order
    lines, the tournament lines' results): ``answered``, ``done`` or ``refused`` (with
    its ``reason``, stable ``code`` and ``hint``, what would be legal instead).
    """

    @property
    def line(self) -> str: ...
    @property
    def outcome(self) -> str: ...
    @property
    def lines(self) -> Sequence[str]: ...
    @property
    def reason(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def hint(self) -> str: ...
