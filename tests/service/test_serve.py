"""
``titan-moderator serve`` and ``check-config`` as an operator runs them: a
configuration file, a real Dovecot holding the moderator's mailbox, an SMTP server
delivering into Dovecot, a GnuPG home with the moderator's key, and the program in a
process of its own, stopped with SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from contextlib import ExitStack
from email import message_from_bytes, policy
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest

from moderator.clock import SystemClock
from moderator.mail import compose
from moderator.mail.imap import ImapSource
from moderator.testing.connections import imap_source_at, smtp_sink_at

from ..gpgparties import Party, make_party
from ..mail.dovecot import DovecotMailSystem, TemporaryDovecot

MODERATOR = "titan@moderator.test"
ANN = "ann@players.test"
WAIT = 60.0


def write_config(path: Path, mail: DovecotMailSystem, moderator: Party, db: Path) -> None:
    home = moderator.keyring.home
    path.write_text(
        f"""
[moderator]
address = "{MODERATOR}"
name = "Titan moderator (test)"

[database]
url = "sqlite:///{db}"

[imap]
host = "{mail.host}"
port = {mail.imap_port}
tls = "none"
user = "{MODERATOR}"
password = "moderator-secret"
processed_folder = "Processed"
poll_seconds = 1

[smtp]
host = "{mail.host}"
port = {mail.smtp_port}
tls = "none"
send_seconds = 1

[gnupg]
home = "{home}"
key = "{moderator.fingerprint}"
""",
        encoding="utf-8",
    )


def sign_on(ann: Party) -> bytes:
    key = MIMEPart(policy=compose.POLICY)
    key.set_content(
        ann.keyring.export_public(ann.fingerprint).encode(),
        maintype="application",
        subtype="pgp-keys",
        disposition="attachment",
        filename="ann.asc",
    )
    message = compose.signed_mime(["signon Ann\ntimezone Europe/Paris\n", key], ann.keyring,
                                  ann.fingerprint)
    message["From"] = f"Ann <{ANN}>"
    message["To"] = MODERATOR
    message["Subject"] = "signon"
    message["Date"] = format_datetime(SystemClock().now())
    message["Message-ID"] = make_msgid(domain="players.test")
    return message.as_bytes(policy=compose.POLICY)


async def first_mail(source: ImapSource) -> bytes:
    async with asyncio.timeout(WAIT):
        while True:
            found = await source.fetch_new(None, None)
            if found.messages:
                return found.messages[0][1]
            await source.idle_wait(2.0)


async def run(*args: str, env: dict[str, str]) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "moderator", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
    )
    out, _ = await process.communicate()
    return process.returncode or 0, out.decode()


@pytest.mark.long
def test_serve_answers_a_sign_on_by_mail_and_stops_cleanly_on_sigterm(
    tmp_path: Path, dovecot: TemporaryDovecot
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TITAN_")}
    config = tmp_path / "config.toml"

    async def scenario(moderator: Party, ann: Party) -> None:
        async with DovecotMailSystem(dovecot) as mail:
            mail.add_user(MODERATOR, "moderator-secret")
            mail.add_user(ANN, "ann-secret")
            write_config(config, mail, moderator, tmp_path / "games.sqlite")
            # The operator makes the database, checks the set-up (every check passes)
            # and starts the service.
            db = f"sqlite:///{tmp_path / 'games.sqlite'}"
            code, out = await run("db", "upgrade", "--db", db, env=env)
            assert code == 0, out
            code, out = await run("check-config", "--config", str(config), env=env)
            assert code == 0, out
            assert "FAIL" not in out.upper(), out

            server = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "moderator", "serve", "--config", str(config),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
            )
            try:
                await smtp_sink_at(mail.host, mail.smtp_port).send(sign_on(ann), ANN, [MODERATOR])
                inbox = imap_source_at(mail.host, mail.imap_port, ANN, "ann-secret", tls=False)
                try:
                    raw = await first_mail(inbox)
                finally:
                    await inbox.close()
            finally:
                server.send_signal(signal.SIGTERM)
                async with asyncio.timeout(20):
                    out_bytes, _ = await server.communicate()
            assert server.returncode == 0, out_bytes.decode()

        welcome = message_from_bytes(raw, policy=policy.default)
        assert isinstance(welcome, EmailMessage)
        assert "Welcome, Ann" in str(welcome["Subject"])
        assert welcome["In-Reply-To"]
        assert str(welcome["Auto-Submitted"]) == "auto-replied"
        ann.keyring.import_key(moderator.keyring.export_public(moderator.fingerprint))
        verification = compose.verify_incoming(raw, ann.keyring)
        assert verification.valid
        assert verification.fingerprint is not None
        assert verification.fingerprint.upper() == moderator.fingerprint.upper()

    with ExitStack() as stack:
        moderator = make_party(stack, "Moderator", MODERATOR)
        ann = make_party(stack, "Ann", ANN)
        asyncio.run(scenario(moderator, ann))
