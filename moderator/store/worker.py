"""
A worker that processes the inbound messages waiting in a database
(``process_pending``), with the mail service's handler
(``moderator.service.MailGameHandler``):

    python -m moderator.store.worker --db URL [--loop SECONDS] [--gm ADDRESS]
        [--moderator ADDRESS] [--gnupg-home DIR] [--handler mail|simple]

Without ``--gnupg-home`` no signature is checked, and players authenticate with their
secret lines only.  ``--handler simple`` uses the unauthenticated test handler
(``moderator.store.handler.OrderMailHandler``) instead.

``--crash-at STEP`` (with ``--crash-on N``: on the Nth message) kills the worker with
SIGKILL at that step of processing a message, for the crash-safety tests; the steps
are those of ``moderator.store.inbox.STEPS``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from moderator.store.eventstore import EventStore
from moderator.store.handler import OrderMailHandler
from moderator.store.inbox import BUSY, SKIPPED, STEPS, Handler, pending_ids, process_message


@dataclass
class Tally:
    """How many messages a run of ``process_pending`` left in each state."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, status: str) -> None:
        self.counts[status] = self.counts.get(status, 0) + 1


def process_pending(
    store: EventStore,
    handler: Handler,
    *,
    checkpoint: Callable[[str], None] | None = None,
    gm_address: str | None = None,
    idle_rounds: int = 20,
) -> Tally:
    """
    Process every ``received`` message, oldest first, until none is left or, for
    ``idle_rounds`` rounds running, every one left is busy or held by another worker.
    """
    tally = Tally()
    idle = 0
    while idle < idle_rounds:
        waiting = pending_ids(store)
        if not waiting:
            break
        progress = False
        for message_id in waiting:
            status = process_message(
                store, message_id, handler, checkpoint=checkpoint, gm_address=gm_address
            )
            tally.add(status)
            progress = progress or status not in (BUSY, SKIPPED)
        idle = 0 if progress else idle + 1
        if not progress:
            time.sleep(0.05)  # another worker holds these games: give it a moment
    return tally


def crasher(step: str, nth: int = 1) -> Callable[[str], None]:
    """A checkpoint that SIGKILLs this process at ``step`` of the ``nth`` message."""
    seen = 0

    def checkpoint(name: str) -> None:
        nonlocal seen
        if name == step:
            seen += 1
            if seen == nth:
                os.kill(os.getpid(), signal.SIGKILL)

    return checkpoint


def make_handler(kind: str, moderator: str, gnupg_home: str | None = None) -> Handler:
    """The worker's handler: the mail service's (``mail``) or the simple test one."""
    if kind == "simple":
        return OrderMailHandler()
    from moderator.mail.gpg import Keyring
    from moderator.service import MailGameHandler

    home = gnupg_home
    return MailGameHandler((lambda: Keyring(home)) if home else None, moderator)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--db", help="database URL (default: as titan-moderator finds it)")
    parser.add_argument("--gm", help="address told about shunted messages")
    parser.add_argument("--loop", type=float, help="keep polling, this many seconds apart")
    parser.add_argument("--crash-at", choices=STEPS, help="SIGKILL this worker at this step")
    parser.add_argument("--crash-on", type=int, default=1, help="... of the Nth message")
    parser.add_argument(
        "--handler", choices=("mail", "simple"), default="mail", help="which handler reads mail"
    )
    parser.add_argument(
        "--moderator",
        default=os.environ.get("TITAN_MODERATOR_ADDRESS", "moderator@localhost"),
        help="the moderator's own address (mail from it is dropped)",
    )
    parser.add_argument("--gnupg-home", help="the moderator's GnuPG home (signed mail)")
    args = parser.parse_args(argv)
    checkpoint = crasher(args.crash_at, args.crash_on) if args.crash_at else None
    handler = make_handler(args.handler, args.moderator, args.gnupg_home)
    with EventStore(args.db) as store:
        while True:
            tally = process_pending(store, handler, checkpoint=checkpoint, gm_address=args.gm)
            summary = ", ".join(f"{k} {v}" for k, v in sorted(tally.counts.items()))
            print(f"worker: {summary or 'nothing to do'}", flush=True)
            if args.loop is None:
                return 0
            time.sleep(args.loop)


if __name__ == "__main__":
    sys.exit(main())
