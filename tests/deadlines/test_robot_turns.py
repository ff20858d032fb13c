"""
After every change to a game the mail runner asks whether a robot holding a seat is to
act (``robot_seats.play_robots``).  Most games have no robot seat: for them the answer
must come from the game's record, without loading the game again.
"""

from __future__ import annotations

from moderator.ports import GameContext, Outcome
from moderator.testing.clocks import TestClock as Clock
from moderator.testing.memory import MemoryLookup
from moderator.usecases.games.robot_seats import play_robots

from ..service.conftest import MODERATOR
from .test_clock_on_memory import split_phase


class Loads:
    """The in-memory lookup, counting the games loaded through it."""

    def __init__(self, memory: MemoryLookup) -> None:
        self.memory = memory
        self.loaded = 0

    def game(self, game_id: str) -> GameContext | None:
        self.loaded += 1
        return self.memory.game(game_id)

    def __getattr__(self, name: str) -> object:
        return getattr(self.memory, name)


def test_a_game_where_the_robot_holds_no_seat_is_not_loaded_for_the_robots(clock: Clock) -> None:
    table = split_phase(clock)
    record = table.memory.record(table.game_id)
    assert record is not None and not record.robots
    lookup = Loads(table.memory)
    assert play_robots(table.game_id, MODERATOR, lookup, clock.now()) == Outcome()  # type: ignore[arg-type]
    assert lookup.loaded == 0
    assert play_robots("no-such-game", MODERATOR, lookup, clock.now()) == Outcome()  # type: ignore[arg-type]
