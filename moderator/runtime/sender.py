"""
The sender: due outbox rows signed (and their private parts encrypted) just before they
are handed to SMTP, a few at a time.

A row is claimed (``outbox.claim_next``: its lease keeps other senders off it), made
into its PGP/MIME message (``render_outgoing``), sent, and marked sent in the
transaction that claims the worker's next row (one commit a mail, not two).  While the
sender works on a row (GnuPG, the SMTP transaction) a task renews the row's lease every
``outbox.RENEW_EVERY``; a sender that dies stops renewing, and another takes the mail
up once the lease (``outbox.LEASE``) has run out.

A slow round keeps its leases.  The renewals run in a thread of the sender's own
(``_leases``), never queued behind the signatures, the poll's transactions or the
robots' decisions that fill the loop's default threads under load (they did: a renewal
waited there past the lease, and the sender's next worker took its own mail over); a
renewal is measured from when it is written, not from when it was asked for; and a
sender's claims leave out the mails its own workers hold, so however late a renewal
comes, a service never takes a mail over from itself.  Right before a mail goes to SMTP
its worker makes sure the claim still holds for at least half a lease (renewing it if
less is left): a sender that lost its claim meanwhile leaves the mail to the new holder
and never sends it too.  Only a sender that dies (or stalls) after handing the mail to
SMTP and before recording it lets the mail go out twice, with one Message-ID.  A temporary
failure is tried again later with a doubling, jittered wait (``smtp.next_attempt``); a
permanent one (a 5xx answer, a recipient key that is missing) gives the row up at once,
where ``db`` tools and the moderator can see it.  Signing runs in worker threads, so a
few mails are signed at once on a machine with several cores.

Each worker sends its round's mails over one SMTP connection.  The service's sender
(``keep_sessions``) keeps those connections for the next rounds, for ``KEEP_IDLE`` at
most, and ``close`` ends them: under load the rounds come seconds apart, and a
connection, greeting and EHLO per mail cost the server and the moderator more than the
mail.  A worker claims until it finds nothing (asked first in a read, so finding
nothing writes nothing), and a mail committed while a round runs wakes a worker more
into it (``wake``): it is taken by the first worker free, not by the next round.

A report's pictures are drawn ahead: ``prepare_due`` hands the pictures of every due
mail it has not seen to ``prepare`` (the picture worker's), which draws them while the
service goes on; the service asks for it as soon as a mail's transaction has committed
(``prepare_soon``: in a task the poll does not wait for, issue 28) and it runs at the
start of each round, so the sender, when it makes the mail, mostly finds its pictures
drawn, and a player's answer does not wait for them.

With a ``verp_key`` each mail goes out with a return path of its own
(``moderator.mail.verp``: the envelope sender with ``+b<id>-<tag>``), so that its bounce,
if it bounces, names it (``moderator.usecases.mail.bounces``).  With a ``dkim`` signer each
mail without a private part (``Sender.render`` says why) is DKIM-signed as its last step,
over the very bytes then handed to SMTP (``outgoing.wire_bytes``), so neither the
signature nor the PGP one inside it is broken by a later serialisation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from email.message import EmailMessage
from functools import partial

from moderator.clock import Clock, SystemClock
from moderator.mail.dkim import DkimError, DkimSigner
from moderator.mail.errors import GpgError, MailTransportError
from moderator.mail.gpg import Keyring
from moderator.mail.smtp import SmtpSession, SmtpSink, next_attempt
from moderator.mail.verp import return_path
from moderator.ports import StoredMail
from moderator.runtime.claims import Claim, SendTally, refused_for_good
from moderator.runtime.outgoing import picture_specs, render_outgoing, wire_bytes
from moderator.runtime.picture_worker import draw_here
from moderator.runtime.threads import OwnThreads
from moderator.store import outbox
from moderator.store.eventstore import EventStore

log = logging.getLogger(__name__)


#: Mails signed and sent at once.
DEFAULT_CONCURRENCY = 4
#: How long a sender that keeps its SMTP connections between rounds lets one sit unused
#: before it closes it (well within the idle time servers allow, RFC 5321 4.5.3.2).
KEEP_IDLE = timedelta(seconds=20)


class Sender:
    """Sends the outbox of ``store`` through ``sink`` (see the module's text)."""

    def __init__(
        self,
        store: EventStore,
        sink: SmtpSink,
        keyring: Keyring | None,
        signer: str | None,
        envelope_sender: str,
        *,
        concurrency: int = DEFAULT_CONCURRENCY,
        rng: random.Random | None = None,
        from_name: str = "",
        lease: timedelta = outbox.LEASE,
        renew_every: timedelta = outbox.RENEW_EVERY,
        verp_key: bytes | None = None,
        dkim: DkimSigner | None = None,
        clock: Clock | None = None,
        wall: Clock | None = None,
        draw: Callable[[str], bytes] = draw_here,
        prepare: Callable[[str], None] | None = None,
        keep_sessions: bool = False,
    ) -> None:
        self.store = store
        #: Keep the workers' SMTP connections open between rounds (for ``KEEP_IDLE``;
        #: ``close`` ends them): the service's sender, whose rounds come seconds apart.
        self.keep_sessions = keep_sessions
        #: The connections kept between rounds, each with when it was last given back.
        self._idle_sessions: list[tuple[datetime, SmtpSession]] = []
        #: The games' time (a mail's Date, its next attempt): ``clock``, else the store's.
        self.now: Callable[[], datetime] = (
            clock.now if clock is not None else lambda: store.clock()
        )
        #: Real time, for the leases.
        self.wall: Clock = wall or SystemClock()
        #: Draws a picture as PNG: the composition root's worker process (default: here).
        self.draw = draw
        #: Starts drawing a picture ahead, without waiting (None: drawn when sent).
        self.prepare = prepare
        #: The mails whose pictures were handed to ``prepare`` and are still due.
        self._prepared: set[int] = set()
        self._prepare_lock = threading.Lock()
        #: ``prepare_soon``'s task, and whether mail committed since it last read the outbox.
        self._preparing: asyncio.Task[None] | None = None
        self._prepare_again = False
        #: How long a claim holds a mail, and how often it is renewed while we work on it.
        self.lease = lease
        self.renew_every = renew_every
        #: The moderator's display name, in the From of every mail.
        self.from_name = from_name
        self.sink = sink
        self.keyring = keyring
        self.signer = signer
        self.envelope_sender = envelope_sender
        #: The key of the return paths' tags; None: every mail has ``envelope_sender``.
        self.verp_key = verp_key
        #: Signs each mail's bytes for the moderator's domain; None: the server signs.
        self.dkim = dkim
        self.concurrency = max(1, concurrency)
        self.rng = rng or random.Random()
        self._lock = asyncio.Lock()
        #: The mails this sender's workers hold now (its claims leave them out).
        self._holding: set[int] = set()
        self._holding_lock = threading.Lock()
        self._claiming = threading.Lock()
        #: The thread the leases are renewed in, one per round (see the module's text).
        self._leases: ThreadPoolExecutor | None = None
        #: The sender's own threads for its claims, renders and reads: one a worker, and
        #: two for the pictures ahead and the records of failures (``runtime.threads``).
        self.threads = OwnThreads(self.concurrency + 2, "sender")
        #: While a round runs: adds a worker to it (``wake``).
        self._join: Callable[[], None] | None = None

    def render(self, mail: StoredMail) -> EmailMessage | bytes:
        """
        The mail as it goes to SMTP: its message, or its DKIM-signed bytes.  A mail with a
        private part is never DKIM-signed (Wolff 4.5): DKIM covers the whole body, so the
        contents in a keyless player's clear private part, or in a keyed player's
        ciphertext once he gives away its session key, would become provable.  Such a
        mail still passes DMARC by SPF: its envelope sender is of the From's domain.
        """
        message = render_outgoing(
            mail, self.keyring, self.signer, self.now(), self.from_name, draw=self.draw
        )
        if self.dkim is None or mail.private_body:
            return message
        return self.dkim.sign(wire_bytes(message))

    def return_path(self, mail: StoredMail) -> str:
        """The envelope sender of ``mail``: its VERP return path, when there is a key."""
        if self.verp_key is None:
            return self.envelope_sender
        return return_path(self.envelope_sender, mail.id, self.verp_key)

    def prepare_due(self) -> int:
        """
        Hand the pictures of the due mails not handed before to ``prepare``, to be drawn
        while the mails wait; returns how many pictures it handed.  (A thread's call:
        it reads the outbox.)
        """
        if self.prepare is None:
            return 0
        due = outbox.due_pictures(self.store, self.now(), wall=self.wall.now())
        with self._prepare_lock:
            new = [pictures for mail_id, pictures in due.items() if mail_id not in self._prepared]
            self._prepared = set(due)  # a mail no longer due is forgotten: the set stays small
        handed = 0
        for pictures in new:
            for spec in picture_specs(pictures):
                self.prepare(spec)
                handed += 1
        return handed

    def prepare_soon(self) -> None:
        """
        ``prepare_due`` in a task of its own, not waited for: called on the poll's serial
        path after each mail.  One task at a time; it reads the outbox once more when
        asked again while it ran, so no committed mail's pictures wait for the round.
        """
        self._prepare_again = True
        if self.prepare is not None and (self._preparing is None or self._preparing.done()):
            self._preparing = asyncio.create_task(self._prepare_ahead(), name="pictures-ahead")

    async def _prepare_ahead(self) -> None:
        while self._prepare_again:
            self._prepare_again = False
            try:
                await self.threads.run(self.prepare_due)
            except Exception as exc:  # noqa: BLE001 - the send round hands them all the same
                log.warning("pictures not handed ahead: %s", exc)
                return

    async def send_due(self, limit: int = 500) -> SendTally:
        """Send every due mail (at most ``limit``); one round at a time."""
        if self.prepare is not None:
            await self.threads.run(self.prepare_due)
        async with self._lock:
            tally = SendTally()
            budget = [limit]
            self._leases = ThreadPoolExecutor(1, thread_name_prefix="outbox-leases")
            workers: set[asyncio.Task[None]] = set()
            failed: list[BaseException] = []
            self._join = lambda: self._start_worker(workers, failed, tally, budget)
            try:
                for _ in range(self.concurrency):
                    self._start_worker(workers, failed, tally, budget)
                while workers:  # a worker that ends leaves room for one ``wake`` adds
                    await asyncio.wait(set(workers), return_when=asyncio.FIRST_COMPLETED)
                if failed:
                    raise failed[0]
            finally:
                self._join = None
                for task in workers:  # the round cut off (a stop): its workers with it
                    task.cancel()
                if workers:
                    await asyncio.gather(*workers, return_exceptions=True)
                self._leases.shutdown(wait=False)
                self._leases = None
            return tally

    def wake(self) -> bool:
        """
        A mail has been committed: while a round runs, one more worker joins it if it
        has fewer than ``concurrency`` (so the mail does not wait for the busy ones to
        finish theirs); False when no round runs (the caller brings one forward).
        """
        join = self._join
        if join is None:
            return False
        join()
        return True

    def _start_worker(self, workers: set[asyncio.Task[None]], failed: list[BaseException],
                      tally: SendTally, budget: list[int]) -> None:
        """A worker more in the round, unless it has ``concurrency`` or its budget is spent."""
        if len(workers) < self.concurrency and budget[0] > 0:
            task = asyncio.create_task(self._worker(tally, budget), name="send-worker")
            workers.add(task)

            def end(done: asyncio.Task[None]) -> None:
                workers.discard(done)
                if not done.cancelled() and done.exception() is not None:
                    failed.append(done.exception())  # type: ignore[arg-type]

            task.add_done_callback(end)

    async def _worker(self, tally: SendTally, budget: list[int]) -> None:
        # Each worker keeps its SMTP connection for the round (and, with
        # ``keep_sessions``, gives it back for the next), and claims mail until it finds
        # none: asking costs a read, not a write transaction (``_claim``), so a mail
        # committed meanwhile is taken by the first worker free, not by the next round.
        # A mail sent is recorded in the transaction that claims the worker's next one.
        session = await self._take_session()
        sent: StoredMail | None = None
        try:
            while True:
                more = budget[0] > 0
                budget[0] -= more
                mail = await self.threads.run(partial(self._claim, sent, more=more))
                sent = None
                if mail is None:
                    return
                sent = await self._send(mail, tally, session)
        finally:
            await self._give_back(session)

    async def _take_session(self) -> SmtpSession:
        """A kept connection still fresh and open, else a new session (connected when used)."""
        while self._idle_sessions:
            since, session = self._idle_sessions.pop()
            if session.connected and self.wall.now() - since < KEEP_IDLE:
                return session
            await session.close()
        return self.sink.session()

    async def _give_back(self, session: SmtpSession) -> None:
        if self.keep_sessions and session.connected:
            self._idle_sessions.append((self.wall.now(), session))
        else:
            await session.close()

    async def close(self) -> None:
        """Close the SMTP connections kept between rounds (the service's stop)."""
        if self._preparing is not None:
            await asyncio.gather(self._preparing, return_exceptions=True)
            self._preparing = None
        sessions, self._idle_sessions = self._idle_sessions, []
        for _, session in sessions:
            await session.close()
        self.threads.close()

    def _claim(self, sent: StoredMail | None = None, *, more: bool = True) -> StoredMail | None:
        """
        Record ``sent`` (the worker's mail just sent) and, if ``more``, claim the next
        due mail, in one transaction (``outbox.claim_next``).  The sender's workers
        claim one at a time: a worker that read which mails its sender holds and then
        claimed after another's claim had committed (and, in a test, the lease had run
        out meanwhile) took that worker's mail over from its own sender.
        """
        if more and sent is None:
            with self._holding_lock:
                holding = frozenset(self._holding)
            if not outbox.any_due(self.store, self.now(), wall=self.wall.now(), skip=holding):
                return None  # nothing to claim, nothing to record: no write transaction
        mail = None
        with self._claiming:  # the mails held are known at the claim, never a stale copy
            with self._holding_lock:
                holding = frozenset(self._holding)
            if more:
                mail = outbox.claim_next(
                    self.store, self.now(), wall=self.wall.now(), lease=self.lease,
                    skip=holding, sent=sent,
                )
            elif sent is not None:
                outbox.mark_sent(self.store, sent)
            with self._holding_lock:
                if sent is not None:
                    self._holding.discard(sent.id)
                if mail is not None:
                    self._holding.add(mail.id)
        return mail

    async def _send(
        self, mail: StoredMail, tally: SendTally, session: SmtpSession
    ) -> StoredMail | None:
        """
        Send one claimed mail, its lease renewed until it is sent or its failure is
        recorded; returns it when sent (its worker records it with its next claim, the
        lease still holding it).
        """
        claim = Claim(mail, mail.claimed_until or self.wall.now())
        keeper = asyncio.create_task(self._keep(claim), name=f"lease-{mail.id}")
        sent = None
        try:
            sent = await self._sign_and_send(claim, tally, session)
            return sent
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            if sent is None:
                with self._holding_lock:
                    self._holding.discard(mail.id)

    async def _renew(self, claim: Claim) -> bool:
        """Renew ``claim``'s lease in the leases' thread; False (and ``lost`` set) if taken."""
        renew = partial(outbox.renew, self.store, claim.mail, wall=self.wall.now, lease=self.lease)
        until = await asyncio.get_running_loop().run_in_executor(self._leases, renew)
        if until is None:
            if not claim.lost.is_set() and not claim.settling:
                log.warning("mail %d: another sender has taken it over", claim.mail.id)
            claim.lost.set()
            return False
        claim.until = until
        return True

    async def _keep(self, claim: Claim) -> None:
        """Renew ``claim``'s lease every ``renew_every`` until cancelled or taken over."""
        while True:
            await asyncio.sleep(self.renew_every.total_seconds())
            try:
                if not await self._renew(claim):
                    return
            except Exception as exc:  # noqa: BLE001 - the database may be back at the next renewal
                log.warning("mail %d: its lease could not be renewed (%s)", claim.mail.id, exc)

    async def _still_ours(self, claim: Claim) -> bool:
        """
        Whether ``claim`` holds its mail for at least half a lease more (renewed now if
        less is left), so that no other sender can take it up while SMTP has it.
        """
        if claim.lost.is_set():
            return False
        if claim.until - self.wall.now() >= self.lease / 2:
            return True
        try:
            return await self._renew(claim)
        except Exception as exc:  # noqa: BLE001 - unsure: its lease runs out, a later round sends it
            log.warning("mail %d: its lease could not be renewed (%s); left for later", claim.mail.id, exc)
            return False

    async def _sign_and_send(
        self, claim: Claim, tally: SendTally, session: SmtpSession
    ) -> StoredMail | None:
        """The mail made, checked still ours and sent: returned if sent, to be recorded."""
        mail = claim.mail
        try:
            message = await self.threads.run(partial(self.render, mail))
            if not await self._still_ours(claim):
                return None  # its new holder sends it
            await session.send(message, self.return_path(mail), [mail.recipient])
        except (GpgError, DkimError, MailTransportError, ValueError) as exc:
            permanent = refused_for_good(exc)
            retry = next_attempt(mail.attempts, self.now(), rng=self.rng)
            claim.settling = True
            gave_up = await self.threads.run(partial(
                outbox.mark_failed, self.store, mail, str(exc), give_up=permanent, retry_at=retry
            ))
            tally.failed += 1
            tally.given_up += gave_up
            log.warning(
                "mail %d to %s %s: %s",
                mail.id,
                mail.recipient,
                "given up" if gave_up else "to be tried again",
                exc,
            )
            return None
        claim.settling = True
        tally.sent += 1
        return mail
