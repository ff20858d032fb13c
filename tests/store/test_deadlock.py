"""
Two transactions that lock the same rows in opposite orders deadlock on PostgreSQL;
the server breaks the deadlock by failing one of them.  That is a lost race, not a
broken mail: processing the mail again from fresh state must go through, as after a
``ConflictError``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import text, update
from sqlalchemy.exc import DBAPIError

from moderator.ports import ConflictError, GameContext, InboundMessage, Outcome
from moderator.runners import mail as processing
from moderator.schedule.record import GameRecord
from moderator.store import EventStore, inbox
from moderator.store.errors import retryable
from moderator.store.tables import GAME

from .mailbox import order_mail, seated_game
from .simple_handler import OrderMailHandler


def real_deadlock(store: EventStore) -> DBAPIError:
    """Make two transactions deadlock on games g1 and g2; the error the loser got."""
    store.create_game("g2", GameRecord())
    both = threading.Barrier(2)
    failures: list[BaseException] = []

    def lock(first: str, second: str) -> None:
        try:
            with store.transaction() as tx:
                tx.connection.execute(text("SET LOCAL deadlock_timeout = '100ms'"))
                for game_id in (first, second):
                    tx.connection.execute(
                        update(GAME).where(GAME.c.id == game_id).values(last_seq=GAME.c.last_seq)
                    )
                    if game_id == first:
                        both.wait(timeout=10)
        except DBAPIError as exc:
            failures.append(exc)

    threads = [threading.Thread(target=lock, args=pair) for pair in (("g1", "g2"), ("g2", "g1"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    (failure,) = failures
    assert isinstance(failure, DBAPIError)
    return failure


class LosesOneRace:
    """A handler whose first attempt is the loser of a deadlock; then it plays on."""

    def __init__(self, error: BaseException) -> None:
        self.error: BaseException | None = error
        self.inner = OrderMailHandler()

    def game_of(self, message: InboundMessage) -> str | None:
        return self.inner.game_of(message)

    def handle(
        self, message: InboundMessage, game: GameContext | None, lookup: object, now: object
    ) -> Outcome:
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        return self.inner.handle(message, game, lookup, now)  # type: ignore[arg-type]


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)  # SQLite cannot deadlock
def test_a_deadlock_broken_by_postgresql_is_tried_again_not_shunted(
    make_store: Callable[..., EventStore],
) -> None:
    store = make_store()
    seated_game(store)
    deadlock = real_deadlock(store)
    assert retryable(deadlock)
    message_id = inbox.receive(store, order_mail("Ann", "legal"))
    assert processing.process_message(store, message_id, LosesOneRace(deadlock)) == inbox.PROCESSED


def test_only_lost_races_are_retryable() -> None:
    assert retryable(ConflictError("moved on"))
    assert not retryable(ZeroDivisionError("a bug"))
    assert not retryable(DBAPIError("SELECT 1", {}, Exception("connection refused")))
