"""
The runners' unit of work (``moderator.runners.unit``): a mail's tournament lines are
applied one by one in the mail's transaction, so that a line sees what the line before
it did, and they commit together or not at all; a decision made on a stream that moved
on meanwhile is made again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from moderator.ports import Lookup, Outcome, game_write
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.runners import mail as processing
from moderator.runners import unit
from moderator.runners.commands import new_game, order
from moderator.store import EventStore, inbox, outbox
from moderator.store import tournaments as stored
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.mail.handler import MailGameHandler

from ..service.conftest import _store, headers_of, plain_mail
from .conftest import DIRECTOR, MODERATOR, register, secret_of


class Crash(Exception):
    """The worker dies before its transaction commits."""


def crash_at(name: str) -> Callable[[str], None]:
    def checkpoint(step: str) -> None:
        if step == name:
            raise Crash(step)

    return checkpoint


def mail_of(store: EventStore, name: str, lines: list[str]) -> int:
    body = "\n".join([f"secret {secret_of(name)}", *lines]) + "\n"
    return inbox.receive(store, plain_mail(body, headers_of(name, subject="tournament")))


def entrants(store: EventStore, tournament: str) -> dict[str, bool]:
    """The tournament's entrants: address -> waiting."""
    with store.reading() as tx:
        state = stored.load(tx, tournament).state
    return {address: entrant.waiting for address, entrant in state.entrants.items()}


def test_tournament_lines_that_build_on_each_other_commit_together_or_not_at_all(
    any_store: EventStore, clock: Clock
) -> None:
    store = any_store
    register(store, DIRECTOR, "Ann")
    handler = MailGameHandler(None, MODERATOR)
    created = mail_of(store, DIRECTOR, ["tournament create duel players 2 rounds 1"])
    assert processing.process_message(store, created, handler) == inbox.PROCESSED
    # Leaving needs the join before it: the second line reads what the first wrote.
    message = mail_of(store, "Ann", ["join tournament duel", "leave tournament duel"])
    with pytest.raises(Crash):
        processing.process_message(store, message, handler, checkpoint=crash_at("before-commit"))
    # Neither line is kept, nor any answer: the mail is still waiting.
    assert entrants(store, "duel") == {}
    with store.reading() as tx:
        assert inbox.message(tx, message).status == inbox.RECEIVED
        assert outbox.mails(tx, inbound_id=message) == []
    assert processing.process_message(store, message, handler) == inbox.PROCESSED
    with store.reading() as tx:
        answer = outbox.mails(tx, inbound_id=message)[0]
        head = stored.head(tx, "duel")
    assert entrants(store, "duel") == {"ann@example.org": False}  # joined, then left
    assert "2 carried out,\n0 refused" in answer.body
    assert head == 3  # created, joined, left: each line after the one before it


def test_a_line_that_fails_after_the_one_before_was_applied_undoes_both(
    any_store: EventStore, clock: Clock
) -> None:
    store = any_store
    register(store, DIRECTOR, "Ann")
    handler = MailGameHandler(None, MODERATOR)
    created = mail_of(store, DIRECTOR, ["tournament create duel players 2 rounds 1"])
    assert processing.process_message(store, created, handler) == inbox.PROCESSED
    with store.reading() as tx:
        before = stored.head(tx, "duel")

    def join_then_break(lookup: Lookup, now: object) -> Outcome:
        loaded = lookup.tournament("duel")
        assert loaded is not None
        ann = lookup.player("ann@example.org")
        assert ann is not None
        from moderator.usecases.tournaments import tournaments

        mail = tournaments.LinesMail(ann, ("join tournament duel",), MODERATOR)
        joined = tournaments.carry_out(mail, lookup, now)  # type: ignore[arg-type]

        def broken(lookup: Lookup, now: object) -> Outcome:
            held = lookup.tournament("duel")
            assert held is not None and held.seq == before + 1  # it sees the join
            raise RuntimeError("the second line's decision broke")

        return joined.followed_by(broken)

    with pytest.raises(unit.DecisionError):
        unit.run(store, join_then_break)
    with store.reading() as tx:
        assert stored.head(tx, "duel") == before
    assert entrants(store, "duel") == {}


@pytest.fixture
def postgres_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """A store on PostgreSQL: two writers at once (SQLite makes a writer wait at BEGIN)."""
    yield from _store(request, tmp_path, "postgresql")


def test_a_decision_on_a_game_that_moved_on_meanwhile_is_made_again(
    postgres_store: EventStore, clock: Clock
) -> None:
    store = postgres_store
    new_game(store, "g1", ["Ann", "Bob"], seed=7)
    seen: list[int] = []

    def relay_on(lookup: Lookup, now: object) -> Outcome:
        game = lookup.game("g1")
        assert game is not None
        seen.append(game.seq)
        if len(seen) == 1:  # another worker carries out an order and commits meanwhile
            actor = to_act(game.state)
            assert actor is not None
            reply, ok = order(store, "g1", actor, legal_orders(game.state, actor)[0])
            assert ok, reply
        return Outcome(games=(game_write("g1", game.seq, record=game.record.but(relay=True)),))

    unit.run(store, relay_on)
    assert seen[1] > seen[0] and len(seen) == 2  # decided again on the moved game
    with store.reading() as tx:
        assert tx.record("g1").relay is True
        assert tx.last_seq("g1") == seen[1]
