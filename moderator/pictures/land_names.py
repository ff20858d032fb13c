"""
The short names the masterboard writes under each land's number, and their key.

A land's full name (its terrain, or Badlands' Fort) in the 8 pixels a land has room for
cost a sixth of the board's PNG and was hard to read; two or three hard-edged bold
letters read better and cost a third as much.  The colour tells the terrain at a
glance, the short name makes it certain, and the key under the board spells each one
out.  The report's text names every land's terrain with its number too.

The standard terrains keep the letters a player learns once (``SHORT``); any other name
a variant draws (Badlands' Fort, Town, Waterhole, its fixed alternates) gets its first
two letters and its capitals after the first (BrushAlt: BrA), or, where that is taken,
its first letter and the first later one that makes it unique; a name no such pair
tells apart is written in full.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

SHORT = {
    "Brush": "Br",
    "Desert": "De",
    "Hills": "Hi",
    "Jungle": "Ju",
    "Marsh": "Ma",
    "Mountains": "Mo",
    "Plains": "Pl",
    "Swamp": "Sw",
    "Tower": "To",
    "Tundra": "Tu",
    "Woods": "Wo",
}
#: Letters of the key a line holds (10-pixel text across the 800-pixel board).
KEY_LETTERS = 125


def short_names(names: Iterable[str]) -> dict[str, str]:
    """Each of ``names`` -> its short name, no two alike; the same names give the same
    short names whatever their order."""
    wanted = set(names)
    short: dict[str, str] = {}
    taken: set[str] = set()
    for name in [n for n in SHORT if n in wanted] + sorted(wanted - set(SHORT)):
        chosen = next((c for c in _candidates(name) if c not in taken), name)
        short[name] = chosen
        taken.add(chosen)
    return short


def _candidates(name: str) -> list[str]:
    if name in SHORT:
        return [SHORT[name]]
    capitals = "".join(c for c in name[2:] if c.isupper())
    return [name[:2] + capitals] + [name[0] + c for c in name[2:] if c.isalpha()]


def key_lines(short: dict[str, str]) -> list[str]:
    """The key of ``short`` as lines of text: "Lands: Br Brush, De Desert, ..."."""
    pairs = ", ".join(f"{s} {name}" for name, s in sorted(short.items()) if s != name)
    return textwrap.wrap(f"Lands: {pairs}", KEY_LETTERS) if pairs else []
