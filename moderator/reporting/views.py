"""
JSON views of a game: what one player (or the public) may see, and what may be done now.

Pure functions of the state.  A view never holds a fact its viewer may not know: a
legion's contents appear only where ``Legion.known_by(viewer)``, and the negotiation of
an engagement (its proposals) only for the two engaged players.  A battle is public
(2.5.6.1: both legions are revealed to every player), so every viewer sees all of it.

The text reports are Jinja2 templates (``templates/*.txt.j2``, see ``render``); this
module builds their view-models from the JSON views, so a template only loops and
formats.
"""

from __future__ import annotations

from typing import Any

from moderator.orders import render_order
from moderator.reporting.render import render
from moderator.rules import commands as cmd
from moderator.rules.battle import LAST_TURN, land_of, side_of
from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Battle, GameState, Legion, Step
from moderator.rules.strikes import rangestrike_options, strike_options
from moderator.rules.variant import LABELS, Battleland, load_variant


def marker_names() -> dict[str, str]:
    """Marker code -> the name of its picture ("Rd01" -> "Cross")."""
    return {code: name for pairs in load_variant().markers.values() for code, name in pairs}


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
    }


# -- legal actions ----------------------------------------------------------------------

_KINDS: dict[type[cmd.Command], str] = {
    cmd.ChooseColour: "colour",
    cmd.Withdraw: "withdraw",
    cmd.Split: "split",
    cmd.Roll: "roll",
    cmd.Mulligan: "mulligan",
    cmd.MoveLegion: "move",
    cmd.UndoMove: "undo",
    cmd.Done: "done",
    cmd.Engage: "engage",
    cmd.Flee: "flee",
    cmd.Propose: "propose",
    cmd.Accept: "accept",
    cmd.NoMore: "no_more_proposals",
    cmd.Concede: "concede",
    cmd.Fight: "fight",
    cmd.Summon: "summon",
    cmd.Reinforce: "reinforce",
    cmd.TakeAngel: "take_angel",
    cmd.Decline: "decline",
    cmd.Muster: "muster",
    cmd.Maneuver: "maneuver",
    cmd.ResetManeuver: "reset",
    cmd.Proceed: "proceed",
    cmd.AcceptConcession: "accept_concession",
    cmd.Strike: "strike",
    cmd.Rangestrike: "rangestrike",
    cmd.Carry: "carry",
}


def action_kind(command: cmd.Command) -> str:
    """The ``kind`` of a command in ``legal_json`` ("move", "no_more_proposals", ...)."""
    kind = _KINDS.get(type(command))
    if kind is None:  # a command newer than this table: its class name in snake case
        name = type(command).__name__
        kind = "".join(f"_{ch.lower()}" if ch.isupper() else ch for ch in name).lstrip("_")
    return kind


def _details(state: GameState, c: cmd.Command) -> dict[str, Any]:
    match c:
        case cmd.ChooseColour(colour=colour):
            return {"colour": colour}
        case cmd.Split(parent=parent, child=child, characters=characters):
            return {"legion": parent, "new_marker": child, "characters": list(characters)}
        case cmd.MoveLegion(marker=marker, land=land, entry=entry, teleport=teleport):
            kind = None
            if teleport:
                enemy = any(lg.owner != c.player for lg in state.legions_at(land))
                kind = "titan" if enemy else "tower"
            return {
                "legion": marker,
                "land": land,
                "entry": entry,
                "teleport": kind,
                "showing": c.showing,
            }
        case cmd.Engage(land=land):
            return {"land": land}
        case cmd.Propose(proposals=proposals):
            return {
                "proposals": [
                    {"attacker_loses": list(a), "defender_loses": list(d)} for a, d in proposals
                ]
            }
        case cmd.Accept(number=number):
            return {"number": number}
        case cmd.Summon(lord=lord, source=source):
            return {"lord": lord, "source": source}
        case cmd.Reinforce(creature=creature, showing=showing):
            return {"creature": creature, "showing": list(showing)}
        case cmd.TakeAngel(lord=lord):
            return {"lord": lord}
        case cmd.Muster(marker=marker, creature=creature, showing=showing):
            return {"legion": marker, "creature": creature, "showing": list(showing)}
        case cmd.Maneuver(to_hex=to_hex, from_hex=from_hex, creature=creature):
            if creature is None and state.battle is not None and from_hex is not None:
                mover = _fighter_on(state.battle, from_hex, _side(state, c.player))
                creature = mover.creature if mover is not None else None
            return {"from": from_hex, "to": to_hex, "type": creature}
        case cmd.Strike() | cmd.Rangestrike():
            return _strike_details(state, c)
        case cmd.Carry(targets=targets):
            return {"targets": list(targets)}
    return {}


def _side(state: GameState, player: str) -> str | None:
    eng = state.engagement
    if eng is None or player not in (eng.attacker_player, eng.defender_player):
        return None
    return side_of(eng, player)


def _fighter_on(battle: Battle, hex_label: str, side: str | None = None) -> Fighter | None:
    """The character on ``hex_label`` (of ``side`` if given; a living one first)."""
    here = [
        f
        for f in battle.fighters
        if f.hex == hex_label.upper() and (side is None or f.side == side)
    ]
    return min(here, key=lambda f: f.slain, default=None)


def _strike_details(state: GameState, c: cmd.Strike | cmd.Rangestrike) -> dict[str, Any]:
    """
    A strike's striker, target, strike number and dice, with the hexes excess damage may
    carry to (a strike) or the hexes its line of sight is drawn through (a rangestrike).
    The command holds only the strike number (and a strike its dice): the rest is
    recomputed from ``strike_options``/``rangestrike_options``.
    """
    details: dict[str, Any] = {
        "striker": c.striker,
        "target": c.target,
        "strike_number": c.strike_number,
        "dice": c.dice if isinstance(c, cmd.Strike) else None,
    }
    if isinstance(c, cmd.Strike):
        details["carry"] = []
    else:
        details["via"] = list(c.via)
    battle = state.battle
    side = _side(state, c.player)
    if battle is None or side is None:
        return details
    striker = _fighter_on(battle, c.striker, side)
    target = next(
        (
            f
            for f in battle.fighters
            if f.hex == c.target.upper() and f.side != side and not f.slain
        ),
        None,
    )
    if striker is None or target is None:
        return details
    land = land_of(battle)
    if isinstance(c, cmd.Strike):
        options = strike_options(land, striker, target, battle.fighters)
        chosen = next(
            (
                o
                for o in options
                if (c.strike_number is None or o.strike_number == c.strike_number)
                and (c.dice is None or o.dice == c.dice)
            ),
            None,
        )
        if chosen is not None:
            hexes = {f.id: f.hex for f in battle.fighters}
            details.update(
                strike_number=chosen.strike_number,
                dice=chosen.dice,
                carry=[hexes[fid] for fid in chosen.carry if hexes[fid] is not None],
            )
        return details
    ranged = rangestrike_options(land, striker, target, battle.fighters, phasing=True)
    via = tuple(h.upper() for h in c.via)
    found = next(
        (
            r
            for r in ranged
            if (not via or tuple(r.via) == via)
            and (c.strike_number is None or r.strike_number == c.strike_number)
        ),
        None,
    )
    if found is not None:
        details.update(strike_number=found.strike_number, dice=found.dice, via=list(found.via))
    return details


def action_json(state: GameState, command: cmd.Command) -> dict[str, Any]:
    """One legal command as ``{"kind", "order", ...details}``."""
    return {
        "kind": action_kind(command),
        "order": render_order(command, state),
        **_details(state, command),
    }


def legal_json(state: GameState) -> dict[str, Any]:
    """Who is to act and every legal action, each with the order line that gives it."""
    return {
        "player": to_act(state),
        "actions": [action_json(state, c) for c in legal_commands(state)],
    }


def legal_orders(state: GameState, player: str | None = None) -> list[str]:
    """The order lines ``player`` (default: whoever is to act) may give now; [] if not his turn."""
    actor = to_act(state)
    if actor is None or (player is not None and player != actor):
        return []
    return [render_order(c, state) for c in legal_commands(state)]


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


def battle_model(view: dict[str, Any], viewer: str | None = None) -> dict[str, Any] | None:
    """What ``battle.txt.j2`` prints, from a ``player_view`` (None when no battle is on)."""
    battle = view.get("battle")
    if battle is None:
        return None
    land = load_variant().battlelands[battle["terrain"]]
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
        "waiting": [c for c in chars if c["hex"] is None and not c["slain"]],
        "slain": [c for c in chars if c["slain"]],
    }


def status_model(view: dict[str, Any], viewer: str | None = None) -> dict[str, Any]:
    """What ``status.txt.j2`` prints, from a ``player_view``."""
    names = marker_names()
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
        by_owner.setdefault(lg["owner"], []).append({**lg, "picture": names.get(lg["marker"], "")})
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
    }


def view_text(view: dict[str, Any], viewer: str | None = None) -> str:
    """A readable rendering of ``player_view``'s dict (turn, whose move, scores, board)."""
    return render("status.txt.j2", **status_model(view, viewer))


def battle_text(view: dict[str, Any], viewer: str | None = None) -> str | None:
    """The battleland drawn as text (``templates/battle.txt.j2``); None when no battle is on."""
    battle = battle_model(view, viewer)
    return None if battle is None else render("battle.txt.j2", battle=battle)
