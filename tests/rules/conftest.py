"""
Shared factories for the rule conformance tests.

Most tests start from a position file (rulebook 20.5, docs/positions.md)
built by ``make_position`` and play commands through ``Game``, which keeps
the state and every event, rolls only the dice a test writes down, and
checks refusals by their error code.

Default cast (tower decides turn order, Wolff 5.1): Ann (Red, tower 600,
moves first), Bob (Blue, 300) and, when asked for, Cy (Green, 100).

Every test that takes one of these factories runs under each shipped variant
(``shipped_variants``) and ``TOWER_LIONS``, a second variant built here from the
standard one, whose towers muster Lions instead of Ogres.  The rules read the variant
from the game's state, so a test runs under every variant where the rule it checks
applies: ``applicability.py`` decides which at collection, from the creatures the test
names and the facts it declares with ``@pytest.mark.needs(...)``, and
``test_variant_coverage.py`` counts what runs where.  The second variant lives in the
tests, not in ``rules/data/``, because it is not a game anybody plays: registered in
code, it is never offered to a player.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import pytest

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import apply, decide
from moderator.rules.dice import NoDice, ScriptedDice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import replay
from moderator.rules.positions import position_event
from moderator.rules.state import GameState, Legion, Player
from moderator.rules.variant import (
    STANDARD,
    Variant,
    load_variant,
    register_variant,
    shipped_variants,
)

from .applicability import applicable, needs_of, spellings

E = TypeVar("E", bound=ev.Event)

#: The rules suite's second variant: the standard game, but a tower musters a Centaur,
#: a Gargoyle or a Lion (no Ogre), and a Guardian takes only two of a kind.
TOWER_LIONS: Variant = register_variant(
    dataclasses.replace(
        load_variant(STANDARD),
        name="test-tower-lions",
        tower_creatures=("Centaur", "Gargoyle", "Lion"),
        guardian_needs=2,
    )
)
#: Every variant the rules tests run under: the shipped ones, then the test variant.
VARIANTS = (*shipped_variants(), TOWER_LIONS.name)
#: How the variants spell their characters, to find the ones a test names.
SPELLINGS = spellings(VARIANTS)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "needs(creatures=(), options={}, fought_on={}): facts of a variant the test needs "
        "besides the creatures it names (tests/rules/applicability.py)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that builds its game through the factories below runs in every variant
    where it applies; the others are not collected, so no skip hides a variant."""
    if "variant_name" in metafunc.fixturenames:
        needs = needs_of(metafunc.function, metafunc.definition.iter_markers("needs"), SPELLINGS)
        names = applicable(needs, VARIANTS)
        if not names:
            reasons = {v: needs.missing(load_variant(v)) for v in VARIANTS}
            pytest.fail(f"{metafunc.definition.nodeid} applies to no variant: {reasons}")
        metafunc.parametrize("variant_name", names)


#: name -> (colour, tower)
CAST: dict[str, tuple[str, int]] = {
    "Ann": ("Red", 600),
    "Bob": ("Blue", 300),
    "Cy": ("Green", 100),
}

#: A legion: (marker, land, "Titan Ogre Ogre") with an optional moved flag, or a dict.
LegionSpec = tuple[str, int, str] | tuple[str, int, str, bool] | Mapping[str, Any]


def _legion(spec: LegionSpec) -> dict[str, Any]:
    if isinstance(spec, Mapping):
        return dict(spec)
    marker, land, contents, *rest = spec
    return {
        "marker": marker,
        "land": land,
        "contents": contents.split(),
        "moved": bool(rest[0]) if rest else False,
    }


def build_position(
    legions: Iterable[LegionSpec],
    *,
    players: Sequence[str] = ("Ann", "Bob"),
    scores: Mapping[str, int] | None = None,
    eliminated: Iterable[str] = (),
    markers: Mapping[str, list[str]] | None = None,
    turn: int = 2,
    active: str = "Ann",
    phase: str = "move",
    roll: int | None = None,
    dead: Mapping[str, int] | None = None,
    engagements: list[int] | None = None,
    variant: str = STANDARD,
) -> dict[str, Any]:
    """A position file as a dict; ``roll`` defaults to 1 in the move phase."""
    scores = scores or {}
    out_players = []
    for name in players:
        colour, tower = CAST[name]
        item: dict[str, Any] = {
            "name": name,
            "color": colour,
            "tower": tower,
            "score": scores.get(name, 0),
            "eliminated": name in set(eliminated),
        }
        if markers and name in markers:
            item["markers"] = markers[name]
        out_players.append(item)
    data: dict[str, Any] = {
        "players": out_players,
        "turn": turn,
        "active": active,
        "phase": phase,
        "legions": [_legion(s) for s in legions],
    }
    if roll is None and phase == "move":
        roll = 1
    if roll is not None:
        data["roll"] = roll
    if dead:
        data["dead"] = dict(dead)
    if engagements is not None:
        data["engagements"] = engagements
    if variant != STANDARD:
        data["variant"] = variant
    return data


class Game:
    """A state plus the events that led to it; commands roll only scripted dice."""

    def __init__(self, events: Iterable[ev.Event]) -> None:
        self.log: list[ev.Event] = list(events)
        self.state: GameState = replay(self.log)

    def do(self, command: cmd.Command, *rolls: int) -> tuple[ev.Event, ...]:
        """Apply ``command``; ``rolls`` are the only dice it may use (none: it may not roll)."""
        dice = ScriptedDice(rolls) if rolls else NoDice()
        self.state, events = apply(self.state, command, dice)
        self.log.extend(events)
        return events

    def refused(self, command: cmd.Command, code: str, *rolls: int) -> RuleError:
        """Assert ``command`` is refused with ``code`` and leaves the state untouched."""
        before = self.state
        dice = ScriptedDice(rolls) if rolls else NoDice()
        with pytest.raises(RuleError) as info:
            decide(self.state, command, dice)
        assert info.value.code == code, f"{info.value.code}: {info.value}"
        assert self.state is before
        return info.value

    # -- lookups ---------------------------------------------------------------

    def legion(self, marker: str) -> Legion:
        return self.state.legions[marker]

    def player(self, name: str) -> Player:
        return self.state.player(name)

    def score(self, name: str) -> int:
        return self.state.player(name).score

    def replayed(self) -> GameState:
        """The state rebuilt from the log alone (events are the only truth)."""
        return replay(self.log)

    @staticmethod
    def of(events: Iterable[ev.Event], kind: type[E]) -> list[E]:
        return [e for e in events if isinstance(e, kind)]

    @staticmethod
    def one(events: Iterable[ev.Event], kind: type[E]) -> E:
        found = [e for e in events if isinstance(e, kind)]
        assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
        return found[0]


@pytest.fixture
def variant(variant_name: str) -> Variant:
    """The variant this run of the test plays in."""
    return load_variant(variant_name)


@pytest.fixture
def make_position(variant_name: str) -> Callable[..., dict[str, Any]]:
    """``make_position(legions, **options)``: a position file dict (see ``build_position``)
    in this run's variant."""
    return functools.partial(build_position, variant=variant_name)


@pytest.fixture
def game_at(variant_name: str) -> Callable[..., Game]:
    """``game_at(legions, **options)``: a Game restored from ``make_position``'s dict."""

    def factory(legions: Iterable[LegionSpec], **options: Any) -> Game:
        options.setdefault("variant", variant_name)
        return Game([position_event(build_position(legions, **options))])

    return factory


@pytest.fixture
def new_game(variant_name: str) -> Callable[..., Game]:
    """``new_game(names, tower_rolls)``: a Game set up by rolling for towers (5.1)."""

    def factory(names: Sequence[str], rolls: Sequence[int]) -> Game:
        return Game(setup.start_game(list(names), ScriptedDice(rolls), variant=variant_name))

    return factory


@pytest.fixture
def started(variant_name: str) -> Callable[..., Game]:
    """
    ``started()``: a fresh two-player game past colour choice, Ann on tower 600
    (moves first, Red) and Bob on tower 300 (Blue), both with their eight.
    """

    def factory() -> Game:
        dice = ScriptedDice([6, 3])
        game = Game(setup.start_game(["Ann", "Bob"], dice, variant=variant_name))
        game.do(cmd.ChooseColour(player="Bob", colour="Blue"))
        game.do(cmd.ChooseColour(player="Ann", colour="Red"))
        return game

    return factory
