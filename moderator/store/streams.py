"""
The optimistic append shared by every event stream in the store (a game's, a
tournament's): move the head row's ``last_seq`` from the number the caller saw to the
new one in one conditional UPDATE, then insert the records, backed by the unique
``(stream, seq)`` key.  A caller who saw an old number gets ``ConflictError`` and
nothing is stored.  On PostgreSQL the UPDATE holds the head row until the transaction
ends, which serialises the stream's writers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Connection, Table, insert, update
from sqlalchemy.exc import IntegrityError

from moderator.store.errors import ConflictError


def append_records(
    connection: Connection,
    *,
    head: Table,
    events: Table,
    stream_column: str,
    stream_id: str,
    expected_seq: int,
    records: Sequence[Mapping[str, Any]],
    now: datetime,
    actual_seq: Callable[[], int],
    what: str,
    head_values: Mapping[str, Any] | None = None,
) -> int:
    """
    Store the encoded ``records`` (``{"type", "version", "payload"}``) of the stream
    ``stream_id`` as ``expected_seq + 1, ...``, with ``head_values`` written to its head
    row beside the new ``last_seq``; returns the new last seq.

    ``actual_seq`` reads the stream's head as it is (it raises the stream's own
    not-found error); ``what`` names the stream in messages (``game 'g7'``).

    Raises:
        ConflictError: the stream is not at ``expected_seq``; nothing was stored.
    """
    last = expected_seq + len(records)
    key: Column[Any] = head.c.id
    moved = connection.execute(
        update(head)
        .where(key == stream_id, head.c.last_seq == expected_seq)
        .values(last_seq=last, **(head_values or {}))
    )
    if moved.rowcount != 1:
        actual = actual_seq()
        msg = f"{what} is at event {actual}, not {expected_seq}: reload and retry"
        raise ConflictError(msg)
    if not records:
        return last
    rows = [
        {
            stream_column: stream_id,
            "seq": seq,
            "type": record["type"],
            "version": record["version"],
            "payload": record["payload"],
            "recorded_at": now,
        }
        for seq, record in enumerate(records, expected_seq + 1)
    ]
    try:
        connection.execute(insert(events), rows)
    except IntegrityError as exc:
        msg = f"{what} moved on while these events were stored: reload and retry"
        raise ConflictError(msg) from exc
    return last


__all__ = ["append_records"]
