"""
Mustering (18.x, Wolff 18.0) and the qualification it shares with reinforcements (14.x).

``muster_options`` answers: what may this legion muster in this terrain,
and which characters must it show for each choice?
"""

from __future__ import annotations

from collections import Counter

from moderator.rules.state import GameState, Legion
from moderator.rules.variant import Variant

MAX_HEIGHT = 7  # 4.1


def qualifications(
    variant: Variant, contents: tuple[str, ...], terrain: str
) -> list[tuple[str, tuple[str, ...]]]:
    """
    Every (creature, characters shown) pair that qualifies a muster in ``terrain``, by
    ``variant``'s muster chains.

    18.3: a like or greater creature of the terrain's chain qualifies, or
    enough of the creature just below it; steps cannot be skipped.  18.5 and
    Wolff 18.0: in a tower any tower creature needs nothing shown, a Warlock
    needs the Titan or a Warlock, a Guardian three identical creatures or a
    Guardian.
    """
    have = Counter(contents)
    options: list[tuple[str, tuple[str, ...]]] = []
    if terrain == "Tower":
        options.extend((c, ()) for c in variant.tower_creatures)
        options.extend(("Warlock", (q,)) for q in variant.warlock_qualifiers if have[q])
        if have["Guardian"]:
            options.append(("Guardian", ("Guardian",)))
        for kind, n in sorted(have.items()):
            if n >= variant.guardian_needs and variant.creature(kind).is_creature:
                options.append(("Guardian", (kind,) * variant.guardian_needs))
        return options
    chain = variant.muster_chains[terrain]
    names = [c for c, _ in chain]
    for i, (creature, needed) in enumerate(chain):
        for better in names[i:]:
            if have[better]:
                options.append((creature, (better,)))
        if i > 0 and have[names[i - 1]] >= needed > 1:
            options.append((creature, (names[i - 1],) * needed))
    return options


def muster_options(
    state: GameState, legion: Legion, terrain: str | None = None
) -> list[tuple[str, tuple[str, ...]]]:
    """Qualified choices that the caretaker can still supply (18.0) for a legion with room."""
    if legion.height >= MAX_HEIGHT:
        return []
    variant = state.variant
    terrain = terrain or variant.lands[legion.land].terrain
    return [
        (creature, shown)
        for creature, shown in qualifications(variant, legion.contents, terrain)
        if state.caretaker.get(creature, 0) > 0
    ]


def angel_instead_of_muster(state: GameState, legion: Legion) -> bool:
    """
    Whether the angel this legion took for its points this turn stands in for its muster:
    1982 17.4 read literally (the angel, or the creature, or neither), when the variant
    does not give 003 17.4's angel and muster below six characters.
    """
    return legion.took_angel and not state.variant.options.angel_and_muster_below_six


def can_muster(state: GameState, legion: Legion) -> bool:
    """18.1: moved this turn, not yet mustered, room left, and something qualifies."""
    return (
        legion.moved
        and not legion.mustered
        and not angel_instead_of_muster(state, legion)
        and legion.owner == state.active
        and bool(muster_options(state, legion))
    )


def choose_showing(
    options: list[tuple[str, tuple[str, ...]]], creature: str, showing: tuple[str, ...]
) -> tuple[str, ...] | None:
    """The characters to show for ``creature``: the player's choice if it qualifies, else the first way."""
    ways = [shown for c, shown in options if c == creature]
    if not ways:
        return None
    if not showing:
        return ways[0]
    wanted = Counter(showing)
    for shown in ways:
        # 18.4: showing more than the minimum is allowed, as long as it contains a qualifying set.
        if not Counter(shown) - wanted:
            return tuple(sorted(showing))
    return None
