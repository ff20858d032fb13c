"""
JSON views of a game: what one player (or the public) may see, and what may be done now.

Pure functions of the state.  A view never holds a fact its viewer may not know: a
legion's contents appear only where ``Legion.known_by(viewer)``, and the negotiation of
an engagement (its proposals) only for the two engaged players.  A battle is public
(2.5.6.1: both legions are revealed to every player), so every viewer sees all of it.

The text reports are Jinja2 templates (``templates/*.txt.j2``), rendered by
``moderator.letters``; this module builds their view-models from the JSON views
(``status_model``, ``battle_model``), so a template only loops and formats.

The legal actions (``legal_json``, ``legal_orders``, ...) are built in ``actions``
and re-exported here, where callers have always found them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.reporting.actions import (
    action_json,
    action_kind,
    legal_json,
    legal_lines,
    legal_orders,
)
from moderator.rules.battle import LAST_TURN
from moderator.rules.battlefield import ATTACKER, DEFENDER
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Legion, Step
from moderator.rules.variant import LABELS, STANDARD, Battleland, Variant, load_variant

__all__ = [
    "BATTLE_STEPS",
    "action_json",
    "action_kind",
    "battle_json",
    "battle_model",
    "legal_json",
    "legal_lines",
    "legal_orders",
    "legion_json",
    "marker_names",
    "player_view",
    "status_model",
]


def land_name(variant: Variant, land: int) -> str:
    """A land as mails name it, with its terrain: ``29 (Marsh)`` (a player plans
    musters and moves by terrain, and should not need his own board to read a report)."""
    found = variant.lands.get(land)
    return f"{land} ({found.terrain})" if found is not None else str(land)


def marker_names(variant: Variant) -> dict[str, str]:
    """Marker code -> the name of its picture ("Rd01" -> "Cross")."""
    return {code: name for pairs in variant.markers.values() for code, name in pairs}


def view_variant(view: Mapping[str, Any]) -> Variant:
    """The variant of the game a ``player_view`` shows (a view kept from before games
    named their variant, such as an old picture spec, is of the standard game)."""
    return load_variant(view.get("variant") or STANDARD)


def legion_json(legion: Legion, viewer: str | None) -> dict[str, Any]:
    """One legion as ``viewer`` sees it (contents null where unknown to him)."""
    return {
        "marker": legion.marker,
        "owner": legion.owner,
        "land": legion.land,
        "height": legion.height,
        "contents": list(legion.contents) if legion.known_by(viewer) else None,
        "moved": legion.moved,
    }


def _engagement_json(state: GameState, viewer: str | None) -> dict[str, Any] | None:
    eng = state.engagement
    if eng is None:
        return None
    out: dict[str, Any] = {
        "land": eng.land,
        "attacker": eng.attacker,
        "defender": eng.defender,
        "attacker_player": eng.attacker_player,
        "defender_player": eng.defender_player,
    }
    if viewer is not None and viewer in (eng.attacker_player, eng.defender_player):
        # Wolff 9.3: proposals are secret between the two engaged players.
        out["proposals"] = [
            {
                "number": number,
                "by": who,
                "attacker_loses": list(attacker),
                "defender_loses": list(defender),
            }
            for number, (who, (attacker, defender)) in enumerate(eng.proposals, 1)
        ]
        out["no_more"] = eng.no_more
    return out


def battle_json(state: GameState) -> dict[str, Any] | None:
    """
    The battle being fought, the same for every viewer (2.5.6.1: it is public): null
    when there is none.  Each character has its ``owner``, ``legion``, ``type``, ``hex``
    (null off the battleland: not entered yet, or slain and removed), ``hits``,
    ``power`` (what slays it) and ``slain``.
    """
    battle, eng = state.battle, state.engagement
    if battle is None or eng is None:
        return None
    legion = {ATTACKER: eng.attacker, DEFENDER: eng.defender}
    owner = {ATTACKER: eng.attacker_player, DEFENDER: eng.defender_player}
    return {
        "land": battle.land,
        "terrain": battle.terrain,
        "turn": battle.turn,
        "phasing": battle.phasing,
        "step": battle.step,
        "attacker": eng.attacker,
        "defender": eng.defender,
        "entry": battle.entry,
        "characters": [
            {
                "owner": owner[f.side],
                "legion": legion[f.side],
                "type": f.creature,
                "hex": f.hex,
                "hits": f.hits,
                "power": f.power,
                "slain": f.slain,
            }
            for f in battle.fighters
        ],
    }


def player_view(state: GameState, viewer: str | None) -> dict[str, Any]:
    """The JSON view of the game for ``viewer`` (None: the public)."""
    players = [
        {
            "name": p.name,
            "color": p.colour,
            "tower": p.tower,
            "score": p.score,
            "eliminated": p.eliminated,
            "markers_free": len(state.free_markers(p.name)),
        }
        for p in state.players
    ]
    legions = [
        legion_json(lg, viewer) for lg in sorted(state.legions.values(), key=lambda lg: lg.marker)
    ]
    return {
        "turn": state.turn,
        "phase": state.step.phase,
        "step": state.step.value,
        "active": state.active,
        "to_act": to_act(state),
        "roll": state.roll,
        "players": players,
        "legions": legions,
        "caretaker": dict(sorted(state.caretaker.items())),
        "dead": dict(sorted(state.dead.items())),
        "winner": state.winner,
        "engagement": _engagement_json(state, viewer),
        "battle": battle_json(state),
        "variant": state.variant_name,
    }


# -- text ---------------------------------------------------------------------------------
#
# The view-models below turn a JSON view into what the templates print; the templates
# (templates/status.txt.j2, templates/battle.txt.j2) only loop and format.

#: What the battle waits for, by step (Complete Sequence 2.5.6).
BATTLE_STEPS = {
    "attacker-concede": "the attacker may concede or proceed",
    "defender-concede": "the defender may concede or proceed",
    "maneuver": "moving and entering characters",
    "drift-concede": "the phasing side may concede before drift damage",
    "strike": "strikes and rangestrikes",
    "carry": "carrying excess hits over",
    "counter-concede": "the other side may concede before counterstriking",
    "counterstrike": "strikes back",
    "end-concede": "the battle is ending: the phasing side may concede",
    "concede-reply": "answering an attempt to concede",
    "ended": "the battle is over",
}


def _decision(actor: str | None, viewer: str | None, word: str) -> str:
    if actor is None:
        return "nobody to act"
    return (
        f"your {word}" if actor == viewer else f"{actor} to {'act' if word == 'move' else 'decide'}"
    )


def _hexsides(land: Battleland, label: str) -> list[dict[str, Any]]:
    """The hexside hazards of a hex, grouped: [{"kind", "way" ("up"/"down"), "hexes"}]."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for (atop, below), kind in land.hexsides.items():
        if atop == label:
            grouped.setdefault((kind, "down"), []).append(below)
        elif below == label:
            grouped.setdefault((kind, "up"), []).append(atop)
    return [
        {"kind": kind, "way": way, "hexes": sorted(hexes, key=LABELS.index)}
        for (kind, way), hexes in sorted(grouped.items())
    ]


def _factors(
    variant: Variant, land: Battleland, chars: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """
    Each side's living characters with power and skill, [{"owner", "items": ["Ogre
    6-2", ...]}]: a strike needs 4 + the target's skill - the striker's (12.x), and a
    player placing and moving must reckon the enemy's strikes at him too, which his
    orders do not list.  What bears on this battleland is added: flight, rangestrikes,
    the hazards here the character is native to.  The power is the battle's (a
    Titan's grows with its owner's score).
    """
    hazards = {h.terrain for h in land.hexes.values()} | set(land.hexsides.values())
    sides: dict[str, list[str]] = {}
    for c in chars:
        kind = variant.creature(c["type"])
        marks = [w for w, on in (("flies", kind.flies), ("rangestrikes", kind.rangestrikes)) if on]
        native = sorted(kind.natives & hazards)
        if native:
            marks.append(f"native to {' and '.join(native)}")
        item = f"{kind.name} {c['power']}-{kind.skill}" + (
            f" ({', '.join(marks)})" if marks else ""
        )
        items = sides.setdefault(c["owner"], [])
        if not c["slain"] and item not in items:
            items.append(item)
    return [{"owner": owner, "items": items} for owner, items in sides.items() if items]


def battle_model(view: dict[str, Any], viewer: str | None = None) -> dict[str, Any] | None:
    """What ``battle.txt.j2`` prints, from a ``player_view`` (None when no battle is on)."""
    battle = view.get("battle")
    if battle is None:
        return None
    land = view_variant(view).battlelands[battle["terrain"]]
    chars = battle["characters"]
    owners = {c["legion"]: c["owner"] for c in chars}
    eng = view.get("engagement") or {}
    attacker_player = eng.get("attacker_player") or owners.get(battle["attacker"], "?")
    defender_player = eng.get("defender_player") or owners.get(battle["defender"], "?")
    on_hex = {
        c["hex"]: c for c in sorted(chars, key=lambda c: c["slain"], reverse=True) if c["hex"]
    }
    hexes = [
        {
            "label": label,
            "hazard": land.hexes[label].terrain,
            "elevation": land.hexes[label].elevation,
            "hexsides": _hexsides(land, label),
            "character": on_hex.get(label),
        }
        for label in LABELS
    ]
    return {
        "land": battle["land"],
        "terrain": battle["terrain"],
        "attacker": battle["attacker"],
        "defender": battle["defender"],
        "attacker_player": attacker_player,
        "defender_player": defender_player,
        "entry": battle["entry"],
        "turn": battle["turn"],
        "last_turn": LAST_TURN,
        "phasing": battle["phasing"],
        "phasing_player": attacker_player if battle["phasing"] == ATTACKER else defender_player,
        "step": battle["step"],
        "step_text": BATTLE_STEPS.get(battle["step"], battle["step"]),
        "decision": (
            "the battle is over"
            if battle["step"] == "ended"
            else _decision(view.get("to_act"), viewer, "decision")
        ),
        "hexes": hexes,
        "factors": _factors(view_variant(view), land, chars),
        "waiting": [c for c in chars if c["hex"] is None and not c["slain"]],
        "slain": [c for c in chars if c["slain"]],
    }


def status_model(view: dict[str, Any], viewer: str | None = None) -> dict[str, Any]:
    """What ``status.txt.j2`` prints, from a ``player_view``."""
    variant = view_variant(view)
    names = marker_names(variant)
    eng = view["engagement"]
    engagement = None
    if eng is not None:
        engagement = {
            **eng,
            "proposals": eng.get("proposals", []),
            "no_more": eng.get("no_more"),
        }
    by_owner: dict[str, list[dict[str, Any]]] = {p["name"]: [] for p in view["players"]}
    for lg in view["legions"]:
        by_owner.setdefault(lg["owner"], []).append(
            {**lg, "picture": names.get(lg["marker"], ""), "where": land_name(variant, lg["land"])}
        )
    return {
        "over": view["step"] == Step.OVER.value,
        "setting_up": view["active"] is None,
        "turn": view["turn"],
        "winner": view["winner"],
        "active": view["active"],
        "step": view["step"],
        "phase": view["phase"],
        "roll": view["roll"],
        "whose": _decision(view["to_act"], viewer, "move"),
        "engagement": engagement,
        "battle": battle_model(view, viewer),
        "players": view["players"],
        "owners": [{"name": o, "legions": lgs} for o, lgs in by_owner.items() if lgs],
        "dead": list(view["dead"].items()),
        "name_width": max([10, *(len(p["name"]) for p in view["players"])]),
        # a report's reference when its signed part says the legions stand as that
        # report listed them, in a line instead of the list (``letters.reports.status``)
        "legions_as_of": "",
        # the variant's title where it is not the standard game (docs/variants.md)
        "variant": None
        if variant.name == STANDARD
        else f"{variant.title} (variant {variant.name})",
    }
