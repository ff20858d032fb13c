"""Inbound messages, the outbox, players and deadlines: the contract on both databases."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from moderator.ports import (
    GameContext,
    InboundMessage,
    MessageNotFoundError,
    Outcome,
    OutgoingMail,
    StoredMail,
    StoreError,
)
from moderator.ports.deadlines import DONE
from moderator.ports.mail import FAILED, PENDING, SENT
from moderator.ports.players import secret_matches
from moderator.rules.evolve import replay
from moderator.runners import mail as processing
from moderator.runtime import worker
from moderator.schedule.record import GameRecord
from moderator.store import EventStore, deadlines, inbox, outbox, players
from moderator.store.check import check_store
from moderator.store.tables import OUTBOX
from moderator.testing.clocks import TestClock

from .mailbox import next_order, order_mail, seated_game
from .simple_handler import OrderMailHandler

HANDLER = OrderMailHandler()


def test_receive_archives_raw_bytes_once_per_uid(store: EventStore) -> None:
    raw = b"From: a@b\r\nMessage-ID: <x1@b>\r\nSubject: hi\r\n\r\nbody\xff\r\n"
    first = inbox.receive(store, raw, mailbox="INBOX", uidvalidity=7, uid=42)
    assert inbox.receive(store, raw, mailbox="INBOX", uidvalidity=7, uid=42) == first
    assert inbox.receive(store, raw, mailbox="INBOX", uidvalidity=8, uid=42) != first
    with store.reading() as tx:
        message = inbox.message(tx, first)
    assert message.raw == raw
    assert message.message_id == "<x1@b>"
    assert message.status == inbox.RECEIVED
    assert (message.uidvalidity, message.uid) == (7, 42)
    assert inbox.body_hash(raw) == inbox.body_hash(b"Received: elsewhere\n\nbody\xff\r\n")


def test_a_fetchs_mails_are_archived_together_in_order_once_per_uid(store: EventStore) -> None:
    raws = [f"From: a@b\r\nMessage-ID: <f{n}@b>\r\n\r\nbody {n}\r\n".encode() for n in range(3)]
    first = inbox.receive_all(store, [(42, raws[0]), (43, raws[1])], mailbox="INBOX",
                              uidvalidity=7)
    assert first[0] < first[1]
    # A fetch that finds an archived UID again gets its first id, and archives the new one.
    again = inbox.receive_all(store, [(43, raws[1]), (44, raws[2])], mailbox="INBOX",
                              uidvalidity=7)
    assert again[0] == first[1]
    assert again[1] not in first
    assert inbox.receive(store, raws[0], mailbox="INBOX", uidvalidity=7, uid=42) == first[0]
    assert inbox.receive_all(store, [], mailbox="INBOX", uidvalidity=7) == []
    with store.reading() as tx:
        held = [inbox.message(tx, message_id) for message_id in (*first, again[1])]
    assert [m.raw for m in held] == raws
    assert [(m.uidvalidity, m.uid, m.status) for m in held] == [
        (7, uid, inbox.RECEIVED) for uid in (42, 43, 44)
    ]
    assert inbox.pending_ids(store) == [*first, again[1]]


def test_unreadable_headers_are_archived_too(store: EventStore) -> None:
    raw = b"\x00\xff garbage without headers"
    message_id = inbox.receive(store, raw)
    with store.reading() as tx:
        assert inbox.message(tx, message_id).raw == raw


def test_orders_are_processed_in_one_transaction(store: EventStore) -> None:
    state = seated_game(store)
    player, line = next_order(state)
    message_id = inbox.receive(store, order_mail(player, line))
    before = store.last_seq("g1")
    assert processing.process_message(store, message_id, HANDLER) == inbox.PROCESSED
    assert store.last_seq("g1") > before
    assert check_store(store, "g1").ok
    with store.reading() as tx:
        message = inbox.message(tx, message_id)
        (reply,) = outbox.mails(tx, inbound_id=message_id)
    assert message.status == inbox.PROCESSED and message.game_id == "g1"
    assert reply.recipient == f"{player.lower()}@example.org"
    assert reply.subject == "Re: orders 1"
    assert reply.headers == {"In-Reply-To": "<order-1@example.org>"}
    assert f"> {line}" in reply.body and reply.status == PENDING
    # Processed once: a second call finds nothing to do.
    assert processing.process_message(store, message_id, HANDLER) == inbox.SKIPPED
    assert store.last_seq("g1") == store.load_state("g1").seq


def test_refused_order_changes_nothing_but_is_answered(store: EventStore) -> None:
    state = seated_game(store)
    player, _line = next_order(state)
    other = "Bob" if player == "Ann" else "Ann"
    message_id = inbox.receive(store, order_mail(other, "split Rd01 Ogre"))
    before = store.last_seq("g1")
    assert processing.process_message(store, message_id, HANDLER) == inbox.PROCESSED
    assert store.last_seq("g1") == before
    with store.reading() as tx:
        (reply,) = outbox.mails(tx, inbound_id=message_id)
        assert inbox.message(tx, message_id).error == "an order was refused"
    assert "Rejected" in reply.body


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (order_mail("Ann", "legal", game_id="nope"), "there is no game 'nope'"),
        (order_mail("Ann", "legal", game_id=None), "it names no game"),
        (order_mail("eve@example.org", "legal"), "eve@example.org has no seat in game g1"),
    ],
    ids=["unknown-game", "no-game", "no-seat"],
)
def test_mail_for_no_known_game_or_seat_is_rejected(
    store: EventStore, raw: bytes, why: str
) -> None:
    seated_game(store)
    message_id = inbox.receive(store, raw)
    assert processing.process_message(store, message_id, HANDLER) == inbox.REJECTED
    with store.reading() as tx:
        assert inbox.message(tx, message_id).error == why
        (reply,) = outbox.mails(tx, inbound_id=message_id)
    assert why in reply.body


def test_game_line_names_the_game(store: EventStore) -> None:
    state = seated_game(store)
    player, line = next_order(state)
    message_id = inbox.receive(store, order_mail(player, f"game g1\n{line}", game_id=None))
    assert processing.process_message(store, message_id, HANDLER) == inbox.PROCESSED
    assert store.load_state("g1").seq > state.version


class Exploding:
    def game_of(self, message: InboundMessage) -> str | None:
        return "g1"

    def handle(
        self,
        message: InboundMessage,
        game: GameContext | None,
        lookup: object = None,
        now: object = None,
    ) -> Outcome:
        raise ZeroDivisionError("the handler broke")


def test_a_failing_handler_shunts_the_message(store: EventStore) -> None:
    seated_game(store)
    message_id = inbox.receive(store, order_mail("Ann", "legal"))
    before = store.last_seq("g1")
    result = processing.process_message(store, message_id, Exploding(), gm_address="gm@example.org")
    assert result == inbox.SHUNTED
    assert store.last_seq("g1") == before
    with store.reading() as tx:
        message = inbox.message(tx, message_id)
        (notice,) = outbox.mails(tx)
    assert message.status == inbox.SHUNTED
    assert message.error == "ZeroDivisionError: the handler broke"
    assert notice.recipient == "gm@example.org" and str(message_id) in notice.subject
    # A person fixed the cause: back in the queue, and this time it goes through.
    assert inbox.requeue(store, message_id)
    assert not inbox.requeue(store, message_id)
    assert processing.process_message(store, message_id, HANDLER) == inbox.PROCESSED


class BadEvents:
    """A handler whose events do not fold: a bug, caught before anything is stored."""

    def game_of(self, message: InboundMessage) -> str | None:
        return "g1"

    def handle(
        self,
        message: InboundMessage,
        game: GameContext | None,
        lookup: object = None,
        now: object = None,
    ) -> Outcome:
        from moderator.rules import events as ev

        return Outcome(events=(ev.LegionMoved(marker="Zz99", from_land=1, to_land=2),))


def test_events_that_do_not_fold_shunt_the_message(store: EventStore) -> None:
    seated_game(store)
    message_id = inbox.receive(store, order_mail("Ann", "legal"))
    assert processing.process_message(store, message_id, BadEvents()) == inbox.SHUNTED
    assert check_store(store, "g1").ok


def test_unknown_message(store: EventStore) -> None:
    with pytest.raises(MessageNotFoundError):
        processing.process_message(store, 999, HANDLER)


def test_pending_messages_are_processed_in_order(store: EventStore) -> None:
    state = seated_game(store)
    ids = []
    for number in range(1, 4):
        player, line = next_order(state)
        ids.append(inbox.receive(store, order_mail(player, line, number=number)))
        from moderator.usecases.games.messages import carry_out

        state = carry_out("g1", state, store.record("g1"), player, line, list).state
    tally = worker.process_pending(store, HANDLER)
    assert tally.counts == {inbox.PROCESSED: 3}
    assert inbox.pending_ids(store) == []
    assert store.load_state("g1").state.version == store.last_seq("g1")
    assert replay(store.load("g1")) == store.load_state("g1").state


def test_outbox_delivery_retries_then_gives_up(make_store: Callable[..., EventStore]) -> None:
    clock = TestClock(datetime(2024, 6, 1, 12, 0, tzinfo=UTC))
    store = make_store(clock=clock)
    with store.transaction() as tx:
        ids = outbox.add_mails(
            tx, [OutgoingMail("a@x", "one", "1"), OutgoingMail("b@x", "two", "2")]
        )
    assert len(set(ids)) == 2
    sent: list[str] = []

    def send(mail: StoredMail) -> None:
        if mail.recipient == "b@x":
            raise ConnectionError("relay refused")
        sent.append(mail.message_id)

    assert outbox.deliver(store, send, wall=clock.now) == (1, 1)
    assert sent == ids[:1]
    assert outbox.deliver(store, send, wall=clock.now) == (0, 0)  # b@x waits for its next attempt
    for _ in range(3):
        clock.advance(hours=7)
        outbox.deliver(store, send, wall=clock.now, max_attempts=4)
    with store.reading() as tx:
        by_recipient = {m.recipient: m for m in outbox.mails(tx)}
        row = tx.connection.execute(
            select(OUTBOX.c.last_error).where(OUTBOX.c.recipient == "b@x")
        ).one()
    assert by_recipient["a@x"].status == SENT and by_recipient["a@x"].attempts == 1
    assert by_recipient["b@x"].status == FAILED and by_recipient["b@x"].attempts == 4
    assert row.last_error == "relay refused"


def test_a_claimed_mail_comes_back_when_its_lease_runs_out(
    make_store: Callable[..., EventStore],
) -> None:
    # The lease runs in real time (``wall``), whatever the store's clock says.
    wall = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
    store = make_store(clock=TestClock(wall))
    with store.transaction() as tx:
        outbox.add_mails(tx, [OutgoingMail("a@x", "one", "1")])
    with store.transaction() as tx:
        first = outbox.claim_due(tx, tx.now(), wall=wall)  # ... and the sender died
    assert first is not None
    with store.transaction() as tx:
        assert outbox.claim_due(tx, tx.now(), wall=wall + outbox.LEASE / 2) is None
    with store.transaction() as tx:
        again = outbox.claim_due(tx, tx.now(), wall=wall + outbox.LEASE)
    assert again is not None and again.attempts == 2
    assert again.message_id == first.message_id and again.claim != first.claim


def test_players_seats_and_secrets(store: EventStore) -> None:
    store.create_game("g", GameRecord())
    with store.transaction() as tx:
        players.add_player(
            tx, "Ann", "Ann@Example.org ", time_zone="Europe/Berlin", secret="s3cret"
        )
        players.add_player(tx, "Bob", "bob@example.org", key_fingerprint="ABCD1234")
        players.seat_player(tx, "g", "Ann", "ann@example.org")
        players.seat_player(tx, "g", "Bob", "BOB@example.org")
        ann = players.player_by_address(tx, "ann@example.org")
        assert players.seats(tx, "g") == {"ann@example.org": "Ann", "bob@example.org": "Bob"}
    assert ann is not None and ann.time_zone == "Europe/Berlin" and ann.secret_hash
    assert "s3cret" not in ann.secret_hash
    assert secret_matches("s3cret", ann.secret_hash)
    assert not secret_matches("guess", ann.secret_hash)
    with pytest.raises(StoreError, match="registered already"), store.transaction() as tx:
        players.add_player(tx, "Ann again", "ann@example.org")
    with pytest.raises(StoreError, match="is taken"), store.transaction() as tx:
        players.seat_player(tx, "g", "Ann", "bob@example.org")


def test_deadlines(store: EventStore) -> None:
    store.create_game("g", GameRecord())
    noon = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
    with store.transaction() as tx:
        early = deadlines.set_deadline(tx, "g", "orders", noon, player="Ann")
        deadlines.set_deadline(tx, "g", "orders", noon + timedelta(days=1))
    with store.transaction() as tx:
        (due,) = deadlines.due_deadlines(tx, noon + timedelta(hours=1))
        assert (due.id, due.player, due.due_at) == (early, "Ann", noon)
        assert deadlines.close_deadline(tx, early, DONE)
        assert not deadlines.close_deadline(tx, early, DONE)
        assert deadlines.due_deadlines(tx, noon + timedelta(hours=1)) == []
