"""
Arbitrary mail through ``process_message`` with the mail handler: it is always archived
as it came, the handler never fails on it (a failure would shunt it, never lose it),
no game changes on garbage, and nothing is mailed to anybody but a registered player
or the sender himself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.ports import StoredMail
from moderator.runners import mail as processing
from moderator.store import inbox, outbox
from moderator.testing.stores import empty_postgres, open_store

from .conftest import MODERATOR, Table, World

LINES = [
    "game g1",
    "game nope",
    "ref g1-6",
    "ref g1-999",
    "ref nonsense",
    "secret not-the-secret",
    "secret ",
    "signon Eve",
    "signon",
    "timezone Mars/Base",
    "roll",
    "status",
    "history from turn 1 to turn 99999999999999999999",
    "legal",
    "legion Bu01",
    "reach Q9",
    "split Bu01 into Bu02: angel centaur centaur gargoyle",
    "withdraw",
    "-- ",
    "> quoted roll",
    "On Mon, 1 Jul 2024, Ann wrote:",
    "<br><p>roll</p>",
    "-----BEGIN PGP SIGNED MESSAGE-----",
    "Hash: SHA256",
    "-----BEGIN PGP SIGNATURE-----",
    "iQ==",
    "-----END PGP SIGNATURE-----",
    "-----BEGIN PGP PUBLIC KEY BLOCK-----",
    "mQINBF==",
    "-----END PGP PUBLIC KEY BLOCK-----",
    "--BOUNDARY",
    "--BOUNDARY--",
    "Content-Type: text/plain; charset=utf-7",
    "\x00\x01",
]
SENDERS = [
    "Ann <ann@example.org>",
    "bob@example.org",
    "Eve <eve@evil.example>",
    "MAILER-DAEMON@example.org",
    MODERATOR,
    "",
    "<>",
    "=?utf-8?b?w6k=?= <ann@example.org>",
    "ann@example.org, bob@example.org",
    "not an address",
]
SUBJECTS = [
    "orders",
    "Re: [titan g1] Your move (ref g1-6)",
    "[titan nope] x",
    "Out of office",
    "=?utf-8?q?Gr=C3=BC=C3=9Fe?=",
    "ref g1-6",
]
HEADERS = [
    ("Content-Type", "text/plain; charset=utf-8"),
    ("Content-Type", "text/html"),
    ("Content-Type", 'multipart/mixed; boundary="BOUNDARY"'),
    ("Content-Type", 'multipart/signed; protocol="application/pgp-signature"; boundary=BOUNDARY'),
    ("Content-Type", 'multipart/encrypted; protocol="application/pgp-encrypted"'),
    ("Content-Type", "text/plain; charset=x-unknown"),
    ("Content-Type", "text/plain; format=flowed; delsp=yes"),
    ("Content-Transfer-Encoding", "base64"),
    ("Content-Transfer-Encoding", "quoted-printable"),
    ("Auto-Submitted", "auto-replied"),
    ("Precedence", "list"),
    ("X-Titan-Game", "g1"),
    ("X-Titan-Game", "../../etc"),
    ("X-Titan-Moderator", "g1"),
    ("List-Id", "<x.example.org>"),
    ("In-Reply-To", "<titan.g1.thread@titan.example>"),
    ("Reply-To", "victim@elsewhere.example"),
    ("Message-ID", "<same@example.org>"),
]

line = st.one_of(st.sampled_from(LINES), st.text(max_size=40))
body = st.lists(line, max_size=25).map("\n".join)
header = st.one_of(
    st.sampled_from(HEADERS),
    st.tuples(st.sampled_from(["Subject", "From", "Content-Type", "X-Junk"]), st.text(max_size=60)),
)


@st.composite
def mails(draw: st.DrawFn) -> bytes:
    """A mail built from awkward pieces, or plain random bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=600))
    headers = [
        ("From", draw(st.sampled_from(SENDERS))),
        ("Subject", draw(st.sampled_from(SUBJECTS))),
        *draw(st.lists(header, max_size=6)),
    ]
    text = "\r\n".join(f"{name}: {value}" for name, value in headers)
    text += "\r\n\r\n" + draw(body)
    charset = draw(st.sampled_from(["utf-8", "latin-1", "utf-16", "ascii"]))
    raw = text.encode(charset, "replace")
    if draw(st.booleans()):
        raw = raw.replace(b"\r\n", b"\n")
    return raw


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzz_table(
    request: pytest.FixtureRequest, world: World, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[bytes], tuple[str, int, int, list[StoredMail], bytes]]]:
    from moderator.runners.commands import new_game
    from moderator.usecases.mail.handler import MailGameHandler

    from .conftest import seat_players

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite'}"
    else:
        url = empty_postgres(request.getfixturevalue("postgres_url"))
    with open_store(url) as store:
        new_game(store, "g1", ["Ann", "Bob"], seed=5)
        seat_players(store, "g1", ["Ann", "Bob"], world.players)
        keyring = world.moderator.keyring
        table = Table(store, MailGameHandler(lambda: keyring, MODERATOR))
        table.set_record(allow_secrets=True)

        def run(raw: bytes) -> tuple[str, int, int, list[StoredMail], bytes]:
            """``raw`` archived and processed: its status, the game's last event before
            and after, the mails it caused and what was archived."""
            before = store.last_seq("g1")
            message_id = inbox.receive(store, raw)
            status = processing.process_message(store, message_id, table.handler)
            with store.reading() as tx:
                archived = inbox.message(tx, message_id).raw
                sent = outbox.mails(tx, inbound_id=message_id)
            return status, before, store.last_seq("g1"), sent, archived

        yield run


@settings(
    max_examples=1500 if os.environ.get("TITAN_SOAK") else 150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=mails())
def test_garbage_never_breaks_the_service(
    fuzz_table: Callable[[bytes], tuple[str, int, int, list[StoredMail], bytes]], raw: bytes
) -> None:
    status, before, after, sent, archived = fuzz_table(raw)
    assert archived == raw
    assert status in (inbox.PROCESSED, inbox.REJECTED), status
    assert after == before
    registered = {"ann@example.org", "bob@example.org"}
    for mail in sent:
        assert mail.recipient in registered or mail.recipient.encode() in raw.lower()
