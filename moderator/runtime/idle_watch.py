"""
The service's IDLE watch: a second IMAP connection waits in IDLE and tells the service
when mail comes (a poll running fetches again and takes it in, else the poll is brought
forward), so orders are answered within seconds while the interval poll remains the
ground truth.

The mail it sees is fetched by the poller's connection, not its own: what that
connection last fetched is what counts as known (``idle_wait(fetched_by=...)``), and
after each piece of news the watch waits for the poller to fetch (or a poll to end)
before it looks again.
Without both, mail already announced was news again at once, and the watch asked the
server for the folder in a loop while the poll was still under way (issue 28: SELECTs
by the hundred a minute, the server's time and the moderator's).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from moderator.mail.errors import MailError
from moderator.mail.imap import ImapSource

log = logging.getLogger(__name__)

#: Longest single IDLE; servers drop idle clients after 30 minutes.
IDLE_SECONDS = 25 * 60
#: Wait after the IDLE connection failed before trying again.
IDLE_RETRY_SECONDS = 30.0


class IdleWatch:
    """
    Waits in IDLE on ``source`` and, when mail has come that ``poller_source`` has not
    fetched, asks ``take_in`` (the running poll's ``nudge``) to take it, or else calls
    ``bring_poll_forward``; then waits (``poll_seconds`` at most) for ``caught_up``.
    """

    def __init__(
        self,
        source: ImapSource,
        poller_source: ImapSource,
        bring_poll_forward: Callable[[], None],
        *,
        poll_seconds: float,
        take_in: Callable[[], bool] = lambda: False,
    ) -> None:
        self.source = source
        self.poller_source = poller_source
        self.bring_poll_forward = bring_poll_forward
        self.take_in = take_in
        self.poll_seconds = poll_seconds
        self._polled = asyncio.Event()

    def caught_up(self) -> None:
        """The poller has fetched (or its poll ended, whatever it found): the watch may look again."""
        self._polled.set()

    async def run(self) -> None:
        """Watch until cancelled, or until the server turns out to have no IDLE."""
        while True:
            try:
                news = await self.source.idle_wait(IDLE_SECONDS, fetched_by=self.poller_source)
            except MailError as exc:
                log.warning("imap idle: %s; trying again in %.0f s", exc, IDLE_RETRY_SECONDS)
                await asyncio.sleep(IDLE_RETRY_SECONDS)
                continue
            if "IDLE" not in self.source.capabilities:
                log.info("the imap server has no IDLE: polling every %s s", self.poll_seconds)
                return
            if news:
                self._polled.clear()
                if not self.take_in():
                    self.bring_poll_forward()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._polled.wait(), self.poll_seconds)
