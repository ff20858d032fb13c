"""Positions the picture tests draw: a six-player board with a battle on the Tower, and a
battle in the Mountains with a red attacker."""

from __future__ import annotations

from typing import Any

from moderator.reporting.views import player_view
from moderator.rules.evolve import replay
from moderator.rules.positions import position_event

#: Six players mid-game; Ann (Gold) attacks Bob's legion in Bob's own tower.
BOARD: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Gold", "tower": 100, "score": 124},
        {"name": "Bob", "color": "Blue", "tower": 200, "score": 61},
        {"name": "Cy", "color": "Black", "tower": 300, "score": 230},
        {"name": "Di", "color": "Brown", "tower": 400, "score": 12},
        {"name": "Ed", "color": "Green", "tower": 500, "score": 87},
        {"name": "Flo", "color": "Red", "tower": 600, "score": 45},
    ],
    "turn": 6,
    "active": "Ann",
    "phase": "engage",
    "roll": 4,
    "legions": [
        {
            "marker": "Gd01",
            "land": 200,
            "contents": ["Titan", "Angel", "Cyclops", "Gorgon", "Lion"],
        },
        {"marker": "Gd05", "land": 41, "contents": ["Ogre", "Ogre", "Troll"]},
        {"marker": "Gd07", "land": 1000, "contents": ["Dragon", "Minotaur", "Lion"]},
        {
            "marker": "Bu03",
            "land": 200,
            "contents": ["Titan", "Ogre", "Ogre", "Centaur", "Gargoyle"],
        },
        {
            "marker": "Bu11",
            "land": 10,
            "contents": ["Troll", "Troll", "Ranger", "Ogre", "Ogre", "Ogre", "Ogre"],
        },
        {"marker": "Bk02", "land": 300, "contents": ["Titan", "Warlock"]},
        {"marker": "Bk09", "land": 115, "contents": ["Hydra", "Wyvern", "Troll"]},
        {"marker": "Bk12", "land": 17, "contents": ["Centaur", "Centaur"]},
        {"marker": "Br04", "land": 400, "contents": ["Titan", "Angel", "Gargoyle"]},
        {"marker": "Gr01", "land": 28, "contents": ["Titan", "Angel", "Gargoyle", "Gargoyle"]},
        {"marker": "Gr06", "land": 130, "contents": ["Behemoth", "Cyclops"]},
        {"marker": "Rd02", "land": 6000, "contents": ["Titan", "Giant", "Warbear"]},
        {"marker": "Rd10", "land": 36, "contents": ["Ranger", "Ranger", "Troll", "Ogre"]},
    ],
    "battle": {
        "land": 200,
        "attacker": "Gd01",
        "defender": "Bu03",
        "entry": "bottom",
        "turn": 3,
        "phasing": "attacker",
        "step": "strike",
        "characters": [
            {"legion": "Gd01", "type": "Titan", "hex": "D2", "hits": 3},
            {"legion": "Gd01", "type": "Angel", "hex": "C3"},
            {"legion": "Gd01", "type": "Cyclops", "hex": "D3", "hits": 2},
            {"legion": "Gd01", "type": "Gorgon", "hex": "B2"},
            {"legion": "Gd01", "type": "Lion", "hex": "A1"},
            {"legion": "Bu03", "type": "Titan", "hex": "D4", "hits": 1},
            {"legion": "Bu03", "type": "Ogre", "hex": "C4"},
            {"legion": "Bu03", "type": "Ogre", "hex": "E3", "hits": 5},
            {"legion": "Bu03", "type": "Centaur", "hex": "D5"},
            {"legion": "Bu03", "type": "Gargoyle", "hex": "E4", "hits": 1},
        ],
    },
}


#: Ann (Red) attacks Bob's legion in land 1000 (Mountains: slopes and cliffs) from the
#: left; her maneuver, her Titan on B3 yet to move.
MOUNTAIN_BATTLE: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 100},
        {"name": "Bob", "color": "Blue", "tower": 400},
    ],
    "turn": 5,
    "active": "Ann",
    "phase": "engage",
    "roll": 2,
    "legions": [
        {"marker": "Rd01", "land": 1000, "contents": ["Titan", "Archangel", "Minotaur"]},
        {"marker": "Bu01", "land": 1000, "contents": ["Gargoyle", "Behemoth", "Colossus"]},
        {"marker": "Rd02", "land": 100, "contents": ["Ogre"]},
        {"marker": "Bu02", "land": 400, "contents": ["Titan"]},
    ],
    "battle": {
        "land": 1000,
        "attacker": "Rd01",
        "defender": "Bu01",
        "entry": "left",
        "turn": 2,
        "phasing": "attacker",
        "step": "maneuver",
        "characters": [
            {"legion": "Rd01", "type": "titan", "hex": "B3"},
            {"legion": "Rd01", "type": "archangel", "hex": "A2"},
            {"legion": "Rd01", "type": "minotaur", "hex": "B4"},
            {"legion": "Bu01", "type": "gargoyle", "hex": "E3"},
            {"legion": "Bu01", "type": "behemoth", "hex": "E4"},
            {"legion": "Bu01", "type": "colossus", "hex": "F2"},
        ],
    },
}


def board_view(viewer: str | None = "Ann") -> dict[str, Any]:
    """``BOARD``'s ``player_view`` for ``viewer``."""
    return player_view(replay([position_event(BOARD)]), viewer)
