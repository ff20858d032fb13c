"""
The lands where something happened or changed, for marking on the masterboard, and
whether a report's board differs from the one before it (``board_changes``).

A report covers the events since the player's last one; the picture marks the lands
those events touched, so he sees at a glance where to look.  Only events he may see
count (``reporting.visibility``), so a mark never gives away a secret: a split's
private half, for instance, is left out, and its public half marks the same land.

Events name a land in one of three ways: directly (``land``, ``from_land``, ``to_land``,
``back_to``), through a legion marker (a split, a muster, an angel), or not at all (the
steps of a battle, which happen on the engaged land).  The events are walked backwards
from the view's present, so a marker is looked up where its legion stood at the time
and a battle's steps go to the land of the engagement they belong to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.reporting.visibility import is_bookkeeping, may_see
from moderator.rules import events as ev

#: Battle events after the first: they name no land and happen on the engaged land.
_BATTLE_EVENTS = tuple(t for t in ev.BATTLE_EVENT_TYPES if t is not ev.BattleStarted)
_LAND_FIELDS = ("land", "from_land", "to_land", "back_to")
_MARKER_FIELDS = ("marker", "parent", "child", "source", "target")


def _markers(event: ev.Event) -> list[str]:
    found = [getattr(event, name, None) for name in _MARKER_FIELDS]
    found += list(getattr(event, "absorbed", ()))
    return [m for m in found if isinstance(m, str)]


def changed_lands(
    events: Sequence[ev.Event], viewer: str | None, view: Mapping[str, Any]
) -> set[int]:
    """
    The lands touched by the ``events`` ``viewer`` may see, given the ``view`` (a
    ``player_view`` dict) of the state they lead to.
    """
    where: dict[str, int] = {
        str(lg["marker"]): int(lg["land"]) for lg in view["legions"] if lg.get("land") is not None
    }
    engagement = view.get("engagement") or {}
    fighting: int | None = engagement.get("land")
    lands: set[int] = set()
    for event in reversed(events):
        if isinstance(event, ev.EngagementEnded | ev.EngagementResolved):
            fighting = event.land
        seen = may_see(event, viewer) and not is_bookkeeping(event)
        if seen:
            lands |= _lands_of(event, where, fighting)
        if isinstance(event, ev.LegionMoved):
            where[event.marker] = event.from_land  # where it stood before the move
        elif isinstance(event, ev.EngagementStarted):
            fighting = None
    return lands


def _lands_of(event: ev.Event, where: Mapping[str, int], fighting: int | None) -> set[int]:
    lands = {v for name in _LAND_FIELDS if isinstance(v := getattr(event, name, None), int)}
    lands |= {where[m] for m in _markers(event) if m in where}
    if isinstance(event, ev.LegionsPlaced | ev.PositionLoaded):
        lands |= {int(legion[2]) for legion in event.legions}
    if isinstance(event, _BATTLE_EVENTS) and fighting is not None:
        lands.add(fighting)
    return lands


def board_changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[bool, frozenset[int]]:
    """
    (whether the masterboard drawn from the public view ``after`` differs from the one
    drawn from ``before``, the lands whose markers differ).  What the board shows is
    compared, not what happened: the markers and heights in each land, and each player's
    colour, score and elimination.  A battle fought without a death yet, a proposal or a
    reveal leave it as it was, so a report then need not carry it again; a land a legion
    left and the one it entered both differ.
    """
    lands_before, lands_after = _markers_by_land(before), _markers_by_land(after)
    lands = frozenset(
        land
        for land in lands_before.keys() | lands_after.keys()
        if lands_before.get(land) != lands_after.get(land)
    )
    return bool(lands) or _scores(before) != _scores(after), lands


def _markers_by_land(view: Mapping[str, Any]) -> dict[int, list[tuple[str, str, int]]]:
    by_land: dict[int, list[tuple[str, str, int]]] = {}
    for legion in view["legions"]:
        if legion.get("land") is not None:
            shown = (str(legion["marker"]), str(legion["owner"]), int(legion["height"]))
            by_land.setdefault(int(legion["land"]), []).append(shown)
    return {land: sorted(shown) for land, shown in by_land.items()}


def _scores(view: Mapping[str, Any]) -> list[tuple[str, Any, Any, Any]]:
    return [(p["name"], p.get("color"), p.get("score"), p.get("eliminated")) for p in view["players"]]
