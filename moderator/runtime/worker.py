"""
Processing the inbound messages waiting in a database (``process_pending``) with a
handler the caller gives: ``titan-moderator worker`` gives the mail service's (several
workers may share one PostgreSQL database), the crash-safety tests a simple one of
their own (``tests/store/worker_process.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from moderator.runners.mail import BUSY, SKIPPED, Handler, process_message
from moderator.store.eventstore import EventStore
from moderator.store.inbox import pending_ids


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
