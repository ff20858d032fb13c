"""
Fixtures for the deadline tests: games by mail (the mail service's ``Table``) with time
limits, a clock moved by hand (never a sleep) and the service's clock
(``clockwork.check_deadlines``) run at chosen moments.

Positions (docs/positions.md) put a game straight into the step a test needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest

from moderator.ports import Deadline, Lookup, Outcome, StoredMail
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.runners import clock as clockwork
from moderator.runners import unit
from moderator.runners.commands import new_game
from moderator.schedule.timing import TimeLimits
from moderator.store import EventStore, deadlines, outbox, players
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.games.planning import plan_game
from moderator.usecases.mail.handler import MailGameHandler

from ..service import conftest as service
from ..service.conftest import MODERATOR, Table, address, secret_of

# The mail service's fixtures, re-used: the test's clock and stores on it.
clock = service.clock
store = service.store
any_store = service.any_store

#: Short limits, so tests read easily: a turn 72 h, other steps 48 h, minimum 24 h,
#: reminders 24 h and 4 h before (the defaults).
LIMITS = TimeLimits()
CAST: dict[str, tuple[str, int]] = {"Ann": ("Red", 600), "Bob": ("Blue", 300), "Cy": ("Green", 100)}


def position(
    legions: Iterable[tuple[str, int, str] | tuple[str, int, str, bool]],
    *,
    players: Sequence[str] = ("Ann", "Bob"),
    phase: str = "move",
    roll: int | None = None,
    turn: int = 2,
    active: str = "Ann",
    scores: Mapping[str, int] | None = None,
    battle: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A position file (docs/positions.md); ``roll`` defaults to 1 in the move phase."""
    data: dict[str, Any] = {
        "players": [
            {
                "name": name,
                "color": CAST[name][0],
                "tower": CAST[name][1],
                "score": (scores or {}).get(name, 0),
            }
            for name in players
        ],
        "turn": turn,
        "active": active,
        "phase": phase,
        "legions": [
            {
                "marker": spec[0],
                "land": spec[1],
                "contents": str(spec[2]).split(),
                "moved": bool(spec[3]) if len(spec) > 3 else False,
            }
            for spec in legions
        ],
    }
    if roll is None and phase in ("move", "engage"):
        roll = 1
    if roll is not None:
        data["roll"] = roll
    if battle is not None:
        data["battle"] = dict(battle)
    return data


@dataclass
class Desk:
    """A game by mail with time limits, the clock, and the service's clock to run."""

    table: Table
    clock: Clock
    seen: list[int] = field(default_factory=lambda: [0])

    @property
    def store(self) -> EventStore:
        return self.table.store

    @property
    def game_id(self) -> str:
        return self.table.game_id

    def check(self, on: EventStore | None = None) -> list[str]:
        """The service's minute: everything due now."""
        return clockwork.check_deadlines(on or self.store, MODERATOR, self.clock.now())

    def at(self, moment: datetime, on: EventStore | None = None) -> list[str]:
        self.clock.set(moment)
        return self.check(on)

    def advance(self, **delta: float) -> list[str]:
        self.clock.advance(**delta)
        return self.check()

    def mails(self) -> list[StoredMail]:
        """The outbox's mails written since the last call."""
        with self.store.reading() as tx:
            found = [m for m in outbox.mails(tx) if m.id > self.seen[0]]
        if found:
            self.seen[0] = max(m.id for m in found)
        return found

    def acting(self) -> Deadline | None:
        """The game's open acting deadline (at most one)."""
        with self.store.reading() as tx:
            rows = [d for d in deadlines.open_deadlines(tx, self.game_id) if d.acting]
        assert len(rows) <= 1, rows
        return rows[0] if rows else None

    def open(self) -> list[Deadline]:
        with self.store.reading() as tx:
            return deadlines.open_deadlines(tx, self.game_id)

    @property
    def actor(self) -> str | None:
        return to_act(self.table.state)

    def orders(self, name: str, body: str, **kw: Any) -> Any:
        return self.table.orders(name, body, **kw)


def to(mails: Sequence[StoredMail], name: str, kind: str | None = None) -> list[StoredMail]:
    return [m for m in mails if m.recipient == address(name) and (kind is None or m.kind == kind)]


@pytest.fixture
def make_desk(store: EventStore, clock: Clock) -> Callable[..., Desk]:
    """
    ``make_desk(names, *, position=..., limits=LIMITS, ends_at=None, seed=5, script=None,
    zones={})``: a game with time limits, its players seated (with secrets, in the time
    zones given), on the test's store (or ``on=`` another).
    """

    def make(
        names: Sequence[str] = ("Ann", "Bob"),
        *,
        position: Mapping[str, Any] | None = None,
        limits: TimeLimits | None = LIMITS,
        ends_at: datetime | None = None,
        seed: int | None = 5,
        script: Sequence[int] | None = None,
        zones: Mapping[str, str] | None = None,
        game_id: str = "g1",
        on: EventStore | None = None,
        bound: bool = False,
    ) -> Desk:
        where = on or store
        if script is not None:
            seed = None
        if bound:
            state = _bound_game(where, game_id, names, seed, position, limits)
        else:
            state = new_game(
                where,
                game_id,
                None if position is not None else list(names),
                seed=seed,
                script=script,
                position=position,
                time_limits=limits,
                ends_at=ends_at,
            )
        seated = [p.name for p in state.players]
        with where.transaction() as tx:
            for name in seated:
                if players.player_by_address(tx, address(name)) is None:
                    players.add_player(
                        tx,
                        name,
                        address(name),
                        time_zone=(zones or {}).get(name, "UTC"),
                        secret=secret_of(name),
                    )
                players.seat_player(tx, game_id, name, address(name))
        table = Table(where, MailGameHandler(None, MODERATOR), game_id)
        table.set_record(allow_secrets=True)
        desk = Desk(table, clock)
        desk.mails()
        return desk

    return make


def _bound_game(
    store: EventStore,
    game_id: str,
    names: Sequence[str],
    seed: int | None,
    position: Mapping[str, Any] | None,
    limits: TimeLimits | None,
) -> GameState:
    """A game whose dice are bound to the mails and timeouts that ask for them, so its
    audit bundle can be verified (a known seed: a test game, whose reports say so)."""

    def decide(_lookup: Lookup, now: datetime) -> Outcome:
        planned, _state = plan_game(
            game_id,
            None if position is not None else list(names),
            seed,
            None,
            position,
            now,
            limits,
            bound=True,
            insecure_seed=True,
        )
        return Outcome(games=(planned,))

    state = unit.run(store, decide).games[0].state
    assert state is not None
    return state


def hours(n: float) -> timedelta:
    return timedelta(hours=n)
