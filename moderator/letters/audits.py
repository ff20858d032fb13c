"""
The audit mail (docs/audit.md): the signed part names the bundle by its SHA-256 and says
what a player can check with it; the private part, where the bundle is attached, says
whose bundle it is and what it leaves out.  ``service.audits`` makes the bundle and
counts what the letter cites.
"""

from __future__ import annotations

from dataclasses import asdict

from moderator.letters.templates import letter, render
from moderator.letters.texts import Texts
from moderator.records import record


@record
class AuditFacts:
    """What an audit mail cites of its bundle (``reader`` None: the bundle for anybody)."""

    game: str
    reader: str | None
    filename: str
    sha256: str  # of the bundle's text
    seed_sha256: str
    dice: int
    orders: int
    commitments: int
    hidden: int  # stretches of the log left out of this reader's bundle
    ref: str
    asked: str = ""  # who asked for it again


@letter("player.audit.txt.j2", "player.audit-private.txt.j2")
def audit(facts: AuditFacts) -> Texts:
    """The audit mail of ``facts.game`` to ``facts.reader``."""
    values = asdict(facts)
    return Texts(
        f"The audit of game {facts.game}",
        render("player.audit.txt.j2", **values),
        render("player.audit-private.txt.j2", **values),
    )


__all__ = ["AuditFacts", "audit"]
