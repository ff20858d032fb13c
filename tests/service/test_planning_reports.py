"""
Can a player plan his move from his mail alone?  A player by mail keeps no board of his
own: each report that asks him to act must hold what he needs to decide, and nothing
he may not see.  These tests read whole reports (both parts) as the use case builds them
from a game's state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace

from moderator import robot
from moderator.letters.texts import Texts
from moderator.reporting.muster_notes import CARETAKER_WIDTH, caretaker_lines
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule import reference
from moderator.schedule.record import GameRecord
from moderator.usecases.games import reports
from moderator.usecases.games.dice import CountingDice

PLAYERS = ["Ann", "Bob", "Cy"]
CARETAKER_HEADING = "Left in the caretaker's stacks"


def robot_states(seed: int) -> Iterator[tuple[GameState, list[ev.Event]]]:
    """Every (state, the events that made it) of a random robots' game, action by action."""
    dice = CountingDice(seed=seed)
    rng = random.Random(seed)
    events = setup.start_game(PLAYERS, dice)
    events += advance(replay(events))
    state = replay(events)
    yield state, events
    while to_act(state) is not None:
        new = decide(state, robot.choose(state, rng), dice)
        for e in new:
            state = evolve(state, e)
        events = [*events, *new]
        yield state, events


def first(seed: int, condition: Callable[[GameState], bool]) -> GameState:
    for state, _ in robot_states(seed):
        if condition(state):
            return state
    raise AssertionError("the condition never held")


def report_of(state: GameState, viewer: str) -> Texts:
    """``viewer``'s report of ``state`` (no events to tell: what he is asked and shown)."""
    ref = reference.current("g1", state, viewer)
    return reports.report(ref, state, viewer, [], 0, record=GameRecord())


def _counts(state: GameState) -> list[str]:
    return [f"{name} {count}" for name, count in sorted(state.caretaker.items())]


def test_18_0_a_muster_request_names_the_caretakers_counts() -> None:
    """Rule 18: a legion musters only what the caretaker still has; at a table every
    player may count his stacks, so the mail that asks for a muster gives the counts."""
    state = first(3, lambda s: s.step is Step.MUSTER and s.turn >= 2)
    actor = to_act(state)
    assert actor is not None
    text = report_of(state, actor)
    private = text.private or ""
    assert CARETAKER_HEADING in private
    block = private.split(CARETAKER_HEADING)[1].split("\n\n")[0]
    assert all(count in block for count in _counts(state))
    assert "Titan" not in block  # every player's own Titan: never the caretaker's
    # the counts come before the orders they bear on
    assert private.index(CARETAKER_HEADING) < private.index("It is your move. You may write:")


def test_18_0_an_exhausted_stack_is_shown_as_none_left() -> None:
    """18.0/18.4: when a stack is empty the player must know it (he may muster a lesser
    creature by showing the greater); the count reads 0, every line in the mail's width."""
    state = first(3, lambda s: s.step is Step.MUSTER)
    empty = replace(state, caretaker={**state.caretaker, "Warlock": 0})
    lines = caretaker_lines(empty, to_act(empty) or "")
    assert "Warlock 0" in " ".join(lines)
    assert all(len(line) <= CARETAKER_WIDTH for line in lines) and len(lines) > 1
    assert ", ".join(line.rstrip(",") for line in lines) == ", ".join(_counts(empty))


def test_2_2_the_split_and_move_requests_give_the_counts_to_plan_musters_by() -> None:
    """2.1-2.3: where to move is chosen for what may be mustered there, before the muster
    step: the split and move requests carry the counts too."""
    for step in (Step.SPLIT, Step.MOVE):
        state = first(3, lambda s, step=step: s.step is step and s.turn >= 2)
        actor = to_act(state)
        assert actor is not None
        assert CARETAKER_HEADING in (report_of(state, actor).private or ""), step


def test_a_player_not_asked_to_choose_is_not_sent_the_counts() -> None:
    """The counts serve a choice: the other players' reports (and the engagement and
    battle steps, where nothing is taken from the caretaker) leave them out."""
    state = first(3, lambda s: s.step is Step.MUSTER and s.turn >= 2)
    actor = to_act(state)
    for name in PLAYERS:
        if name != actor:
            assert CARETAKER_HEADING not in (report_of(state, name).private or "")
    battle = first(3, lambda s: s.step is Step.BATTLE)
    assert caretaker_lines(battle, to_act(battle) or "") == []


def test_4_5_the_counts_never_go_in_the_signed_part_nor_follow_a_secret_split() -> None:
    """Wolff 4.5: nothing signed names characters of legions; the counts go in the
    private part.  And they are public knowledge only: a split, whose contents only its
    owner sees, leaves them as they were, so they tell nobody what it hid."""
    previous: GameState | None = None
    seen = 0
    for state, events in robot_states(3):
        if previous is not None and any(isinstance(e, ev.SplitContents) for e in events[seen:]):
            break
        previous, seen = state, len(events)
    else:
        raise AssertionError("nobody split")
    assert previous is not None and previous.step is Step.SPLIT
    actor = to_act(previous)
    assert actor is not None
    before, after = report_of(previous, actor), report_of(state, actor)
    assert CARETAKER_HEADING in (before.private or "")
    assert CARETAKER_HEADING not in before.public and CARETAKER_HEADING not in after.public
    assert state.caretaker == previous.caretaker
    block = (after.private or "").split(CARETAKER_HEADING)[1].split("\n\n")[0]
    assert all(count in block for count in _counts(previous))


SHARING_HEADING = "Split-offs on one land:"


def _sharing(state: GameState, player: str) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for legion in state.legions_of(player):
        if not legion.moved:
            groups.setdefault(legion.land, []).append(legion.marker)
    return {land: markers for land, markers in groups.items() if len(markers) > 1}


def test_4_3_the_move_request_says_what_becomes_of_split_offs_on_one_land() -> None:
    """4.3, 4.7: split-offs left on one land recombine when the player is done; the
    move request names them and says so, or a three-way split into a land with one
    way out is lost without a word (the demo's robot lost one so)."""
    state = first(3, lambda s: s.step is Step.MOVE and bool(_sharing(s, to_act(s) or "")))
    actor = to_act(state)
    assert actor is not None
    private = report_of(state, actor).private or ""
    assert SHARING_HEADING in private
    note = " ".join(private.split(SHARING_HEADING)[1].split("\n\n")[0].split())
    for land, markers in _sharing(state, actor).items():
        terrain = state.variant.lands[land].terrain
        assert f"{' and '.join(markers)} share {land} ({terrain})" in note
    assert "(4.3)" in note and "recombine into one legion (4.7)" in note
    for line in private.split(SHARING_HEADING)[1].split("\n\n")[0].splitlines():
        assert len(line) <= 76


def test_4_3_the_note_goes_to_the_mover_alone_and_only_while_they_share() -> None:
    """Markers and lands are public, but the note is advice for a choice: the others'
    reports leave it out, and once the split-offs have parted it is gone."""
    state = first(3, lambda s: s.step is Step.MOVE and bool(_sharing(s, to_act(s) or "")))
    actor = to_act(state)
    for name in PLAYERS:
        if name != actor:
            assert SHARING_HEADING not in (report_of(state, name).private or "")
    muster = first(3, lambda s: s.step is Step.MUSTER)
    assert SHARING_HEADING not in (report_of(muster, to_act(muster) or "").private or "")


STAKES_HEADING = "What the engagement is worth:"


def _stakes_block(text: Texts) -> str:
    private = text.private or ""
    assert STAKES_HEADING in private
    return " ".join(private.split(STAKES_HEADING)[1].split("\n\n")[0].split())


def test_9_the_negotiate_request_says_what_each_outcome_scores() -> None:
    """9.2-9.4, 16: flee, concede, propose or fight turn on the points at stake and the
    angels they bring; the request gives each legion's value, what flight and
    concession score, and both scores, so that nobody adds counters up by hand."""
    state = first(3, lambda s: s.step is Step.NEGOTIATE)
    actor = to_act(state)
    eng = state.engagement
    assert actor is not None and eng is not None
    block = _stakes_block(report_of(state, actor))
    for marker in (eng.attacker, eng.defender):
        legion = state.legions[marker]
        worth = state.legion_value(legion.contents, legion.owner)
        assert f"{legion.owner}'s {marker} (" in block
        assert f") is worth {worth} points." in block
    defender = state.legions[eng.defender]
    half = state.legion_value(defender.contents, defender.owner) // 2
    assert f"If {eng.defender} flees, {eng.attacker_player} scores half of it, {half}" in block
    attacker_score = state.player(eng.attacker_player).score
    assert f"Scores now: {eng.attacker_player} {attacker_score}," in block
    assert "an angel, of 500 an archangel (16)" in block


def test_4_5_the_stakes_name_only_contents_the_reader_knows_and_never_signed() -> None:
    """Wolff 4.5 and each player's view: the values name characters, so they go in the
    private part only; a legion whose contents the reader does not know is not valued
    (nor are the others then), and the player not engaged is never sent them."""
    state = first(3, lambda s: s.step is Step.NEGOTIATE)
    actor = to_act(state)
    eng = state.engagement
    assert actor is not None and eng is not None
    text = report_of(state, actor)
    assert STAKES_HEADING not in text.public and "is worth" not in text.public
    other = next(p for p in PLAYERS if p not in (eng.attacker_player, eng.defender_player))
    assert STAKES_HEADING not in (report_of(state, other).private or "")
    opponent = eng.defender if actor == eng.attacker_player else eng.attacker
    hidden = replace(state.legions[opponent], known_to=frozenset(), shown_to=frozenset())
    unknown = replace(state, legions={**state.legions, opponent: hidden})
    assert not state.legions[opponent].known_by(None)
    assert STAKES_HEADING not in (report_of(unknown, actor).private or "")


def test_12_the_battle_gives_each_sides_power_and_skill_to_reckon_strikes_by() -> None:
    """12.x: a strike needs 4 plus the target's skill minus the striker's; the orders
    list the player's own strike numbers, but to place and move he must reckon the
    enemy's at him too.  The battle's text gives each side's characters with power and
    skill (and flight, rangestrikes and natives where they bear), in the private part
    only, like the rest of the battle (Wolff 4.5)."""
    state = first(3, lambda s: s.battle is not None and s.battle.step == "strike")
    actor = to_act(state)
    battle, eng = state.battle, state.engagement
    assert actor is not None and battle is not None and eng is not None
    text = report_of(state, actor)
    assert "power-skill" not in text.public
    lines = {
        line.split("'s power-skill: ")[0]: line.split("'s power-skill: ")[1]
        for line in (text.private or "").splitlines()
        if "'s power-skill: " in line
    }
    owner = {"attacker": eng.attacker_player, "defender": eng.defender_player}
    assert set(lines) == {eng.attacker_player, eng.defender_player}
    for fighter in battle.fighters:
        if fighter.slain:
            continue
        kind = state.variant.creature(fighter.creature)
        assert f"{kind.name} {fighter.power}-{kind.skill}" in lines[owner[fighter.side]]
        assert ("flies" in lines[owner[fighter.side]]) or not kind.flies


def test_9_3_a_battle_report_lists_no_stale_proposals() -> None:
    """9.3: proposals are made and accepted before the battle; once it is fought none
    stands, and a battle report that still listed "(none yet)" or the offers made
    would read as if one might be accepted.  The negotiate request lists them."""
    negotiating = first(3, lambda s: s.step is Step.NEGOTIATE)
    assert "Proposals in your engagement" in (
        report_of(negotiating, to_act(negotiating) or "").private or ""
    )
    fighting = first(3, lambda s: s.step is Step.BATTLE)
    eng = fighting.engagement
    assert eng is not None
    for name in (eng.attacker_player, eng.defender_player):
        assert "Proposals in your engagement" not in (report_of(fighting, name).private or "")
