"""
The mail service's use cases on the in-memory store (``moderator.testing``): the
handler decides with a ``MemoryLookup``, a ``RecordingUnitOfWork`` applies its outcome,
and the next mail is decided on what was applied, with no database.  What the store
itself does (transactions, claims, retries) is the SQL tests' and the store's
contract suite's (``tests/store/test_lookup_contract.py``) to check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from moderator.clock import Clock
from moderator.mail.gpg import Keyring
from moderator.ports import Work
from moderator.rules.events import Event
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.schedule.timing import TimeLimits
from moderator.testing.memory import MemoryLookup
from moderator.testing.recording import RecordingUnitOfWork
from moderator.usecases.games.planning import plan_game
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, OrderMail, Sent, address, secret_of


@dataclass
class MemoryDesk:
    """A handler and the memory it reads and is applied to: mail in, outcome applied."""

    handler: MailGameHandler
    memory: MemoryLookup
    unit: RecordingUnitOfWork = field(init=False)

    def __post_init__(self) -> None:
        self.unit = RecordingUnitOfWork(self.memory)

    def send(self, raw: bytes) -> Sent:
        """One mail as the mail runner takes it: archived, decided, its outcome applied."""
        message = self.memory.receive(raw)
        game_id = self.handler.game_of(message)
        game = self.memory.game(game_id) if game_id is not None else None
        now = self.memory.now()
        outcome = self.handler.handle(message, game, self.memory, now)
        self.unit.apply(outcome, game, message, now=now, about=game_id)
        done = self.memory.inbound(message.id)
        mails = [m for m in self.memory.outbox() if m.inbound_id == message.id]
        return Sent(message.id, done.status, done.error, mails)

    def now(self) -> datetime:
        return self.memory.now()


def memory_desk(clock: Clock, keyring: Keyring | None = None) -> MemoryDesk:
    """A desk for mail that names no game yet (sign-ons), with the test's clock."""
    handler = MailGameHandler((lambda: keyring) if keyring is not None else None, MODERATOR)
    return MemoryDesk(handler, MemoryLookup(clock.now))


@dataclass
class MemoryTable(MemoryDesk, OrderMail):
    """A game in memory with seated players: ``Table``'s questions, no database."""

    game_id: str = "g1"
    counter: list[int] = field(default_factory=lambda: [0])

    @property
    def state(self) -> GameState:
        found = self.memory.game(self.game_id)
        assert found is not None
        return found.state

    @property
    def record(self) -> GameRecord:
        found = self.memory.record(self.game_id)
        assert found is not None
        return found

    def events(self) -> list[Event]:
        return self.memory.events(self.game_id)

    def set_record(self, **changes: Any) -> None:
        """Change fields of the game's record (``GameRecord.but``), as a write does."""
        found = self.memory.game(self.game_id)
        assert found is not None
        self.memory.append(self.game_id, found.seq, [], record=found.record.but(**changes))


def memory_table(
    clock: Clock,
    names: tuple[str, ...] | None = ("Ann", "Bob"),
    *,
    seed: int = 5,
    position: Mapping[str, Any] | None = None,
    seated: tuple[str, ...] | None = None,
    game_id: str = "g1",
    limits: TimeLimits | None = None,
) -> MemoryTable:
    """
    A new game in memory (``plan_game``, as the command line and mail start one), its
    players registered with their secrets and seated; secrets allowed.  With ``limits``
    it has deadlines (Wolff 21.0), the first from the clock's now.
    """
    memory = MemoryLookup(clock.now)
    planned, _state = plan_game(game_id, names, seed, None, position, memory.now(), limits)
    seats = seated or names or ()
    for name in seats:
        memory.add_player(name, address(name), secret=secret_of(name))
    RecordingUnitOfWork(memory).write(
        Work(games=(planned.but(seats=tuple((n, address(n)) for n in seats)),))
    )
    table = MemoryTable(MailGameHandler(None, MODERATOR), memory, game_id)
    table.set_record(allow_secrets=True)
    return table


def engaged_in_memory(
    clock: Clock, position: Mapping[str, Any] | None = None
) -> MemoryTable:
    """Ann, Bob and Cy at an engagement (``test_reports.ENGAGED``), everybody reported."""
    from .test_reports import ENGAGED

    table = memory_table(
        clock, None, seed=3, position=position or ENGAGED, seated=("Ann", "Bob", "Cy")
    )
    table.set_record(reported=dict.fromkeys(["Ann", "Bob", "Cy"], 1))
    return table
