"""
Stores on SQLite and PostgreSQL with a hand-moved clock (the mail service's fixtures),
players registered with secrets, and a game driven to its end by robots.
"""

from __future__ import annotations

import random

from moderator import robot
from moderator.ports import Player
from moderator.ports.players import DIRECTOR as DIRECTOR_ROLE
from moderator.rules.decide import decide
from moderator.rules.evolve import evolve
from moderator.rules.legal import to_act
from moderator.store import EventStore, players
from moderator.usecases.games.dice import CountingDice

from ..service.conftest import any_store, clock, store  # noqa: F401 - fixtures

MODERATOR = "moderator@titan.example"
DIRECTOR = "Dee"


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def secret_of(name: str) -> str:
    return f"{name.lower()}-secret-42"


def register(where: EventStore, *names: str) -> dict[str, Player]:
    """Register players with secrets (Dee as a director); returns them by name."""
    found: dict[str, Player] = {}
    with where.transaction() as tx:
        for name in names:
            if players.player_by_address(tx, address(name)) is None:
                players.add_player(tx, name, address(name), secret=secret_of(name))
            if name == DIRECTOR:
                players.set_roles(tx, address(name), (DIRECTOR_ROLE,))
            player = players.player_by_address(tx, address(name))
            assert player is not None
            found[name] = player
    return found


def play_to_the_end(where: EventStore, game_id: str, seed: int = 1) -> int:
    """Robots play every seat of ``game_id`` to its end; returns the events added."""
    rng = random.Random(seed)
    with where.transaction() as tx:
        loaded = tx.load(game_id, lock=True)
        state, record = loaded.state, loaded.record
        dice = CountingDice.from_record(record.dice)
        new = []
        while to_act(state) is not None and len(new) < 20_000:
            _line, command = robot.choose_order(state, rng)
            for event in decide(state, command, dice):
                state = evolve(state, event)
                new.append(event)
        tx.append(game_id, loaded.seq, new, record=record.but(dice=dice.record()), state=state)
    return len(new)
