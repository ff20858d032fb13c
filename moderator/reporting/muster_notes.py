"""
Why a legion that moved cannot muster (18.0-18.5): a player at the muster step is told,
for each of his moved legions with nothing to muster, what it lacks, so that he need
not look the chains up on his own board ("needs an Ogre or better to muster an Ogre").

And what the caretaker has left: at a table every player may count the caretaker's
stacks (rulebook, "caretaker"; Wolff's etiquette 27 asks a moderator to supply such
public information), and a player by mail has nothing else to count them from, so the
steps at which he chooses what to muster or take are told the counts.
"""

from __future__ import annotations

from moderator.rules.legal import to_act
from moderator.rules.muster import MAX_HEIGHT, muster_options, qualifications
from moderator.rules.state import GameState, Legion, Step

#: The steps at which what the caretaker has left shapes the choice of the player to
#: act: his split and move (where to muster), his muster, a defender's reinforcement
#: and the angel or archangel earned by points.
CARETAKER_STEPS = frozenset({Step.SPLIT, Step.MOVE, Step.MUSTER, Step.REINFORCE, Step.ACQUIRE})
#: The width the counts are filled to (the mail's lines are shorter than 76).
CARETAKER_WIDTH = 70


def _a(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def why_not(state: GameState, legion: Legion) -> str | None:
    """Why ``legion`` (moved, not yet mustered) can muster nothing; None if it can."""
    if not legion.moved or legion.mustered or muster_options(state, legion):
        return None
    variant = state.variant
    terrain = variant.lands[legion.land].terrain
    where = f"{legion.marker} in {legion.land} ({terrain})"
    if legion.height >= MAX_HEIGHT:
        return f"{where}: it is {MAX_HEIGHT} high, the most a legion may be (4.1)"
    qualified = sorted({c for c, _ in qualifications(variant, legion.contents, terrain)})
    if qualified:
        return f"{where}: the caretaker has no {', '.join(qualified)} left (18.0)"
    chain = variant.muster_chains.get(terrain, ())
    names = [c for c, _ in chain]
    if not names:
        return f"{where}: nothing can be mustered in {terrain}"
    better = f" or a better {terrain} creature ({', '.join(names[1:])})" if names[1:] else ""
    needs = [
        f"{names[i - 1]} x{needed} for {_a(names[i])}"
        for i, (_creature, needed) in enumerate(chain)
        if i > 0 and needed > 1
    ]
    steps = f"; or the one below in number: {', '.join(needs)}" if needs else ""
    return f"{where}: to muster {_a(names[0])} it must show {_a(names[0])}{better}{steps} (18.3)"


def muster_notes(state: GameState, player: str) -> list[str]:
    """At ``player``'s muster step: why each of his moved legions can muster nothing."""
    if state.step is not Step.MUSTER or to_act(state) != player:
        return []
    notes = (why_not(state, lg) for lg in state.legions_of(player))
    return [note for note in notes if note is not None]


def caretaker_lines(state: GameState, player: str) -> list[str]:
    """
    What the caretaker's stacks hold, "Angel 18, Archangel 6, ...", filled into lines,
    when it is ``player``'s turn to choose at one of ``CARETAKER_STEPS``; none else (the
    counts are public, but a report that asks nothing of him need not carry them).
    """
    if state.step not in CARETAKER_STEPS or to_act(state) != player:
        return []
    items = [f"{name} {count}" for name, count in sorted(state.caretaker.items())]
    lines: list[str] = []
    for n, item in enumerate(items):
        piece = item + ("," if n < len(items) - 1 else "")
        if lines and len(lines[-1]) + 1 + len(piece) <= CARETAKER_WIDTH:
            lines[-1] += " " + piece
        else:
            lines.append(piece)
    return lines


__all__ = ["CARETAKER_STEPS", "caretaker_lines", "muster_notes", "why_not"]
