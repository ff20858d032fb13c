"""
Signatures checked ahead: the poller's waiting mails have their PGP signatures checked
by a small pool of threads while the mails before them are processed one by one (issue
28: gpg ran once per mail on the poller's serial path, 18 ms each, with the interpreter
lock free meanwhile).

``AheadVerifier`` stands where the keyring stood for the mail handler (it is a
``Verifier``).  ``ahead(raws)`` hands each raw mail to the pool, which finds and checks
its signature (``compose.verify_incoming``) through the same keyring; every gpg check
made there is remembered by exactly what was checked (the signed bytes and the
signature, or the clearsigned block).  When the handler, processing that mail in its
turn, asks for the same check, it gets that answer; whatever it asks that was not
checked ahead is checked then, as before.

A check's answer is a function of the bytes checked and of the keys the keyring holds.
An earlier mail of the same poll may add a key (a sign-on imports the key it carries):
every ``import_key`` through this verifier bumps its generation, and an answer begun
under an older generation is not used: that mail is checked again, after the import,
exactly as if it had been processed alone.  Keys imported into the GnuPG home by
another process (the command line) count from the moment the check ran, as they did
when it ran a few milliseconds later.

``forget()`` drops what the poll left unused; ``close()`` stops the pool.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor

from moderator.mail import compose
from moderator.mail.signatures import SignatureStatus, Verification, Verifier

log = logging.getLogger(__name__)

#: Threads checking ahead: gpg is a subprocess, so two keep both cores of a small
#: machine busy while the poller's own thread goes on with the mail in hand.
WORKERS = 2

_Key = tuple[str, bytes, bytes]


class AheadVerifier:
    """A ``Verifier`` that may have checked a mail's signature before it is asked."""

    def __init__(self, keyring: Verifier, *, workers: int = WORKERS) -> None:
        self.keyring = keyring
        self._workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._generation = 0
        #: What was checked -> (the generation it was checked under, its answer).
        self._known: dict[_Key, tuple[int, Future[Verification]]] = {}
        #: What the handler checked itself during a poll: the pool need not check it.
        self._taken: set[_Key] = set()
        self._polling = False
        #: Bumped by each ``forget``: checks queued by an earlier poll are not made.
        self._epoch = 0
        #: Counters for the benchmark's figures: answers used, and checked again.
        self.used = 0
        self.rechecked = 0

    # -- the poller's side --------------------------------------------------------------

    def ahead(self, raws: Iterable[bytes]) -> None:
        """Start checking the signatures of these raw mails, in the pool."""
        pool = self._started()
        with self._lock:
            self._polling = True
            epoch = self._epoch
        for raw in raws:
            pool.submit(self._read_ahead, raw, epoch)

    def forget(self) -> None:
        """Drop the answers not used (the poll is over)."""
        with self._lock:
            self._known.clear()
            self._taken.clear()
            self._polling = False
            self._epoch += 1

    def close(self) -> None:
        """Stop the pool (the service stops); a later ``ahead`` starts another."""
        self.forget()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    # -- the Verifier protocol ------------------------------------------------------------

    def verify_detached(self, data: bytes, signature: bytes) -> Verification:
        return self._answer(
            ("detached", data, signature), lambda: self.keyring.verify_detached(data, signature)
        )

    def verify_clearsigned(self, text: str | bytes) -> Verification:
        block = text.encode("utf-8") if isinstance(text, str) else text
        return self._answer(
            ("clearsigned", block, b""), lambda: self.keyring.verify_clearsigned(block)
        )

    def import_key(self, armored: str | bytes) -> tuple[str, ...]:
        """Import through the keyring; every answer checked before no longer counts."""
        with self._lock:
            self._generation += 1
        try:
            return self.keyring.import_key(armored)
        finally:
            with self._lock:  # a check that ran while the key went in may have missed it
                self._generation += 1

    # -- inside ---------------------------------------------------------------------------

    def _started(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="verify-ahead")
        return self._pool

    def _read_ahead(self, raw: bytes, epoch: int) -> None:
        """Find and check a mail's signature in the pool; its gpg checks are remembered."""
        if epoch != self._epoch:
            return  # that poll is over
        try:
            compose.verify_incoming(raw, _Recording(self, epoch))
        except Exception:  # the handler reads the mail again and meets whatever this was
            log.debug("mail not checked ahead", exc_info=True)

    def _check_ahead(
        self, key: _Key, epoch: int, check: Callable[[], Verification]
    ) -> Verification:
        """Run one gpg check in the pool, leaving its answer for the handler."""
        future: Future[Verification] = Future()
        future.set_running_or_notify_cancel()
        with self._lock:
            if epoch != self._epoch or key in self._known or key in self._taken:
                return _placeholder()  # the poll is over, or checked already, or in hand
            self._known[key] = (self._generation, future)
        try:
            answer = check()
        except BaseException as exc:
            future.set_exception(exc)
            raise
        future.set_result(answer)
        return answer

    def _answer(self, key: _Key, check: Callable[[], Verification]) -> Verification:
        """The answer checked ahead if it still holds, else the check made now."""
        with self._lock:
            entry = self._known.pop(key, None)
            generation = self._generation
            if entry is None and self._polling:
                self._taken.add(key)
        if entry is not None:
            begun, future = entry
            if begun == generation:
                try:
                    answer = future.result()
                except Exception:  # whatever went wrong there is met here, as before
                    log.debug("check ahead failed; checking again", exc_info=True)
                else:
                    with self._lock:
                        current = self._generation == begun
                    if current:
                        self.used += 1
                        return answer
            self.rechecked += 1
        return check()


class _Recording:
    """The keyring as a check ahead sees it: each answer is left for the handler."""

    def __init__(self, owner: AheadVerifier, epoch: int) -> None:
        self._owner = owner
        self._epoch = epoch

    def verify_detached(self, data: bytes, signature: bytes) -> Verification:
        owner = self._owner
        return owner._check_ahead(
            ("detached", data, signature),
            self._epoch,
            lambda: owner.keyring.verify_detached(data, signature),
        )

    def verify_clearsigned(self, text: str | bytes) -> Verification:
        owner = self._owner
        block = text.encode("utf-8") if isinstance(text, str) else text
        return owner._check_ahead(
            ("clearsigned", block, b""),
            self._epoch,
            lambda: owner.keyring.verify_clearsigned(block),
        )

    def import_key(self, armored: str | bytes) -> tuple[str, ...]:
        msg = "a check ahead imports no key"
        raise RuntimeError(msg)


def _placeholder() -> Verification:
    """What a check ahead not made returns: nothing reads it."""
    return Verification(valid=False, fingerprint=None, reason=SignatureStatus.ERROR)


__all__ = ["WORKERS", "AheadVerifier"]
