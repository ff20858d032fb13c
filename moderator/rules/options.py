"""
The rule options a variant turns on or off (issue 27).

Where the source documents differ on a rule, the difference is a named option here, so
that the rules core asks ``state.variant.options.<name>`` and never a variant's name:
a group writing its own variant picks rules by name in its data, and a test of one
option runs in any variant.  The defaults are the game the moderator plays unless told
otherwise: the Avalon Hill rules of 1982 (``001``) with Bruno Wolff's errata and his
Complete Sequence of Play (``004``).  docs/variants.md lists each option with the
section it comes from and which shipped variant turns it on.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from moderator.records import record


@record(kw_only=True)
class RuleOptions:
    """One value per rule difference; the defaults are 1982 with Wolff's errata."""

    #: 003 17.4: a winning legion of fewer than six characters may take both the angel
    #: its points earned and a muster.  Wolff's Complete Sequence (2.5.6.8 angels, then
    #: 2.6 musters) already allows both whenever there is room, so this is on by
    #: default; off, 1982 17.4 is read literally: the winner takes the angel, or the
    #: creature, or neither, never both in one turn.
    angel_and_muster_below_six: bool = True
    #: Wolff 17.0: at a multiple of 500 a player may take an Angel instead of an
    #: Archangel that is still in the stacks.  Off, 1982 and 003 17.3 as written: the
    #: Archangel, and an Angel only when none is left.
    angel_in_place_of_archangel: bool = True
    #: 1982 7.6 and the 1981 Battlelands 23A: one reroll of the very first movement roll.
    #: Off: the 1980 original (000), which has no mulligan.
    first_move_mulligan: bool = True
    #: 1982 4.1 and 1981 23B: a legion of seven may move and teleport.  Off: the 1980
    #: original (000 4E, 7B, 8D), where a seven-high legion can neither move nor teleport.
    seven_high_legions_move: bool = True
    #: 1981 27E: a Hydra has three heads, each rangestriking with two dice, at the same
    #: or different targets, in one strike phase.  Off (1982 13.1): one rangestrike of
    #: half its power (five dice).
    hydra_three_heads: bool = False
    #: 4.2: the legion markers each player has; 21.3 TITANplus: eight (the first eight
    #: of his colour).
    markers_per_player: int = 12
    #: How many of the eliminated player's markers the slayer of a Titan gains, his own
    #: colour's first: 0 is all of them, those he took from others too (4.6, Wolff
    #: 4.6); 21.3 TITANplus: "his eight markers".
    markers_per_titan_eliminated: int = 0
    #: Which battleland a land with more than one is fought on (Badlands, placement.toml):
    #: "fixed", the land's placed battleland (Colossus's Badlands board; a variant without
    #: placement has one per terrain); "defender-roll", the original Badlands rule: the
    #: moderator rolls one die for the defender before he sets up, 1-3 the alternate.
    battleland_choice: str = "fixed"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option's name, as a variant's data writes it."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_table(cls, table: dict[str, Any], where: str = "options") -> RuleOptions:
        """
        The options a variant's ``[options]`` table sets, the rest left at their defaults.

        Raises:
            ValueError: naming ``where`` and the unknown option or the value that is not
                a true/false.
        """
        known = cls.names()
        unknown = [name for name in table if name not in known]
        if unknown:
            msg = f"{where}: there is no rule option {unknown[0]!r}; options: {', '.join(known)}"
            raise ValueError(msg)
        for name, value in table.items():
            problem = _check_value(name, value)
            if problem:
                raise ValueError(f"{where}: {name} must be {problem}, not {value!r}")
        return cls(**table)

    def changed(self) -> dict[str, object]:
        """The options that differ from the defaults (what a report or a doc names)."""
        default = DEFAULT_OPTIONS
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


#: The least value of a number option (the others: 0).
_LEAST = {"markers_per_player": 1}
#: The values ``battleland_choice`` may take.
BATTLELAND_CHOICES = ("fixed", "defender-roll")


def _check_value(name: str, value: object) -> str:
    """What ``value`` should have been for the option ``name``; '' when it is right."""
    default = getattr(DEFAULT_OPTIONS, name)
    if isinstance(default, bool):
        return "" if isinstance(value, bool) else "true or false"
    if isinstance(default, int):
        least = _LEAST.get(name, 0)
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= least
        return "" if ok else f"a whole number, {least} or more"
    if name == "battleland_choice":
        return "" if value in BATTLELAND_CHOICES else " or ".join(map(repr, BATTLELAND_CHOICES))
    return "" if isinstance(value, type(default)) else type(default).__name__


#: The game as 1982 and Wolff's errata have it: every variant's options unless it says otherwise.
DEFAULT_OPTIONS = RuleOptions()

__all__ = ["BATTLELAND_CHOICES", "DEFAULT_OPTIONS", "RuleOptions"]
