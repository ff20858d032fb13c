"""
A poll's list of mails grows while its threads work on it (issue 28): a thread that
reaches its end returns and is asked for again when mail is added, the reading keeps
within ``ahead`` of the processing, a mail is processed only once read, and a mail is
never in the list twice.
"""

from __future__ import annotations

import threading

from moderator.runtime.poll_queue import PollQueue


def test_a_mail_added_twice_is_in_the_poll_once() -> None:
    queue = PollQueue([1, 2], ahead=8)
    assert queue.add([2, 3, 1, 4]) == [3, 4]
    assert queue.ids == [1, 2, 3, 4]


def test_threads_return_at_the_end_and_are_asked_for_again_when_mail_is_added() -> None:
    queue = PollQueue([7], ahead=8)
    assert queue.threads_wanted() == (True, True)
    assert queue.threads_wanted() == (False, False)  # both at work already
    assert queue.next_to_read() == (0, 7)
    queue.done_reading(0)
    assert queue.next_to_read() is None  # the end: the reading thread returns
    assert queue.next_to_process() == (0, 7)
    queue.processed(0)
    assert not queue.drained()  # the processing thread has not returned yet
    assert queue.next_to_process() is None
    assert queue.drained()
    assert queue.threads_wanted() == (False, False)  # nothing waits
    queue.add([8])
    assert not queue.drained()
    assert queue.threads_wanted() == (True, True)
    assert queue.next_to_read() == (1, 8)


def test_the_reading_keeps_within_ahead_of_the_processing() -> None:
    queue = PollQueue(list(range(10)), ahead=2)
    queue.threads_wanted()
    assert [queue.next_to_read() for _ in range(3)] == [(0, 0), (1, 1), (2, 2)]
    waiting: list[tuple[int, int] | None] = []
    reader = threading.Thread(target=lambda: waiting.append(queue.next_to_read()))
    reader.start()
    reader.join(0.2)
    assert reader.is_alive() and not waiting  # mail 3 is more than 2 past mail 0
    queue.processed(0)
    reader.join(5)
    assert waiting == [(3, 3)]


def test_a_mail_is_processed_only_once_read_and_a_stop_ends_the_wait() -> None:
    queue = PollQueue([5, 6], ahead=8)
    queue.threads_wanted()
    taken: list[tuple[int, int] | None] = []
    processor = threading.Thread(target=lambda: taken.append(queue.next_to_process()))
    processor.start()
    processor.join(0.2)
    assert processor.is_alive()  # mail 5 is not read yet
    queue.done_reading(0)
    processor.join(5)
    assert taken == [(0, 5)]
    queue.processed(0)
    processor = threading.Thread(target=lambda: taken.append(queue.next_to_process()))
    processor.start()
    queue.stop()  # the poll cut off: the thread waiting for mail 6's reading ends
    processor.join(5)
    assert taken == [(0, 5), None]
    assert queue.add([9]) == [9] and queue.threads_wanted() == (False, False)
