"""
The audit bundle by mail (docs/audit.md): to every player of a game with bound dice
when it ends (``notify.settle``), and again when a tournament director asks for a
finished game's.  Each player gets his own bundle (``audit.bundle``): what other
players only showed or said to each other, and their standing orders, are left out.
The bundle goes in the private part, since it holds his own asides, text he chose
(the moderator signs nothing a player chose); the signed part names the bundle by its
SHA-256, so the signature still makes it the moderator's word, and the seals his
reports printed tie it to the game as it was played.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime

from moderator.audit.bundle import dumps, file_name, make_bundle
from moderator.letters import audits as letters
from moderator.letters.audits import AuditFacts
from moderator.letters.texts import Texts
from moderator.ports import OutgoingMail
from moderator.records import record
from moderator.rules import events as ev
from moderator.rules.evolve import replay
from moderator.schedule import reference
from moderator.schedule.record import GameRecord, iso

#: An audit mail's kind in the outbox.
AUDIT = "audit"


@record
class Audit:
    """The audit mail's texts and the bundle to attach to it."""

    texts: Texts
    attachment: Mapping[str, str]

    def attached_to(self, mail: OutgoingMail) -> OutgoingMail:
        """``mail`` (made from ``texts``) with the bundle attached to its private part."""
        return dataclasses.replace(mail, kind=AUDIT, attachments=(dict(self.attachment),))


def audit(
    game_id: str,
    events: Sequence[ev.Event],
    record: GameRecord,
    now: datetime,
    reader: str | None,
    asked: str = "",
) -> Audit | None:
    """
    ``reader``'s audit of ``game_id`` after all its ``events`` (None: the bundle anybody
    may have, for a director who holds no seat); None for a game whose dice are not
    bound (scripted dice, or a game older than the audit).  ``asked`` names who asked
    for it again.
    """
    if not record.dice.bound or record.dice.seed is None:
        return None
    bundle = make_bundle(game_id, record.dice.seed, events, iso(now), reader)
    text = dumps(bundle)
    name = file_name(game_id)
    used = [e for e in events if isinstance(e, ev.OrderSealed)]
    hidden = sum(1 for e in bundle["events"] if "hidden" in e)
    facts = AuditFacts(
        game=game_id,
        reader=reader,
        filename=name,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        seed_sha256=bundle["seed_sha256"],
        dice=sum(e.count for e in used),
        orders=len(used),
        commitments=len(bundle["salts"]),
        hidden=hidden,
        ref=str(reference.current(game_id, replay(events), reader)),
        asked=asked,
    )
    texts = letters.audit(facts)
    attachment = {
        "filename": name, "content_type": "application/json", "text": text, "part": "private",
    }
    return Audit(texts, attachment)
