"""
A poll's signatures checked ahead (issue 28, ``moderator.runtime.verify_ahead``): the
poller's waiting mails have their signatures checked by a pool while the mails before
them are processed, yet every mail ends as it would had it been polled alone, also when
an earlier mail of the same poll signs on and so brings the key a later mail is signed
with.  Real GnuPG homes, the embedded mail hub, SQLite.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from moderator.mail import compose
from moderator.mail.gpg import Keyring
from moderator.runtime.bootstrap import bootstrap
from moderator.runtime.config import GnupgSettings
from moderator.runtime.verify_ahead import AheadVerifier
from moderator.store import inbox as inbox_store
from moderator.store import migrate, outbox
from moderator.testing.gnupg import Party
from moderator.testing.hub import MailHub

from ..gpgparties import make_party, short_gpg_home
from .conftest import MODERATOR
from .loopback import loopback_config
from .test_signon import key_part

STELLA, ANN = "stella@elsewhere.example", "ann@example.org"


@pytest.fixture
def parties() -> Iterator[tuple[Party, Party]]:
    with ExitStack() as stack:
        yield make_party(stack, "Stella", STELLA), make_party(stack, "Ann", ANN)


def signed(party: Party, body: str, n: int, *, with_key: bool = False) -> bytes:
    """A PGP/MIME mail of ``party``'s (its key attached if asked), Message-ID ``n``."""
    parts: list[Any] = [body, key_part(party)] if with_key else [body]
    message = compose.signed_mime(parts, party.keyring, party.fingerprint)
    for key, value in (("From", party.email), ("To", MODERATOR),
                       ("Subject", "hello"), ("Message-ID", f"<{n}.{party.name}@test>")):
        message[key] = value
    return message.as_bytes(policy=compose.POLICY)


def the_poll(stella: Party, ann: Party) -> list[bytes]:
    """Stella signs on and writes again, her key known only after her first mail; Ann,
    whose key is known before the poll, writes twice."""
    return [
        signed(stella, "signon Stella Star\n", 1, with_key=True),
        signed(ann, "what games are there?\n", 2),
        signed(stella, "hello, is my key yours now?\n", 3),
        signed(ann, "and now?\n", 4),
    ]


def run(tmp_path: Path, name: str, ann: Party, mails: list[bytes], *, one_poll: bool,
        spy: Callable[[Keyring], None] = lambda _ring: None) -> list[tuple[Any, ...]]:
    """Ann signs on in a poll of her own, then ``mails`` come in one poll or one a poll;
    what each of ``mails`` ended as: its status and note, and the mails it caused."""
    db = f"sqlite:///{tmp_path / f'{name}.sqlite'}"
    migrate.upgrade(db)

    async def scenario() -> list[tuple[Any, ...]]:
        async with MailHub() as hub:
            for address in (MODERATOR, STELLA, ANN):
                hub.add_user(address, "pw")
            with short_gpg_home("m") as home:
                config = loopback_config(hub, db, user=MODERATOR,
                                         gnupg=GnupgSettings(home=str(home)))
                app = bootstrap(config)
                try:
                    assert app.keyring is not None
                    spy(app.keyring)
                    await hub.deliver(MODERATOR, signed(ann, "signon Ann Able\n", 0,
                                                        with_key=True))
                    assert (await app.poller.poll()).processed == 1
                    batches = [mails] if one_poll else [[mail] for mail in mails]
                    for batch in batches:
                        for mail in batch:
                            await hub.deliver(MODERATOR, mail)
                        assert (await app.poller.poll()).processed == len(batch)
                    return await asyncio.to_thread(outcomes, app.store)
                finally:
                    await app.source.close()
                    app.close()

    return asyncio.run(scenario())


def outcomes(store: Any) -> list[tuple[Any, ...]]:
    with store.reading() as tx:
        found = inbox_store.messages(tx)[1:]  # Ann's sign-on before is the same in both
        return [
            (m.message_id, m.status, m.error,
             sorted((o.recipient, o.kind) for o in outbox.mails(tx, inbound_id=m.id)))
            for m in found
        ]


def test_a_polls_mails_checked_ahead_end_as_each_would_alone(
    tmp_path: Path, parties: tuple[Party, Party]
) -> None:
    """
    The same four mails, in one poll (checked ahead by the pool) and one a poll: every
    mail ends the same.  Stella's second mail is signed with the key her first imported,
    after its check ahead began: it is checked again, and is hers.
    """
    stella, ann = parties
    ahead_threads: list[str] = []

    def spy(ring: Keyring) -> None:
        verify = ring.verify_detached

        def watched(data: bytes, signature: bytes) -> Any:
            ahead_threads.append(threading.current_thread().name)
            return verify(data, signature)

        ring.verify_detached = watched  # type: ignore[method-assign]

    mails = the_poll(stella, ann)
    together = run(tmp_path, "together", ann, mails, one_poll=True, spy=spy)
    alone = run(tmp_path, "alone", ann, mails, one_poll=False)
    assert together == alone
    assert any(name.startswith("verify-ahead") for name in ahead_threads)
    # Stella's second mail is taken as hers (no refusal for an unknown key).
    (_, status, _, sent) = together[2]
    assert status == "processed" and all(recipient == STELLA for recipient, _ in sent), together


def test_a_check_ahead_made_before_a_key_came_is_not_used(
    parties: tuple[Party, Party], fresh_keyring: Keyring
) -> None:
    """The answer ``unknown key`` found ahead is not kept once the key is imported."""
    stella, _ = parties
    raw = signed(stella, "hello\n", 1)
    done = threading.Event()
    verify = fresh_keyring.verify_detached

    def watched(data: bytes, signature: bytes) -> Any:
        answer = verify(data, signature)
        done.set()
        return answer

    fresh_keyring.verify_detached = watched  # type: ignore[method-assign]
    verifier = AheadVerifier(fresh_keyring)
    try:
        verifier.ahead([raw])
        assert done.wait(30)
        verifier.import_key(stella.keyring.export_public(stella.fingerprint))
        checked = compose.verify_incoming(raw, verifier)
        assert checked.valid and checked.fingerprint == stella.fingerprint
        assert (verifier.used, verifier.rechecked) == (0, 1)
    finally:
        verifier.close()


def test_a_check_ahead_is_used_when_the_keyring_did_not_change(
    parties: tuple[Party, Party], fresh_keyring: Keyring
) -> None:
    """The mail is checked once: the handler takes the pool's answer."""
    stella, _ = parties
    fresh_keyring.import_key(stella.keyring.export_public(stella.fingerprint))
    raw = signed(stella, "hello\n", 1)
    runs: list[str] = []
    verify = fresh_keyring.verify_detached

    def watched(data: bytes, signature: bytes) -> Any:
        runs.append(threading.current_thread().name)
        return verify(data, signature)

    fresh_keyring.verify_detached = watched  # type: ignore[method-assign]
    verifier = AheadVerifier(fresh_keyring)
    try:
        verifier.ahead([raw])
        for _ in range(3000):  # until the pool's check began (it is then waited for)
            if runs:
                break
            threading.Event().wait(0.01)
        checked = compose.verify_incoming(raw, verifier)
        assert checked == compose.verify_incoming(raw, fresh_keyring)
        assert checked.valid
        assert runs[0].startswith("verify-ahead") and verifier.used == 1
    finally:
        verifier.close()
