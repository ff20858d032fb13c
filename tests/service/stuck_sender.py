"""
A sender process for ``test_sender_crash.py``: the service's ``Sender`` on the database
``URL``, sending through the SMTP server at ``HOST PORT`` (which the test makes one
that never answers, so the process sits in the SMTP transaction, renewing its lease,
until the test kills it), with a lease of ``LEASE`` seconds renewed four times a lease:

    python stuck_sender.py URL HOST PORT LEASE
"""

from __future__ import annotations

import asyncio
import sys
from datetime import timedelta

from moderator.runtime.sender import Sender
from moderator.testing.connections import smtp_sink_at
from moderator.testing.stores import open_store


async def main(url: str, host: str, port: int, lease: timedelta) -> None:
    with open_store(url) as store:
        sink = smtp_sink_at(host, port, tls="none", timeout=600.0)
        sender = Sender(store, sink, None, None, "moderator@titan.example", concurrency=1,
                        lease=lease, renew_every=lease / 4)
        await sender.send_due()


if __name__ == "__main__":
    lease = timedelta(seconds=float(sys.argv[4]))
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), lease))
