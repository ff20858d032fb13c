"""
The audit's notes as a player's report lists them (docs/audit.md): the commitments to
hidden legions and the last order's seal go in the signed part (a hash says nothing
without its salt, a seal nothing without the seed); the openings every player saw (a
legion public once it fights) go in the private part, for they name what the legion
held and the moderator signs no contents (Wolff 4.5).  One line each, in a form
``titan-moderator verify --report`` reads back from either part.

No salt goes to anybody while the game runs, not even to the owner of the legion, and
no opening shown to a few only (the look at an engagement, a ``show``): with the salt
and the contents a player recomputes a commitment that every other player holds signed
by the moderator, which proves what the legion holds, and a player may tell what a
legion holds but never prove it (Wolff 4.5).  The salts come with the audit, once the
game is over.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.reporting.visibility import may_see
from moderator.rules import events as ev
from moderator.rules.state import GameState


def audit_notes(timeline: Sequence[tuple[ev.Event, GameState]], viewer: str) -> list[str]:
    """
    The signed part's notes of ``timeline``: its commitments, and last the last seal the
    viewer may see (it chains every seal before it, so a signed report pins the log up
    to it: ``audit.seal.seal_mac``).
    """
    lines: list[str] = []
    last_seal = ""
    for event, before in timeline:
        seq = before.version + 1
        if isinstance(event, ev.OrderSealed) and event.mac and may_see(event, viewer):
            last_seal = f"event {seq}: order seal {event.mac}"
        if isinstance(event, ev.LegionCommitted):
            lines.append(f"event {seq}: {event.marker} commitment {event.commitment}")
    return [*lines, last_seal] if last_seal else lines


def audit_openings(timeline: Sequence[tuple[ev.Event, GameState]]) -> list[str]:
    """
    The private part's notes of ``timeline``: the openings every player saw, each with
    what the legion held (never signed: Wolff 4.5).  Openings shown to a few only wait
    for the audit, as the docstring of this module says.
    """
    lines: list[str] = []
    for event, before in timeline:
        if isinstance(event, ev.CommitmentOpened) and event.visible_to is None:
            held = ", ".join(event.contents) or "nothing"
            lines.append(
                f"event {before.version + 1}: {event.marker} opened: commitment of event "
                f"{event.seq}, salt {event.salt}, held {held}"
            )
    return lines
