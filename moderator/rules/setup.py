"""
Setting up a game (Complete Sequence 1.1-1.6, rules 5.0-5.2, Wolff 5.0/5.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from moderator.rules import events as ev
from moderator.rules.commands import ChooseColour
from moderator.rules.dice import Dice
from moderator.rules.errors import RuleError
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD, UnknownVariantError, load_variant, variant_digest

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def start_game(
    players: list[str], dice: Dice, *, scripted_dice: bool = False, variant: str = STANDARD
) -> list[ev.Event]:
    """
    Create the game in ``variant`` and roll for towers (1.3): players not yet assigned
    roll; a roll that is unique in its set and names a free tower assigns it
    (5.1: the zeros of 100..600 are ignored); the others roll again.

    Raises:
        RuleError: E-VARIANT for a variant we do not have (naming those we have).
    """
    names = [p.strip() for p in players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError("E-SETUP-PLAYERS", f"Titan needs 2 to 6 players, not {len(names)}")
    if len({n.lower() for n in names}) != len(names) or not all(names):
        raise RuleError("E-SETUP-PLAYERS", "every player needs a distinct, non-empty name")
    try:
        load_variant(variant)  # refused here, before a game exists to misplay
    except UnknownVariantError as error:
        raise RuleError("E-VARIANT", str(error)) from None
    created = ev.GameCreated(
        players=tuple(names),
        scripted_dice=scripted_dice,
        variant=variant,
        variant_digest=variant_digest(variant),
    )
    out: list[ev.Event] = [created]
    assigned: dict[str, int] = {}
    while len(assigned) < len(names):
        waiting = [n for n in names if n not in assigned]
        rolls = list(zip(waiting, dice.roll(len(waiting))))
        new = towers_won(rolls, assigned.values())
        assigned.update(new)
        out.append(ev.TowersRolled(rolls=tuple(rolls), assigned=new))
    return out


def towers_won(
    rolls: Sequence[tuple[str, int]], assigned: Iterable[int]
) -> tuple[tuple[str, int], ...]:
    """
    1.3.1.2: the towers one set of ``rolls`` gives, beside the towers ``assigned``
    already: a roll unique in its set that names a free tower takes it.
    """
    values = [r for _, r in rolls]
    taken = {t // 100 for t in assigned}
    return tuple((n, r * 100) for n, r in rolls if values.count(r) == 1 and r not in taken)


def colour_chooser(state: GameState) -> str | None:
    """1.4.1/Wolff 5.0: colours are chosen in ascending tower order."""
    waiting = [p for p in state.players if p.colour is None and not p.eliminated]
    return min(waiting, key=lambda p: p.tower).name if waiting else None


def free_colours(state: GameState) -> list[str]:
    taken = {p.colour for p in state.players}
    return [c for c in state.variant.colours if c not in taken]


def choose_colour(state: GameState, cmd: ChooseColour) -> list[ev.Event]:
    variant = state.variant
    colour = next((c for c in variant.colours if c.lower() == cmd.colour.strip().lower()), None)
    free = free_colours(state)
    if colour is None or colour not in free:
        raise RuleError(
            "E-COLOUR", f"{cmd.colour!r} is not a free colour; choose one of: {', '.join(free)}"
        )
    # 4.2: his colour's markers; 21.3 TITANplus: only the first eight of them.
    dealt = variant.markers[colour][: variant.options.markers_per_player]
    markers = tuple(code for code, _ in dealt)
    return [ev.ColourChosen(player=cmd.player, colour=colour, markers=markers)]


def initial_legions(state: GameState) -> list[ev.Event]:
    """1.5/5.2: each player's eight characters in one legion on his tower (Wolff 4.1)."""
    variant = state.variant
    contents = ("Titan", "Angel") + tuple(
        c for c, n in variant.starting_creatures.items() for _ in range(n)
    )
    legions = tuple(
        (p.markers[0], p.name, p.tower, tuple(sorted(contents))) for p in state.live_players
    )
    return [ev.LegionsPlaced(legions=legions)]


def first_mover(state: GameState) -> str:
    """Wolff 5.1: the highest starting tower moves first."""
    return max(state.live_players, key=lambda p: p.tower).name


def is_colour_step(state: GameState) -> bool:
    return state.step is Step.COLOUR
