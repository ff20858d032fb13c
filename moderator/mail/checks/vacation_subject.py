"""
A subject that reads like an out-of-office notice: a *weak* sign only.

"Automatic reply: …", "Out of Office", "Abwesenheitsnotiz", "[Automatyczna odpowiedź]"…
A player may well write "away next week" in a subject, so this never drops a mail by
itself; it does together with another weak sign.
"""

from __future__ import annotations

import re
from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, header_text

NAME = "vacation-subject"
DESCRIPTION = "a subject that reads like an out-of-office notice"

_VACATION = re.compile(
    r"auto(?:matic|matische|matyczna|matique|mática|matica)?[ _-]?"
    r"(?:reply|replied|response|respons|antwort|odpowied\w*|réponse|respuesta|risposta)"
    r"|r[ée]ponse automatique|respuesta autom[áa]tica|risposta automatica|automatische antwort"
    r"|out[ -]of[ -](?:the[ -])?office|\booo\b|abwesen\w*|vacation|on holiday|on leave"
    r"|away from (?:the|my) (?:office|desk)|\babsen(?:ce|t)\b|autosvar|thank you for your e-?mail",
    re.IGNORECASE,
)


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit when the decoded Subject reads like a vacation or autoresponder notice."""
    subject = header_text(msg, "Subject")
    found = _VACATION.search(subject)
    if found:
        return Verdict(True, f"subject {subject!r} reads like an automatic reply")
    return MISS
