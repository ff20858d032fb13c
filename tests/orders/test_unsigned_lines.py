"""
Wolff 4.5: the moderator never signs what a legion holds, nor a player's words.  The
reports and notices echo order lines (the robot's orders for a seat it plays, the
orders given at a timeout), and ``names_characters`` decides which of them may go in
the signed part: every canonical line that names a character, or quotes a message,
must be held back.
"""

from __future__ import annotations

from dataclasses import fields

from moderator.orders import render_order
from moderator.orders.render import names_characters, without_characters
from moderator.rules import commands as cmd
from moderator.rules.variant import load_variant

from .test_render import COMMANDS, STATE

#: The fields of a command that carry a character's name or a player's words.
_NAMING_FIELDS = {"characters", "showing", "lord", "creature", "proposals", "text"}


def _carries_a_name(command: cmd.Command) -> bool:
    """Whether the command itself names a character (or carries words): the truth the
    line's reading must agree with.  A show of a whole legion names none in its line,
    but a show is an aside and is never echoed signed anyway: counted as naming."""
    if isinstance(command, cmd.ShowLegion):
        return True
    return any(
        getattr(command, f.name) not in (None, (), "")
        for f in fields(command)
        if f.name in _NAMING_FIELDS
    )


def test_wolff_4_5_every_order_line_that_names_a_character_is_kept_from_the_signed_part() -> None:
    for command, line in COMMANDS:
        assert render_order(command, STATE) == line
        assert names_characters(line) is _carries_a_name(command), line


def test_wolff_4_5_every_kind_of_order_is_classed_for_the_signed_part() -> None:
    """A new kind of order must come with an example here (through ``test_render``), so
    that its echo is held to the same rule."""
    kinds = {type(command) for command, _ in COMMANDS}
    every = {kind for kind in vars(cmd).values() if isinstance(kind, type)
             and issubclass(kind, cmd.Command) and kind is not cmd.Command}
    assert every <= kinds, sorted(k.__name__ for k in every - kinds)


def test_wolff_4_5_a_battle_maneuver_naming_its_character_is_not_signed() -> None:
    named = cmd.Maneuver(player="Ann", to_hex="D4", from_hex="C3", creature="Ogre")
    plain = cmd.Maneuver(player="Ann", to_hex="D4", from_hex="C3")
    assert names_characters(render_order(named))
    assert not names_characters(render_order(plain))
    assert not names_characters("move Rd01 to 6 (drawn by the dice, rulebook 21.2)")


def test_wolff_4_5_an_order_line_without_its_characters_names_none() -> None:
    """What a reader who may not know a split's contents is told of it, signed."""
    characters = {name.lower() for name in load_variant("standard").creatures}
    for _, line in COMMANDS:
        bare = without_characters(line)
        assert not set(bare.lower().replace(",", " ").split()) & characters, (line, bare)
    assert without_characters("split Rd01 into Rd02: angel ogre") == "split Rd01 into Rd02"
    assert without_characters("teleport Rd02 to 41 from right showing titan") == (
        "teleport Rd02 to 41"
    )
