"""
Signing on by mail: ``signon NAME`` (and optionally ``timezone Europe/Berlin``) from an
address nobody registered makes a player of it.

The player proves what will authenticate his mails from now on: a PGP public key,
attached (``application/pgp-keys``) or inline, *and* a signature by that key on the
sign-on mail itself (so nobody can register a key he cannot sign with); or a line
``secret XYZ`` of at least ``MIN_SECRET`` characters, of which only a salted hash is
kept.  A key is imported into the moderator's keyring and pinned by its fingerprint;
importing a stranger's key grants nothing, since a mail counts as a player's only when
signed by the key pinned for him.

The welcome goes to the new address: the one mail a forged sign-on can make us send to
an address (it then is registered; a second sign-on from it is refused, at most once a
day, see ``moderator.usecases.players.auth``).  A registered address is changed by mail from the
new address and confirmed from the old one (``moderator.usecases.mail.address_change``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.mail.errors import MailError
from moderator.mail.signatures import Verifier
from moderator.records import record
from moderator.usecases.players.auth import Signature

#: The shortest secret accepted at sign-on.
MIN_SECRET = 8
#: Answers to refused sign-ons one address may get a day: enough to get it right,
#: too few to make the moderator a mail cannon.
REFUSALS_PER_DAY = 5

_SIGNON = re.compile(r"^\s*sign[\s_-]?on\b\s*[:=]?\s*(.*?)\s*$", re.IGNORECASE)
_TIMEZONE = re.compile(r"^\s*(?:time[\s_-]?zone|tz)\b\s*[:=]?\s*(.*?)\s*$", re.IGNORECASE)
_NAME = re.compile(r"^[^\W_][\w .'-]{0,39}$")


@record
class Request:
    """A sign-on as written: the name, the time zone (None: not given)."""

    name: str
    time_zone: str | None


def is_signon(line: str) -> bool:
    return bool(_SIGNON.match(line))


def is_timezone(line: str) -> bool:
    return bool(_TIMEZONE.match(line))


def request(lines: list[str]) -> Request | None:
    """The sign-on in a mail's order lines, if there is one."""
    name: str | None = None
    zone: str | None = None
    for line in lines:
        found = _SIGNON.match(line)
        if found and name is None:
            name = found.group(1)
            continue
        found = _TIMEZONE.match(line)
        if found and zone is None:
            zone = found.group(1)
    return None if name is None else Request(name, zone)


#: The alphabets whose letters pass for one another's (Latin a, Cyrillic а, Greek α...).
_LOOKALIKE = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE"})


def alphabets(name: str) -> list[str]:
    """
    The alphabets of look-alike letters (``_LOOKALIKE``, by the first word of each
    letter's Unicode name) that ``name`` is written in.  A name that mixes them can pass
    for another: "B\u043eb" with a Cyrillic o reads as Bob in every report and message,
    and would let its player pass for him in a game they share.  Scripts that are mixed
    by custom (Japanese kana and kanji) are not among them.
    """
    scripts = {unicodedata.name(c, "?").split()[0] for c in name if c.isalpha()}
    return sorted(scripts & _LOOKALIKE)


def problem(req: Request) -> str | None:
    """Why the name or the time zone cannot be taken; None if both are fine."""
    if not _NAME.match(req.name):
        return (
            "write 'signon YOUR NAME': a name of 1 to 40 letters, digits, spaces, "
            "dots, hyphens or apostrophes"
        )
    mixed = alphabets(req.name)
    if len(mixed) > 1:
        return (
            f"write your name in the letters of one alphabet: it mixes {' and '.join(mixed)} "
            "letters, which look alike and would let a name pass for another player's"
        )
    if req.time_zone is not None:
        try:
            ZoneInfo(req.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            return (
                "the time zone is not one of the tz database: write it as, e.g., "
                "'timezone Europe/Berlin'"
            )
    return None


def how_to_sign(signature: Signature) -> list[str]:
    """What to do when a sign-on's signature did not prove the key it carries."""
    steps = [
        ("Write 'signon YOUR NAME' (and 'timezone Europe/Berlin' if you like), attach "
        "your public key, and sign the mail with that same key (PGP/MIME, or an inline "
        "clearsigned text); do not encrypt it."),
    ]
    if signature.status == "unsigned":
        steps.append(
            "In mutt: set crypt_autosign (or press 'p' then 's' before sending); in "
            "Thunderbird: turn on 'Digitally Sign This Message'."
        )
    return steps


def pinned_key(
    keyring: Verifier, blocks: list[bytes], check: Callable[[], Signature]
) -> tuple[str | None, str | None]:
    """
    (the fingerprint of the key that signed the sign-on, or None; why not).

    ``blocks`` are imported first; ``check()`` then checks the mail's signature and
    must say it was made by one of the imported keys.
    """
    imported: list[str] = []
    for block in blocks:
        try:
            imported.extend(keyring.import_key(block))
        except MailError:
            continue
    if not imported:
        return None, "the public key in your mail could not be read"
    signature = check()
    if signature.status == "unsigned":
        return None, (
            "your sign-on mail carries a public key but is not signed: sign the mail "
            "with the key you attach, so that it shows the key is yours"
        )
    if not signature.valid:
        return None, (
            f"the sign-on mail must be signed with the key you send "
            f"(its signature: {signature.reason})"
        )
    if signature.fingerprint not in {fpr.upper() for fpr in imported}:
        return None, (
            f"the sign-on mail is signed with the key {signature.fingerprint}, not with "
            f"the key you send"
        )
    return signature.fingerprint, None
