"""
What may be done now, as JSON: who is to act and each legal command with the order
line that gives it and its details (a strike's dice and carries, a rangestrike's line
of sight).  Split out of ``views`` (which re-exports these names) so the views keep to
what a player may see and this module to what he may do.
"""

from __future__ import annotations

from typing import Any

from moderator.orders import render_order
from moderator.rules import commands as cmd
from moderator.rules.battle import land_of, side_of
from moderator.rules.battlefield import Fighter
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Battle, GameState
from moderator.rules.strikes import rangestrike_options, strike_options

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
        case cmd.Done(keep=keep) if keep:
            return {"keeping": list(keep)}
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


def legal_lines(state: GameState, player: str | None = None) -> list[str]:
    """
    ``legal_orders`` as a player reads them: a move names the terrain it goes to in a
    comment (``move Gr01 to 28  # Marsh``), which the order reader passes over, so a
    line copied into an answer still reads.
    """
    actor = to_act(state)
    if actor is None or (player is not None and player != actor):
        return []
    lands = state.variant.lands
    return [
        f"{render_order(c, state)}  # {lands[c.land].terrain}"
        if isinstance(c, cmd.MoveLegion) and c.land in lands
        else render_order(c, state)
        for c in legal_commands(state)
    ]
