"""
What a letter gives and what an answer quotes: ``Texts`` (a mail's subject, its signed
public part, its private part and the pictures to draw when it is sent) and
``MailInfo`` (what the answer to a mail may say of it, and where).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a picture's type only: the text of a view needs nothing drawn
    from moderator.pictures.spec import Picture


@dataclass(frozen=True, slots=True)
class Texts:
    """
    A mail's subject, its public (signed) part, its private part (None: none) and the
    pictures to draw when it is sent.
    """

    subject: str
    public: str
    private: str | None = None
    pictures: tuple[Picture, ...] = ()


@dataclass(frozen=True, slots=True)
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
