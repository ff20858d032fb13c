"""Standing orders (issue 15): read from a player's lines, and fired only where they
answer the decision exactly, with a command the rules allow."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from moderator import robot
from moderator.orders.errors import OrderError
from moderator.orders.standing import Standing, decide_for, merged, read, reason
from moderator.play.dice import CountingDice
from moderator.play.robot_games import DEFAULT_NAMES as NAMES
from moderator.rules import commands as cmd
from moderator.rules.decide import advance, decide
from moderator.rules.engagement import may_flee
from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.setup import start_game
from moderator.rules.state import GameState, Step

EVERYTHING = (
    "standing when attacked: fight",
    "standing no concede",
    "standing strikes: auto",
    "standing muster best",
    "standing summon best",
)


def test_standing_lines_are_read_and_later_ones_replace_earlier() -> None:
    kept = merged((), ["standing when attacked: fight", "standing Rd01 when attacked: flee"])
    kept = merged(kept, ["standing when attacked: concede", "muster rd01 trolls if able"])
    kept = merged(kept, ["standing no concede", "standing strikes: auto", "standing summon best"])
    standing = read(kept)
    assert standing.attacked == {"*": "concede", "Rd01": "flee"}
    assert standing.muster == {"Rd01": "Troll"} and standing.summon == "best"
    assert standing.no_concede and standing.strikes_auto and not standing.muster_best
    undone = read(merged(kept, ["standing Rd01 when attacked: ask", "standing concede ask"]))
    assert undone.attacked == {"*": "concede"} and not undone.no_concede
    assert "standing when attacked: concede" in undone.lines()


@pytest.mark.parametrize(
    "line", ["standing when hungry: eat", "muster Rd01 dodo if able", "standing summon some"]
)
def test_a_line_that_is_no_standing_order_is_refused_with_what_to_write(line: str) -> None:
    with pytest.raises(OrderError) as caught:
        merged((), [line])
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
    standing = read(EVERYTHING)
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
    flee = read(["standing when attacked: flee"])
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
    concede = read(["standing when attacked: concede", "standing no concede"])
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
