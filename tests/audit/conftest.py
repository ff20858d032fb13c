"""
Shared games for the audit tests (issue 16; Wolff 1.3 and 4.5).

``played``: each of a few whole robot games played with dice bound as by mail
(``play_robot_game(..., bound=GAME)``), with its secret seed, its events (the audit's
notes among them) and its audit bundle as the attachment holds it.  ``drawn``: games
in which the robots leave the entry side of their moves out, so that some sides are
drawn by a die (Wolff 7.0): plain robot games never roll one.

``Played.bundle()`` gives a fresh copy of the bundle after a JSON round trip through
``dumps`` every time, so a test may tamper with it freely.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import pytest

from moderator import robot
from moderator.audit.bundle import dumps, make_bundle
from moderator.audit.verify import Verdict
from moderator.orders import render_order
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.usecases.games.robot_games import play_robot_game

GAME = "g1"
MADE = "2026-11-24T00:00:00Z"

#: (robot seed, players): eight games of two to six players.
GAMES = ((1, 4), (2, 2), (3, 6), (4, 3), (5, 5), (6, 2), (7, 4), (8, 6))

#: Games whose robots leave the entry side out; each draws at least one side by a die
#: (six in all).  Any change to the events a game logs (its dice are bound to the events'
#: numbers) plays other games: pick new seeds then, the ``drawn`` fixture says so.
DRAWN = ((37, 5), (54, 4), (23, 3), (58, 2))


def secret_of(seed: int) -> int:
    """The secret dice seed ``play_robot_game`` uses for robot seed ``seed``."""
    return int.from_bytes(hashlib.sha256(f"robot-seed:{seed}".encode()).digest(), "big")


@dataclass
class Played:
    """One robot game with bound dice, and its audit bundle."""

    seed: int
    players: int
    events: list[ev.Event] = field(repr=False)
    text: str = field(repr=False)  # the bundle as ``dumps`` writes it

    @property
    def secret(self) -> int:
        return secret_of(self.seed)

    def bundle(self) -> dict[str, Any]:
        """A fresh copy of the bundle, read back from its JSON."""
        result: dict[str, Any] = json.loads(self.text)
        return result

    def bundle_of(self, reader: str | None) -> dict[str, Any]:
        """``reader``'s bundle (None: the one anybody may have), read back from its JSON."""
        text = dumps(make_bundle(GAME, self.secret, self.events, MADE, reader))
        result: dict[str, Any] = json.loads(text)
        return result

    @cached_property
    def befores(self) -> list[GameState]:
        """The state before each event: ``befores[seq - 1]`` is the state event ``seq`` met."""
        states, state = [], GameState()
        for event in self.events:
            states.append(state)
            state = evolve(state, event)
        return states

    @property
    def timeline(self) -> list[tuple[ev.Event, GameState]]:
        """(event, state before it), as the reports are made from."""
        return list(zip(self.events, self.befores))

    def rng(self, salt: str) -> random.Random:
        """A random source for the tampering of one test in this game (reproducible)."""
        return random.Random(f"{salt}:{self.seed}:{self.players}")

    def __str__(self) -> str:
        return f"robot game {self.seed} ({self.players} players)"


def rebundled(game: Played, events: list[ev.Event]) -> dict[str, Any]:
    """The bundle ``make_bundle`` makes of ``events`` in ``game`` (its salts numbered
    with them), read back from its JSON: for tampering that moves events."""
    result: dict[str, Any] = json.loads(dumps(make_bundle(GAME, game.secret, events, MADE, "Ann")))
    return result


def play(seed: int, players: int) -> Played:
    summary = play_robot_game(players, seed=seed, bound=GAME)
    assert summary.finished, f"robot game {seed} did not end"
    bundle = make_bundle(GAME, secret_of(seed), summary.events, MADE, "Ann")
    return Played(seed, players, summary.events, dumps(bundle))


def _game_id(param: tuple[int, int]) -> str:
    return f"seed{param[0]}-{param[1]}p"


@pytest.fixture(scope="session", params=GAMES, ids=_game_id)
def played(request: pytest.FixtureRequest) -> Played:
    seed, players = request.param
    return play(seed, players)


@pytest.fixture(scope="session")
def all_played() -> list[Played]:
    """Every game of ``GAMES`` (for the tests that want them all at once)."""
    return [play(seed, players) for seed, players in GAMES]


def _side_left_out(choose: Any) -> Any:
    def choose_order(state: GameState, rng: random.Random) -> tuple[str, cmd.Command]:
        line, command = choose(state, rng)
        if isinstance(command, cmd.MoveLegion) and command.entry is not None:
            command = dataclasses.replace(command, entry=None)
            line = render_order(command, state)
        return line, command

    return choose_order


@pytest.fixture(scope="session")
def drawn() -> list[Played]:
    """Games in which every entry side is left to the dice where there is a choice."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(robot, "choose_order", _side_left_out(robot.choose_order))
        games = [play(seed, players) for seed, players in DRAWN]
    for game in games:
        rolled = [e for e in game.events if isinstance(e, ev.LegionMoved) and e.entry_roll]
        assert rolled, f"{game} draws no entry side by a die any more: pick another seed"
    return games


# -- reading and changing a bundle --------------------------------------------

AUDIT_TYPES = {"seed-committed", "order-sealed", "legion-committed", "commitment-opened"}
TRIES = 3  # tamperings per game and test


def records(bundle: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The bundle's events of type ``kind``."""
    return [e for e in bundle["events"] if e["type"] == kind]


def other_hex(digest: str, rng: random.Random) -> str:
    """``digest`` with one hex digit changed to another (still lower-case hex)."""
    where = rng.randrange(len(digest))
    digit = rng.choice([d for d in "0123456789abcdef" if d != digest[where]])
    return digest[:where] + digit + digest[where + 1 :]


def other_die(value: int, rng: random.Random) -> int:
    return rng.choice([v for v in range(1, 7) if v != value])


def dice_in(record: dict[str, Any]) -> list[int]:
    """The dice a bundle's event records, in the order they were rolled."""
    payload, kind = record["payload"], record["type"]
    if kind == "strike-rolled":
        return list(payload["rolls"])
    if kind == "movement-rolled":
        return [payload["roll"]]
    if kind == "towers-rolled":
        return [value for _, value in payload["rolls"]]
    if kind == "legion-moved" and payload["entry_roll"] is not None:
        return [payload["entry_roll"]]
    return []


def set_die(record: dict[str, Any], index: int, value: int) -> None:
    payload, kind = record["payload"], record["type"]
    if kind == "strike-rolled":
        payload["rolls"][index] = value
    elif kind == "movement-rolled":
        payload["roll"] = value
    elif kind == "towers-rolled":
        payload["rolls"][index][1] = value
    else:
        payload["entry_roll"] = value


def failed(verdict: Verdict) -> tuple[int, str]:
    """(the event named, why) of a verdict that must have failed."""
    assert not verdict.ok, "the tampered bundle verified"
    assert verdict.problem is not None
    return verdict.problem.event, verdict.problem.why


def renumbered(bundle: dict[str, Any]) -> None:
    """Number the bundle's events 1, 2, 3, ... again, and its final count with them."""
    for seq, record in enumerate(bundle["events"], start=1):
        record["seq"] = seq
    bundle["final"]["events"] = len(bundle["events"])


def sample(rng: random.Random, items: list[Any], k: int = TRIES) -> list[Any]:
    return rng.sample(items, min(k, len(items)))


def named(record: dict[str, Any]) -> str:
    """A bundle's event as a discrepancy names it: its type, and its marker if any."""
    marker = record["payload"].get("marker")
    return f"{record['type']} of {marker}" if marker else str(record["type"])


def note_of(bundle: dict[str, Any], seq: int) -> dict[str, Any]:
    """The order-sealed note of the order that event ``seq`` is in."""
    return next(r for r in bundle["events"][seq - 1 :] if r["type"] == "order-sealed")


def notes_after(bundle: dict[str, Any], note: int) -> list[dict[str, Any]]:
    """The openings and commitments right after the order-sealed note ``note``."""
    notes = []
    for record in bundle["events"][note:]:
        if record["type"] not in ("legion-committed", "commitment-opened"):
            break
        notes.append(record)
    return notes


def die_why(bundle: dict[str, Any], seq: int, index: int, new: int, old: int) -> str:
    """Why verify names event ``seq`` whose die ``index`` reads ``new``, not ``old``."""
    note = note_of(bundle, seq)["payload"]
    place = sum(len(dice_in(r)) for r in bundle["events"][note["first"] - 1 : seq - 1]) + index
    trigger = note["trigger"]
    source = "the start of the game" if trigger == "start" else f"the mail with SHA-256 {trigger}"
    return (
        f"die {place + 1} of the order at event {note['first']} is {new}; "
        f"the seed and {source} give {old}"
    )


def towers_due(before: GameState, rolls: list[list[Any]]) -> list[tuple[str, int]]:
    """1.3.1, written here again: a roll unique in its set naming a free tower takes it."""
    taken = {p.tower for p in before.players if p.tower}
    values = [value for _, value in rolls]
    return [
        (name, value * 100)
        for name, value in rolls
        if values.count(value) == 1 and value * 100 not in taken
    ]
