"""
What one viewer has learnt of the legions (``moderator.reporting.knowledge``'s working
part): lower bounds per legion, "these legions together hold at least this" after
every split he did not see, and the derivation of what is forced from them.  Kept
apart from the fold so that each reads on its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from moderator.rules.state import GameState

#: A player's name, or None for the public (anybody who is not a player).
Viewer = str | None

TITAN = "Titan"


# -- what one viewer has learnt -----------------------------------------------------------


@dataclass(slots=True)
class _Together:
    """
    A constraint: the legions ``members`` together hold at least ``low`` (a multiset),
    and at most ``high[c]`` of each character ``c`` named in ``high``.
    """

    members: set[str]
    low: Counter[str]
    high: Mapping[str, int] = field(default_factory=dict)

    def copy(self) -> _Together:
        return _Together(set(self.members), Counter(self.low), self.high)


@dataclass(slots=True)
class _Facts:
    """One viewer's facts about the legions he does not own (never mutated once built)."""

    known: dict[str, Counter[str]] = field(default_factory=dict)  # marker -> at least these
    together: list[_Together] = field(default_factory=list)

    def copy(self) -> _Facts:
        return _Facts(
            known={m: Counter(k) for m, k in self.known.items()},
            together=[t.copy() for t in self.together],
        )


_NO_FACTS = _Facts()


class InconsistentKnowledgeError(AssertionError):
    """The fold met an event it did not account for (raised only when ``strict``)."""


class _Work:
    """A viewer's facts being brought up to date with one event (a private copy)."""

    def __init__(
        self, facts: _Facts, viewer: Viewer, before: GameState, after: GameState, strict: bool
    ) -> None:
        self.facts = facts.copy()
        self.viewer = viewer
        self.before = before
        self.after = after
        self.strict = strict
        self.heights: dict[str, int] = {}  # heights as this event's changes go

    # -- lookups ----------------------------------------------------------------------------

    def mine(self, marker: str) -> bool:
        """The viewer owns this legion, so he knows it whatever happens."""
        legion = self.after.legions.get(marker) or self.before.legions.get(marker)
        return legion is not None and legion.owner == self.viewer

    def k(self, marker: str) -> Counter[str]:
        return self.facts.known.setdefault(marker, Counter())

    def height(self, marker: str) -> int:
        if marker not in self.heights:
            legion = self.before.legions.get(marker)
            self.heights[marker] = legion.height if legion is not None else 0
        return self.heights[marker]

    def holding(self, marker: str) -> list[_Together]:
        return [t for t in self.facts.together if marker in t.members]

    def inconsistent(self, why: str) -> None:
        if self.strict:
            raise InconsistentKnowledgeError(why)

    # -- what an event shows ---------------------------------------------------------------

    def learn(self, marker: str, characters: Iterable[str]) -> None:
        """The legion holds at least ``characters`` (shown for a muster or a teleport)."""
        if self.mine(marker):
            return
        known = self.k(marker)
        for c, n in Counter(characters).items():
            known[c] = max(known[c], n)

    def reveal(self, marker: str, contents: Sequence[str]) -> None:
        """The legion's whole contents were shown."""
        if self.mine(marker):
            return
        if len(contents) != self.height(marker):
            self.inconsistent(f"{marker} revealed as {contents}, {self.height(marker)} high")
        self.facts.known[marker] = Counter(contents)

    def add(self, marker: str, creature: str) -> None:
        """A known character joined the legion (muster, summons, angel)."""
        self.heights[marker] = self.height(marker) + 1
        if self.mine(marker):
            return
        self.k(marker)[creature] += 1
        for t in self.holding(marker):
            t.low[creature] += 1

    def remove(self, marker: str, creature: str) -> None:
        """A known character left the legion (slain, summoned away, gone back)."""
        self.heights[marker] = self.height(marker) - 1
        if self.mine(marker):
            return
        known = self.k(marker)
        known[creature] = max(known[creature], 1)
        for t in self.holding(marker):
            total = sum(self.facts.known.get(m, Counter())[creature] for m in t.members)
            t.low[creature] = max(t.low[creature], total) - 1
        known[creature] -= 1

    def split(self, parent: str, child: str, moved: Sequence[str] | None) -> None:
        """4.3: ``moved`` went from ``parent`` to ``child`` (None: the viewer did not see what)."""
        child_height = self.after.legions[child].height
        self.heights[parent] = self.height(parent) - child_height
        self.heights[child] = child_height
        if self.mine(parent):
            return
        old = self.facts.known.pop(parent, Counter())
        for t in self.holding(parent):
            t.members.add(child)  # the two halves together hold what the parent held
        if moved is None:
            if old:
                self.facts.together.append(_Together({parent, child}, old))
            return
        self.facts.known[child] = Counter(moved)
        self.facts.known[parent] = old - Counter(moved)

    def merge(self, keep: str, absorbed: Iterable[str]) -> None:
        """2.4/Wolff 4.7: split-offs on one land became one legion again."""
        for marker in absorbed:
            self.heights[keep] = self.height(keep) + self.height(marker)
            self.heights[marker] = 0
            if self.mine(keep):
                continue
            self.k(keep).update(self.facts.known.pop(marker, Counter()))
            for t in self.holding(marker):
                t.members.discard(marker)
                t.members.add(keep)

    def forget(self, marker: str) -> None:
        """
        The legion left the viewer's reckoning (gone, or changed by something he did not
        see): what it held is taken out of every constraint at most, and nothing is kept.
        """
        known = self.facts.known.pop(marker, Counter())
        height = self.height(marker)
        size = sum(known.values())
        for t in self.holding(marker):
            for c in list(t.low):
                could = max(0, height - (size - known[c]))
                t.low[c] = max(0, t.low[c] - could)
            t.members.discard(marker)
        self.heights.pop(marker, None)

    def forget_changed(self) -> None:
        """Every legion whose contents changed in a way the viewer was not shown."""
        before, after = self.before.legions, self.after.legions
        for marker in sorted(set(before) | set(after)):
            old, new = before.get(marker), after.get(marker)
            if old is None or new is None or old.contents != new.contents:
                self.forget(marker)

    # -- the end of the event ----------------------------------------------------------------

    def settle(self) -> _Facts:
        """Drop what is gone, check heights, derive what follows, drop what says nothing."""
        legions = self.after.legions
        named = set(self.facts.known) | {m for t in self.facts.together for m in t.members}
        for marker in sorted(named):
            legion = legions.get(marker)
            if legion is None or legion.owner == self.viewer:
                if legion is None and self.height(marker):
                    self.inconsistent(f"{marker} left the board {self.height(marker)} high")
                self.forget(marker)
            elif marker in self.heights and self.heights[marker] != legion.height:
                self.inconsistent(f"{marker} is {legion.height} high, not {self.heights[marker]}")
                self.forget(marker)
        _derive(self.facts, self.viewer, self.after, self.inconsistent)
        _prune(self.facts, self.after)
        return self.facts


def _derive(
    facts: _Facts, viewer: Viewer, state: GameState, inconsistent: Callable[[str], None]
) -> None:
    """
    Raise every lower bound to what the constraints force, until nothing changes.

    For a constraint "members hold at least ``low``" and a character ``c``: a member
    holds at least ``low[c]`` less what the other members could hold of ``c`` at most.
    A legion could hold at most its height less the other characters it surely holds,
    and, within any constraint, that constraint's most of ``c`` (``high``, or ``low[c]``
    plus the places ``low`` leaves free) less what the other members surely hold.
    """
    heights = {m: lg.height for m, lg in state.legions.items() if lg.owner != viewer}
    together = list(facts.together)
    titans: dict[str, list[str]] = {}
    for marker, legion in state.legions.items():
        if legion.owner != viewer:
            titans.setdefault(legion.owner, []).append(marker)
    for markers in titans.values():
        # 5.2, 19.x: each player has one Titan; while it lives it is in one of his legions.
        if sum(state.legions[m].contents.count(TITAN) for m in markers) == 1:
            together.append(_Together(set(markers), Counter({TITAN: 1}), {TITAN: 1}))
    together = [t for t in together if t.members <= heights.keys()]
    if not together:
        return
    known = facts.known
    zero: Counter[str] = Counter()
    by_member: dict[str, list[_Together]] = {}
    for t in together:
        for m in t.members:
            by_member.setdefault(m, []).append(t)

    def most(marker: str, c: str) -> int:
        have = known.get(marker, zero)
        best = heights[marker] - (sum(have.values()) - have[c])
        for t in by_member.get(marker, ()):
            total = sum(heights[m] for m in t.members)
            ceiling = t.low[c] + total - sum(t.low.values())
            if c in t.high:
                ceiling = min(ceiling, t.high[c])
            others = sum(known.get(m, zero)[c] for m in t.members if m != marker)
            best = min(best, ceiling - others)
        return best

    changed = True
    while changed:
        changed = False
        for t in together:
            sure: Counter[str] = Counter()
            for m in t.members:
                sure.update(known.get(m, zero))
            t.low |= sure  # together they hold at least what each surely holds
            for c in list(t.low):
                need = t.low[c]
                if need <= 0:
                    continue
                could = {m: most(m, c) for m in t.members}
                spare = sum(could.values())
                for m in t.members:
                    floor = need - (spare - could[m])
                    have = known.setdefault(m, Counter())
                    if floor > have[c]:
                        if sum(have.values()) - have[c] + floor > heights[m]:
                            inconsistent(f"{m} cannot hold {floor} {c}")
                            continue
                        have[c] = floor
                        changed = True


def _size(known: Counter[str] | None) -> int:
    return sum(known.values()) if known else 0


def _prune(facts: _Facts, state: GameState) -> None:
    """Drop empty bounds and the constraints that no longer say more than the bounds."""
    facts.known = {m: +k for m, k in facts.known.items() if +k}
    kept: list[_Together] = []
    for t in facts.together:
        t.low = +t.low
        if len(t.members) < 2 or not t.low:
            continue  # a single member's bound is in its own facts already (see _derive)
        sure: Counter[str] = Counter()
        for m in t.members:
            sure.update(facts.known.get(m, Counter()))
        if not t.low - sure:
            continue  # every member's share is known: nothing more to derive from it
        if all(_size(facts.known.get(m)) == state.legions[m].height for m in t.members):
            continue
        same = next((o for o in kept if o.members == t.members), None)
        if same is not None:
            same.low = same.low | t.low
            continue
        kept.append(t)
    facts.together = kept


