"""
The audit bundle by mail (docs/audit.md): to every player of a game with bound dice
when it ends (``notify.settle``), and again when a tournament director asks for a
finished game's.  The bundle goes in the signed part: once the game is over nothing in
it is hidden, and the signature makes it the moderator's word.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from moderator.audit.bundle import dumps, file_name, make_bundle
from moderator.reporting.render import render
from moderator.rules import events as ev
from moderator.rules.evolve import replay
from moderator.schedule import reference
from moderator.schedule.record import GameRecord, iso
from moderator.service.reports import Texts
from moderator.store.outbox import OutgoingMail

#: An audit mail's kind in the outbox.
AUDIT = "audit"


@dataclass(frozen=True, slots=True)
class Audit:
    """The audit mail's texts and the bundle to attach to it."""

    texts: Texts
    attachment: Mapping[str, str]

    def attached_to(self, mail: OutgoingMail) -> OutgoingMail:
        """``mail`` (made from ``texts``) with the bundle attached."""
        return dataclasses.replace(mail, kind=AUDIT, attachments=(dict(self.attachment),))


def audit(
    game_id: str, events: Sequence[ev.Event], record: GameRecord, now: datetime, asked: str = ""
) -> Audit | None:
    """
    The audit of ``game_id`` after all its ``events``; None for a game whose dice are
    not bound (scripted dice, or a game older than the audit).  ``asked`` names who
    asked for it again.
    """
    if not record.dice.bound or record.dice.seed is None:
        return None
    bundle = make_bundle(game_id, record.dice.seed, events, iso(now))
    name = file_name(game_id)
    used = [e for e in events if isinstance(e, ev.OrderSealed)]
    text = render(
        "player.audit.txt.j2",
        game=game_id,
        asked=asked,
        filename=name,
        seed_sha256=bundle["seed_sha256"],
        dice=sum(e.count for e in used),
        orders=len(used),
        commitments=len(bundle["salts"]),
        ref=str(reference.current(game_id, replay(events))),
    )
    attachment = {"filename": name, "content_type": "application/json", "text": dumps(bundle)}
    return Audit(Texts(f"The audit of game {game_id}", text), attachment)
