"""
The audit's notes as a player's report lists them (docs/audit.md): the commitments to
hidden legions and the last order's seal in the signed part (a hash says nothing
without its salt, a seal nothing without the seed), with the openings every player
saw (a legion public once it fights: its contents are in the signed events already);
the salts of the viewer's own legions and the openings shown to him and a few in the
private part, since both tell what a hidden legion holds and the moderator signs no
such contents (Wolff 4.5).  One line each, in a form ``titan-moderator verify
--report`` reads back.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.audit.commitments import salt_for
from moderator.reporting.visibility import may_see
from moderator.rules import events as ev
from moderator.rules.state import GameState


def audit_notes(
    timeline: Sequence[tuple[ev.Event, GameState]], viewer: str, game: str, seed: int | None
) -> tuple[list[str], list[str]]:
    """
    (lines for the signed part, lines for the private part) of ``timeline``.  The
    signed part ends with the last seal the viewer may see: it chains every seal before
    it, so a signed report pins the log up to it (``audit.seal.seal_mac``).
    """
    public: list[str] = []
    private: list[str] = []
    last_seal = ""
    for event, before in timeline:
        seq = before.version + 1
        if isinstance(event, ev.OrderSealed) and event.mac and may_see(event, viewer):
            last_seal = f"event {seq}: order seal {event.mac}"
        if isinstance(event, ev.LegionCommitted):
            public.append(f"event {seq}: {event.marker} commitment {event.commitment}")
            legion = before.legions.get(event.marker)
            if seed is not None and legion is not None and legion.owner == viewer:
                salt = salt_for(seed, game, event.marker, seq)
                private.append(f"event {seq}: {event.marker} salt {salt}")
        elif isinstance(event, ev.CommitmentOpened) and may_see(event, viewer):
            held = ", ".join(event.contents) or "nothing"
            (public if event.visible_to is None else private).append(
                f"event {seq}: {event.marker} opened: commitment of event {event.seq}, "
                f"salt {event.salt}, held {held}"
            )
    return [*public, last_seal] if last_seal else public, private
