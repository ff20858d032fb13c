"""
Position files: a game written down (rulebook 20.5) and restored from it.

``position_event`` checks a position (see docs/positions.md) and turns it
into the first event of a restored game; ``export_position`` writes the
moderator's full view of a state back in the same shape.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from moderator.rules import events as ev
from moderator.rules.errors import RuleError
from moderator.rules.state import GameState, Step
from moderator.rules.variant import (
    SIDES,
    STANDARD,
    UnknownVariantError,
    Variant,
    load_variant,
    variant_digest,
)

_PHASES = {"split": Step.SPLIT, "move": Step.MOVE, "engage": Step.ENGAGE, "muster": Step.MUSTER}


def _bad(message: str) -> RuleError:
    return RuleError("E-POSITION", f"position file: {message}")


def _character(variant: Variant, name: Any) -> str:
    """The canonical name of a character; an unknown one is a position error, not a crash."""
    # Fix (tests/rules/test_positions.py): variant.creature raises KeyError for an unknown
    # name, which escaped position_event instead of the documented E-POSITION.
    try:
        return variant.creature(str(name)).name
    except KeyError as error:
        raise _bad(str(error.args[0])) from None


def position_event(data: Mapping[str, Any], *, scripted_dice: bool = False) -> ev.PositionLoaded:
    """
    Check a position and return the event that restores it, in the variant the file
    names (``"variant"``; none: the standard game).

    Raises:
        RuleError: with code E-POSITION, naming what is wrong.
    """
    try:
        variant = load_variant(str(data.get("variant", STANDARD)))
    except UnknownVariantError as error:
        raise _bad(str(error)) from None
    players = _players(data, variant)
    live = {p[0] for p in players if not p[4]}
    owner_of = {m: p[0] for p in players for m in p[5]}
    legions = []
    lands: dict[int, set[str]] = {}
    for item in data.get("legions", []):
        marker = str(item["marker"])
        if marker not in owner_of:
            raise _bad(f"marker {marker!r} belongs to no player")
        land = int(item["land"])
        if land not in variant.lands:
            raise _bad(f"{marker} stands on {land}, which is not a land")
        contents = tuple(sorted(_character(variant, c) for c in item["contents"]))
        if not 1 <= len(contents) <= 7:
            raise _bad(f"{marker} must hold 1 to 7 characters, not {len(contents)}")
        if owner_of[marker] not in live:
            raise _bad(f"{marker} belongs to {owner_of[marker]}, who is eliminated")
        legions.append((marker, owner_of[marker], land, contents, bool(item.get("moved", False))))
        lands.setdefault(land, set()).add(owner_of[marker])
    if len({lg[0] for lg in legions}) != len(legions):
        raise _bad("a marker is used twice")
    _check_counts(variant, legions, data, live)
    phase = str(data.get("phase", "split"))
    if phase not in _PHASES:
        raise _bad(f"phase must be one of {', '.join(_PHASES)}, not {phase!r}")
    shared = sorted(land for land, who in lands.items() if len(who) > 1)
    crowded = [land for land, _ in Counter(lg[2] for lg in legions).items() if _ > 1]
    if phase != "engage" and crowded:
        raise _bad(f"more than one legion on land(s) {crowded} outside the engagement phase")
    if phase == "engage" and not shared:
        raise _bad("the engage phase needs at least one engagement; use phase 'muster' instead")
    if phase == "engage" and sorted(int(x) for x in data.get("engagements", shared)) != shared:
        raise _bad(f"the engagements listed do not match the board: {shared}")
    active = str(data.get("active", ""))
    if active not in live:
        raise _bad(f"'active' must name a player still in the game, not {active!r}")
    # Fix (tests/rules/test_positions.py): an engagement is the mover's legion and one
    # other legion (2.5, 7.1).  A land shared by two other players (or by three legions)
    # was accepted, and 'engage' on it then crashed with StopIteration.
    for land in crowded:
        owners = [lg[1] for lg in legions if lg[2] == land]
        if len(owners) != 2 or active not in owners or len(set(owners)) != 2:
            raise _bad(f"land {land} must hold one legion of {active} and one of another player")
    roll = data.get("roll")
    if phase == "move" and roll not in range(1, 7):
        raise _bad("a position in the move phase needs 'roll' (1-6)")
    dead = tuple(sorted((_character(variant, k), int(n)) for k, n in data.get("dead", {}).items()))
    scores = {p[0]: p[3] for p in players}
    entries = _entries(variant, data.get("entries"), phase, shared)
    battle, battleland = None, ""
    if data.get("battle"):
        battle = _battle(variant, data["battle"], legions, shared, scores, dict(entries))
        battleland = _battleland(variant, data["battle"])
    if battle is not None and phase != "engage":
        raise _bad("a battle in progress needs phase 'engage'")
    return ev.PositionLoaded(
        battle=battle,
        battleland=battleland,
        players=players,
        legions=tuple(legions),
        dead=dead,
        turn=int(data.get("turn", 1)),
        active=active,
        step=_PHASES[phase].value,
        roll=int(roll) if roll is not None and phase != "split" else None,
        scripted_dice=scripted_dice,
        entries=entries,
        variant=variant.name,
        variant_digest=variant_digest(variant.name),
    )


def _players(
    data: Mapping[str, Any], variant: Variant
) -> tuple[tuple[str, str, int, int, bool, tuple[str, ...]], ...]:
    colours, towers = variant.colours, variant.towers
    out = []
    raw = list(data.get("players", []))
    if not 2 <= len(raw) <= 6:
        raise _bad("a game has 2 to 6 players")
    for item in raw:
        name = str(item["name"])
        colour = next((c for c in colours if c.lower() == str(item["color"]).lower()), None)
        if colour is None:
            raise _bad(f"{name}'s color must be one of {', '.join(colours)}")
        tower = int(item["tower"])
        if tower not in towers:
            raise _bad(f"{name}'s tower must be one of {', '.join(map(str, towers))}")
        dealt = variant.markers[colour][: variant.options.markers_per_player]  # 4.2, 21.3
        markers = tuple(item.get("markers") or [m for m, _ in dealt])
        out.append(
            (
                name,
                colour,
                tower,
                int(item.get("score", 0)),
                bool(item.get("eliminated", False)),
                markers,
            )
        )
    for index, label in ((0, "name"), (1, "color"), (2, "tower")):
        if len({p[index] for p in out}) != len(out):
            raise _bad(f"two players share a {label}")
    return tuple(out)


def _entries(
    variant: Variant, raw: Any, phase: str, shared: list[int]
) -> tuple[tuple[int, str], ...]:
    """
    The sides the attacker enters the pending engagements from, by land (Wolff 2.2/10.1).

    A position written after the moves no longer shows where each attacker came from,
    yet the side decides where he enters the battleland; an engagement the file gives no
    side for is entered from the bottom, as before this field existed.
    """
    if not raw:
        return ()
    if phase != "engage":
        raise _bad("'entries' gives the pending engagements' sides: only in phase 'engage'")
    if not isinstance(raw, Mapping):
        raise _bad("'entries' maps an engagement's land to a side, e.g. " + '{"12": "left"}')
    out: dict[int, str] = {}
    for key, value in raw.items():
        land = _land_number(key)
        side = str(value).lower()
        if land not in shared:
            raise _bad(f"entries: no engagement is pending on {key!r}; engagements: {shared}")
        if side not in SIDES:
            raise _bad(f"entries: land {land} is entered from {', '.join(SIDES)}, not {value!r}")
        if variant.lands[land].is_tower and side != "bottom":
            raise _bad(f"entries: tower {land} is always entered from the bottom (Wolff 2.2/10.2)")
        out[land] = side
    return tuple(sorted(out.items()))


def _land_number(key: Any) -> int:
    try:
        return int(key)
    except (TypeError, ValueError):
        raise _bad(f"entries: {key!r} is not a land number") from None


def _check_counts(
    variant: Variant, legions: list[Any], data: Mapping[str, Any], live: set[str]
) -> None:
    in_play = Counter(c for lg in legions for c in lg[3])
    dead = Counter({_character(variant, k): int(n) for k, n in data.get("dead", {}).items()})
    for name, kind in variant.creatures.items():
        limit = len(live) if name == "Titan" else kind.count
        if in_play[name] + (0 if name == "Titan" else dead[name]) > limit:
            raise _bad(f"more {kind.plural} than the game has ({limit}, Wolff 3.5)")
    for player in live:
        titans = sum(1 for lg in legions if lg[1] == player and "Titan" in lg[3])
        if titans != 1:
            raise _bad(f"{player} must have exactly one Titan on the board, not {titans}")


def export_position(state: GameState) -> dict[str, Any]:
    """The full position (every legion's contents): for the moderator only."""
    data: dict[str, Any] = {
        "players": [
            {
                "name": p.name,
                "color": p.colour,
                "tower": p.tower,
                "score": p.score,
                "eliminated": p.eliminated,
                "markers": list(p.markers),
            }
            for p in state.players
        ],
        "turn": state.turn,
        "active": state.active,
        "phase": state.step.phase,
        "legions": [
            {"marker": lg.marker, "land": lg.land, "contents": list(lg.contents), "moved": lg.moved}
            for lg in sorted(state.legions.values(), key=lambda lg: lg.marker)
        ],
        "dead": dict(sorted(state.dead.items())),
    }
    if state.variant_name != STANDARD:  # a standard game's file stays as it always was
        data["variant"] = state.variant_name
    if state.roll is not None:
        data["roll"] = state.roll
    if state.step.phase == "engage":
        data["engagements"] = state.engagement_lands()
        entries = _pending_entries(state)
        if entries:
            data["entries"] = entries
    return data


def _pending_entries(state: GameState) -> dict[str, str]:
    """The side each pending engagement's attacker entered by, from this turn's moves."""
    sides = {m.marker: m.entry for m in state.moves if m.entry is not None}
    out: dict[str, str] = {}
    for land in state.engagement_lands():
        for legion in state.legions_at(land):
            side = sides.get(legion.marker) if legion.owner == state.active else None
            if side is not None:
                out[str(land)] = side
    return out


def _battleland(variant: Variant, raw: Mapping[str, Any]) -> str:
    """The battleland a battle in progress names ("" if none: the land's placed one).

    Badlands with the defender's roll (option ``battleland_choice``) may fight a land on
    its terrain's own battleland or on the alternate; the file says which the die chose.
    """
    named = raw.get("battleland")
    if named is None:
        return ""
    land = int(raw["land"])
    choices = variant.battlelands_at(land)
    if str(named) not in choices:
        raise _bad(f"a battle at land {land} is fought on {' or '.join(choices)}, not {named!r}")
    return str(named)


_BATTLE_STEPS = ("maneuver", "strike")
_Characters = tuple[tuple[str, str, str, int], ...]


def _battle(
    variant: Variant,
    raw: Mapping[str, Any],
    legions: list[Any],
    shared: list[int],
    scores: Mapping[str, int],
    entries: Mapping[int, str],
) -> tuple[int, str, str, str, int, str, str, _Characters]:
    """Check a battle in progress: its legions, its characters' hexes and damage.

    Its entry side may be given by the battle or by ``entries``; given twice, they agree.
    """
    land = int(raw["land"])
    if land not in shared:
        raise _bad(f"the battle's land {land} holds no engagement")
    by_marker = {lg[0]: lg for lg in legions}
    attacker, defender = str(raw["attacker"]), str(raw["defender"])
    for marker in (attacker, defender):
        if marker not in by_marker or by_marker[marker][2] != land:
            raise _bad(f"{marker} is not on the battle's land {land}")
    entry = str(raw.get("entry", entries.get(land, "bottom")))
    if land in entries and entry != entries[land]:
        raise _bad(f"the battle enters from the {entry}, but 'entries' says {entries[land]}")
    if entry not in SIDES:
        raise _bad("the battle's entry must be left, right or bottom")
    if variant.lands[land].is_tower and entry != "bottom":
        raise _bad("a tower is always entered from the bottom (Wolff 2.2/10.2)")
    turn = int(raw.get("turn", 1))
    phasing = str(raw.get("phasing", "defender"))
    step = str(raw.get("step", "maneuver"))
    if not 1 <= turn <= 7 or phasing not in ("attacker", "defender") or step not in _BATTLE_STEPS:
        raise _bad("battle turn must be 1-7, phasing attacker or defender, step maneuver or strike")
    battleland = variant.battlelands[
        _battleland(variant, raw) or variant.lands[land].battleland_name
    ]
    characters = []
    seen: set[str] = set()
    for item in raw.get("characters", []):
        marker, creature = str(item["legion"]), _character(variant, str(item["type"]))
        hex_label, hits = str(item["hex"]).upper(), int(item.get("hits", 0))
        if marker not in (attacker, defender):
            raise _bad(f"battle character of {marker}, which is not in the battle")
        if hex_label not in battleland.hexes or hex_label in seen:
            raise _bad(f"battle hex {hex_label} is not a free hex of the {battleland.terrain}")
        seen.add(hex_label)
        kind = variant.creature(creature)
        power = 6 + scores[by_marker[marker][1]] // 100 if creature == "Titan" else kind.power
        if not 0 <= hits < power:
            raise _bad(f"a living {creature} has 0 to {power - 1} hits, not {hits}")
        ground = battleland.hexes[hex_label].terrain
        if ground in ("tree", "lake") or (ground in ("bog", "volcano") and ground not in kind.natives):
            raise _bad(f"a {creature} cannot stand on {hex_label}, a {ground} hex (11.7)")
        characters.append((marker, creature, hex_label, hits))
    for marker in (attacker, defender):
        listed = Counter(c for m, c, _, _ in characters if m == marker)
        if listed != Counter(by_marker[marker][3]):
            raise _bad(f"the battle characters of {marker} must match its contents")
    return land, attacker, defender, entry, turn, phasing, step, tuple(characters)
