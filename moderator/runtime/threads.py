"""
A few threads of one part of the service's own (the poller's, the sender's).

Under load the event loop's shared threads were all taken by signatures and decisions,
and the work on the poller's and the sender's paths (a mail's processing, a claim, a
render) queued behind them for tens of milliseconds (issue 28).  Each of those parts
runs its blocking calls here instead: threads made when first needed, ended by
``close`` (a later call makes new ones).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import TypeVar

T = TypeVar("T")


class OwnThreads:
    """``size`` threads named ``name``-N, for one part of the service alone."""

    def __init__(self, size: int, name: str) -> None:
        self.size, self.name = size, name
        #: The threads' executor while they run (a test or a walk may hand in its own).
        self.executor: Executor | None = None

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in one of these threads, awaited."""
        if self.executor is None:
            self.executor = ThreadPoolExecutor(self.size, thread_name_prefix=self.name)
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args))

    def close(self) -> None:
        """End the threads (those at work finish their call)."""
        executor, self.executor = self.executor, None
        if executor is not None:
            executor.shutdown(wait=False)


__all__ = ["OwnThreads"]
