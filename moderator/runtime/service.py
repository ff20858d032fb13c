"""
The running service: the poller, the sender and the deadline checks as apscheduler
jobs on one asyncio loop.

Four interval jobs (apscheduler 3.x, ``AsyncIOScheduler``), each never running twice
at once and coalesced when late:

* ``poll``: new mail in, processed, flagged (``Poller``), then the ``send`` job brought
  forward (a poll does not wait for the send round, so mail that came during it is
  fetched at once);
* ``send``: the outbox sent (mail written by the deadline checks, retries);
* ``deadlines``: reminders, timeouts and time limits (``clock_runner.check_deadlines``);
* ``tournaments``: games formed from the tournaments' waiting lists
  (``tournaments.form_games``), finished games scored and the standings mailed
  (``tournaments.finish_games``).

Each mail the poller has processed brings the ``send`` job forward (and its pictures
are drawn ahead, ``Sender.prepare_soon``), so the answer to one order does not wait
while the other mails of the same poll are processed.  Where the IMAP server offers
IDLE, a second connection waits in IDLE and brings the ``poll`` job forward when mail
arrives (``runtime.idle_watch``), so orders are answered within seconds while the
interval poll remains the ground truth.  Everything the service knows is in the
database: a restart finds every deadline, every mail waiting to be processed and every
mail waiting to be sent; ``clock_runner.service_started`` deals with deadlines that passed
while it was down.

One service reads a mailbox with a database at a time: ``start`` takes the mailbox's
row in ``poller_lock`` (``moderator.store.poller_lock``) or refuses with
``MailboxBusyError``, a fifth job (``lock``) renews its heartbeat every
``poller_lock.BEAT_EVERY``, and ``stop`` gives it up.  After a crash the row is taken
over at once on the same host (the dead service's process is gone), from another host
once its heartbeat is ``poller_lock.STALE``.  A service that finds its lock taken over
(it was thought dead) stops.  A send round that leaves mails held by another sender's
lease brings the ``send`` job forward to the moment the first lease ends, so a mail
whose sender died goes out within about ``outbox.LEASE``.

A sixth job (``collect``) runs Python's full cycle collection every ``COLLECT_EVERY``.
Mail handling leaves cycles behind (parse trees, frames; the standard library's email
policies make a new header class for each header, which ``compose.POLICY`` no longer
does for the mails we make), and Python collects its oldest generation only
once its survivors have grown by a quarter of the objects that live on (the caches, the
imports): a service waited for tens of megabytes of garbage before each collection, and
its memory crept up for hours (issue 28, ``benchmarks/soak_serve.py``).

``stop`` pauses the scheduler and lets the rounds running end (``rounds.Rounds``)
before it shuts the scheduler down: apscheduler would cancel a round still running then
and log the cancellation as an error, with a traceback, although nothing went wrong.

Every part comes from the composition root's ``App`` (``runtime.bootstrap``), the
scheduler too.  Two clocks: the games' (``App.clock``, which tests and the demo replace
with one of their own) and real time (``App.wall``), which apscheduler's timers, the
mailbox's lock and the outbox's leases keep whatever the games' clock does.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy.engine import make_url

from moderator.mail.errors import MailError
from moderator.runners import clock as clock_runner
from moderator.runners import tournaments
from moderator.runtime.bootstrap import App
from moderator.runtime.claims import SendTally
from moderator.runtime.config import Config
from moderator.runtime.idle_watch import IdleWatch
from moderator.runtime.poller import PollResult
from moderator.runtime.rounds import Rounds
from moderator.store import outbox, poller_lock, seals

log = logging.getLogger(__name__)

#: The ``send`` job is brought forward to this long after another sender's lease ends.
LEASE_SLACK = timedelta(seconds=0.5)
#: How long ``stop`` lets a running job round finish (a poll, a send) before leaving it.
STOP_GRACE = timedelta(seconds=30)
#: How long ``stop`` tries to flag the processed mail not flagged yet.
MARK_AT_STOP_SECONDS = 5.0
#: How often the ``collect`` job runs a full cycle collection (a few tens of ms).
COLLECT_EVERY = timedelta(minutes=2)


class Service:
    """The moderator at work (see the module's text), on the parts of ``app``."""

    def __init__(self, app: App) -> None:
        self.app = app
        config: Config = app.config
        self.config = config
        self.store = app.store
        self.keyring = app.keyring
        self.handler = app.handler
        self.source = app.source
        self._idle_source = app.idle_source
        self.poller = app.poller
        self.sender = app.sender
        #: The mailbox's lock (``poller_lock``): its name, this run's owner id, how often
        #: its heartbeat is renewed and when an unrenewed one counts as dead.
        self.mailbox = poller_lock.mailbox_key(
            config.imap.user, config.imap.host, config.imap.port, config.imap.folder
        )
        self.owner = poller_lock.new_owner()
        self.beat_every = poller_lock.BEAT_EVERY
        self.collect_every = COLLECT_EVERY
        self.lock_stale = poller_lock.STALE
        self._locked_at: datetime | None = None
        #: Set when another service took the mailbox over (this one was thought dead):
        #: polling stops and ``run`` returns.
        self.lost = asyncio.Event()
        self.scheduler: AsyncIOScheduler | None = None
        self._idle_task: asyncio.Task[None] | None = None
        self._idle = IdleWatch(
            app.idle_source, app.source, partial(self._bring_forward, "poll"),
            poll_seconds=config.imap.poll_seconds, take_in=self.poller.nudge,
        )
        #: The job rounds running now: ``stop`` lets them end (for ``stop_grace`` at most)
        #: rather than cut them off.
        self._rounds = Rounds()
        self.stop_grace = STOP_GRACE
        #: Set whenever a poll or a send round finishes (the demo and tests wait on it).
        self.activity = asyncio.Event()
        #: The seed of the tournaments' draws (game formation, dice); None: from the clock.
        self.tournament_seed: int | None = None
        self.poller.after_each = self._mail_processed
        self.poller.on_fetch = self._idle.caught_up

    @property
    def max_outage(self) -> timedelta:
        """A gap in the heartbeat longer than this was an outage: deadlines are extended."""
        return timedelta(hours=self.config.service.max_outage_hours)

    # -- one round of each job (also what the jobs run) -----------------------------------

    async def poll_now(self) -> PollResult:
        """
        Fetch and process new mail, then send what it caused: at once when the jobs are
        not running, else by bringing the ``send`` job forward, so that the next poll
        (mail that came meanwhile) does not wait for this poll's send round.
        """
        if self.lost.is_set():
            return PollResult()
        try:
            result = await self.poller.poll()
        finally:
            self._idle.caught_up()
        if result.fetched or result.processed:
            log.info("poll: %d fetched, %s", result.fetched, result.statuses or "nothing to do")
        if self.scheduler is None:
            await self.send_now()
        else:
            self._bring_forward("send")
        if result.more:
            self._bring_forward("poll")
        return result

    async def _mail_processed(self) -> None:
        """
        A mail's transaction committed: its reports' pictures are drawn ahead and the
        ``send`` job brought forward, so its answer does not wait for the rest of the poll
        (nor the poll for the pictures: ``prepare_soon`` is not waited for).
        """
        self.sender.prepare_soon()
        self.sender.wake()  # a worker free now takes it, if a round runs
        self._bring_forward("send")

    async def send_now(self) -> SendTally:
        """Send every due mail of the outbox."""
        tally = await self.sender.send_due()
        if tally.sent or tally.failed:
            log.info("send: %d sent, %d failed", tally.sent, tally.failed)
        self.activity.set()
        held_until = await asyncio.to_thread(self._lease_ends)
        if held_until is not None:
            # Mail another sender holds: look again when its lease ends (if it died,
            # the mail is ours then).
            self._bring_forward("send", at=held_until + LEASE_SLACK)
        return tally

    async def beat_now(self) -> bool:
        """Renew the mailbox lock's heartbeat; False (and ``lost`` set) if it was taken."""
        held = await asyncio.to_thread(
            poller_lock.beat, self.store, self.mailbox, self.owner, now=self.app.wall.now()
        )
        if not held and not self.lost.is_set():
            other = await asyncio.to_thread(poller_lock.holder, self.store, self.mailbox)
            by = f"pid {other.pid} on host {other.host}" if other else "nobody"
            log.error(
                "the lock on %s is no longer ours (held by %s): this service was taken "
                "for dead; it stops reading the mailbox and exits",
                self.mailbox,
                by,
            )
            self.lost.set()
        return held

    async def collect_now(self) -> int:
        """A full cycle collection (see the module's text); the unreachable objects found."""
        return gc.collect()

    async def deadlines_now(self) -> list[str]:
        """Reminders, timeouts and time limits due now; then the mail they wrote."""
        done = await asyncio.to_thread(
            partial(
                clock_runner.check_deadlines,
                self.store,
                self.config.moderator.address,
                self.app.clock.now(),
                max_outage=self.max_outage,
            )
        )
        for line in done:
            log.info("deadlines: %s", line)
        pruned = await asyncio.to_thread(seals.prune_store, self.store, self.app.clock.now())
        if pruned:
            log.info("deadlines: %d seals of signatures past their window dropped", pruned)
        if done:
            await self.send_now()
        return done

    async def tournaments_now(self) -> list[str]:
        """Score the tournaments' finished games, form new ones; then send their mail."""
        address = self.config.moderator.address

        def work() -> list[str]:
            done = tournaments.finish_games(self.store, address)
            now = self.app.clock.now()
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
        Take the mailbox's lock, read the mail that came while the service was down,
        deal with the deadlines that passed meanwhile, then start the jobs.  Mail first:
        an order that came in time is played before its deadline can time the player out.

        Raises:
            MailboxBusyError: another running service reads the mailbox with this
                database (nothing was started).
        """
        dead = await asyncio.to_thread(
            partial(
                poller_lock.acquire,
                self.store,
                self.mailbox,
                self.owner,
                now=self.app.wall.now(),
                stale=self.lock_stale,
            )
        )
        self._locked_at = self.app.wall.now()
        if dead is not None:
            silent = self._locked_at - dead.heartbeat_at >= self.lock_stale
            log.warning(
                "the lock on %s was held by pid %d on host %s, last heard from at "
                "%s UTC: %s, and its lock is taken over",
                self.mailbox,
                dead.pid,
                dead.host,
                f"{dead.heartbeat_at:%Y-%m-%d %H:%M:%S}",
                "that service is taken for dead" if silent else "that process is gone",
            )
        log.info("%s", self._starting_line())
        try:
            await self._start()
        except BaseException:
            await self._unlock()
            raise

    async def _start(self) -> None:
        try:
            await self.poller.poll()
        except MailError as exc:
            log.warning("start-up: the mailbox could not be read (%s); deadlines first", exc)
        for line in await asyncio.to_thread(
            clock_runner.service_started,
            self.store,
            self.config.moderator.address,
            self.app.clock.now(),
            max_outage=self.max_outage,
        ):
            log.info("start-up: %s", line)
        self._rounds = Rounds()  # a service stopped and started again runs its rounds anew
        scheduler = self.app.scheduler()
        now = self.app.wall.now()
        jobs: list[tuple[str, Callable[[], Any], float]] = [
            ("poll", self._rounds.job(self.poll_now), self.config.imap.poll_seconds),
            ("send", self._rounds.job(self.send_now), self.config.smtp.send_seconds),
            (
                "deadlines",
                self._rounds.job(self.deadlines_now),
                self.config.service.deadline_seconds,
            ),
            (
                "tournaments",
                self._rounds.job(self.tournaments_now),
                self.config.service.tournament_seconds,
            ),
            ("lock", self._rounds.job(self.beat_now), self.beat_every.total_seconds()),
        ]
        for name, job, seconds in jobs:
            scheduler.add_job(
                job,
                "interval",
                seconds=seconds,
                id=name,
                name=name,
                # A second start finds the first running and asks it for one more round
                # (``Rounds.job``), so a job brought forward never waits nor runs twice at once.
                max_instances=2,
                coalesce=True,
                next_run_time=now,
                misfire_grace_time=None,
            )
        scheduler.add_job(  # the first after one period: a start has nothing to collect yet
            self._rounds.job(self.collect_now), "interval", id="collect", name="collect",
            seconds=self.collect_every.total_seconds(), max_instances=2, coalesce=True,
            next_run_time=now + self.collect_every, misfire_grace_time=None,
        )
        scheduler.start()
        self.scheduler = scheduler
        if self.config.imap.idle:
            self._idle_task = asyncio.create_task(self._idle.run(), name="imap-idle")

    async def stop(self) -> None:
        """
        Stop the jobs, letting the rounds running end (for at most ``stop_grace``, then
        cut off), close the connections, the store (unless handed in) and the picture
        worker.
        """
        if self._idle_task is not None:
            self._idle_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._idle_task
            self._idle_task = None
        if self.scheduler is not None:
            self.scheduler.pause()  # no round starts any more
        await self._rounds.end(self.stop_grace)
        if self.scheduler is not None:
            self.scheduler.shutdown(wait=False)  # nothing left running for it to cancel
            self.scheduler = None
        await self.sender.close()
        with contextlib.suppress(MailError, TimeoutError):  # unflagged, the store knows them
            await asyncio.wait_for(self.poller.mark_now(), MARK_AT_STOP_SECONDS)
        self.poller.close()
        await self._idle_source.close()
        await self.source.close()
        if self.keyring is not None:
            self.keyring.stop_agent()
        await self._unlock()
        self.app.close()

    async def run(
        self, stop: asyncio.Event, *, started: Callable[[], None] | None = None
    ) -> None:
        """
        Run until ``stop`` is set, or until another service takes the mailbox over
        (``lost``); ``started`` is called once the service runs.
        """
        try:
            await self.start()
        except poller_lock.MailboxBusyError:
            self.app.close()  # nothing else was opened (nor the GnuPG agent touched)
            raise
        except BaseException:
            await self.stop()
            raise
        waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self.lost.wait())]
        try:
            if started is not None:
                started()
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)
            await self.stop()

    # -- helpers ----------------------------------------------------------------------------

    def _bring_forward(self, job_id: str, at: datetime | None = None) -> None:
        """Run a job now, or at ``at`` unless it runs before that anyway."""
        if self.scheduler is None:
            return
        job = self.scheduler.get_job(job_id)
        if job is None:
            return
        if at is not None and job.next_run_time is not None and job.next_run_time <= at:
            return
        if at is None and self._rounds.ask_again(job.func.__name__):
            return  # its round runs: it takes one more turn
        job.modify(next_run_time=at or self.app.wall.now())

    def _lease_ends(self) -> datetime | None:
        return outbox.lease_ends(self.store, self.app.wall.now())

    async def _unlock(self) -> None:
        """Give the mailbox's lock up (if this service holds it) and say so."""
        if self._locked_at is None:
            return
        since, self._locked_at = self._locked_at, None
        try:
            released = await asyncio.to_thread(
                poller_lock.release, self.store, self.mailbox, self.owner
            )
        except Exception as exc:  # noqa: BLE001 - it lapses by itself after lock_stale
            log.warning("the lock on %s could not be released (%s)", self.mailbox, exc)
            released = False
        ran = self.app.wall.now() - since
        log.info(
            "stopped serving %s after %s: %s",
            self.config.moderator.address,
            str(ran).split(".")[0],
            f"{self.mailbox} released" if released else f"{self.mailbox} was not ours any more",
        )

    def _starting_line(self) -> str:
        """What the service reads, with which database, and its jobs."""
        config = self.config
        database = make_url(self.store.url).render_as_string(hide_password=True)
        idle = "IDLE where offered" if config.imap.idle else "no IDLE"
        return (
            f"serving {config.moderator.address}: reading {self.mailbox} ({idle}) with "
            f"database {database}, sending through {config.smtp.host}:{config.smtp.port}; "
            f"jobs: poll every {config.imap.poll_seconds:g} s, send every "
            f"{config.smtp.send_seconds:g} s, deadlines every "
            f"{config.service.deadline_seconds:g} s, tournaments every "
            f"{config.service.tournament_seconds:g} s, lock heartbeat every "
            f"{self.beat_every.total_seconds():g} s (pid {os.getpid()})"
        )
