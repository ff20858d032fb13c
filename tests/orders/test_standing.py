"""Standing orders (issue 15): read from a player's lines, and fired only where they
answer the decision exactly, with a command the rules allow."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from moderator import robot
from moderator.orders.errors import OrderError
from moderator.orders.standing import Standing, decide_for, merged, read, reason
from moderator.rules import commands as cmd
from moderator.rules.decide import advance, decide
from moderator.rules.engagement import may_flee
from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.positions import position_event
from moderator.rules.setup import start_game
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD, load_variant
from moderator.usecases.games.dice import CountingDice
from moderator.usecases.games.robot_games import DEFAULT_NAMES as NAMES

EVERYTHING = (
    "standing when attacked: fight",
    "standing no concede",
    "standing strikes: auto",
    "standing muster best",
    "standing summon best",
)

#: The game these standing orders are read for (its creature names).
GAME = load_variant(STANDARD)


def test_standing_lines_are_read_and_later_ones_replace_earlier() -> None:
    kept = merged((), ["standing when attacked: fight", "standing Rd01 when attacked: flee"], GAME)
    kept = merged(kept, ["standing when attacked: concede", "muster rd01 trolls if able"], GAME)
    kept = merged(kept, ["standing no concede", "standing strikes: auto", "standing summon best"], GAME)
    standing = read(kept, GAME)
    assert standing.attacked == {"*": "concede", "Rd01": "flee"}
    assert standing.muster == {"Rd01": "Troll"} and standing.summon == "best"
    assert standing.no_concede and standing.strikes_auto and not standing.muster_best
    undone = read(merged(kept, ["standing Rd01 when attacked: ask", "standing concede ask"], GAME), GAME)
    assert undone.attacked == {"*": "concede"} and not undone.no_concede
    assert "standing when attacked: concede" in undone.lines()


@pytest.mark.parametrize(
    "line", ["standing when hungry: eat", "muster Rd01 dodo if able", "standing summon some"]
)
def test_a_line_that_is_no_standing_order_is_refused_with_what_to_write(line: str) -> None:
    with pytest.raises(OrderError) as caught:
        merged((), [line], GAME)
    assert caught.value.code == "E-STANDING"
    assert "standing" in str(caught.value) or "creature" in str(caught.value)


def _states(players: int, seed: int, actions: int = 3000) -> list[GameState]:
    """The states a robot game passes through between its commands."""
    dice = CountingDice(seed=seed)
    rng = random.Random(seed)
    state = replay(start_game(list(NAMES[:players]), dice))
    state = replay(advance(state), state)
    states = [state]
    for _ in range(actions):
        if to_act(state) is None:
            break
        _line, command = robot.choose_order(state, rng)
        state = replay(decide(state, command, dice), state)
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8)])
def test_wolff_1_3_a_standing_order_acts_only_for_the_player_the_game_waits_on(
    players: int, seed: int
) -> None:
    """Wolff 1.3: one player acts at a time, and no die is rolled in advance.  Over robot
    games, wherever a standing order fires its command is one of the legal commands of
    the player the game waits on (``legal_commands``, the one answer), decided from the
    state alone: the dice are rolled only when the moderator carries it out."""
    standing = read(EVERYTHING, GAME)
    fired: Counter[str] = Counter()
    for state in _states(players, seed):
        if to_act(state) is None:
            continue
        command = decide_for(state, standing)
        if command is not None:
            assert command in legal_commands(state), (state.step, command)
            assert command.player == to_act(state)
            assert not isinstance(command, cmd.Concede)  # never conceded for him
            fired[type(command).__name__] += 1
            assert reason(state, standing, command) in standing.lines()  # told its owner
    assert fired["Strike"] > 0 and fired["Proceed"] > 0, fired


def test_9_4_flee_fires_only_where_fleeing_is_legal() -> None:
    """Wolff 9.4 / 2.5.5: a standing order to flee never stands for another choice."""
    flee = read(["standing when attacked: flee"], GAME)
    seen = 0
    for state in _states(3, 8):
        eng = state.engagement
        if state.step is not Step.NEGOTIATE or eng is None or to_act(state) != eng.defender_player:
            continue
        seen += 1
        command = decide_for(state, flee)
        assert (command is not None) == may_flee(state, eng)
        assert command is None or isinstance(command, cmd.Flee)
    assert seen > 0


def test_no_standing_order_no_command() -> None:
    for state in _states(2, 3)[::50]:
        assert decide_for(state, Standing()) is None


def test_wolff_9_4_a_standing_concede_is_never_given_in_advance() -> None:
    """Wolff 9.4: conceding is allowed only at set points, and conceding in advance
    would be a binding promise.  A standing concede is given only at the engagement's
    negotiation, by the defender whose decision it is, where conceding is legal; never
    in a battle."""
    concede = read(["standing when attacked: concede", "standing no concede"], GAME)
    given = 0
    for state in _states(3, 8):
        command = decide_for(state, concede)
        if isinstance(command, cmd.Concede):
            eng = state.engagement
            assert state.step is Step.NEGOTIATE and eng is not None
            assert to_act(state) == eng.defender_player and command in legal_commands(state)
            given += 1
        if state.step is Step.BATTLE:
            assert not isinstance(command, cmd.Concede)
    assert given > 0


# -- conditional musters (issue 24, item 2) -----------------------------------------------

#: Ann's muster step: Rd01 in a Jungle and Rd02 in a Brush each moved with a Gargoyle,
#: so each may muster a Gargoyle and neither a Lion (Plains).
MUSTERING = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 600},
        {"name": "Bob", "color": "Blue", "tower": 300},
    ],
    "turn": 2,
    "active": "Ann",
    "phase": "muster",
    "legions": [
        {"marker": "Rd01", "land": 5, "contents": ["Titan", "Gargoyle"], "moved": True},
        {"marker": "Rd02", "land": 3, "contents": ["Angel", "Gargoyle"], "moved": True},
        {"marker": "Bu01", "land": 300, "contents": ["Titan"]},
    ],
}


def _mustering() -> GameState:
    state = replay([position_event(MUSTERING)])
    assert state.step is Step.MUSTER and to_act(state) == "Ann"
    return state


def _mustered(state: GameState, marker: str) -> GameState:
    command = cmd.Muster(player="Ann", marker=marker, creature="Gargoyle")
    return replay(decide(state, command, CountingDice(seed=1)), state)


@pytest.mark.parametrize(
    "lines",
    [
        ["muster Rd02 lion if able"],
        ["muster Rd02 lion if able", "muster Rd01 cyclops if able"],
    ],
)
def test_a_conditional_muster_leaves_the_others_theirs(lines: list[str]) -> None:
    """The finding: Rd02 could not have its Lion, yet its order ended the whole muster
    step.  An order that cannot be carried out decides nothing: while any legion may
    still muster, the step is the player's (he may muster a Gargoyle with either)."""
    state = _mustering()
    assert decide_for(state, read(lines, GAME)) is None
    assert decide_for(_mustered(state, "Rd01"), read(lines, GAME)) is None  # Rd02 may still


def test_a_conditional_muster_decides_its_own_legion_whatever_the_others() -> None:
    """Rd01 has no order and comes first; Rd02's order is carried out all the same, and
    Rd01 is left to Ann."""
    state = _mustering()
    standing = read(["muster Rd02 gargoyle if able"], GAME)
    command = decide_for(state, standing)
    assert command == cmd.Muster(player="Ann", marker="Rd02", creature="Gargoyle",
                                 showing=("Gargoyle",))
    assert reason(state, standing, command) == "muster Rd02 gargoyle if able"
    assert decide_for(_mustered(state, "Rd02"), standing) is None  # Rd01: her choice


def test_a_conditional_muster_ends_the_step_only_when_no_legion_may_muster() -> None:
    state = _mustered(_mustered(_mustering(), "Rd01"), "Rd02")
    standing = read(["muster Rd02 lion if able"], GAME)
    assert not [c for c in legal_commands(state) if isinstance(c, cmd.Muster)]
    command = decide_for(state, standing)
    assert command == cmd.Done(player="Ann")
    assert reason(state, standing, command) == "muster Rd02 lion if able"


def test_muster_best_musters_every_legion_and_then_ends_the_step() -> None:
    state = _mustering()
    standing = read(["standing muster best", "muster Rd02 lion if able"], GAME)
    given = []
    while (command := decide_for(state, standing)) is not None and isinstance(
        command, cmd.Muster
    ):
        given.append(command.marker)
        state = replay(decide(state, command, CountingDice(seed=1)), state)
    assert given == ["Rd01", "Rd02"] and command == cmd.Done(player="Ann")


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8)])
def test_a_conditional_muster_never_ends_a_step_in_which_a_legion_may_muster(
    players: int, seed: int
) -> None:
    """Over robot games: with an order for every legion that none can carry out (a Hydra
    is mustered nowhere early), the step is ended for the player exactly where none of
    his legions may muster; a muster left is always his."""
    seen = 0
    for state in _states(players, seed):
        actor = to_act(state)
        if state.step is not Step.MUSTER or actor != state.active:
            continue
        lines = [f"muster {lg.marker} hydra if able" for lg in state.legions_of(actor)]
        if not lines:
            continue
        standing = read(lines, GAME)
        may_muster = any(isinstance(c, cmd.Muster) for c in legal_commands(state))
        command = decide_for(state, standing)
        if isinstance(command, cmd.Muster):
            assert command.creature == "Hydra"
            continue
        seen += 1
        assert (command == cmd.Done(player=actor)) == (not may_muster), state.turn
        assert command is None or reason(state, standing, command) in "; ".join(lines)
    assert seen > 0
