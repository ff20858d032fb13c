"""
JSON views of a game: what one player (or the public) may see, and what may be done now.

Pure functions of the state.  A view never holds a fact its viewer may not know: a
legion's contents appear only where ``Legion.known_by(viewer)``, and the negotiation of
an engagement (its proposals) only for the two engaged players.
"""

from __future__ import annotations

from typing import Any

from moderator.orders import render_order
from moderator.rules import commands as cmd
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState, Legion, Step
from moderator.rules.variant import load_variant


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
    return {}


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


def _contents_text(contents: list[str] | None, height: int) -> str:
    if contents is None:
        return f"{height} unknown"
    return ", ".join(contents)


def view_text(view: dict[str, Any], viewer: str | None = None) -> str:
    """A readable rendering of ``player_view``'s dict (turn, whose move, scores, board)."""
    names = marker_names()
    lines: list[str] = []
    if view["step"] == Step.OVER.value:
        winner = view["winner"]
        lines.append(
            f"Game over after turn {view['turn']}: "
            + (f"{winner} wins." if winner else "nobody wins (a draw).")
        )
    else:
        actor = view["to_act"]
        whose = "your move" if actor is not None and actor == viewer else f"{actor} to act"
        roll = f", roll {view['roll']}" if view["roll"] is not None else ""
        if view["active"] is None:
            lines.append(f"Setting up: {view['step']} step; {whose}.")
        else:
            lines.append(
                f"Turn {view['turn']}, {view['active']}'s turn: {view['step']} step"
                f" ({view['phase']} phase{roll}); {whose}."
            )
    eng = view["engagement"]
    if eng is not None:
        lines.append(
            f"Engagement at {eng['land']}: {eng['attacker_player']}'s {eng['attacker']} attacks "
            f"{eng['defender_player']}'s {eng['defender']}."
        )
        for p in eng.get("proposals", []):
            lost = [
                f"{eng['attacker']} loses {', '.join(p['attacker_loses']) or 'nothing'}",
                f"{eng['defender']} loses {', '.join(p['defender_loses']) or 'nothing'}",
            ]
            lines.append(f"  proposal {p['number']} by {p['by']}: {'; '.join(lost)}")
        if eng.get("no_more"):
            lines.append(f"  {eng['no_more']} has declared no more proposals.")
    lines.append("")
    lines.append("Players:")
    for p in view["players"]:
        status = " (out)" if p["eliminated"] else ""
        lines.append(
            f"  {p['name']:<10} {p['color'] or '-':<7} tower {p['tower']:<4} "
            f"score {p['score']:>4}  free markers {p['markers_free']}{status}"
        )
    lines.append("")
    lines.append("Legions:")
    by_owner: dict[str, list[dict[str, Any]]] = {p["name"]: [] for p in view["players"]}
    for lg in view["legions"]:
        by_owner.setdefault(lg["owner"], []).append(lg)
    if not view["legions"]:
        lines.append("  (none)")
    for owner, legions in by_owner.items():
        if not legions:
            continue
        lines.append(f"  {owner}:")
        for lg in legions:
            moved = " (moved)" if lg["moved"] else ""
            name = names.get(lg["marker"], "")
            lines.append(
                f"    {lg['marker']} {name:<11} in {lg['land']:<5} {lg['height']} high: "
                f"{_contents_text(lg['contents'], lg['height'])}{moved}"
            )
    if view["dead"]:
        dead = ", ".join(f"{k} {n}" for k, n in view["dead"].items())
        lines.append("")
        lines.append(f"Dead: {dead}")
    return "\n".join(lines)
