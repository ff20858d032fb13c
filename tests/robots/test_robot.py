"""What the competent robot must do (issue 26): legal orders only, sound choices, no peeking."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator import robot as random_robot
from moderator import robots
from moderator.robots.view import seat_view
from moderator.rules import commands as cmd
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.dice import NoDice
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.movement import normal_moves
from moderator.rules.positions import position_event
from moderator.rules.state import GameState, Legion, Step
from moderator.rules.variant import STANDARD, load_variant
from moderator.usecases.games.dice import CountingDice
from moderator.usecases.games.robot_match import play_match

STRONG = ["Titan", "Angel", "Colossus", "Colossus", "Serpent", "Serpent", "Hydra"]


def position(legions: list[dict[str, Any]], **extra: Any) -> GameState:
    data = {
        "players": [
            {"name": "Ann", "color": "Red", "tower": 100},
            {"name": "Bob", "color": "Blue", "tower": 400},
        ],
        "turn": 5,
        "active": "Ann",
        "phase": "move",
        "roll": 3,
        "legions": legions,
        **extra,
    }
    return replay([position_event(data)])


def choose(state: GameState, seed: int = 0) -> cmd.Command:
    player = to_act(state)
    assert player is not None
    return robots.order(seat_view(state, player), random.Random(seed))[1]


def random_positions(players: int, seed: int, count: int) -> list[GameState]:
    """States reached by random play, at the decisions of whoever is to act."""
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:players]
    dice = CountingDice(seed=seed)
    events = setup.start_game(names, dice)
    events += advance(replay(events))
    state = replay(events)
    rng = random.Random(seed)
    out = []
    while to_act(state) is not None and len(out) < count:
        out.append(state)
        _, command = random_robot.choose_order(state, rng)
        dice.at(state.version + 1)
        for event in decide(state, command, dice):
            state = evolve(state, event)
    return out


# -- legal orders only --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kinds", "seed"),
    [
        (["competent", "random"], 1),
        (["random", "competent"], 2),
        (["competent", "competent"], 3),
        (["competent", "random", "random"], 4),
        (["random", "competent", "competent", "competent"], 5),
        (["competent", "competent", "random", "competent", "competent"], 6),
        (["competent"] * 6, 7),
    ],
)
def test_it_never_gives_an_illegal_order_in_whole_games(kinds: list[str], seed: int) -> None:
    """Every order of a whole game is read back and accepted by the rules (else it stops)."""
    result = play_match(kinds, seed)
    assert result.finished and result.state is not None and result.state.step is Step.OVER
    placed = sorted(p for group in result.placement for p in group)
    assert placed == sorted(result.seats)
    assert len(result.decisions["competent"]) > 20


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), at=st.integers(0, 2_000))
def test_it_never_gives_an_illegal_order_in_random_positions(
    players: int, seed: int, at: int
) -> None:
    """From any position random play reaches, its order is one of the rules' legal ones."""
    states = random_positions(players, seed, at + 1)
    state = states[-1]
    command = choose(state, seed)
    assert command in legal_commands(state)
    decide(state, command, CountingDice(seed=seed))  # accepted: no RuleError


# -- sound choices --------------------------------------------------------------------------


def _lands_on(state: GameState, marker: str, roll: int) -> set[int]:
    return set(normal_moves(state, state.legions[marker], roll))


def test_it_takes_a_free_kill() -> None:
    """A full legion (nothing to muster) that can reach a lone Centaur attacks it."""
    base = position(
        [
            {"marker": "Rd01", "land": 1, "contents": STRONG},
            {"marker": "Bu01", "land": 400, "contents": ["Titan", "Ogre"]},
        ]
    )
    target = min(_lands_on(base, "Rd01", 3) - {400})
    state = position(
        [
            {"marker": "Rd01", "land": 1, "contents": STRONG},
            {"marker": "Bu01", "land": 400, "contents": ["Titan", "Ogre"]},
            {"marker": "Bu02", "land": target, "contents": ["Centaur"]},
        ]
    )
    command = choose(state)
    assert isinstance(command, cmd.MoveLegion) and command.land == target


def test_it_does_not_walk_its_titan_into_a_stronger_legions_reach() -> None:
    """Where some moves stay out of a strong enemy's reach, the Titan takes one of them."""
    variant = load_variant(STANDARD)
    checked = 0
    for start in sorted(variant.lands)[:60]:
        for enemy_land in sorted(variant.lands)[::7]:
            if enemy_land == start:
                continue
            state = position(
                [
                    {"marker": "Rd01", "land": start, "contents": ["Titan", "Centaur"]},
                    {"marker": "Bu01", "land": enemy_land, "contents": STRONG[1:]},
                    {"marker": "Bu02", "land": 600, "contents": ["Titan", "Ogre"]},
                ]
            )
            options = _lands_on(state, "Rd01", 3)
            enemy = replace(state.legions["Bu01"], owner="Bob")
            reach = set()
            for roll in range(1, 7):
                for k in range(1, roll + 1):
                    reach |= set(normal_moves(state, enemy, k))
            safe, unsafe = options - reach - {enemy_land}, options & reach
            if not safe or not unsafe:
                continue
            command = choose(state)
            assert isinstance(command, cmd.MoveLegion), command
            assert command.land in safe, (start, enemy_land, command.land, safe)
            checked += 1
            if checked == 5:
                return
    raise AssertionError(f"only {checked} positions had a safe and an unsafe move")


def _negotiation(attacker: list[str], defender: list[str]) -> GameState:
    state = position(
        [
            {"marker": "Rd01", "land": 5, "contents": attacker},
            {"marker": "Bu01", "land": 5, "contents": defender},
            {"marker": "Bu02", "land": 400, "contents": ["Titan", "Ogre"]},
            {"marker": "Rd02", "land": 100, "contents": ["Titan", "Ogre"]}
            if "Titan" not in attacker
            else {"marker": "Rd02", "land": 100, "contents": ["Ogre", "Ogre"]},
        ],
        phase="engage",
    )
    for event in decide(state, cmd.Engage(player="Ann", land=5), NoDice()):
        state = evolve(state, event)
    assert state.step is Step.NEGOTIATE and to_act(state) == "Bob"
    return state


def test_it_flees_when_a_battle_would_only_lose() -> None:
    """Two Centaurs caught by a huge legion flee (9.2): half the points, no battle."""
    command = choose(_negotiation(STRONG, ["Centaur", "Centaur"]))
    assert isinstance(command, cmd.Flee)


def test_it_concedes_a_hopeless_battle_it_cannot_flee() -> None:
    """A lone Angel (a lord may not flee) concedes rather than hand over a battle's spoils."""
    command = choose(_negotiation(STRONG, ["Angel"]))
    assert isinstance(command, cmd.Concede)


def test_it_fights_a_battle_it_should_win() -> None:
    state = _negotiation(["Centaur", "Centaur"], STRONG[1:])
    command = choose(state)
    assert not isinstance(command, cmd.Flee | cmd.Concede)


def test_it_musters_when_able() -> None:
    """Two Ogres that moved into a Marsh (8) muster the Troll they qualify for (18.3)."""
    state = position(
        [
            {"marker": "Rd01", "land": 8, "contents": ["Titan", "Ogre", "Ogre"], "moved": True},
            {"marker": "Bu01", "land": 400, "contents": ["Titan", "Ogre"]},
        ],
        phase="muster",
    )
    command = choose(state)
    assert command == cmd.Muster(
        player="Ann", marker="Rd01", creature="Troll", showing=("Ogre", "Ogre")
    )


def test_it_splits_the_opening_legion_and_then_rolls() -> None:
    state = random_positions(2, 3, 1)[0]
    while state.step is Step.COLOUR:
        for event in decide(state, choose(state), NoDice()):
            state = evolve(state, event)
    command = choose(state)
    assert isinstance(command, cmd.Split) and len(command.characters) == 4
    for event in decide(state, command, NoDice()):
        state = evolve(state, event)
    assert isinstance(choose(state), cmd.Roll)


# -- no peeking -----------------------------------------------------------------------------


def scrambled(state: GameState, seat: str, rng: random.Random) -> GameState:
    """The same game with every legion the seat cannot see holding other characters."""
    pool = [c.name for c in load_variant(STANDARD).creatures.values() if c.is_creature]
    legions = {}
    for marker, lg in state.legions.items():
        if lg.known_by(seat):
            legions[marker] = lg
            continue
        contents = tuple(sorted(rng.choice(pool) for _ in lg.contents))
        legions[marker] = Legion(
            marker=lg.marker,
            owner=lg.owner,
            land=lg.land,
            contents=contents,
            moved=lg.moved,
            mustered=lg.mustered,
            split_from=lg.split_from,
            known_to=lg.known_to,
            shown_to=lg.shown_to,
        )
    return replace(state, legions=legions)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (6, 14)])
def test_it_decides_the_same_with_the_hidden_truth_scrambled(players: int, seed: int) -> None:
    rng = random.Random(seed)
    hidden_seen = 0
    for state in random_positions(players, seed, 1_500)[::3]:
        seat = to_act(state)
        assert seat is not None
        other = scrambled(state, seat, rng)
        hidden_seen += other.legions != state.legions
        assert seat_view(other, seat) == seat_view(state, seat)
        first = robots.order(seat_view(state, seat), random.Random(seed))
        again = robots.order(seat_view(other, seat), random.Random(seed))
        assert first == again
    assert hidden_seen > 50


def test_the_seat_view_shows_other_legions_heights_but_not_their_hidden_contents() -> None:
    state = random_positions(3, 21, 400)[-1]
    seat = to_act(state)
    assert seat is not None
    view = seat_view(state, seat, certain={})
    for sight in view.legions:
        legion = state.legions[sight.marker]
        assert sight.height == legion.height and sight.land == legion.land
        if legion.owner == seat or legion.known_by(seat):
            assert sight.known == legion.contents
        else:
            assert sight.known == ()
    assert list(view.legal) == legal_commands(state)
    assert seat_view(state, "Nobody").legal == ()
