"""
``check-config``: each thing the service needs, tried for real, with what to do when
it fails.

The database (reachable, migrations current), the IMAP folder (login, select, IDLE),
the SMTP server (connect, TLS, login), the moderator's key (present with its secret
part, able to sign) and, when configured, the DKIM key (it loads, it signs, and the
DNS record to publish for it).  Nothing is sent and no mail is touched.  Every
connection and key comes from the composition root's ``App``, built lazily: a check
that fails stops nothing else from being tried.
"""

from __future__ import annotations

import asyncio
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import aiosmtplib
from sqlalchemy.exc import SQLAlchemyError

from moderator.mail.dkim import aligned
from moderator.mail.errors import MailError
from moderator.records import record
from moderator.runtime.bootstrap import App
from moderator.runtime.config import Config, ConfigError
from moderator.runtime.database import DatabaseUrlError, checked_url, described, shown
from moderator.runtime.outgoing import wire_bytes
from moderator.store import migrate
from moderator.store.engine import make_engine


@record
class Check:
    name: str
    ok: bool
    detail: str
    #: Lines printed under the check's own (the DNS record to publish).
    more: tuple[str, ...] = ()

    def line(self) -> str:
        head = f"{self.name:<9} {'ok' if self.ok else 'FAILED'}  {self.detail}"
        return "\n".join([head, *(f"          {line}" for line in self.more)])


def check_database(config: Config) -> Check:
    url = config.database.url
    where = shown(url)
    try:
        engine = make_engine(checked_url(url, must_exist=True))
        try:
            with engine.connect() as connection:
                current = migrate.current_revision(connection)
        finally:
            engine.dispose()
    except DatabaseUrlError as exc:
        return Check("database", False, str(exc))
    except SQLAlchemyError as exc:
        return Check("database", False, f"{where}: {described(exc)}")
    except Exception as exc:  # noqa: BLE001 - whatever the driver raises is the answer
        return Check("database", False, f"{where}: {exc}")
    head = migrate.script_head()
    if current != head:
        return Check(
            "database",
            False,
            f"{where}: schema revision {current or 'none'}, this program needs {head} "
            "(run: titan-moderator db upgrade)",
        )
    return Check("database", True, f"{where}: schema revision {head}, current")


async def check_imap(app: App) -> Check:
    config = app.config
    source = app.imap_source()
    where = f"{config.imap.user}@{config.imap.host}:{config.imap.port}/{config.imap.folder}"
    try:
        await source.fetch_new(None, None, limit=1)
        idle = "IDLE" in source.capabilities
    except MailError as exc:
        return Check("imap", False, f"{where}: {exc}")
    finally:
        await source.close()
    how = "IDLE offered" if idle else f"no IDLE: polling every {config.imap.poll_seconds:g} s"
    return Check("imap", True, f"{where}: logged in, folder selected, {how}")


async def check_smtp(app: App) -> Check:
    config = app.config
    smtp = config.smtp
    where = f"{smtp.host}:{smtp.port} ({smtp.tls})"
    client = app.smtp_client()
    try:
        await client.connect()
        if smtp.user:
            await client.login(smtp.user, config.smtp_password)
        await client.quit()
    except (aiosmtplib.SMTPException, OSError) as exc:
        return Check("smtp", False, f"{where}: {exc}")
    return Check("smtp", True, f"{where}: connected{', logged in' if smtp.user else ''}")


def check_key(app: App) -> Check:
    config = app.config
    ring = app.keyring
    if ring is None:
        return Check(
            "gnupg", False, "no [gnupg] home and key: mail would go out unsigned (trials only)"
        )
    try:
        fingerprint = config.gnupg.key
        if not ring.has_secret_key(fingerprint):
            return Check(
                "gnupg",
                False,
                f"{config.gnupg.home} holds no secret key {fingerprint} "
                "(gpg --homedir HOME --list-secret-keys shows what it holds)",
            )
        ring.sign_detached(b"titan-moderator check-config\n", fingerprint)
    except MailError as exc:
        return Check("gnupg", False, str(exc))
    finally:
        ring.stop_agent()
    return Check("gnupg", True, f"key {fingerprint} signs (gpg {ring.gpg_version})")


def check_dkim(app: App) -> Check:
    """
    The DKIM key loads and signs a mail that then verifies against the record it
    gives; prints that record, to publish in DNS.  Off: says who should sign instead.
    """
    config = app.config
    if not config.dkim.key_file:
        return Check(
            "dkim", True, "off: the moderator does not sign (the mail server should: "
            "docs/moderators.md, Deliverable mail)"
        )
    try:
        signer = app.dkim
    except ConfigError as exc:
        return Check("dkim", False, str(exc))
    assert signer is not None
    sender = config.moderator.address
    trial = EmailMessage()
    trial["From"] = sender
    trial["To"] = sender
    trial["Subject"] = "titan-moderator check-config"
    trial["Date"] = format_datetime(app.clock.now())
    trial["Message-ID"] = make_msgid(domain=signer.domain)
    trial.set_content("A trial of the DKIM key; never sent.\n")
    try:
        signs = signer.verifies(signer.sign(wire_bytes(trial)))
    except MailError as exc:
        return Check("dkim", False, str(exc))
    record = ("publish this TXT record:", signer.zone_line())
    if not signs:
        return Check("dkim", False, f"{signer.name}: a mail it signs does not verify", record)
    domain = sender.rpartition("@")[2]
    if not aligned(domain, signer.domain):
        return Check(
            "dkim",
            False,
            f"signs as {signer.domain}, but mail comes from {domain}: DMARC wants the "
            f"two to match (set [dkim] domain = \"{domain}\")",
            record,
        )
    return Check(
        "dkim", True, f"{config.dkim.key_file} signs as {signer.name} (rsa {signer.bits})", record
    )


def check_secrets(config: Config) -> Check:
    """The password and passphrase files can be read."""
    try:
        _ = (config.imap_password, config.smtp_password, config.gpg_passphrase)
    except ConfigError as exc:
        return Check("secrets", False, str(exc))
    return Check("secrets", True, "password files readable")


async def check_all(app: App) -> list[Check]:
    """Every check, in order; the mail servers are tried at once."""
    secrets = check_secrets(app.config)
    if not secrets.ok:
        return [secrets]
    database = await asyncio.to_thread(check_database, app.config)
    imap, smtp = await asyncio.gather(check_imap(app), check_smtp(app))
    key = await asyncio.to_thread(check_key, app)
    return [secrets, database, imap, smtp, key, check_dkim(app)]
