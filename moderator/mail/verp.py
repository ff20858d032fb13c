"""
VERP return paths: each outgoing mail's envelope sender names the mail, so that a bounce,
which goes back to the envelope sender, says which mail did not arrive.

``moderator@example.org`` sends outbox mail 42 as ``moderator+b42-<tag>@example.org``
(the mail server delivers ``+detail`` addresses to the moderator's mailbox).  The tag is
an HMAC of the mail's number under the moderator's key: a stranger (or a player who saw
one return path) cannot make the address of another mail, so a forged bounce cannot mark
arbitrary mails undelivered.  Pure: no store, no clock; the key is handed in.
"""

from __future__ import annotations

import hashlib
import hmac
import re

#: Hex digits of the tag: 48 bits, enough that guessing one is hopeless within the
#: mail a server would take, and short enough for a local part (64 characters at most).
TAG_LENGTH = 12
_DETAIL = re.compile(rf"^b([0-9]{{1,18}})-([0-9a-f]{{{TAG_LENGTH}}})$")


def tag(key: bytes, mail_id: int) -> str:
    """The tag of outbox mail ``mail_id``: an HMAC-SHA256 of its number, cut short."""
    digest = hmac.new(key, f"titan-verp:{mail_id}".encode("ascii"), hashlib.sha256)
    return digest.hexdigest()[:TAG_LENGTH]


def return_path(base: str, mail_id: int, key: bytes) -> str:
    """The envelope sender of outbox mail ``mail_id``: ``base`` with ``+b<id>-<tag>``."""
    local, at, domain = base.strip().rpartition("@")
    if not at:
        msg = f"not a mail address: {base!r}"
        raise ValueError(msg)
    return f"{local.split('+', 1)[0]}+b{mail_id}-{tag(key, mail_id)}@{domain}"


def mail_of(address: str, base: str, key: bytes) -> int | None:
    """
    The outbox mail a VERP ``address`` of ``base`` names, if its tag is right; None for
    any other address (a wrong tag, another mailbox, no detail).  Case does not matter:
    some servers write local parts in lower case.
    """
    local, _, domain = address.strip().strip("<>").lower().rpartition("@")
    base_local, _, base_domain = base.strip().lower().rpartition("@")
    own, plus, detail = local.partition("+")
    if not plus or domain != base_domain or own != base_local.split("+", 1)[0]:
        return None
    found = _DETAIL.match(detail)
    if found is None:
        return None
    mail_id = int(found.group(1))
    return mail_id if hmac.compare_digest(found.group(2), tag(key, mail_id)) else None


__all__ = ["TAG_LENGTH", "mail_of", "return_path", "tag"]
