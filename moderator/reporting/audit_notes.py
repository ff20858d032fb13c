"""
The audit's notes as a player's report lists them (docs/audit.md): the commitments to
hidden legions and the last public order's seal go in the signed part (a hash says
nothing without its salt, a seal nothing without the seed); the openings every player
saw (a legion public once it fights) go in the private part, for they name what the
legion held and the moderator signs no contents (Wolff 4.5).  One line each, in a form
``titan-moderator verify --report`` reads back from either part.

The notes are numbered by the events every player saw (``GameState.public_events``),
not by the game's log: a show, a relayed message or a look at an engagement between
others would otherwise move a bystander's numbers, and comparing two reports would tell
him that something passed that he may not see.  So only notes every player saw are
listed, and every player's report numbers them alike.  The bundle at the game's end
holds the whole log, from which ``verify --report`` maps these numbers to its events.

No salt goes to anybody while the game runs, not even to the owner of the legion, and
not even of an opening every player saw: with the salt and the contents a player
recomputes a commitment that every other player holds signed by the moderator, which
proves what the legion holds, and a player may tell what a legion holds but never prove
it (Wolff 4.5).  The salts come with the audit, once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.rules import events as ev
from moderator.rules.state import GameState

#: How a note names the event it is: by its number among those every player saw.
PUBLIC_EVENT = "public event"


def audit_notes(timeline: Sequence[tuple[ev.Event, GameState]]) -> list[str]:
    """
    The signed part's notes of ``timeline``: its commitments, and last the last seal every
    player saw (it chains every seal before it, an aside's too, so a signed report pins
    the log up to it: ``audit.seal.seal_mac``).  The same for every reader.
    """
    lines: list[str] = []
    last_seal = ""
    for event, before in timeline:
        if event.visible_to is not None:
            continue
        number = before.public_events + 1
        if isinstance(event, ev.OrderSealed) and event.mac:
            last_seal = f"{PUBLIC_EVENT} {number}: order seal {event.mac}"
        if isinstance(event, ev.LegionCommitted):
            lines.append(f"{PUBLIC_EVENT} {number}: {event.marker} commitment {event.commitment}")
    return [*lines, last_seal] if last_seal else lines


def audit_openings(timeline: Sequence[tuple[ev.Event, GameState]]) -> list[str]:
    """
    The private part's notes of ``timeline``: the openings every player saw, each with
    what the legion held (never signed: Wolff 4.5) and never with its salt, which waits
    for the audit as every salt does.  Each opens its legion's latest commitment (the
    audit checks that).  Openings shown to a few only wait for the audit too.
    """
    lines: list[str] = []
    for event, before in timeline:
        if isinstance(event, ev.CommitmentOpened) and event.visible_to is None:
            held = ", ".join(event.contents) or "nothing"
            lines.append(
                f"{PUBLIC_EVENT} {before.public_events + 1}: {event.marker} opened: held {held}"
            )
    return lines
