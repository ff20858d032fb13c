"""
What the moderator notes after each order of a game with bound dice: where the order
ends, which mail gave it and how many dice it rolled, commitments to the legions whose contents went out of sight
and the openings of those whose contents were shown.  Pure: the shell calls ``seal``
with the state before and after the order's events and appends what it returns.

A legion is hidden while somebody besides its owner does not know what it holds
(``Legion.known_to`` is not None).  Every hidden legion has a commitment to what it
holds now: one is made when a hidden legion's contents change, when a legion appears
hidden (a split) and when a public legion goes out of sight again.  So when knowledge
of a legion widens, its latest commitment is to what it held just before, and that is
what the opening shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from moderator.audit.commitments import commitment_for, salt_for
from moderator.rules import events as ev
from moderator.rules.state import GameState, Legion


@dataclass(frozen=True, slots=True)
class DiceKey:
    """The order whose first event is ``first``, asked for by ``trigger``, and its ``count`` dice."""

    trigger: str
    first: int
    count: int


@dataclass(frozen=True, slots=True)
class Sealed:
    """The notes to append, and each legion's latest commitment (marker -> its event)."""

    events: tuple[ev.Event, ...]
    commitments: dict[str, int]


def seal(
    before: GameState,
    after: GameState,
    *,
    game: str,
    seed: int,
    commitments: Mapping[str, int],
    dice: DiceKey | None = None,
) -> Sealed:
    """
    The audit notes for one order: ``before`` and ``after`` its events (``before`` is the
    game after the previous order's notes).  The verifier calls it too, with the states
    it replays, and wants the very notes the log holds.
    """
    seq = after.version
    notes: list[ev.Event] = []
    latest = {m: s for m, s in commitments.items() if m in after.legions}
    if dice is not None:
        seq += 1
        notes.append(ev.OrderSealed(trigger=dice.trigger, first=dice.first, count=dice.count))
    for marker, legion in sorted(after.legions.items()):
        old = before.legions.get(marker)
        if old is None or marker not in latest or not _widened(old, legion):
            continue
        seq += 1
        committed = latest[marker]
        notes.append(
            ev.CommitmentOpened(
                marker=marker,
                seq=committed,
                contents=old.contents,
                salt=salt_for(seed, game, marker, committed),
                visible_to=None if legion.known_to is None else legion.known_to | {legion.owner},
            )
        )
    for marker, legion in sorted(after.legions.items()):
        if legion.known_to is None:
            continue
        old = before.legions.get(marker)
        fresh = old is None or old.known_to is None or marker not in latest
        if not fresh and old is not None and old.contents == legion.contents:
            continue
        seq += 1
        salt = salt_for(seed, game, marker, seq)
        notes.append(
            ev.LegionCommitted(
                marker=marker, commitment=commitment_for(game, marker, seq, salt, legion.contents)
            )
        )
        latest[marker] = seq
    return Sealed(tuple(notes), latest)


def _widened(old: Legion, new: Legion) -> bool:
    """Whether more players know what the legion holds than before (it was hidden)."""
    if old.known_to is None:
        return False
    return new.known_to is None or not new.known_to <= old.known_to
