"""
A mail's signature is checked before its transaction takes SQLite's one write lock
(``runners.mail``: the handler's reading made ahead, issue 28): while GnuPG runs another
writer, the sender claiming its next mail, is not kept waiting.  The mail is still read
once and played once, as its signer's, and a bad signature is still refused.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from sqlalchemy.engine import make_url

from moderator.mail.gpg import Keyring
from moderator.mail.signatures import Verification
from moderator.store import EventStore, inbox

from .conftest import Table, World, address, full_text, headers_of, plain_mail
from .test_security import first_order


class WriteLockProbe:
    """The moderator's keyring, noting at each check whether another connection could
    take the database's write lock at that moment."""

    def __init__(self, ring: Keyring, database: Path) -> None:
        self.ring = ring
        self.database = database
        self.lock_free: list[bool] = []

    def _probe(self) -> None:
        other = sqlite3.connect(self.database, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            self.lock_free.append(True)
        except sqlite3.OperationalError:  # database is locked
            self.lock_free.append(False)
        finally:
            other.close()

    def verify_detached(self, data: bytes, signature: bytes) -> Verification:
        self._probe()
        return self.ring.verify_detached(data, signature)

    def verify_clearsigned(self, text: str | bytes) -> Verification:
        self._probe()
        return self.ring.verify_clearsigned(text)

    def import_key(self, armored: str | bytes) -> tuple[str, ...]:
        return self.ring.import_key(armored)


def _probe(store: EventStore, world: World) -> WriteLockProbe:
    database = make_url(store.url).database
    assert database is not None
    return WriteLockProbe(world.moderator.keyring, Path(database))


def test_gnupg_checks_a_signed_order_while_the_write_lock_is_free(
    make_table: Callable[..., Table], store: EventStore, world: World
) -> None:
    probe = _probe(store, world)
    table = make_table(keyring=probe, keys=world.players, allow_secrets=False)  # type: ignore[arg-type]
    actor, line = first_order(table)
    before = table.state.version
    for how in ("pgp-mime", "clearsigned"):
        sent = table.orders(actor, line if how == "pgp-mime" else "status", how=how,
                            party=world.players[actor])
        assert sent.status == inbox.PROCESSED
    assert table.state.version > before  # the order was played, as the signer's
    assert probe.lock_free == [True, True]  # each mail checked once, outside the lock


def test_a_bad_signature_checked_ahead_is_still_refused(
    make_table: Callable[..., Table], store: EventStore, world: World
) -> None:
    probe = _probe(store, world)
    table = make_table(keyring=probe, keys=world.players, allow_secrets=False)  # type: ignore[arg-type]
    actor, _line = first_order(table)
    party = world.players[actor]
    signed = party.keyring.clearsign(f"game g1\n{table.ref}\nstatus\n", party.fingerprint)
    before = table.state.version
    sent = table.send(plain_mail(signed.replace(b"status", b"withdraw").decode(),
                                 headers_of(actor, message_id="<t@x>")))
    assert sent.status == inbox.REJECTED and table.state.version == before
    assert "the signature of your mail is not good (bad signature)" in full_text(sent.mails[0])
    assert sent.mails[0].recipient == address(actor)
    assert probe.lock_free == [True]
