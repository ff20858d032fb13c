"""
The stores the ``Lookup`` contract suite runs on (``test_lookup_contract*.py``): the
in-memory one of the use-case tests (``moderator.testing``), SQLite and PostgreSQL, each
written through its unit of work and read through its lookup; the ``backend`` fixture
(``conftest.py``) hands each test every one of them in turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from typing import Protocol

from moderator.ports import GameWrite, InboundMessage, Lookup, NewPlayer, OutgoingMail, Work
from moderator.rules.state import GameState
from moderator.store import inbox, outbox
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write
from moderator.testing.memory import MemoryLookup
from moderator.testing.recording import RecordingUnitOfWork
from moderator.testing.stores import open_store
from moderator.usecases.games.planning import plan_game

NOW = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ANN, BOB, CY = "ann@example.org", "bob@example.net", "cy@example.com"
KEY = "AB" * 20


class Backend(Protocol):
    """A store as the contract uses it: written through the unit of work, read by lookup."""

    now: datetime

    def write(self, work: Work, *, inbound_id: int | None = None) -> dict[str, int]: ...

    def receive(self, raw: bytes) -> int: ...

    def outbox_ids(self) -> list[int]: ...

    def inbound(self, message_id: int) -> InboundMessage: ...

    def reading(self) -> AbstractContextManager[Lookup]: ...


class MemoryBackend:
    def __init__(self) -> None:
        self.now = NOW
        self.memory = MemoryLookup(lambda: self.now)
        self.unit = RecordingUnitOfWork(self.memory)

    def write(self, work: Work, *, inbound_id: int | None = None) -> dict[str, int]:
        return self.unit.write(work, inbound_id=inbound_id)

    def receive(self, raw: bytes) -> int:
        return self.memory.receive(raw).id

    def outbox_ids(self) -> list[int]:
        return [m.id for m in self.memory.outbox()]

    def inbound(self, message_id: int) -> InboundMessage:
        return self.memory.inbound(message_id)

    @contextmanager
    def reading(self) -> Iterator[Lookup]:
        yield self.memory


class SqlBackend:
    def __init__(self, url: str) -> None:
        self.now = NOW
        self.store = open_store(url)
        self.store.clock = lambda: self.now  # the backends share the test's moment

    def write(self, work: Work, *, inbound_id: int | None = None) -> dict[str, int]:
        with self.store.transaction() as tx:
            return write(tx, work, inbound_id=inbound_id)

    def receive(self, raw: bytes) -> int:
        return inbox.receive(self.store, raw)

    def outbox_ids(self) -> list[int]:
        with self.store.transaction() as tx:
            return [m.id for m in outbox.mails(tx)]

    def inbound(self, message_id: int) -> InboundMessage:
        with self.store.transaction() as tx:
            return inbox.message(tx, message_id)

    @contextmanager
    def reading(self) -> Iterator[Lookup]:
        with self.store.transaction() as tx:
            yield SqlLookup(tx)


def register(backend: Backend, *addresses: str, key: str | None = None) -> None:
    names = {ANN: "Ann", BOB: "Bob", CY: "Cy"}
    new = tuple(NewPlayer(names.get(a.lower(), a), a, key_fingerprint=key) for a in addresses)
    backend.write(Work(players=new))


def two_player_game(backend: Backend, game_id: str = "g1") -> tuple[GameWrite, GameState]:
    """A new game of Ann and Bob (a use case's decision), written."""
    planned, state = plan_game(
        game_id, ["Ann", "Bob"], 3, None, None, NOW, seats=(("Ann", ANN), ("Bob", BOB))
    )
    backend.write(Work(games=(planned,)))
    return planned, state


def mail(to: str, kind: str | None = "report", subject: str = "Turn 1") -> OutgoingMail:
    return OutgoingMail(to, subject, "the public text", kind=kind)
