"""Parsers for the orders of the masterboard turn: colour, split, move, teleport, undo, done,
muster.

Each function reads the words after its order word from a ``Reader`` and returns the
command; the dispatch table in ``parser`` picks the function by the order word.
"""

from __future__ import annotations

from moderator.orders.names import colour_name
from moderator.orders.reader import Reader, Result
from moderator.rules import commands as cmd


def parse_colour(r: Reader) -> Result:
    name = r.take()
    r.end()
    return cmd.ChooseColour(player=r.player, colour=colour_name(name, r.variant, r.line))


def parse_split(r: Reader) -> Result:
    parent = r.marker()
    child = r.marker() if r.accept("into") or r.next_is_marker() else None
    characters = r.creatures()
    if not characters:
        r.fail("name the characters that go to the new legion")
    return cmd.Split(player=r.player, parent=parent, child=child, characters=tuple(characters))


def parse_move(r: Reader, teleport: bool) -> Result:
    """A legion's move on the masterboard: ``move Rd01 to 6 [from the left]``."""
    marker = r.marker()
    r.usage = r.usage.replace("Rd01", marker)
    r.expect("to")
    land = r.land()
    entry: str | None = None
    showing: str | None = None
    while not r.at_end():
        if entry is None and r.accept("from", "entering"):
            r.accept("from")
            entry = r.entry()
        elif teleport and showing is None and r.accept("showing", "show", "revealing"):
            showing = r.creature()
        else:
            r.fail()
    return cmd.MoveLegion(
        player=r.player, marker=marker, land=land, entry=entry, teleport=teleport, showing=showing
    )


def parse_teleport(r: Reader) -> Result:
    return parse_move(r, teleport=True)


def parse_undo(r: Reader) -> Result:
    r.accept("move")
    marker = None if r.at_end() else r.marker()
    r.end()
    return cmd.UndoMove(player=r.player, marker=marker)


def parse_done(r: Reader) -> Result:
    """``done``, or ``done keeping Rd03 [Rd07]``: the markers recombined split-offs keep (Wolff 4.7)."""
    keep: list[str] = []
    if r.accept("keeping", "keep"):
        while not r.at_end():
            if not (keep and r.accept("and")):
                keep.append(r.marker())
        if not keep:
            r.fail("name the marker the recombined legion keeps")
    r.end()
    return cmd.Done(player=r.player, keep=tuple(keep))


def parse_muster(r: Reader) -> Result:
    marker = r.marker()
    creature = r.creature()
    return cmd.Muster(player=r.player, marker=marker, creature=creature, showing=r.showing())
