"""
The moderator's own DKIM signature (issue 24, item 7): a report leaves DKIM-signed over
the very bytes the SMTP server receives, dkimpy verifies it against the record
published for the key, and the moderator's PGP signature inside still holds.
``check-config`` loads the key and prints the record to publish.  Real OpenSSL keys,
real GnuPG, a real SMTP server; the only stand-in is DNS, answered from the record the
test publishes.
"""

from __future__ import annotations

import asyncio
import base64
import quopri
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import dkim
import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session
from typer.testing import CliRunner

from moderator.cli import app
from moderator.mail import compose
from moderator.mail.dkim import DkimSigner, load_signer
from moderator.ports import OutgoingMail
from moderator.runtime.bootstrap import dkim_signer
from moderator.runtime.config import ConfigError, load_config
from moderator.runtime.sender import Sender
from moderator.store import EventStore, outbox
from moderator.testing.connections import smtp_sink_at
from moderator.testing.stores import open_store

from ..gpgparties import GpgWorld

MODERATOR = "titan@example.org"
ANN = "ann@example.org"
SELECTOR = "titan2027"
REPORT = (
    "Titan game g1: report for Ann\n\n"
    "  Bob's Titan died: Bob is out of the game, slain by Ann; legions removed: Bu01 (Ogre);"
    " Bu02 (Angel); Bu04 (2 Gargoyles); half points: Ann 30; Ann takes Bob's markers\n"
    "  event 14: Bu01 commitment " + "d" * 64 + "\n"
)


@pytest.fixture(scope="module")
def dkim_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An RSA key as the operator makes it (docs/moderators.md, Deliverable mail)."""
    assert shutil.which("openssl"), "the DKIM tests make their key with openssl"
    key = tmp_path_factory.mktemp("dkim") / "dkim.key"
    subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True,
                   capture_output=True)
    return key


def published(key: Path) -> str:
    """The TXT record an operator would publish, from OpenSSL's own public key."""
    der = subprocess.run(
        ["openssl", "rsa", "-in", str(key), "-pubout", "-outform", "DER"],
        check=True, capture_output=True,
    ).stdout
    return f"v=DKIM1; k=rsa; p={base64.b64encode(der).decode()}"


def dns(zone: dict[str, str]) -> Callable[..., bytes | None]:
    """DNS answering from ``zone`` (name -> TXT text), as dkimpy asks it."""

    def lookup(name: bytes, timeout: float = 5) -> bytes | None:
        text = zone.get(name.decode().rstrip(".").lower())
        return text.encode() if text is not None else None

    return lookup


class Recording:
    """An SMTP server's handler keeping each mail's bytes as they arrived."""

    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.received.append(bytes(envelope.original_content or b""))
        return "250 OK"


async def send_report(
    store: EventStore, world: GpgWorld, signer: DkimSigner, *, private: str | None = None,
    keyed: bool = True,
) -> bytes:
    """A report to Ann (signed part, and ``private``: encrypted to her when ``keyed``)
    sent through SMTP."""
    with store.transaction() as tx:
        outbox.add_mails(
            tx,
            [OutgoingMail(
                ANN, "[titan g1] Your move", REPORT, {"From": MODERATOR},
                private_body=private,
                recipient_key=world.ann.fingerprint if keyed else None, kind="report",
            )],
            game_id="g1",
        )
    recording = Recording()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(recording, hostname="mx.test"), "127.0.0.1", 0)
    try:
        port = int(server.sockets[0].getsockname()[1])
        sink = smtp_sink_at("127.0.0.1", port, local_hostname="moderator.test", timeout=10)
        sender = Sender(
            store, sink, world.moderator.keyring, world.moderator.fingerprint, MODERATOR,
            dkim=signer,
        )
        tally = await sender.send_due()
    finally:
        server.close()
        await server.wait_closed()
    assert tally.sent == 1 and tally.failed == 0
    (raw,) = recording.received
    return raw


def test_dkim_signed_mail_verifies_and_its_pgp_signature_still_holds(
    gpg_world: GpgWorld, dkim_key: Path, tmp_path: Path
) -> None:
    signer = load_signer(SELECTOR, "example.org", str(dkim_key))
    zone = {f"{SELECTOR}._domainkey.example.org": published(dkim_key)}
    with open_store(f"sqlite:///{tmp_path / 'dkim.sqlite'}") as store:
        raw = asyncio.run(send_report(store, gpg_world, signer))

    assert raw.startswith(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org")
    assert dkim.verify(raw, dnsfunc=dns(zone))
    # The record check-config prints is the one OpenSSL derives from the key.
    assert signer.txt_record() == zone[f"{SELECTOR}._domainkey.example.org"]

    # The PGP signature the moderator made before DKIM still holds: DKIM added a
    # header and changed nothing under it.
    verified = compose.verify_incoming(raw, gpg_world.ann.keyring, raw=raw)
    assert verified.valid and verified.fingerprint == gpg_world.moderator.fingerprint
    signed_text = quopri.decodestring(verified.signed_text.encode()).decode()
    assert "Bob's Titan died: Bob is out of the game" in " ".join(signed_text.split())
    assert "\n  event 14: Bu01 commitment " + "d" * 64 + "\r\n" in signed_text  # whole

    # A body changed on the way, a From forged, or another key published: DKIM fails.
    assert not dkim.verify(raw.replace(b"slain by Ann", b"slain by Bob"), dnsfunc=dns(zone))
    forged = raw.replace(f"From: {MODERATOR}".encode(), b"From: mallory@example.org", 1)
    assert forged != raw and not dkim.verify(forged, dnsfunc=dns(zone))
    other = tmp_path / "other.key"
    subprocess.run(["openssl", "genrsa", "-out", str(other), "2048"], check=True,
                   capture_output=True)
    assert not dkim.verify(
        raw, dnsfunc=dns({f"{SELECTOR}._domainkey.example.org": published(other)})
    )


@pytest.mark.parametrize("keyed", [False, True], ids=["clear", "encrypted"])
def test_wolff_4_5_a_mail_with_a_private_part_is_never_dkim_signed(
    gpg_world: GpgWorld, dkim_key: Path, tmp_path: Path, keyed: bool
) -> None:
    """DKIM covers the whole body: a keyless player's clear contents, or a keyed
    player's ciphertext with its session key given away, would be provable."""
    signer = load_signer(SELECTOR, "example.org", str(dkim_key))
    private = "Your legions: Gr01 Titan, Angel.\n"
    with open_store(f"sqlite:///{tmp_path / 'dkim.sqlite'}") as store:
        raw = asyncio.run(send_report(store, gpg_world, signer, private=private, keyed=keyed))

    assert b"DKIM-Signature" not in raw
    # the moderator's PGP signature of the public part is there as ever
    verified = compose.verify_incoming(raw, gpg_world.ann.keyring, raw=raw)
    assert verified.valid and verified.fingerprint == gpg_world.moderator.fingerprint
    assert (b"Gr01 Titan, Angel" in raw) is not keyed


def write_config(folder: Path, key: Path | str, *, domain: str = "") -> Path:
    path = folder / "config.toml"
    path.write_text(
        f"""
[moderator]
address = "{MODERATOR}"
[database]
url = "sqlite:///{folder / 'none.sqlite'}"
[imap]
host = "127.0.0.1"
port = 1
tls = "none"
timeout = 5.0
[smtp]
host = "127.0.0.1"
port = 1
tls = "none"
timeout = 5.0
[dkim]
selector = "{SELECTOR}"
domain = "{domain}"
key_file = "{key}"
""",
        encoding="utf-8",
    )
    return path


def test_check_config_prints_the_dkim_record(dkim_key: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path, dkim_key)
    result = CliRunner().invoke(app, ["check-config", "--config", str(config)])
    out = result.output
    assert result.exit_code == 1  # no database, no mail servers here: the others fail
    assert f"dkim      ok  {dkim_key} signs as {SELECTOR}._domainkey.example.org (rsa 2048)" in out
    assert "publish this TXT record:" in out
    zone_line = next(line.strip() for line in out.splitlines() if " IN TXT " in line)
    assert zone_line.startswith(f"{SELECTOR}._domainkey.example.org. IN TXT ( \"")
    strings = re.findall(r'"([^"]*)"', zone_line)
    assert all(len(s) <= 255 for s in strings) and len(strings) == 2
    assert "".join(strings) == published(dkim_key)


def test_a_dkim_domain_that_is_not_the_senders_fails_the_check(
    dkim_key: Path, tmp_path: Path
) -> None:
    """DMARC passes on DKIM only when the signing domain is the From's."""
    config = write_config(tmp_path, dkim_key, domain="elsewhere.example")
    out = CliRunner().invoke(app, ["check-config", "--config", str(config)]).output
    assert "dkim      FAILED  signs as elsewhere.example, but mail comes from example.org" in out
    assert 'set [dkim] domain = "example.org"' in out


def test_a_dkim_key_that_cannot_be_used_is_named_with_how_to_make_one(tmp_path: Path) -> None:
    missing = tmp_path / "absent.key"
    config = write_config(tmp_path, missing)
    out = CliRunner().invoke(app, ["check-config", "--config", str(config)]).output
    assert f"dkim      FAILED  [dkim] cannot read the DKIM key file '{missing}'" in out
    assert "openssl genrsa -out dkim.key 2048" in out
    not_rsa = tmp_path / "not.key"
    not_rsa.write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    with pytest.raises(ConfigError, match="not an RSA private key"):
        dkim_signer(load_config(write_config(tmp_path, not_rsa)))
    serve = CliRunner().invoke(app, ["serve", "--config", str(write_config(tmp_path, missing))])
    assert serve.exit_code == 2 and "configuration: [dkim] cannot read" in serve.output


def test_dkim_is_off_by_default(tmp_path: Path) -> None:
    config = load_config(None, {})
    assert config.dkim.key_file == "" and dkim_signer(config) is None
    with pytest.raises(ConfigError, match="needs a selector"):
        load_config(None, {"TITAN_DKIM_KEY_FILE": "/etc/titan-moderator/dkim.key"})
