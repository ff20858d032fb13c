"""
A poll's mails, shared by the thread that reads them, the thread that processes them,
and the loop that feeds them in.

A poll takes in the mail that comes while it runs (issue 28): its list grows at the end
while the threads work at its front.  A thread that reaches the end of the list returns
(no thread waits for mail that may never come) and the loop starts it again when mail is
added (``threads_wanted``); ``stop`` cuts the poll off, each thread ending after the
mail in hand.  The reading thread keeps at most ``ahead`` mails past the one being
processed; the processing thread takes a mail only once it is read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class PollQueue:
    """The mails of one poll in the order they came (inbound ids), and how far each got."""

    def __init__(self, ids: list[int], *, ahead: int) -> None:
        self.ids: list[int] = []
        self.ahead = ahead
        self._read: list[bool] = []
        self._reading_at = 0  # the next mail to read
        self._at = 0  # the mails processed
        self._reading = self._processing = False  # a thread at work on the list
        self._stopped = False
        self._changed = threading.Condition()
        self.add(ids)

    def add(self, ids: list[int]) -> list[int]:
        """The mails of ``ids`` not yet in the poll, appended and returned."""
        with self._changed:
            known = set(self.ids)
            new = [message_id for message_id in ids if message_id not in known]
            self.ids.extend(new)
            self._read.extend([False] * len(new))
            self._changed.notify_all()
            return new

    def threads_wanted(self) -> tuple[bool, bool]:
        """
        Whether a reading and a processing thread must be started for the mails waiting
        (none at work on them); those returned count as at work from now on.
        """
        with self._changed:
            if self._stopped:
                return False, False
            reader = not self._reading and self._reading_at < len(self.ids)
            processor = not self._processing and self._at < len(self.ids)
            self._reading |= reader
            self._processing |= processor
            return reader, processor

    def stop(self) -> None:
        """The poll is cut off: the threads end after the mail in hand."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()

    def drained(self) -> bool:
        """Every mail added so far is processed, and the processing thread has returned."""
        with self._changed:
            return self._at == len(self.ids) and not self._processing

    @property
    def size(self) -> int:
        return len(self.ids)

    def next_to_read(self) -> tuple[int, int] | None:
        """
        The next mail to read (its index and id) once it is within ``ahead`` of the one
        being processed; None at the end of the list or once stopped (the thread returns).
        """
        with self._changed:
            index = self._wait(lambda: self._reading_at, lambda i: i - self._at <= self.ahead)
            if index is None:
                self._reading = False
                return None
            self._reading_at += 1
            return index, self.ids[index]

    def done_reading(self, index: int) -> None:
        with self._changed:
            self._read[index] = True
            self._changed.notify_all()

    def next_to_process(self) -> tuple[int, int] | None:
        """The next mail once it is read; None at the end of the list or once stopped."""
        with self._changed:
            index = self._wait(lambda: self._at, lambda i: self._read[i])
            if index is None:
                self._processing = False
                return None
            return index, self.ids[index]

    def _wait(self, position: Callable[[], int], ready: Callable[[int], bool]) -> int | None:
        """(Holding the lock.) The mail at ``position`` once ``ready``; None at the end or once stopped."""
        while not self._stopped:
            index = position()
            if index >= len(self.ids):
                return None
            if ready(index):
                return index
            self._changed.wait()
        return None

    def processed(self, index: int) -> None:
        """Mail ``index`` is processed (the reading may go further)."""
        with self._changed:
            self._at = index + 1
            self._changed.notify_all()


__all__ = ["PollQueue"]
