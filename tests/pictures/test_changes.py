"""
Which lands the masterboard outlines (those touched by the events the viewer may see),
and whether a report's board differs from the one its reader was last shown.
"""

from __future__ import annotations

import copy
from typing import Any

from moderator.pictures.changes import board_changes, changed_lands
from moderator.reporting.views import player_view
from moderator.rules import events as ev
from moderator.usecases.games.robot_games import play_robot_game

from .positions import board_view

GAME = play_robot_game(3, seed=11, max_actions=400)
VIEW = {name: player_view(GAME.state, name) for name in GAME.players}


def test_every_move_marks_the_land_left_and_the_land_entered() -> None:
    for name in GAME.players:
        lands = changed_lands(GAME.events, name, VIEW[name])
        moves = [e for e in GAME.events if isinstance(e, ev.LegionMoved)]
        assert moves
        for move in moves:
            assert {move.from_land, move.to_land} <= lands


def test_an_event_naming_a_legion_marks_the_land_it_stood_on_then() -> None:
    view = board_view("Ann")  # Gd05 stands on 41
    muster = ev.CreatureMustered(marker="Gd05", creature="Troll", shown=("Troll", "Troll"))
    assert changed_lands([muster], "Ann", view) == {41}
    moved_in = ev.LegionMoved(marker="Gd05", from_land=40, to_land=41)
    assert changed_lands([moved_in, muster], "Ann", view) == {40, 41}
    # Mustered before the legion moved from 39 to 41: on 39, where it stood then.
    moved_on = ev.LegionMoved(marker="Gd05", from_land=39, to_land=41)
    assert changed_lands([muster, moved_on], "Ann", view) == {39, 41}
    gone = ev.CreatureMustered(marker="Bu09", creature="Troll", shown=())
    assert changed_lands([gone], "Ann", view) == set()  # no longer on the board


def test_what_a_player_may_not_see_marks_nothing() -> None:
    secret = ev.SplitContents(
        parent="Bu03", child="Bu05", moved=("Ogre",), visible_to=frozenset({"Bob"})
    )
    view = board_view("Ann")
    assert changed_lands([secret], "Ann", view) == set()
    assert changed_lands([secret], "Bob", board_view("Bob")) == {200}


def test_battle_steps_mark_the_engaged_land() -> None:
    view = board_view("Cy")  # the battle on 200 is on
    strike = ev.StrikeRolled(striker=1, target=6, strike_number=4, rolls=(5, 2), hits=1)
    assert changed_lands([strike], "Cy", view) == {200}
    # A battle that ended within the events: its steps go to its own land.
    earlier = [
        ev.EngagementStarted(land=41, attacker="Gd05", defender="Rd10"),
        strike,
        ev.EngagementEnded(land=41),
    ]
    assert changed_lands(earlier, "Cy", view) == {41}


def _moved(view: dict[str, Any], marker: str, **changes: Any) -> dict[str, Any]:
    legions = [{**lg, **changes} if lg["marker"] == marker else lg for lg in view["legions"]]
    return {**view, "legions": legions}


def test_the_board_differs_only_where_a_marker_or_a_height_differs() -> None:
    view = board_view(None)
    assert board_changes(view, copy.deepcopy(view)) == (False, frozenset())
    assert board_changes(view, _moved(view, "Gd05", land=40)) == (True, frozenset({40, 41}))
    assert board_changes(view, _moved(view, "Gd05", height=4)) == (True, frozenset({41}))
    gone = {**view, "legions": [lg for lg in view["legions"] if lg["marker"] != "Gd05"]}
    assert board_changes(view, gone) == (True, frozenset({41}))


def test_what_the_board_does_not_show_leaves_it_unchanged() -> None:
    """Contents, the phase, the player to act and a battle's steps are not drawn on the
    masterboard: a report they alone call for need not carry it."""
    view = board_view(None)
    later = {
        **_moved(view, "Gd05", contents=["Titan"], moved=True),
        "phase": "muster",
        "to_act": "Bob",
        "battle": None,
    }
    assert board_changes(view, later) == (False, frozenset())


def test_a_score_changes_the_board_without_outlining_a_land() -> None:
    view = board_view(None)
    players = [{**p, "score": p["score"] + 10} if p["name"] == "Bob" else p for p in view["players"]]
    assert board_changes(view, {**view, "players": players}) == (True, frozenset())
