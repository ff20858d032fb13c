"""
The running service: the poller, the sender and the deadline checks as apscheduler
jobs on one asyncio loop.

Four interval jobs (apscheduler 3.x, ``AsyncIOScheduler``), each never running twice
at once and coalesced when late:

* ``poll``: new mail in, processed, flagged (``Poller``), then the outbox sent;
* ``send``: the outbox sent (mail written by the deadline checks, retries);
* ``deadlines``: reminders, timeouts and time limits (``clockwork.check_deadlines``);
* ``tournaments``: games formed from the tournaments' waiting lists
  (``tournaments.form_games``), finished games scored and the standings mailed
  (``tournaments.finish_games``).

Where the IMAP server offers IDLE, a second connection waits in IDLE and brings the
``poll`` job forward when mail arrives, so orders are answered within seconds while
the interval poll remains the ground truth.  Everything the service knows is in the
database: a restart finds every deadline, every mail waiting to be processed and every
mail waiting to be sent; ``clockwork.service_started`` deals with deadlines that passed
while it was down.

The clock (``EventStore.clock``) is injected: tests and the demo run games on a fast
clock while apscheduler's own timers stay in real seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from moderator.mail.errors import MailError
from moderator.mail.gpg import Keyring
from moderator.mail.imap import ImapSource
from moderator.mail.intake import ReplyBudget
from moderator.mail.smtp import SmtpSink
from moderator.service import clockwork, tournaments
from moderator.service.config import Config
from moderator.service.handler import MailGameHandler
from moderator.service.poller import Poller, PollResult
from moderator.service.sender import Sender, SendTally
from moderator.store.eventstore import EventStore

log = logging.getLogger(__name__)

#: Longest single IDLE; servers drop idle clients after 30 minutes.
IDLE_SECONDS = 25 * 60
#: Wait after the IDLE connection failed before trying again.
IDLE_RETRY_SECONDS = 30.0


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


def keyring(config: Config) -> Keyring | None:
    """The moderator's keyring, or None when the configuration has no GnuPG home."""
    if not config.gnupg.home:
        return None
    return Keyring(config.gnupg.home, passphrase=config.gpg_passphrase)


class Service:
    """
    The moderator at work (see the module's text).

    ``store``, ``clock`` and ``ssl_context`` replace what the configuration would
    make (tests, the demo); ``ssl_context`` is used for both IMAP and SMTP.
    """

    def __init__(
        self,
        config: Config,
        *,
        store: EventStore | None = None,
        clock: Callable[[], datetime] | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.config = config
        self.store = store or EventStore(
            config.database.url, snapshot_every=config.database.snapshot_every
        )
        self._own_store = store is None
        if clock is not None:
            self.store.clock = clock
        self.keyring = keyring(config)
        self.handler = MailGameHandler(
            (lambda: self.keyring) if self.keyring is not None else None,  # type: ignore[arg-type,return-value]
            config.moderator.address,
            budget=ReplyBudget(config.service.reply_budget),
            max_lines=config.service.max_lines,
        )
        self.source = imap_source(config, ssl_context=ssl_context)
        self._idle_source = imap_source(config, ssl_context=ssl_context)
        gm = config.moderator.gm_address or None
        self.poller = Poller(self.store, self.source, self.handler, gm_address=gm)
        self.sender = Sender(
            self.store,
            smtp_sink(config, ssl_context=ssl_context),
            self.keyring,
            config.gnupg.key or None,
            config.moderator.address,
            concurrency=config.service.send_concurrency,
            from_name=config.moderator.name,
        )
        self.scheduler: AsyncIOScheduler | None = None
        self._idle_task: asyncio.Task[None] | None = None
        #: Set whenever a poll or a send round finishes (the demo and tests wait on it).
        self.activity = asyncio.Event()
        #: The seed of the tournaments' draws (game formation, dice); None: from the clock.
        self.tournament_seed: int | None = None

    @property
    def max_outage(self) -> timedelta:
        """A gap in the heartbeat longer than this was an outage: deadlines are extended."""
        return timedelta(hours=self.config.service.max_outage_hours)

    # -- one round of each job (also what the jobs run) -----------------------------------

    async def poll_now(self) -> PollResult:
        """Fetch and process new mail, then send what it caused."""
        result = await self.poller.poll()
        if result.fetched or result.processed:
            log.info("poll: %d fetched, %s", result.fetched, result.statuses or "nothing to do")
        await self.send_now()
        if result.more:
            self._bring_forward("poll")
        return result

    async def send_now(self) -> SendTally:
        """Send every due mail of the outbox."""
        tally = await self.sender.send_due()
        if tally.sent or tally.failed:
            log.info("send: %d sent, %d failed", tally.sent, tally.failed)
        self.activity.set()
        return tally

    async def deadlines_now(self) -> list[str]:
        """Reminders, timeouts and time limits due now; then the mail they wrote."""
        done = await asyncio.to_thread(
            partial(
                clockwork.check_deadlines,
                self.store,
                self.config.moderator.address,
                self.store.clock(),
                max_outage=self.max_outage,
            )
        )
        for line in done:
            log.info("deadlines: %s", line)
        if done:
            await self.send_now()
        return done

    async def tournaments_now(self) -> list[str]:
        """Score the tournaments' finished games, form new ones; then send their mail."""
        address = self.config.moderator.address

        def work() -> list[str]:
            done = tournaments.finish_games(self.store, address)
            now = self.store.clock()
            seed = self.tournament_seed
            if seed is None:
                seed = int(now.timestamp() * 1000) & 0x7FFFFFFF  # new draws at every round
            return [*done, *tournaments.form_games(self.store, address, now, seed)]

        done = await asyncio.to_thread(work)
        for line in done:
            log.info("tournaments: %s", line)
        if done:
            await self.send_now()
        return done

    # -- life cycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """
        Read the mail that came while the service was down, deal with the deadlines
        that passed meanwhile, then start the jobs.  Mail first: an order that came
        in time is played before its deadline can time the player out.
        """
        try:
            await self.poller.poll()
        except MailError as exc:
            log.warning("start-up: the mailbox could not be read (%s); deadlines first", exc)
        for line in await asyncio.to_thread(
            clockwork.service_started,
            self.store,
            self.config.moderator.address,
            self.store.clock(),
            max_outage=self.max_outage,
        ):
            log.info("start-up: %s", line)
        scheduler = AsyncIOScheduler(timezone=UTC)
        now = datetime.now(UTC)
        jobs: list[tuple[str, Callable[[], Any], float]] = [
            ("poll", self._job(self.poll_now), self.config.imap.poll_seconds),
            ("send", self._job(self.send_now), self.config.smtp.send_seconds),
            ("deadlines", self._job(self.deadlines_now), self.config.service.deadline_seconds),
            (
                "tournaments",
                self._job(self.tournaments_now),
                self.config.service.tournament_seconds,
            ),
        ]
        for name, job, seconds in jobs:
            scheduler.add_job(
                job,
                "interval",
                seconds=seconds,
                id=name,
                name=name,
                # A second start finds the first running and asks it for one more round
                # (``_job``), so a job brought forward never waits nor runs twice at once.
                max_instances=2,
                coalesce=True,
                next_run_time=now,
                misfire_grace_time=None,
            )
        scheduler.start()
        self.scheduler = scheduler
        if self.config.imap.idle:
            self._idle_task = asyncio.create_task(self._watch_idle(), name="imap-idle")

    async def stop(self) -> None:
        """Stop the jobs (waiting for none), close the connections and the store."""
        if self._idle_task is not None:
            self._idle_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._idle_task
            self._idle_task = None
        if self.scheduler is not None:
            self.scheduler.shutdown(wait=False)
            self.scheduler = None
        await self._idle_source.close()
        await self.source.close()
        if self.keyring is not None:
            self.keyring.stop_agent()
        if self._own_store:
            self.store.close()

    async def run(self, stop: asyncio.Event) -> None:
        """Run until ``stop`` is set."""
        await self.start()
        try:
            await stop.wait()
        finally:
            await self.stop()

    # -- helpers ----------------------------------------------------------------------------

    def _job(self, work: Callable[[], Any]) -> Callable[[], Any]:
        """A job that logs a failure and lets the next run try again.

        Started while it runs, it does not run beside itself: the running round goes
        once more when it ends, so news that came during a round is never left waiting
        for the next interval.
        """
        state = {"running": False, "again": False}

        async def job() -> None:
            if state["running"]:
                state["again"] = True
                return
            state["running"] = True
            try:
                while True:
                    state["again"] = False
                    try:
                        await work()
                    except MailError as exc:
                        log.warning("%s: %s", work.__name__, exc)
                    except Exception:
                        log.exception("%s failed; it runs again at its next time", work.__name__)
                    if not state["again"]:
                        break
            finally:
                state["running"] = False

        job.__name__ = work.__name__
        return job

    def _bring_forward(self, job_id: str) -> None:
        if self.scheduler is not None:
            job = self.scheduler.get_job(job_id)
            if job is not None:
                job.modify(next_run_time=datetime.now(UTC))

    async def _watch_idle(self) -> None:
        """Bring the poll forward whenever the server says mail has come."""
        while True:
            try:
                news = await self._idle_source.idle_wait(IDLE_SECONDS)
            except MailError as exc:
                log.warning("imap idle: %s; trying again in %.0f s", exc, IDLE_RETRY_SECONDS)
                await asyncio.sleep(IDLE_RETRY_SECONDS)
                continue
            if "IDLE" not in self._idle_source.capabilities:
                log.info("the imap server has no IDLE: polling every %s s", self.config.imap.poll_seconds)
                return
            if news:
                self._bring_forward("poll")
