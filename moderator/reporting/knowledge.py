"""
What each player knows FOR CERTAIN of every legion on the board: a fold over the events.

A legion's owner always knows it (4.5: he may look at his own stacks).  Anybody else
knows a character only when the events he may see (``visibility.may_see``) make it
certain:

- the starting legions (5.2, Wolff 4.1): the eight characters are the same for
  everybody, so every player knows every player's first legion;
- a muster or a reinforcement (18.x, 14.x): the new character and the characters
  shown for it;
- a tower or Titan teleport (8.1, 8.2): the lord shown;
- the look at the start of an engagement (2.5.1, 2.5.2, Wolff 9.1): both legions,
  to the two players; a battle (Wolff 9.3, 2.5.6.1): both legions, to everybody;
- summons (15.1), angels acquired (17.x), a summoned angel or a reinforcement that
  did not enter going back (Wolff 15.1, 14.1): the angel or creature moved;
- losses in an engagement (Wolff 9.5), an eliminated or withdrawn player's legions
  (19.4, 20.4), the winner's legions (19.0) and the legions counted at the time
  limit (20.5): what they held, then gone;
- splits (4.3): the owner sees what went where; the others see only heights, so
  what was known of the parent becomes a fact about the two halves together.

Facts derived from public information count too (Wolff's Etiquette 27): each
viewer keeps, beside a lower bound for every legion, constraints "these legions
together hold at least this multiset" (one per split he did not see), and every
player's legions together hold exactly one Titan while it lives.  From those the
fold derives, for each legion and character, how many it must hold: the total
less what the other legions could hold at most.  So a parent known in full and
split unseen is known again when one half is revealed, and a Titan known to be in
none of a player's other legions is known to be in the last.  Nothing is a guess:
every count is a lower bound true in every game consistent with what the viewer
saw (no probabilities, unlike Colossus's PredictSplits).

``knowledge_of(events)`` folds a whole log (``learn`` one event, for reports that
keep the knowledge as they go); ``Knowledge.legions(viewer)`` answers with a
``KnownLegion`` per marker; ``legion_line`` writes one as a report line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field

from moderator.records import record
from moderator.reporting.knowledge_events import HANDLERS, changed_unseen
from moderator.reporting.knowledge_facts import (
    _NO_FACTS,
    TITAN,
    InconsistentKnowledgeError,
    Viewer,
    _Facts,
    _Work,
)
from moderator.reporting.visibility import may_see
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.rules.variant import Variant

__all__ = [
    "InconsistentKnowledgeError",
    "Knowledge",
    "KnownLegion",
    "knowledge_of",
    "known_contents",
    "learn",
    "legion_line",
    "sorted_characters",
]



# -- the answer ---------------------------------------------------------------------------


@record(kw_only=True)
class KnownLegion:
    """
    One legion as a viewer knows it: ``known`` is a sub-multiset of its true contents
    (Titan first, then by value, then by name), ``unknown`` the rest of its height.
    """

    marker: str
    owner: str
    height: int
    known: tuple[str, ...]
    unknown: int

    @property
    def complete(self) -> bool:
        """Whether every character is known."""
        return self.unknown == 0


def _order_key(variant: Variant, creature: str) -> tuple[int, int, str]:
    try:
        value = variant.creature(creature).value
    except KeyError:
        value = 0
    return (0 if creature == TITAN else 1, -value, creature)


def sorted_characters(variant: Variant, characters: Iterable[str]) -> tuple[str, ...]:
    """Characters in report order: the Titan first, then by value (16.0, in ``variant``),
    then by name."""
    return tuple(sorted(characters, key=lambda c: _order_key(variant, c)))


def legion_line(known: KnownLegion, land: int, terrain: str, picture: str | None = None) -> str:
    """
    One legion as a report line, e.g. "Rd02 (Eagle) in 114 (Marsh), 5 high: Gargoyle,
    4 unknown": known characters first, then how many are unknown.
    """
    name = f"{known.marker} ({picture})" if picture else known.marker
    parts = list(known.known)
    if known.unknown:
        parts.append(f"{known.unknown} unknown")
    return f"{name} in {land} ({terrain}), {known.height} high: {', '.join(parts)}"


# -- the fold -----------------------------------------------------------------------------


@record
class Knowledge:
    """
    The game's state and what every viewer knows for certain, after some events.

    ``state`` is the true state (``evolve``'s); use ``legions(viewer)`` for what a
    viewer knows.  A value: ``learn`` returns a new one.
    """

    state: GameState = field(default_factory=GameState)
    facts: Mapping[Viewer, _Facts] = field(default_factory=dict)

    def legions(self, viewer: Viewer) -> dict[str, KnownLegion]:
        """Every legion on the board as ``viewer`` knows it, by marker."""
        return {marker: self.legion(viewer, marker) for marker in sorted(self.state.legions)}

    def legion(self, viewer: Viewer, marker: str) -> KnownLegion:
        legion = self.state.legions[marker]
        if legion.owner == viewer:
            known: tuple[str, ...] = legion.contents
        else:
            facts = self.facts.get(viewer) or self.facts.get(None) or _NO_FACTS
            known = tuple((facts.known.get(marker) or Counter()).elements())
        return KnownLegion(
            marker=marker,
            owner=legion.owner,
            height=legion.height,
            known=sorted_characters(self.state.variant, known),
            unknown=legion.height - len(known),
        )

    @staticmethod
    def from_state(state: GameState) -> Knowledge:
        """
        Knowledge as far as ``state`` alone tells (owners, and ``Legion.known_to``): for a
        fold that starts at a snapshot instead of the first event.  Weaker than the fold
        from the start, never wrong.
        """
        facts: dict[Viewer, _Facts] = {}
        for viewer in _viewers(state):
            facts[viewer] = _Facts(
                known={
                    m: Counter(lg.contents)
                    for m, lg in state.legions.items()
                    if lg.owner != viewer and lg.known_by(viewer)
                }
            )
        return Knowledge(state, facts)


def _viewers(state: GameState) -> list[Viewer]:
    return [*(p.name for p in state.players), None]


def _same_legions(before: GameState, after: GameState) -> bool:
    if before.legions is after.legions:
        return True
    if before.legions.keys() != after.legions.keys():
        return False
    return all(before.legions[m].contents == lg.contents for m, lg in after.legions.items())


def learn(knowledge: Knowledge, event: ev.Event, *, strict: bool = False) -> Knowledge:
    """
    Fold one event: the state moves on and every viewer learns what the event shows him.
    ``strict`` raises ``InconsistentKnowledgeError`` where the fold would otherwise drop
    facts it cannot account for (for tests).
    """
    before = knowledge.state
    after = evolve(before, event)
    facts = knowledge.facts
    if isinstance(event, (ev.GameCreated, ev.PositionLoaded)):
        facts = {}
        before = GameState()
    handler = HANDLERS.get(type(event))
    if handler is None:
        if _same_legions(before, after):
            return Knowledge(after, facts)
        handler = changed_unseen
    out: dict[Viewer, _Facts] = {}
    for viewer in _viewers(after):
        work = _Work(facts.get(viewer, _NO_FACTS), viewer, before, after, strict)
        handler(work, event, may_see(event, viewer))
        out[viewer] = work.settle()
    return Knowledge(after, out)


def knowledge_of(
    events: Iterable[ev.Event], start: Knowledge | None = None, *, strict: bool = False
) -> Knowledge:
    """Fold ``events`` (from the first, or onto ``start``)."""
    knowledge = start or Knowledge()
    for event in events:
        knowledge = learn(knowledge, event, strict=strict)
    return knowledge


def known_contents(events: Sequence[ev.Event], viewer: Viewer) -> dict[str, KnownLegion]:
    """What ``viewer`` (None: the public) knows for certain of every legion, by marker."""
    return knowledge_of(events).legions(viewer)


