"""
Fixtures for the mail service's tests: real GnuPG homes, a store on SQLite (and on
PostgreSQL where it is cheap), games with seated players, and order mails that are
plain, secret-authenticated, clearsigned or PGP/MIME signed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest

from moderator.mail import compose
from moderator.mail.gpg import Keyring
from moderator.ports import StoredMail
from moderator.rules.events import Event
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.runners import mail as processing
from moderator.runners.commands import new_game
from moderator.schedule.record import GameRecord
from moderator.store import EventStore, inbox, outbox, players
from moderator.testing.clocks import TestClock
from moderator.testing.gnupg import keyring
from moderator.testing.stores import empty_postgres, open_store, sqlite_url
from moderator.usecases.mail.handler import MailGameHandler

from ..gpgparties import Party, SigningTime, make_party, need_gpg, short_gpg_home

MODERATOR = "moderator@titan.example"
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
DATE = "Mon, 01 Jul 2024 10:00:00 +0000"


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def secret_of(name: str) -> str:
    return f"{name.lower()}-secret-42"


@dataclass(frozen=True)
class World:
    """The moderator and six players, each with a key; the moderator knows them all."""

    moderator: Party
    players: dict[str, Party]


@pytest.fixture(scope="session")
def world() -> Iterator[World]:
    with ExitStack() as stack:
        moderator = make_party(stack, "Titan Moderator", MODERATOR)
        parties = {name: make_party(stack, name, address(name)) for name in NAMES}
        for party in parties.values():
            moderator.keyring.import_key(party.keyring.export_public(party.fingerprint))
            party.keyring.import_key(moderator.keyring.export_public(moderator.fingerprint))
        yield World(moderator, parties)


@pytest.fixture
def fresh_keyring() -> Iterator[Keyring]:
    """An empty moderator keyring of its own (sign-ons import keys into it)."""
    need_gpg()
    with short_gpg_home("m") as home:
        yield keyring(home)


def _store(request: pytest.FixtureRequest, tmp_path: Path, kind: str) -> Iterator[EventStore]:
    if kind == "sqlite":
        url = sqlite_url(tmp_path, "service.sqlite")
    else:
        url = empty_postgres(request.getfixturevalue("postgres_url"))
    store = open_store(url, clock=request.getfixturevalue("clock"))
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def clock() -> Iterator[TestClock]:
    """The store's clock; the test parties sign at its time while it lives."""
    made = TestClock()
    SigningTime.clock = made.now
    try:
        yield made
    finally:
        SigningTime.clock = None


@pytest.fixture
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """A store on SQLite with the test's clock."""
    yield from _store(request, tmp_path, "sqlite")


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """A store on each database (PostgreSQL: skipped without a server)."""
    yield from _store(request, tmp_path, request.param)


# -- mails ---------------------------------------------------------------------------------


def headers_of(
    name: str,
    *,
    subject: str = "orders",
    message_id: str | None = None,
    sender: str | None = None,
    extra: dict[str, str] | None = None,
) -> dict[str, str]:
    return {
        "From": f"{name} <{sender or address(name)}>",
        "To": MODERATOR,
        "Subject": subject,
        "Date": DATE,
        "Message-ID": message_id or f"<{uuid.uuid4().hex}@example.org>",
        **(extra or {}),
    }


def plain_mail(body: str, headers: dict[str, str]) -> bytes:
    message = EmailMessage(policy=compose.POLICY)
    for key, value in headers.items():
        message[key] = value
    message.set_content(body)
    return message.as_bytes()


def clearsigned_mail(party: Party, body: str, headers: dict[str, str]) -> bytes:
    block = party.keyring.clearsign(body, party.fingerprint).decode("ascii")
    return plain_mail(block, headers)


def pgp_mime_mail(party: Party, body: str, headers: dict[str, str]) -> bytes:
    message = compose.signed_mime([body], party.keyring, party.fingerprint)
    for key, value in headers.items():
        message[key] = value
    return message.as_bytes(policy=compose.POLICY)


# -- games ---------------------------------------------------------------------------------


@dataclass
class Sent:
    """What became of one mail: its status, note and the outbox mails it caused."""

    id: int
    status: str
    note: str | None
    mails: list[StoredMail]

    def to(self, recipient: str, kind: str | None = None) -> list[StoredMail]:
        return [
            m for m in self.mails if m.recipient == recipient and (kind is None or m.kind == kind)
        ]

    def one(self, recipient: str, kind: str) -> StoredMail:
        (found,) = self.to(recipient, kind)
        return found

    def report(self, recipient: str) -> StoredMail:
        """The mail carrying ``recipient``'s report: a report, or the answer to his mail
        (one mail per mail: the answer carries his report after a rule)."""
        (found,) = [m for m in self.to(recipient) if carries_report(m)]
        return found


#: The rule between an answer's lines and the report it carries (``letters.answers``).
REPORT_RULE = "\n" + "-" * 72 + "\n"


def carries_report(mail: StoredMail) -> bool:
    """A report, or the answer to a player's mail carrying his report (whatever pictures
    his ``pictures`` choice keeps in it)."""
    return mail.kind == "report" or (mail.kind == "reply" and REPORT_RULE in mail.body)


def full_text(mail: StoredMail) -> str:
    """A mail's public and private text, as its recipient reads them."""
    if mail.private_body is None:
        return mail.body
    return f"{mail.body}\n\n--- private part ---\n{mail.private_body}"


class OrderMail:
    """Mail to a game in the players' words: what the SQL and the in-memory tables share
    (``send`` and ``state`` are each table's own)."""

    game_id: str
    counter: list[int]

    def send(self, raw: bytes) -> Sent:
        raise NotImplementedError

    @property
    def state(self) -> GameState:
        raise NotImplementedError

    @property
    def ref(self) -> str:
        """The step reference of the player to act (the public one once nobody is)."""
        return self.ref_of(to_act(self.state))

    def ref_of(self, seat: str | None) -> str:
        """The step reference ``seat`` is given: it counts only what he may see."""
        return f"ref {self.game_id}-{self.state.steps_seen(seat)}"

    def next_id(self) -> str:
        self.counter[0] += 1
        return f"<mail-{self.game_id}-{self.counter[0]}@example.org>"

    def orders(
        self,
        name: str,
        body: str,
        *,
        how: str = "secret",
        party: Party | None = None,
        ref: bool | str = True,
        subject: str = "orders",
        sender: str | None = None,
        extra: dict[str, str] | None = None,
    ) -> Sent:
        """Send ``body`` as ``name`` (``how``: secret, clearsigned, pgp-mime, plain)."""
        lines = [f"game {self.game_id}"]
        if isinstance(ref, str):
            lines.append(ref)
        elif ref:
            lines.append(self.ref_of(name))
        if how == "secret":
            lines.append(f"secret {secret_of(name)}")
        text = "\n".join([*lines, body]) + "\n"
        headers = headers_of(
            name, subject=subject, message_id=self.next_id(), sender=sender, extra=extra
        )
        if how == "clearsigned":
            assert party is not None
            return self.send(clearsigned_mail(party, text, headers))
        if how == "pgp-mime":
            assert party is not None
            return self.send(pgp_mime_mail(party, text, headers))
        return self.send(plain_mail(text, headers))


@dataclass
class Table(OrderMail):
    """A game in a store, with seated players, and a handler to send it mail."""

    store: EventStore
    handler: MailGameHandler
    game_id: str = "g1"
    counter: list[int] = field(default_factory=lambda: [0])

    @property
    def state(self) -> GameState:
        return self.store.load_state(self.game_id).state

    @property
    def record(self) -> GameRecord:
        return self.store.record(self.game_id)

    def events(self) -> list[Event]:
        return self.store.load(self.game_id)

    def now(self) -> datetime:
        return self.store.clock()

    def set_record(self, **changes: Any) -> None:
        """Change fields of the game's record (``GameRecord.but``)."""
        with self.store.transaction() as tx:
            loaded = tx.load(self.game_id)
            tx.append(self.game_id, loaded.seq, [], record=loaded.record.but(**changes))

    def send(self, raw: bytes) -> Sent:
        message_id = inbox.receive(self.store, raw)
        status = processing.process_message(self.store, message_id, self.handler)
        with self.store.reading() as tx:
            note = inbox.message(tx, message_id).error
            mails = outbox.mails(tx, inbound_id=message_id)
        return Sent(message_id, status, note, mails)


def seat_players(
    store: EventStore,
    game_id: str,
    names: list[str],
    keys: dict[str, Party] | None = None,
    *,
    secrets: bool = True,
) -> None:
    with store.transaction() as tx:
        for name in names:
            if players.player_by_address(tx, address(name)) is None:
                party = (keys or {}).get(name)
                players.add_player(
                    tx,
                    name,
                    address(name),
                    key_fingerprint=party.fingerprint if party else None,
                    secret=secret_of(name) if secrets else None,
                )
            players.seat_player(tx, game_id, name, address(name))


@pytest.fixture
def make_table(store: EventStore) -> Callable[..., Table]:
    """``make_table(names, seed=..., keyring=..., keys=..., secrets=...)``: a new game."""

    def make(
        names: tuple[str, ...] = ("Ann", "Bob"),
        *,
        seed: int = 5,
        game_id: str = "g1",
        keyring: Keyring | None = None,
        keys: dict[str, Party] | None = None,
        allow_secrets: bool = True,
        on: EventStore | None = None,
        notify: str | None = None,
        **handler_options: Any,
    ) -> Table:
        where = on or store
        new_game(where, game_id, list(names), seed=seed)
        seat_players(where, game_id, list(names), keys)
        handler = MailGameHandler(
            (lambda: keyring) if keyring is not None else None, MODERATOR, **handler_options
        )
        table = Table(where, handler, game_id)
        table.set_record(allow_secrets=allow_secrets)
        if notify is not None:  # every player's notification choice (default: turn)
            table.set_record(notify=dict.fromkeys(names, notify))
        return table

    return make


def format_date(moment: datetime) -> str:
    return format_datetime(moment)
