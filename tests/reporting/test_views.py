"""Views and histories never show a player a fact he may not know."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from moderator import robot
from moderator.orders import parse_order
from moderator.reporting import describe, history_lines, legal_json, player_view
from moderator.reporting.narrate import may_see
from moderator.reporting.views import legal_lines, legal_orders
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD, load_variant
from moderator.usecases.games.dice import CountingDice

PLAYERS = ["Ann", "Bob", "Cy"]
VIEW_KEYS = "turn phase step to_act roll players legions caretaker dead winner engagement battle"


def robot_game(
    seed: int, players: list[str] = PLAYERS
) -> Iterator[tuple[GameState, list[ev.Event]]]:
    """Every (state, events so far) of a robot game, after each action."""
    dice = CountingDice(seed=seed)
    rng = random.Random(seed)
    events = setup.start_game(players, dice)
    events += advance(replay(events))
    state = replay(events)
    yield state, events
    while to_act(state) is not None:
        new = decide(state, robot.choose(state, rng), dice)
        for e in new:
            state = evolve(state, e)
        events = [*events, *new]
        yield state, events


def first(
    seed: int, condition: Callable[[GameState, list[ev.Event]], bool]
) -> tuple[GameState, list[ev.Event]]:
    for state, events in robot_game(seed):
        if condition(state, events):
            return state, events
    raise AssertionError("the condition never held")


def _legion(view: dict[str, Any], marker: str) -> dict[str, Any]:
    return next(lg for lg in view["legions"] if lg["marker"] == marker)


def test_view_shape_is_json() -> None:
    state, _ = first(1, lambda s, e: s.step is Step.SPLIT)
    view = player_view(state, "Ann")
    assert json.loads(json.dumps(view)) == view
    assert set(VIEW_KEYS.split()) <= set(view)
    assert view["phase"] == "split" and view["step"] == "split"
    assert view["to_act"] == to_act(state)
    assert {"name", "color", "tower", "score", "eliminated", "markers_free"} == set(
        view["players"][0]
    )
    assert {"marker", "owner", "land", "height", "contents", "moved"} == set(view["legions"][0])
    assert view["engagement"] is None


def test_split_contents_are_private() -> None:
    state, events = first(
        2, lambda s, e: isinstance(e[-1], ev.SplitContents | ev.LegionSplit) and s.active == "Ann"
    )
    split = next(e for e in reversed(events) if isinstance(e, ev.LegionSplit))
    owner = state.legions[split.parent].owner
    for viewer in [*PLAYERS, None]:
        view = player_view(state, viewer)
        for marker in (split.parent, split.child):
            legion = _legion(view, marker)
            assert legion["height"] == state.legions[marker].height
            if viewer == owner:
                assert legion["contents"] == list(state.legions[marker].contents)
            else:
                assert legion["contents"] is None


def test_history_never_shows_others_split_contents() -> None:
    *_, (state, events) = robot_game(3)
    assert state.step is Step.OVER
    for viewer in PLAYERS:
        lines = history_lines(events, viewer)
        secrets = [
            e
            for e in events
            if isinstance(e, ev.SplitContents) and viewer not in (e.visible_to or ())
        ]
        assert secrets, "the game should have other players' splits"
        own_markers = set(replay(events).player(viewer).markers) | {
            m
            for e in events
            if isinstance(e, ev.ColourChosen) and e.player == viewer
            for m in e.markers
        }
        for line in lines:
            if "(secret)" in line:
                child = line.split("(secret) ", 1)[1].split()[0]
                assert child in own_markers, line
    public = history_lines(events, None)
    assert not any("(secret)" in line for line in public)
    assert not any("proposed" in line for line in public)


def test_history_headings_and_turn_filter() -> None:
    *_, (_, events) = robot_game(4)
    lines = history_lines(events, "Ann")
    assert lines[0] == "Setup"
    assert any(line.startswith("Turn 1 — ") for line in lines)
    only = history_lines(events, "Ann", first_turn=2, last_turn=3)
    headings = [line for line in only if not line.startswith("  ")]
    assert headings and all(h.split()[1] in ("2", "3") for h in headings)


def test_engagement_reveals_and_proposals_only_for_the_engaged() -> None:
    def negotiating(s: GameState, e: list[ev.Event]) -> bool:
        return s.step is Step.NEGOTIATE and bool(s.engagement and s.engagement.proposals)

    for seed in range(1, 40):
        try:
            state, events = first(seed, negotiating)
        except AssertionError:
            continue
        break
    else:
        raise AssertionError("no robot game reached a negotiation")
    eng = state.engagement
    assert eng is not None
    both = {eng.attacker_player, eng.defender_player}
    started = max(i for i, e in enumerate(events) if isinstance(e, ev.EngagementStarted))
    reveals = [e for e in events[started:] if isinstance(e, ev.LegionRevealed)]
    assert {r.marker for r in reveals} == {eng.attacker, eng.defender}
    assert all(r.visible_to == both for r in reveals)
    proposals = [e for e in events[started:] if isinstance(e, ev.ProposalsMade)]
    assert proposals and all(p.visible_to == both for p in proposals)
    for viewer in [*PLAYERS, None]:
        view = player_view(state, viewer)
        engaged = viewer in both
        assert view["engagement"]["land"] == eng.land
        assert ("proposals" in view["engagement"]) == engaged
        for marker in (eng.attacker, eng.defender):
            contents = _legion(view, marker)["contents"]
            assert (contents is not None) == engaged
        seen = "\n".join(history_lines(events, viewer))
        assert ("proposed" in seen) == engaged


def test_describe_covers_every_event_of_a_game() -> None:
    *_, (_, events) = robot_game(5)
    state = GameState()
    for event in events:
        line = describe(event, state)
        assert line and line != event.TYPE
        state = evolve(state, event)
    split = ev.LegionSplit(parent="Bu01", child="Bu02", parent_height=4, child_height=4)
    assert describe(split, GameState()) == "Split: Bu02 off Bu01 (4 and 4)"


def test_describe_examples() -> None:
    state, _ = first(1, lambda s, e: s.step is Step.SPLIT)
    owner = state.active
    assert owner is not None
    marker = state.legions_of(owner)[0].marker
    moved = ev.LegionMoved(marker=marker, from_land=100, to_land=6, entry="left")
    assert describe(moved, state).startswith(f"{owner}'s {marker} (")
    assert describe(moved, state).endswith("moved from 100 (Tower) to 6 (Plains), entering from the left")


def test_legal_json_orders_parse_back() -> None:
    kinds: set[str] = set()
    for n, (state, _) in enumerate(robot_game(6)):
        if n > 400:
            break
        legal = legal_json(state)
        assert legal["player"] == to_act(state)
        commands = legal_commands(state)
        assert len(legal["actions"]) == len(commands)
        for action, command in zip(legal["actions"], commands):
            kinds.add(action["kind"])
            assert parse_order(action["order"], command.player, state) == command
            if action["kind"] == "move":
                assert {"legion", "land", "entry", "teleport", "showing"} <= set(action)
                assert action["teleport"] in (None, "tower", "titan")
                assert isinstance(command, cmd.MoveLegion)
                assert (action["teleport"] is None) != command.teleport
            if action["kind"] == "split":
                assert {"legion", "new_marker", "characters"} <= set(action)
            if action["kind"] == "muster":
                assert {"legion", "creature", "showing"} <= set(action)
            if action["kind"] == "accept":
                assert isinstance(action["number"], int)
            if action["kind"] == "engage":
                assert isinstance(action["land"], int)
        assert json.loads(json.dumps(legal)) == legal
    assert {"colour", "split", "roll", "move", "done", "muster"} <= kinds


def test_may_see() -> None:
    private = ev.NoMoreProposals(player="Ann", visible_to=frozenset({"Ann", "Bob"}))
    assert may_see(private, "Ann") and may_see(private, "Bob")
    assert not may_see(private, "Cy") and not may_see(private, None)
    assert may_see(ev.TurnEnded(player="Ann"), None)


def test_7_1_listed_moves_name_their_terrain_and_still_read_when_copied_back() -> None:
    """A move listed for a player names the land's terrain in a comment; the very line,
    copied into an answer, reads as the same order (7.x moves, 8.x teleports)."""
    state, _ = first(3, lambda s, e: s.step is Step.MOVE and to_act(s) is not None)
    player = to_act(state)
    assert player is not None
    lines = legal_lines(state, player)
    moves = [line for line in lines if line.startswith(("move ", "teleport "))]
    assert moves and all("  # " in line for line in moves)
    terrains = {land.terrain for land in load_variant(STANDARD).lands.values()}
    for line, plain in zip(lines, legal_orders(state, player), strict=True):
        assert parse_order(line, player, state) == parse_order(plain, player, state)
        if line in moves:
            assert line.split("  # ")[1] in terrains


def test_18_3_a_moved_legion_that_cannot_muster_is_told_why() -> None:
    """18.3: a legion musters only what its characters qualify for in the land's chain;
    the report says what it would need."""
    from dataclasses import replace

    from moderator.reporting.muster_notes import why_not

    state, _ = first(1, lambda s, e: s.step is Step.SPLIT)
    legion = next(iter(state.legions.values()))
    lands = load_variant(STANDARD).lands
    marsh = next(n for n, land in sorted(lands.items()) if land.terrain == "Marsh")
    lords = replace(legion, land=marsh, contents=("Titan", "Angel"), moved=True, mustered=False)
    note = why_not(state, lords)
    assert note is not None
    assert note.startswith(f"{legion.marker} in {marsh} (Marsh): to muster an Ogre it must show")
    assert "Ogre x2 for a Troll" in note and note.endswith("(18.3)")
    ogres = replace(lords, contents=("Titan", "Ogre"))
    assert why_not(state, ogres) is None  # an Ogre qualifies another Ogre
    full = replace(lords, contents=("Titan",) + ("Angel",) * 6)
    assert "7 high" in (why_not(state, full) or "")
