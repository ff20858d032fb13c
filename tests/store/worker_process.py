"""
A worker process for the crash-safety and concurrency tests: ``process_pending`` with
the simple test handler, optionally killed with SIGKILL at one of
``moderator.runners.mail.STEPS`` (``--crash-at STEP``, ``--crash-on N``: of the Nth
message).  Run as ``python tests/store/worker_process.py --db URL [...]``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simple_handler import OrderMailHandler

from moderator.runners.mail import STEPS
from moderator.runtime.worker import process_pending
from moderator.testing.stores import open_store


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="a test worker process")
    parser.add_argument("--db", required=True)
    parser.add_argument("--crash-at", choices=STEPS)
    parser.add_argument("--crash-on", type=int, default=1)
    args = parser.parse_args(argv)
    checkpoint = crasher(args.crash_at, args.crash_on) if args.crash_at else None
    with open_store(args.db) as store:
        tally = process_pending(store, OrderMailHandler(), checkpoint=checkpoint)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(tally.counts.items()))
    print(f"worker: {summary or 'nothing to do'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
