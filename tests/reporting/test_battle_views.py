"""Battles in the reports: the view JSON, the legal actions, the battleland as text, narration."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from moderator.letters.reports import battle as battle_text
from moderator.letters.reports import status as view_text
from moderator.orders import parse_order
from moderator.reporting import describe, history_lines, legal_json, player_view
from moderator.reporting.narrate import is_bookkeeping
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import apply
from moderator.rules.dice import NoDice, ScriptedDice
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.positions import position_event
from moderator.rules.state import GameState, Step
from moderator.rules.variant import LABELS, STANDARD, load_variant

#: Ann's cyclops on D4 in contact with Bob's troll (D3), ogre (D5) and ranger (E4); Ann strikes.
BATTLE: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Blue", "tower": 600},
        {"name": "Bob", "color": "Red", "tower": 300},
    ],
    "turn": 4,
    "active": "Ann",
    "phase": "engage",
    "roll": 3,
    "legions": [
        {"marker": "Bu01", "land": 1, "contents": ["Cyclops"]},
        {"marker": "Rd01", "land": 1, "contents": ["Troll", "Ogre", "Ranger"]},
        {"marker": "Bu02", "land": 600, "contents": ["Titan", "Angel"]},
        {"marker": "Rd02", "land": 300, "contents": ["Titan"]},
    ],
    "battle": {
        "land": 1,
        "attacker": "Bu01",
        "defender": "Rd01",
        "entry": "bottom",
        "turn": 2,
        "phasing": "attacker",
        "step": "strike",
        "characters": [
            {"legion": "Bu01", "type": "cyclops", "hex": "D4"},
            {"legion": "Rd01", "type": "troll", "hex": "D3"},
            {"legion": "Rd01", "type": "ogre", "hex": "D5"},
            {"legion": "Rd01", "type": "ranger", "hex": "E4"},
        ],
    },
}

#: The fields of every battle action kind, besides "kind" and "order" (docs/positions.md).
BATTLE_KINDS = {
    "maneuver": {"from", "to", "type"},
    "strike": {"striker", "target", "strike_number", "dice", "carry"},
    "rangestrike": {"striker", "target", "strike_number", "dice", "via"},
    "carry": {"targets"},
    "proceed": set(),
    "accept_concession": set(),
    "reset": set(),
    "concede": set(),
    "done": set(),
    "summon": {"lord", "source"},
    "reinforce": {"creature", "showing"},
}

#: Every battle event type (events.py, the battle section).
BATTLE_EVENTS = ev.BATTLE_EVENT_TYPES


class Ones:
    """Dice that always roll 1 (every strike needing 2 or more misses)."""

    def roll(self, count: int = 1) -> tuple[int, ...]:
        return (1,) * count


def position(**battle: Any) -> dict[str, Any]:
    data = copy.deepcopy(BATTLE)
    data["battle"].update(battle)
    return data


def restored(data: dict[str, Any] | None = None) -> GameState:
    return replay([position_event(data or BATTLE)])


class Game:
    """A game played command by command, keeping every event and the state before it."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.log: list[tuple[GameState, ev.Event]] = []
        self.states: list[GameState] = [state]

    def do(self, command: cmd.Command, dice: Any = None) -> tuple[ev.Event, ...]:
        new, events = apply(self.state, command, dice or NoDice())
        before = self.state
        for e in events:
            self.log.append((before, e))
            before = evolve(before, e)
        self.state = new
        self.states.append(new)
        return events

    def order(self, line: str, dice: Any = None) -> tuple[ev.Event, ...]:
        player = to_act(self.state)
        assert player is not None
        command = parse_order(line, player, self.state)
        assert isinstance(command, cmd.Command)
        return self.do(command, dice)

    def lines(self, events: tuple[ev.Event, ...]) -> list[str]:
        """What a reply shows of ``events`` (the battle's bookkeeping steps left out)."""
        described = {id(e): describe(e, before) for before, e in self.log}
        return [described[id(e)] for e in events if not is_bookkeeping(e)]


def fight(data: dict[str, Any]) -> Game:
    """The position without its battle: Ann engages, Bob declares no more, Ann fights."""
    data = copy.deepcopy(data)
    del data["battle"]
    game = Game(restored(data))
    game.do(cmd.Engage(player="Ann", land=1))
    game.do(cmd.NoMore(player="Bob"))
    game.do(cmd.Fight(player="Ann"))
    return game


# -- the view ------------------------------------------------------------------------------


def test_view_has_the_battle_for_every_viewer() -> None:
    state = restored()
    views = [player_view(state, viewer) for viewer in ("Ann", "Bob", None)]
    for view in views:
        assert json.loads(json.dumps(view)) == view
        assert view["battle"] == views[0]["battle"]  # public (2.5.6.1)
        contents = {lg["marker"]: lg["contents"] for lg in view["legions"]}
        assert contents["Bu01"] == ["Cyclops"] and contents["Rd01"] == ["Ogre", "Ranger", "Troll"]
    battle = views[0]["battle"]
    assert {k: v for k, v in battle.items() if k != "characters"} == {
        "land": 1,
        "terrain": "Plains",
        "turn": 2,
        "phasing": "attacker",
        "step": "strike",
        "attacker": "Bu01",
        "defender": "Rd01",
        "entry": "bottom",
    }
    assert battle["characters"][0] == {
        "owner": "Ann",
        "legion": "Bu01",
        "type": "Cyclops",
        "hex": "D4",
        "hits": 0,
        "power": 9,
        "slain": False,
    }
    assert [(c["owner"], c["type"], c["hex"]) for c in battle["characters"][1:]] == [
        ("Bob", "Troll", "D3"),
        ("Bob", "Ogre", "D5"),
        ("Bob", "Ranger", "E4"),
    ]


def test_view_battle_is_null_without_a_battle() -> None:
    data = copy.deepcopy(BATTLE)
    del data["battle"]
    assert player_view(restored(data), "Ann")["battle"] is None


def test_view_after_a_strike_shows_hits_and_the_slain() -> None:
    game = Game(restored())
    game.order("strike D4 at D5 needing 4 with 9 dice", ScriptedDice([6] * 9))
    game.order("carry to D3")
    chars = {c["hex"]: c for c in player_view(game.state, None)["battle"]["characters"]}
    assert (chars["D5"]["hits"], chars["D5"]["slain"]) == (6, True)
    assert (chars["D3"]["hits"], chars["D3"]["slain"]) == (3, False)


# -- legal actions -------------------------------------------------------------------------


def battle_states() -> list[GameState]:
    """States that between them offer every battle action kind."""
    states = [restored()]
    game = Game(restored())  # strike, carry, proceed, counterstrikes, then a summons
    game.order("strike D4 at D5 needing 4 with 9 dice", ScriptedDice([6] * 9))
    game.order("carry to D3")
    while not any(isinstance(c, cmd.Summon) for c in legal_commands(game.state)):
        options = legal_commands(game.state)
        game.do(
            next(c for c in options if isinstance(c, cmd.Proceed | cmd.Done | cmd.Strike)), Ones()
        )
    states += game.states
    game.order("summon angel from Bu02")
    states.append(game.state)
    mover = Game(restored(position(step="maneuver", characters=moved_apart())))
    mover.order("move D1 to C2")
    states += mover.states  # maneuvers, then reset
    states.append(restored(position(phasing="defender", step="strike", characters=ranger_away())))
    states.append(restored(position(turn=4, phasing="defender", step="maneuver")))  # reinforce
    attempt = Game(restored())
    attempt.order("concede")  # an attempt: Bob may accept it
    states.append(attempt.state)
    return states


def moved_apart() -> list[dict[str, Any]]:
    return [
        {"legion": "Bu01", "type": "cyclops", "hex": "D1"},
        {"legion": "Rd01", "type": "troll", "hex": "D5"},
        {"legion": "Rd01", "type": "ogre", "hex": "E5"},
        {"legion": "Rd01", "type": "ranger", "hex": "F4"},
    ]


def ranger_away() -> list[dict[str, Any]]:
    chars = copy.deepcopy(BATTLE["battle"]["characters"])
    chars[3]["hex"] = "F1"
    return chars


def test_legal_json_battle_kinds_and_their_orders() -> None:
    seen: dict[str, dict[str, Any]] = {}
    maneuvers: set[tuple[str | None, str]] = set()
    for state in battle_states():
        legal = legal_json(state)
        commands = legal_commands(state)
        assert legal["player"] == to_act(state)
        assert len(legal["actions"]) == len(commands)
        for action, command in zip(legal["actions"], commands):
            if state.step is not Step.BATTLE:
                continue
            kind = action["kind"]
            assert set(action) == {"kind", "order", *BATTLE_KINDS[kind]}, action
            assert parse_order(action["order"], command.player, state) == command
            seen.setdefault(kind, action)
            if kind == "maneuver":
                maneuvers.add((action["from"], action["type"]))
    assert set(seen) == set(BATTLE_KINDS)
    assert seen["strike"] == {
        "kind": "strike",
        "order": "strike D4 at D3 needing 4 with 9 dice",
        "striker": "D4",
        "target": "D3",
        "strike_number": 4,
        "dice": 9,
        "carry": ["D5"],
    }
    assert seen["rangestrike"] == {
        "kind": "rangestrike",
        "order": "rangestrike F1 at D4 needing 3",
        "striker": "F1",
        "target": "D4",
        "strike_number": 3,
        "dice": 2,
        "via": [],
    }
    assert seen["carry"] == {"kind": "carry", "order": "carry nowhere", "targets": []}
    assert ("D1", "Cyclops") in maneuvers  # moving
    assert (None, "Angel") in maneuvers  # the summoned angel entering
    assert seen["summon"] == {
        "kind": "summon",
        "order": "summon angel from Bu02",
        "lord": "Angel",
        "source": "Bu02",
    }


def test_legal_json_strike_options_with_carry() -> None:
    actions = legal_json(restored())["actions"]
    at_ogre = [a for a in actions if a["kind"] == "strike" and a["target"] == "D5"]
    assert [(a["strike_number"], a["dice"], a["carry"]) for a in at_ogre] == [
        (4, 9, ["D3"]),
        (6, 9, ["D3", "E4"]),
    ]


def test_legal_json_entering_maneuvers_have_no_from_hex() -> None:
    game = fight(BATTLE)
    game.order("proceed")  # Ann (attacker) does not concede
    game.order("proceed")  # nor Bob
    actions = legal_json(game.state)["actions"]
    entering = [a for a in actions if a["kind"] == "maneuver"]
    assert entering and all(a["from"] is None for a in entering)
    assert {a["type"] for a in entering} == {"Troll", "Ogre", "Ranger"}
    for a in entering:
        assert parse_order(a["order"], "Bob", game.state) == cmd.Maneuver(
            player="Bob", to_hex=a["to"], creature=a["type"]
        )


# -- the battleland as text ------------------------------------------------------------------


def _lands_by_terrain() -> dict[str, int]:
    lands: dict[str, int] = {}
    for number, land in sorted(load_variant(STANDARD).lands.items()):
        lands.setdefault(land.terrain, number)
    return lands


@pytest.mark.parametrize("terrain", sorted(load_variant(STANDARD).battlelands))
def test_battle_text_draws_every_hex(terrain: str) -> None:
    land = _lands_by_terrain()[terrain]
    data = copy.deepcopy(BATTLE)
    for legion in data["legions"][:2]:
        legion["land"] = land
    data["battle"]["land"] = land
    data["battle"]["characters"][1]["hits"] = 2
    battleland = load_variant(STANDARD).battlelands[terrain]
    standable = [h for h in LABELS if battleland.hexes[h].terrain not in ("tree", "bog", "volcano")]
    taken = {c["hex"] for c in data["battle"]["characters"]}
    for character in data["battle"]["characters"]:
        if character["hex"] not in standable:  # 11.7: nobody stands in a tree, bog or volcano here
            character["hex"] = next(h for h in standable if h not in taken)
            taken.add(character["hex"])
    if terrain == "Tower":
        data["legions"][2]["land"] = 500  # Ann's Titan legion leaves the tower fought over
    state = restored(data)
    text = battle_text(player_view(state, "Bob"), "Bob")
    assert text is not None
    battleland = load_variant(STANDARD).battlelands[terrain]
    lines = text.splitlines()
    assert (
        lines[0] == f"Battle at {land} ({terrain}): Ann's Bu01 attacks Bob's Rd01 from the bottom."
    )
    assert lines[1].startswith("Battle turn 2 of 7: Ann's turn (attacker); strike step")
    assert lines[1].endswith("Ann to decide.")
    rows = {
        line.split()[0]: line for line in lines if line[:2] == "  " and line.split()[0] in LABELS
    }
    assert list(rows) == list(LABELS)
    for label, row in rows.items():
        cell = battleland.hexes[label]
        assert cell.terrain in row
        assert (f"elevation {cell.elevation}" in row) == (cell.elevation > 0)
        for (atop, below), kind in battleland.hexsides.items():
            if label == atop:
                assert f"{kind} down to" in row and below in row.split(f"{kind} down to")[1]
            if label == below:
                assert f"{kind} up to" in row and atop in row.split(f"{kind} up to")[1]
    where = {c["type"].capitalize(): c["hex"] for c in data["battle"]["characters"]}
    assert "Ann's Bu01 Cyclops 0/9" in rows[where["Cyclops"]]
    assert "Bob's Rd01 Troll 2/8" in rows[where["Troll"]]
    empty = next(label for label in LABELS if label not in where.values())
    assert rows[empty].split()[1] == "-"


def test_battle_text_lists_characters_waiting_and_slain() -> None:
    game = fight(BATTLE)
    game.order("proceed")
    game.order("proceed")
    game.order("move troll to D5")
    text = battle_text(player_view(game.state, "Bob"), "Bob")
    assert text is not None
    assert (
        "Not on the battleland yet: Bob's Rd01 Ogre, Bob's Rd01 Ranger, Ann's Bu01 Cyclops" in text
    )
    assert "your decision" in text.splitlines()[1]
    game.order("done")  # the ogre and the ranger are left off and slain (10.1)
    text = battle_text(player_view(game.state, "Bob"), "Bob")
    assert text is not None and "Slain: Bob's Rd01 Ogre, Bob's Rd01 Ranger" in text


def test_status_text_includes_the_battle() -> None:
    state = restored()
    text = view_text(player_view(state, "Ann"), "Ann")
    battle = battle_text(player_view(state, "Ann"), "Ann")
    assert battle is not None and battle in text
    assert text.index("Engagement at 1") < text.index("Battle at 1") < text.index("Players:")
    assert "\n\nPlayers:" in text and "\n\n\nPlayers:" not in text
    plain = copy.deepcopy(BATTLE)
    del plain["battle"]
    assert "Battle at" not in view_text(player_view(restored(plain), "Ann"), "Ann")
    assert battle_text(player_view(restored(plain), "Ann")) is None


# -- narration -------------------------------------------------------------------------------


def test_narration_of_a_strike_carry_and_the_slain() -> None:
    game = Game(restored())
    strike = game.order("strike D4 at D5 needing 4 with 9 dice", ScriptedDice([6] * 9))
    line = "Ann's cyclops (D4) strikes Bob's ogre (D5) needing 4: 6 6 6 6 6 6 6 6 6 — 9 hits"
    assert game.lines(strike) == [f"{line}; the ogre is slain, 3 hits to spare"]
    assert game.lines(game.order("carry to D3")) == ["Ann carries 3 to the troll on D3"]
    lines = game.lines(game.order("done"))
    assert lines == ["Battle turn 2: Bob may concede or proceed"]
    assert game.lines(game.order("proceed")) == ["Battle turn 2: Bob's counterstrikes"]
    for line in ("strike D3 at D4", "strike D5 at D4", "strike E4 at D4"):
        game.order(line, Ones())
    lines = game.lines(game.order("done"))
    assert "Slain: Bob's ogre" in lines
    assert lines[-1] == "Battle turn 3: Bob's maneuver"


def test_narration_of_a_battle_from_its_start() -> None:
    game = fight(BATTLE)
    started = next(e for _, e in game.log if isinstance(e, ev.BattleStarted))
    assert game.lines((started,)) == [
        "Battle at 1 (Plains): Ann's Bu01 attacks Bob's Rd01 from the bottom"
    ]
    game.order("proceed")
    game.order("proceed")
    assert game.lines(game.order("move troll to D5")) == ["Bob's troll enters at D5"]
    assert game.lines(game.order("reset")) == [
        "Bob takes the maneuver back: every character moved returns"
    ]
    game.order("move troll to D5")
    lines = game.lines(game.order("done"))
    assert lines[0] == "Slain for not entering the battleland (10.1): Bob's ogre, ranger"
    assert game.state.battle is not None
    assert [f.hex for f in game.state.battle.fighters if f.creature == "Troll"] == ["D5"]


def test_narration_of_moves_concessions_and_the_end() -> None:
    game = Game(restored(position(step="maneuver", characters=moved_apart())))
    assert game.lines(game.order("move D1 to D2")) == ["Ann's cyclops moves D1 -> D2"]
    assert game.lines(game.order("concede")) == [
        "Ann takes the maneuver back: every character moved returns",
        "Ann attempts to concede",
    ]
    lines = game.lines(game.order("accept concession"))
    assert lines[0] == "Battle over: Ann's Bu01 concedes"
    assert lines[1].startswith("Engagement at 1 (Plains): Ann's Bu01 conceded; Bob scores")


def test_narration_when_a_legion_is_eliminated() -> None:
    data = copy.deepcopy(BATTLE)
    data["legions"][1]["contents"] = ["Ogre"]
    data["battle"]["characters"] = [
        {"legion": "Bu01", "type": "cyclops", "hex": "D4"},
        {"legion": "Rd01", "type": "ogre", "hex": "D5"},
    ]
    game = Game(restored(data))
    game.order("strike D4 at D5", ScriptedDice([6] * 9))
    game.order("done")
    game.order("proceed")
    game.order("strike D5 at D4", Ones())
    lines = game.lines(game.order("done"))
    assert lines == ["Slain: Bob's ogre", "Battle turn 2: Ann may concede or proceed"]
    lines = game.lines(game.order("proceed"))
    assert lines[0] == "Battle over: Bob's Rd01 is eliminated"
    assert lines[1].startswith("Engagement at 1 (Plains): fought out: Ann's Bu01 lost nothing, ")


def test_every_battle_event_is_narrated() -> None:
    state = restored()
    eng = state.engagement
    assert eng is not None
    samples: list[ev.Event] = [
        ev.BattleStarted(land=1, terrain="Plains", entry="bottom", fighters=()),
        ev.BattleStepBegan(turn=2, phasing="attacker", step="strike"),
        ev.BattleStepBegan(turn=2, phasing="attacker", step="after-strike"),
        ev.FighterMoved(fighter=1, from_hex="D4", to_hex="C4"),
        ev.ManeuverReset(side="attacker"),
        ev.FightersLeftOff(fighters=(2, 3)),
        ev.JoinUndone(fighter=5, marker="Bu01", creature="Angel", source="Bu02"),
        ev.DriftDamaged(fighters=(1, 4)),
        ev.StrikeRolled(
            striker=4, target=1, strike_number=6, rolls=(6, 2), hits=1, rangestrike=True
        ),
        ev.CarryAllocated(allocations=()),
        ev.ConcessionAttempted(side="defender"),
        ev.SlainRemoved(fighters=(3, 2)),
        ev.BattleEnded(how="time loss"),
    ]
    assert {type(e) for e in samples} == set(BATTLE_EVENTS)
    assert set(BATTLE_EVENTS) <= set(ev.EVENT_TYPES.values())
    expected = [
        "Battle at 1 (Plains): Ann's Bu01 attacks Bob's Rd01 from the bottom",
        "Battle turn 2: Ann's strikes",
        None,
        "Ann's cyclops moves D4 -> C4",
        "Ann takes the maneuver back: every character moved returns",
        "Slain for not entering the battleland (10.1): Bob's troll, ogre",
        "Ann's angel did not enter the battleland and goes back to Bu02",
        "Drift damage: 1 hit to Ann's cyclops (D4), Bob's ranger (E4)",
        "Bob's ranger (E4) rangestrikes Ann's cyclops (D4) needing 6: 6 2 — 1 hit",
        "The striker carries no hits over",
        "Bob attempts to concede",
        "Slain: Bob's ogre, troll",
        "Battle over: time ran out after seven battle turns; Ann's Bu01 is eliminated (10.5)",
    ]
    for event, line in zip(samples, expected):
        text = describe(event, state)
        assert text and text != event.TYPE and "#" not in text
        assert is_bookkeeping(event) == (line is None)
        if line is not None:
            assert text == line
    assert describe(ev.BattleEnded(how="concession", conceded="defender"), state) == (
        "Battle over: Bob's Rd01 concedes"
    )


def test_history_leaves_out_bookkeeping_steps() -> None:
    game = Game(restored())
    game.order("strike D4 at D5 needing 4 with 9 dice", ScriptedDice([6] * 9))
    game.order("carry to D3")
    game.order("done")
    events = [position_event(BATTLE), *(e for _, e in game.log)]
    assert any(is_bookkeeping(e) for e in events)
    lines = history_lines(events, "Bob")
    assert "  Battle turn 2: Bob may concede or proceed" in lines
    assert "  Ann carries 3 to the troll on D3" in lines
    assert not any("after-" in line or "end-check" in line for line in lines)
