"""
Planning from the mail alone (issue 24, item 3): the report that asks for the roll lists
where each legion could go on each roll, so that ``on roll`` lines can be written from
it; and ``reach HEX`` comes back with the battle picture ringing the hexes.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from moderator.pictures.spec import BATTLE, MASTERBOARD, Picture, draw
from moderator.reporting.views import legal_orders
from moderator.rules import commands as cmd
from moderator.rules.decide import apply
from moderator.rules.dice import ScriptedDice
from moderator.rules.legal import to_act
from moderator.rules.movement import legion_moves
from moderator.rules.state import Step
from moderator.runners.commands import new_game, order
from moderator.store import EventStore
from moderator.usecases.mail.handler import MailGameHandler

from ..pictures.positions import MOUNTAIN_BATTLE
from .conftest import MODERATOR, Table, seat_players

SPLIT = "split Bu01 into Bu02: angel centaur centaur gargoyle"
HEADING = "Where your legions could move on each roll, for 'on roll N: ...' lines"
NS = "{http://www.w3.org/2000/svg}"


def _at_first_split(make_table: Callable[..., Table]) -> Table:
    """Ann (Blue) and Bob at Ann's first split step, every report mailed."""
    table = make_table(("Ann", "Bob"), seed=5, notify="all")
    while table.state.step is Step.COLOUR:
        actor = to_act(table.state)
        assert actor is not None
        colour = "colour black" if actor == "Bob" else legal_orders(table.state, actor)[0]
        assert order(table.store, "g1", actor, colour)[1]
    return table


def _plan(private: str) -> dict[str, dict[int, str]]:
    """The move list of a private part: marker -> roll -> what the roll says."""
    _, _, after = private.partition(HEADING)
    lines = after.splitlines()
    lines = lines[next(i for i, line in enumerate(lines) if line.startswith("  ")) :]
    joined: list[str] = []
    for line in lines:
        if line.startswith("      "):
            joined[-1] += " " + line.strip()
        elif line.startswith("  ") and re.match(r"  [A-Z][a-z]\d\d from ", line):
            joined.append(line.strip())
        else:
            break
    plan: dict[str, dict[int, str]] = {}
    for line in joined:
        marker, _, rolls = line.partition(": ")
        plan[marker.split()[0]] = {
            int(roll): lands for roll, lands in (r.split(" → ") for r in rolls.split("; "))
        }
    return plan


def _normal_lands(said: str) -> list[int]:
    """The lands a roll's text gives by the signs (before any teleport)."""
    head = said.split(", or ")[0]
    if head == "nowhere" or "teleport" in head:
        return []
    return [int(word.split()[0]) for word in head.split(", ")]


def test_a_report_asking_for_the_roll_lists_every_legions_moves_for_each_roll(
    make_table: Callable[..., Table],
) -> None:
    table = _at_first_split(make_table)
    sent = table.orders("Ann", SPLIT)
    ann = sent.report("ann@example.org")
    private = ann.private_body or ""
    assert HEADING in private and HEADING not in ann.body  # only in the private part
    plan = _plan(private)
    state = table.state
    assert set(plan) == {lg.marker for lg in state.legions_of("Ann")} == {"Bu01", "Bu02"}
    for value in range(1, 7):
        rolled, _ = apply(state, cmd.Roll(player="Ann"), ScriptedDice([value]))
        for marker, rolls in plan.items():
            legal = legion_moves(rolled, rolled.legions[marker])
            assert _normal_lands(rolls[value]) == [o.land for o in legal if o.teleport is None]
            tower = [o.land for o in legal if o.teleport == "tower"]
            if tower:
                listed = rolls[value].split("tower teleport to ")[1]
                assert [int(n) for n in listed.split(", ")] == tower
            else:
                assert "teleport" not in rolls[value]
    assert "tower teleport to" in plan["Bu01"][6]  # 8.1: the Titan's legion, from its tower
    assert "tower teleport to" in plan["Bu02"][6]  # and the Angel's
    bob = sent.one("bob@example.org", "report")
    assert HEADING not in (bob.private_body or "") and HEADING not in bob.body


def test_on_roll_lines_written_from_the_list_alone_are_carried_out(
    make_table: Callable[..., Table],
) -> None:
    table = _at_first_split(make_table)
    plan = _plan(table.orders("Ann", SPLIT).report("ann@example.org").private_body or "")
    targets = {value: _normal_lands(said)[0] for value, said in plan["Bu01"].items()}
    lines = [f"on roll {value}: move Bu01 to {land}" for value, land in targets.items()]
    sent = table.orders("Ann", "\n".join(["roll", *lines]))
    state = table.state
    assert state.roll is not None and state.step is Step.MOVE
    assert state.legions["Bu01"].land == targets[state.roll]
    reply = sent.report("ann@example.org").private_body or ""
    assert re.search(r"\d+ order\(s\) carried out, 0 refused", reply)
    assert f"> (on roll) move Bu01 to {targets[state.roll]}\n      done." in reply
    assert HEADING not in reply  # rolled: the list is for the report before the roll


def _battle_table(store: EventStore) -> Table:
    """Ann's maneuver in a battle on 1000 (Mountains), her Titan on B3 yet to move."""
    new_game(store, "g1", ["Ann", "Bob"], seed=3, position=copy.deepcopy(MOUNTAIN_BATTLE))
    seat_players(store, "g1", ["Ann", "Bob"])
    table = Table(store, MailGameHandler(None, MODERATOR), "g1")
    table.set_record(allow_secrets=True, notify=dict.fromkeys(("Ann", "Bob"), "all"))
    return table


def _rings(picture: Picture) -> tuple[list[str], list[str]]:
    """(the ringed hexes, the hex they are reached from) as the picture draws them."""
    root = ET.fromstring(draw(picture).encode("utf-8"))
    found: dict[str, list[str]] = {"reach": [], "reach-from": []}
    for group in root.iter(f"{NS}g"):
        if group.get("class") in found:
            found[str(group.get("class"))].append(str(group.get("data-hex")))
    return found["reach"], found["reach-from"]


def test_reach_marks_the_hexes_the_character_may_reach(store: EventStore) -> None:
    table = _battle_table(store)
    sent = table.orders("Ann", "reach b3")
    (reply,) = sent.to("ann@example.org")
    answer = re.search(r"Your Titan on B3 may move to: ([A-F0-9, ]+)\.", reply.private_body or "")
    assert answer is not None
    hexes = answer.group(1).split(", ")
    (picture,) = [Picture.from_json(p) for p in reply.pictures]
    assert picture.kind == BATTLE and picture.private
    assert picture.reach == ("B3", tuple(hexes))
    assert _rings(picture) == (hexes, ["B3"])
    assert "Ringed: where your Titan on B3 may move this maneuver ('reach B3')." in draw(picture)


def test_reach_after_a_move_rings_what_is_left_in_the_reports_battle_picture(
    store: EventStore,
) -> None:
    """The picture shows the battle once the mail is carried out: a character that has
    moved rings nothing, the next one asked about is ringed instead of the plain battle."""
    table = _battle_table(store)
    first = table.orders("Ann", "reach B3")
    target = Picture.from_json(first.to("ann@example.org")[0].pictures[0]).reach
    assert target is not None
    sent = table.orders("Ann", f"move B3 to {target[1][0]}\nreach A2")
    mail = sent.report("ann@example.org")
    pictures = [Picture.from_json(p) for p in mail.pictures]
    assert [p.kind for p in pictures] == [MASTERBOARD, BATTLE]
    assert pictures[1].reach is not None and pictures[1].reach[0] == "A2"
    assert "Your Archangel on A2 may move to: " + ", ".join(pictures[1].reach[1]) in (
        mail.private_body or ""
    )
    bob = sent.report("bob@example.org")
    assert all(Picture.from_json(p).reach is None for p in bob.pictures)  # his own: plain
    moved = table.orders("Ann", f"reach {target[1][0]}")
    (reply,) = moved.to("ann@example.org")
    assert "has already moved in this maneuver" in (reply.private_body or "")
    assert reply.pictures == ()  # nothing to ring
