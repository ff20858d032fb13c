"""
A sender process for ``test_sender_crash.py``: the service's ``Sender`` on the database
``URL``, sending through the SMTP server at ``HOST PORT`` (which the test makes one
that never answers, so the process sits in the SMTP transaction, renewing its lease,
until the test kills it):

    python stuck_sender.py URL HOST PORT
"""

from __future__ import annotations

import asyncio
import sys

from moderator.runtime.sender import Sender
from moderator.testing.connections import smtp_sink_at
from moderator.testing.stores import open_store


async def main(url: str, host: str, port: int) -> None:
    with open_store(url) as store:
        sink = smtp_sink_at(host, port, tls="none", timeout=600.0)
        sender = Sender(store, sink, None, None, "moderator@titan.example", concurrency=1)
        await sender.send_due()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
