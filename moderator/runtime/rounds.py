"""
The service's job rounds: each job runs one round at a time, and a stop lets the rounds
running end before the scheduler goes.

A job started again while its round runs asks that round for one more turn instead of
running beside it, so news that came during a round never waits for the next interval.
``end`` lets the rounds running finish (they commit what they were doing), and cuts off
those still running after a grace: the cut is caught in the round, so apscheduler, which
logs any exception of a job with its traceback at ERROR, sees a round that ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from moderator.mail.errors import MailError

log = logging.getLogger("moderator.runtime.service")


class Rounds:
    """The rounds running now, and whether the service stops."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()
        #: Set by ``end``: a round ends after its current turn and none starts again.
        self.stopping = False
        #: Each job's state by its work's name: running, and asked for one more turn.
        self._states: dict[str, dict[str, bool]] = {}

    def ask_again(self, name: str) -> bool:
        """
        One more turn asked of the job ``name``'s running round (False: none runs, start
        it): bringing a running job forward this way starts no second instance, which
        apscheduler would refuse (and log) when two are already counted.
        """
        state = self._states.get(name)
        if state is None or not state["running"]:
            return False
        state["again"] = True
        return True

    def job(self, work: Callable[[], Any]) -> Callable[[], Any]:
        """``work`` as a job: a failure is logged and the next run tries again."""
        state = self._states.setdefault(work.__name__, {"running": False, "again": False})

        async def job() -> None:
            if state["running"]:
                state["again"] = True
                return
            state["running"] = True
            this = asyncio.current_task()
            if this is not None:
                self.running.add(this)
            try:
                while not self.stopping:
                    state["again"] = False
                    try:
                        await work()
                    except MailError as exc:
                        log.warning("%s: %s", work.__name__, exc)
                    except Exception:
                        log.exception("%s failed; it runs again at its next time", work.__name__)
                    if not state["again"]:
                        break
            except asyncio.CancelledError:
                if not self.stopping:
                    raise
                log.warning("stopping: the %s round was cut off", work.__name__)
            finally:
                state["running"] = False
                if this is not None:
                    self.running.discard(this)

        job.__name__ = work.__name__
        return job

    async def end(self, grace: timedelta) -> None:
        """
        Let the rounds running end, for at most ``grace``, then cut them off (what they
        had not committed is done again at the next start).
        """
        self.stopping = True
        await asyncio.sleep(0)  # a round submitted just now enters ``job`` first
        if not self.running:
            return
        _, late = await asyncio.wait(set(self.running), timeout=grace.total_seconds())
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late)
