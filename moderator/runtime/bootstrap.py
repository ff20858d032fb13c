"""
The composition root: the one place that builds the adapters and wires the service's
parts to them.

``bootstrap(config, overrides)`` gives an ``App``: the configuration, the games' clock
and the real one, and, each built when first asked for, the event store on the
configured database, the moderator's GnuPG keyring, the IMAP connections, the SMTP
sink, the DKIM signer, the picture worker, the mail handler, the poller and the sender;
and a new apscheduler scheduler, IMAP source, SMTP sink or SMTP client whenever a
caller wants one of its own.  ``serve`` (``moderator.runtime.service.Service``),
``worker``, ``check-config``, ``simulate``, the demos and the command line's ``--db``
take their parts from it; ``Overrides`` lets a test or the demo hand in its own store,
clock or TLS context.  Nothing else in the product constructs an adapter, so a change
of adapter is a change here.

Each adapter's module is imported where the adapter is built, not with this module: a
command that wants only the store (``local show``) imports neither the mail stack, the
scheduler nor the picture worker (``tests/cli/test_quick_imports.py``).

The event store still tells the games' time to the use cases that read it
(``EventStore.clock``, ``Tx.now``): the App gives it the App's clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, timedelta
from functools import cached_property
from typing import TYPE_CHECKING

from moderator.clock import Clock, SystemClock
from moderator.runtime.config import Config, ConfigError, DatabaseSettings
from moderator.runtime.variants import install_configured, variants_directory

if TYPE_CHECKING:
    import ssl

    import aiosmtplib
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    from moderator.mail.dkim import DkimSigner
    from moderator.mail.gpg import Keyring
    from moderator.mail.imap import ImapSource
    from moderator.mail.smtp import SmtpSink
    from moderator.runtime.picture_worker import PicturePool
    from moderator.runtime.poller import Poller
    from moderator.runtime.sender import Sender
    from moderator.store.eventstore import EventStore
    from moderator.usecases.mail.handler import MailGameHandler


@dataclass(frozen=True)
class Overrides:
    """Parts a test, the demo or ``simulate`` hands in instead of the configured ones."""

    #: An open store (its owner closes it); its clock is set to ``clock`` if one is given.
    store: EventStore | None = None
    #: The games' clock (deadlines, dates, a signature's age); default: the machine's.
    clock: Clock | None = None
    #: Real time, for leases, the mailbox's lock and the scheduler; default: the machine's.
    wall: Clock | None = None
    #: TLS for IMAP and SMTP (a test's own certificate authority).
    ssl_context: ssl.SSLContext | None = None
    #: The picture worker (a test's; default: one spawned process, made when first wanted).
    pictures: PicturePool | None = None


def imap_source(config: Config, *, ssl_context: ssl.SSLContext | None = None) -> ImapSource:
    """An IMAP connection to the moderator's folder, as configured."""
    from moderator.mail.imap import ImapSource

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
    from moderator.mail.smtp import SmtpSink

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
    from moderator.mail.intake import ReplyBudget
    from moderator.mail.limits import RawLimits
    from moderator.usecases.mail.handler import MailGameHandler

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
    from moderator.mail.gpg import Keyring

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
    from moderator.mail.dkim import DkimError, load_signer

    try:
        return load_signer(config.dkim.selector, config.dkim_domain, config.dkim.key_file)
    except DkimError as exc:
        raise ConfigError(f"[dkim] {exc}") from exc


def picture_pool(variants: str = "") -> PicturePool:
    """
    The picture worker: one spawned process at a time (a fresh one every
    ``picture_worker.RETIRE`` pictures) that ends with this one, and knows the own
    variants under ``variants`` (their boards' layouts).
    """
    from concurrent.futures import ProcessPoolExecutor

    from moderator.runtime.picture_worker import PicturePool, spawn_context, start_worker


    def make() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            1, mp_context=spawn_context(), initializer=start_worker, initargs=(variants,)
        )

    return PicturePool(make)


def database_config(url: str, *, create: bool = True) -> Config:
    """A configuration that names only a database (the command line's ``--db``)."""
    return Config(database=DatabaseSettings(url=url), source="--db" if create else "--db (read)")


class App:
    """What ``bootstrap`` built (see the module's text); ``close`` ends what it opened."""

    def __init__(self, config: Config, overrides: Overrides, *, create: bool = True) -> None:
        self.config = config
        self.overrides = overrides
        #: Whether an empty database may be made (False: a command that only reads).
        self.create = create
        #: The games' time.
        self.clock: Clock = overrides.clock or SystemClock()
        #: Real time: leases, the mailbox's lock, the scheduler's runs.
        self.wall: Clock = overrides.wall or SystemClock()
        self.ssl_context = overrides.ssl_context

    # -- the adapters ---------------------------------------------------------------------

    @cached_property
    def store(self) -> EventStore:
        """
        The event store on the configured database (or the one handed in).

        Raises:
            DatabaseUrlError: the URL names no database this program can open.
            SchemaError: the database is empty (without ``create``) or of another schema.
        """
        from moderator.runtime.database import checked_url
        from moderator.store.eventstore import EventStore
        from moderator.usecases.games.caches import Caches

        given = self.overrides.store
        if given is not None:
            if self.overrides.clock is not None:
                given.clock = self.clock.now
            given.memo = given.memo or Caches()
            return given
        url = checked_url(self.config.database.url, must_exist=not self.create)
        store = EventStore(
            url,
            snapshot_every=self.config.database.snapshot_every,
            create=self.create,
            clock=self.clock.now,
        )
        store.memo = Caches()  # the service's caches, handed to the use cases with each lookup
        return store

    @cached_property
    def keyring(self) -> Keyring | None:
        """The moderator's keyring (None: no ``[gnupg] home``, mail goes out unsigned)."""
        return keyring(self.config)

    @cached_property
    def dkim(self) -> DkimSigner | None:
        return dkim_signer(self.config)

    @cached_property
    def pictures(self) -> PicturePool:
        return self.overrides.pictures or picture_pool(variants_directory(self.config))

    @cached_property
    def source(self) -> ImapSource:
        """The poller's IMAP connection."""
        return self.imap_source()

    @cached_property
    def idle_source(self) -> ImapSource:
        """The second IMAP connection, waiting in IDLE for new mail."""
        return self.imap_source()

    def imap_source(self) -> ImapSource:
        """A new IMAP connection to the moderator's folder (the self-check's, say)."""
        return imap_source(self.config, ssl_context=self.ssl_context)

    def smtp_sink(self) -> SmtpSink:
        return smtp_sink(self.config, ssl_context=self.ssl_context)

    def smtp_client(self) -> aiosmtplib.SMTP:
        """A bare SMTP client on the configured server, not connected (the self-check)."""
        import aiosmtplib

        smtp = self.config.smtp
        return aiosmtplib.SMTP(
            hostname=smtp.host,
            port=smtp.port,
            use_tls=smtp.tls == "tls",
            start_tls=smtp.tls == "starttls",
            tls_context=self.ssl_context,
            timeout=smtp.timeout,
        )

    def scheduler(self) -> AsyncIOScheduler:
        """A new scheduler for the service's jobs (a service started again makes another)."""
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        return AsyncIOScheduler(timezone=UTC)

    # -- the parts wired to them ----------------------------------------------------------

    @cached_property
    def handler(self) -> MailGameHandler:
        return mail_handler(self.config, self.keyring)

    @cached_property
    def poller(self) -> Poller:
        from moderator.runtime.poller import Poller

        gm = self.config.moderator.gm_address or None
        return Poller(self.store, self.source, self.handler, gm_address=gm)

    @cached_property
    def sender(self) -> Sender:
        from moderator.runtime.sender import Sender

        config = self.config
        lease = timedelta(seconds=config.smtp.lease_seconds)
        return Sender(
            self.store,
            self.smtp_sink(),
            self.keyring,
            config.gnupg.key or None,
            config.moderator.address,
            concurrency=config.service.send_concurrency,
            lease=lease,
            renew_every=lease / 4,
            from_name=config.moderator.name,
            verp_key=config.verp_key,
            dkim=self.dkim,
            clock=self.clock,
            wall=self.wall,
            draw=self.pictures.draw_png,
            prepare=self.pictures.prepare,
            keep_sessions=True,
        )

    @property
    def owns_store(self) -> bool:
        """Whether ``close`` closes the store (it was not handed in)."""
        return self.overrides.store is None

    def close(self) -> None:
        """Close the store (unless handed in) and stop the picture worker, if made."""
        if "pictures" in self.__dict__ and self.overrides.pictures is None:
            self.pictures.stop()
        if "store" in self.__dict__ and self.owns_store:
            self.store.close()


def bootstrap(
    config: Config, overrides: Overrides | None = None, *, create: bool = True
) -> App:
    """
    The App for ``config``; ``overrides`` replace parts of it.  Nothing is opened yet:
    each adapter is built when first used.  The groups' own variants (``[variants]
    directory``, else ``$TITAN_VARIANTS_DIRECTORY``) are read and handed to the rules
    first, so that their games load.

    Raises:
        ConfigError: an own variant's data are wrong (naming its file).
    """
    install_configured(config)
    return App(config, overrides or Overrides(), create=create)


def open_store(url: str, *, create: bool = True) -> EventStore:
    """
    The event store on the database at ``url`` (the command line's ``--db``).  Without
    ``create`` (a command that only reads) a SQLite file that is not there is not made:
    a mistyped path is an error, not a new empty database.

    Raises:
        DatabaseUrlError: the URL names no database this program can open.
        SchemaError: the database is empty (without ``create``) or of another schema.
    """
    return bootstrap(database_config(url), create=create).store


__all__ = [
    "App",
    "Overrides",
    "bootstrap",
    "database_config",
    "dkim_signer",
    "imap_source",
    "keyring",
    "mail_handler",
    "open_store",
    "picture_pool",
    "smtp_sink",
]
