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
from moderator.rules.variant import load_variant

_PHASES = {"split": Step.SPLIT, "move": Step.MOVE, "engage": Step.ENGAGE, "muster": Step.MUSTER}


def _bad(message: str) -> RuleError:
    return RuleError("E-POSITION", f"position file: {message}")


def position_event(data: Mapping[str, Any], *, scripted_dice: bool = False) -> ev.PositionLoaded:
    """
    Check a position and return the event that restores it.

    Raises:
        RuleError: with code E-POSITION, naming what is wrong.
    """
    variant = load_variant()
    players = _players(data, variant.colours, variant.towers)
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
        contents = tuple(sorted(variant.creature(str(c)).name for c in item["contents"]))
        if not 1 <= len(contents) <= 7:
            raise _bad(f"{marker} must hold 1 to 7 characters, not {len(contents)}")
        if owner_of[marker] not in live:
            raise _bad(f"{marker} belongs to {owner_of[marker]}, who is eliminated")
        legions.append((marker, owner_of[marker], land, contents, bool(item.get("moved", False))))
        lands.setdefault(land, set()).add(owner_of[marker])
    if len({lg[0] for lg in legions}) != len(legions):
        raise _bad("a marker is used twice")
    _check_counts(legions, data, live)
    phase = str(data.get("phase", "split"))
    if phase not in _PHASES:
        raise _bad(f"phase must be one of {', '.join(_PHASES)}, not {phase!r}")
    shared = sorted(land for land, who in lands.items() if len(who) > 1)
    crowded = [land for land, _ in Counter(lg[2] for lg in legions).items() if _ > 1]
    if phase != "engage" and crowded:
        raise _bad(f"more than one legion on land(s) {crowded} outside the engagement phase")
    if phase == "engage" and sorted(int(x) for x in data.get("engagements", shared)) != shared:
        raise _bad(f"the engagements listed do not match the board: {shared}")
    active = str(data.get("active", ""))
    if active not in live:
        raise _bad(f"'active' must name a player still in the game, not {active!r}")
    roll = data.get("roll")
    if phase == "move" and roll not in range(1, 7):
        raise _bad("a position in the move phase needs 'roll' (1-6)")
    dead = tuple(
        sorted((variant.creature(k).name, int(n)) for k, n in data.get("dead", {}).items())
    )
    return ev.PositionLoaded(
        players=players,
        legions=tuple(legions),
        dead=dead,
        turn=int(data.get("turn", 1)),
        active=active,
        step=_PHASES[phase].value,
        roll=int(roll) if roll is not None and phase != "split" else None,
        scripted_dice=scripted_dice,
    )


def _players(
    data: Mapping[str, Any], colours: tuple[str, ...], towers: tuple[int, ...]
) -> tuple[tuple[str, str, int, int, bool, tuple[str, ...]], ...]:
    variant = load_variant()
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
        markers = tuple(item.get("markers") or [m for m, _ in variant.markers[colour]])
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


def _check_counts(legions: list[Any], data: Mapping[str, Any], live: set[str]) -> None:
    variant = load_variant()
    in_play = Counter(c for lg in legions for c in lg[3])
    dead = Counter({variant.creature(k).name: int(n) for k, n in data.get("dead", {}).items()})
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
    if state.roll is not None:
        data["roll"] = state.roll
    if state.step.phase == "engage":
        data["engagements"] = state.engagement_lands()
    return data
