"""
A mail read ahead of its transaction (issue 28: the poller checks the next mail's
signature while the mail before it is decided) is read as the transaction would read
it: a key imported meanwhile (the mail before signed its sender on) makes the mail be
read again, and a reading is never used for other bytes.
"""

from __future__ import annotations

from datetime import UTC, datetime

from moderator.mail.gpg import Keyring
from moderator.mail.signatures import Verification
from moderator.ports import InboundMessage
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, World, clearsigned_mail, headers_of


class CountingKeyring:
    """The moderator's keyring, counting the signature checks GnuPG makes and their outcomes."""

    def __init__(self, ring: Keyring) -> None:
        self.ring = ring
        self.checks: list[str] = []

    def verify_detached(self, data: bytes, signature: bytes) -> Verification:
        return self._seen(self.ring.verify_detached(data, signature))

    def verify_clearsigned(self, text: str | bytes) -> Verification:
        return self._seen(self.ring.verify_clearsigned(text))

    def import_key(self, armored: str | bytes) -> tuple[str, ...]:
        return self.ring.import_key(armored)

    def _seen(self, verification: Verification) -> Verification:
        self.checks.append(verification.reason.value)
        return verification


def _inbound(raw: bytes, message_id: int = 1) -> InboundMessage:
    """The mail as archived (in row ``message_id``) and waiting."""
    return InboundMessage(
        id=message_id, raw=raw, message_id=None, mailbox="INBOX", uidvalidity=1, uid=1,
        status="received", game_id=None, error=None, received_at=datetime(2024, 7, 1, tzinfo=UTC),
    )


def test_wolff_4_5_a_mail_read_before_its_signers_key_came_is_read_again(
    world: World, fresh_keyring: Keyring
) -> None:
    ann = world.players["Ann"]
    probe = CountingKeyring(fresh_keyring)
    handler = MailGameHandler(lambda: probe, MODERATOR)  # type: ignore[arg-type, return-value]
    raw = clearsigned_mail(ann, "game g1\nstatus\n", headers_of("Ann"))
    handler.read_ahead(raw)
    assert probe.checks == ["unknown key"]
    assert handler.keyring is not None
    handler.keyring.import_key(ann.keyring.export_public(ann.fingerprint))  # a sign-on's import
    assert handler.game_of(_inbound(raw)) == "g1"
    assert probe.checks == ["unknown key", "good signature"]  # read again, now as Ann's
    handler.game_of(_inbound(raw))
    assert len(probe.checks) == 2  # and that reading kept for the transaction's next calls


def _read_ahead_by_ann(world: World) -> tuple[CountingKeyring, MailGameHandler, bytes]:
    """The moderator's handler, having read Ann's signed mail ahead, and the mail."""
    probe = CountingKeyring(world.moderator.keyring)
    handler = MailGameHandler(lambda: probe, MODERATOR)  # type: ignore[arg-type, return-value]
    raw = clearsigned_mail(world.players["Ann"], "game g1\nstatus\n", headers_of("Ann"))
    handler.read_ahead(raw)
    return probe, handler, raw


def test_a_reading_made_ahead_spares_the_transaction_gnupg(world: World) -> None:
    probe, handler, raw = _read_ahead_by_ann(world)
    assert handler.game_of(_inbound(raw, 7)) == "g1"  # archived under any row: same bytes
    assert probe.checks == ["good signature"]


def test_wolff_4_5_a_reading_is_never_used_for_other_bytes(world: World) -> None:
    probe, handler, raw = _read_ahead_by_ann(world)
    forged = raw.replace(b"status", b"concede")
    handler.game_of(_inbound(forged, 1))  # same row id, other bytes: read afresh, refused
    assert probe.checks == ["good signature", "bad signature"]
