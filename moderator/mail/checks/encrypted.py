"""
Encrypted mail (PGP/MIME ``multipart/encrypted``, S/MIME ``application/pkcs7-mime``).

The intake cannot read it, so the sender is told to send his orders signed but not
encrypted: the disposition is ``reply-only``.
"""

from __future__ import annotations

from email.message import Message

from moderator.mail.checks.base import MISS, Context, Verdict, content_type, param

NAME = "encrypted"
DESCRIPTION = "encrypted mail the intake cannot read"


def check(msg: Message, ctx: Context) -> Verdict:
    """Hit on an encrypted top-level body."""
    kind = content_type(msg)
    if kind == "multipart/encrypted":
        return Verdict(True, f"multipart/encrypted; protocol={param(msg, 'protocol')!r}")
    smime = kind in ("application/pkcs7-mime", "application/x-pkcs7-mime")
    if smime and param(msg, "smime-type").lower() != "signed-data":
        return Verdict(True, f"S/MIME {kind}")
    return MISS
