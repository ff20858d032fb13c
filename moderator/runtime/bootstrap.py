"""
The composition root: the one place that builds the adapters (the event store on its
database, the GnuPG keyring, the IMAP and SMTP connections) from the configuration and
hands them to the parts of the running service (the mail handler, the poller, the
sender).  ``serve`` (``moderator.runtime.service.Service``), ``worker`` and the
self-check build through it; the demo and the tests hand it their own store, clock or
TLS context.  Nothing else in the product constructs an adapter, so a change of
adapter is a change here.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from moderator.mail.dkim import DkimError, DkimSigner, load_signer
from moderator.mail.gpg import Keyring
from moderator.mail.imap import ImapSource
from moderator.mail.intake import ReplyBudget
from moderator.mail.limits import RawLimits
from moderator.mail.smtp import SmtpSink
from moderator.runtime.config import Config, ConfigError
from moderator.runtime.database import checked_url
from moderator.runtime.poller import Poller
from moderator.runtime.sender import Sender
from moderator.service.handler import MailGameHandler
from moderator.store.eventstore import EventStore


def imap_source(config: Config, *, ssl_context: ssl.SSLContext | None = None) -> ImapSource:
    """An IMAP connection to the moderator's folder, as configured."""
    imap = config.imap
    return ImapSource(
        imap.host,
        imap.port,
        imap.user,
        config.imap_password,
        tls=imap.tls == "tls",
        folder=imap.folder,
        processed_folder=imap.processed_folder or None,
        ssl_context=ssl_context,
        timeout=imap.timeout,
    )


def smtp_sink(config: Config, *, ssl_context: ssl.SSLContext | None = None) -> SmtpSink:
    """The SMTP server to send through, as configured."""
    smtp = config.smtp
    return SmtpSink(
        smtp.host,
        smtp.port,
        user=smtp.user or None,
        password=config.smtp_password if smtp.user else None,
        tls=smtp.tls,  # type: ignore[arg-type]  # checked by load_config
        tls_context=ssl_context,
        timeout=smtp.timeout,
    )


def mail_handler(config: Config, ring: Keyring | None) -> MailGameHandler:
    """The mail service's handler as configured (``serve`` and ``worker`` share it)."""
    return MailGameHandler(
        (lambda: ring) if ring is not None else None,
        config.moderator.address,
        budget=ReplyBudget(config.service.reply_budget),
        max_lines=config.service.max_lines,
        limits=RawLimits(max_bytes=config.service.max_mail_kib * 1024),
        seal_window=timedelta(days=config.service.signature_days),
        verp_key=config.verp_key,
        gm_address=config.moderator.gm_address or None,
        bounce_pause=timedelta(hours=config.service.bounce_pause_hours),
        aside_mails_a_day=config.service.aside_mails_a_day,
    )


def keyring(config: Config) -> Keyring | None:
    """The moderator's keyring, or None when the configuration has no GnuPG home."""
    if not config.gnupg.home:
        return None
    return Keyring(config.gnupg.home, passphrase=config.gpg_passphrase)


def dkim_signer(config: Config) -> DkimSigner | None:
    """
    The moderator's own DKIM signer, or None when ``[dkim] key_file`` is empty (the
    mail server signs, or nobody does).

    Raises:
        ConfigError: the key file cannot be read or holds no usable key.
    """
    if not config.dkim.key_file:
        return None
    try:
        return load_signer(config.dkim.selector, config.dkim_domain, config.dkim.key_file)
    except DkimError as exc:
        raise ConfigError(f"[dkim] {exc}") from exc


def event_store(config: Config) -> EventStore:
    """The event store on the configured database."""
    return EventStore(config.database.url, snapshot_every=config.database.snapshot_every)


def open_store(url: str, *, create: bool = True) -> EventStore:
    """
    The event store on the database at ``url`` (the command line's ``--db``).  Without
    ``create`` (a command that only reads) a SQLite file that is not there is not made:
    a mistyped path is an error, not a new empty database.

    Raises:
        DatabaseUrlError: the URL names no database this program can open.
        SchemaError: the database is empty (without ``create``) or of another schema.
    """
    return EventStore(checked_url(url, must_exist=not create), create=create)


@dataclass
class Parts:
    """What ``bootstrap`` built: the adapters and the service's parts wired to them."""

    store: EventStore
    keyring: Keyring | None
    handler: MailGameHandler
    source: ImapSource
    idle_source: ImapSource
    poller: Poller
    sender: Sender


def bootstrap(
    config: Config,
    *,
    store: EventStore | None = None,
    clock: Callable[[], datetime] | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> Parts:
    """
    The service's parts as configured; ``store``, ``clock`` and ``ssl_context`` replace
    what the configuration would make (the demo, the tests).
    """
    the_store = store or event_store(config)
    if clock is not None:
        the_store.clock = clock
    ring = keyring(config)
    handler = mail_handler(config, ring)
    source = imap_source(config, ssl_context=ssl_context)
    gm = config.moderator.gm_address or None
    return Parts(
        store=the_store,
        keyring=ring,
        handler=handler,
        source=source,
        idle_source=imap_source(config, ssl_context=ssl_context),
        poller=Poller(the_store, source, handler, gm_address=gm),
        sender=Sender(
            the_store,
            smtp_sink(config, ssl_context=ssl_context),
            ring,
            config.gnupg.key or None,
            config.moderator.address,
            concurrency=config.service.send_concurrency,
            from_name=config.moderator.name,
            verp_key=config.verp_key,
            dkim=dkim_signer(config),
        ),
    )


__all__ = [
    "Parts",
    "bootstrap",
    "dkim_signer",
    "event_store",
    "imap_source",
    "keyring",
    "mail_handler",
    "open_store",
    "smtp_sink",
]
