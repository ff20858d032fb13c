"""
The battle queries (``reach HEX``, ``strikes``): where a character may move, and the
strikes open to the player to act, each with its order line.
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.orders import OrderError, Query, parse_order, render_order
from moderator.reporting.views import legal_json
from moderator.rules import battle as battle_rules
from moderator.rules import commands as cmd
from moderator.rules.legal import to_act
from moderator.rules.maneuver import contact_locked
from moderator.rules.state import GameState
from moderator.rules.variant import LABELS

NO_BATTLE = "No battle is being fought."


def reach_hexes(state: GameState, hex_label: str) -> tuple[str, ...]:
    """
    The hexes the character on ``hex_label`` may move to in the maneuver going on now,
    in board order; none when it may not move (or there is no such character).  The
    ``reach`` answer and the picture that rings them both come from here.
    """
    battle = state.battle
    label = hex_label.upper()
    if battle is None or battle.step != "maneuver":
        return ()
    fighter = next((f for f in battle.fighters if f.hex == label and not f.slain), None)
    if fighter is None or fighter.side != battle.phasing:
        return ()
    if any(fid == fighter.id for fid, _ in battle.moved):
        return ()
    return tuple(sorted(battle_rules.destinations(battle, fighter), key=LABELS.index))


def reach_asked(
    state: GameState, player: str, lines: Iterable[str]
) -> tuple[str, tuple[str, ...]] | None:
    """
    The last ``reach HEX`` among ``player``'s answered query ``lines`` whose character
    may still move in ``state`` (the game once his mail is carried out), with the hexes
    it may move to: what his answer's battle picture rings.  None if there is none.
    """
    found = None
    for line in lines:
        try:
            query = parse_order(line, player, variant=state.variant)
        except OrderError:
            continue
        if isinstance(query, Query) and query.kind == "reach" and query.hex_label:
            hexes = reach_hexes(state, query.hex_label)
            found = (query.hex_label.upper(), hexes) if hexes else None
    return found


def reach_lines(state: GameState, player: str, hex_label: str) -> list[str]:
    """
    The ``reach HEX`` query: where the character on ``hex_label`` may move in the
    maneuver going on now (``reach_hexes``), each with its order line for its owner; or
    why it may not move.
    """
    battle, eng = state.battle, state.engagement
    if battle is None or eng is None:
        return [NO_BATTLE]
    label = hex_label.upper()
    fighter = next((f for f in battle.fighters if f.hex == label and not f.slain), None)
    if fighter is None:
        return [f"There is no living character on {label}."]
    owner = battle_rules.player_of(eng, fighter.side)
    whose = "Your" if owner == player else f"{owner}'s"
    name = f"{whose} {fighter.creature} on {label}"
    if battle.step != "maneuver":
        return [f"{name} cannot move now: the battle is in its {battle.step} step."]
    if fighter.side != battle.phasing:
        mover = battle_rules.player_of(eng, battle.phasing)
        return [f"{name} cannot move now: it is {mover}'s maneuver."]
    if any(fid == fighter.id for fid, _ in battle.moved):
        return [f"{name} has already moved in this maneuver (11.0)."]
    hexes = reach_hexes(state, label)
    if not hexes:
        land = battle_rules.land_of(battle)
        if contact_locked(land, fighter, battle.fighters):
            return [f"{name} cannot move: it is in contact with an enemy (11.3)."]
        return [f"{name} has nowhere to move."]
    lines = [f"{name} may move to: {', '.join(hexes)}."]
    if owner == player:
        lines += [
            "  " + render_order(cmd.Maneuver(player=player, to_hex=h, from_hex=label))
            for h in hexes
        ]
    return lines


def strike_lines(state: GameState, player: str) -> list[str]:
    """
    The ``strikes`` query: every legal strike and rangestrike of the player to act,
    with its strike number, dice and the hexes excess hits may carry to, one per line
    with its order line (in the carry step: the ways to carry the excess).
    """
    battle, eng = state.battle, state.engagement
    if battle is None or eng is None:
        return [NO_BATTLE]
    actor = to_act(state)
    whose = "Your" if actor == player else f"{actor}'s"
    legal = legal_json(state)["actions"]
    if battle.step == "carry":
        return [f"{whose} strike slew its target with hits to spare; carry them:"] + [
            f"  {a['order']}" for a in legal if a["kind"] == "carry"
        ]
    if battle.step not in ("strike", "counterstrike"):
        return [f"No strikes now: the battle is in its {battle.step} step ({actor} to act)."]
    strikes = [a for a in legal if a["kind"] in ("strike", "rangestrike")]
    phase = "strikes" if battle.step == "strike" else "counterstrikes"
    if not strikes:
        return [f"{whose} characters have no strike to make; 'done' ends the {phase}."]
    by_hex = {f.hex: f for f in battle.fighters if f.hex is not None}
    lines = [f"{whose} {phase}:"]
    for a in strikes:
        striker, target = by_hex[a["striker"]], by_hex[a["target"]]
        verb = "strikes" if a["kind"] == "strike" else "rangestrikes"
        extra = (
            f", carry to {', '.join(a['carry'])}"
            if a.get("carry")
            else f", via {' '.join(a['via'])}"
            if a.get("via")
            else ""
        )
        lines.append(
            f"  {striker.creature} ({a['striker']}) {verb} {target.creature} ({a['target']}): "
            f"needing {a['strike_number']} with {a['dice']} dice{extra} -- {a['order']}"
        )
    return lines
