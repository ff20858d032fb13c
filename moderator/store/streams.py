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
from functools import cache
from typing import Any

from sqlalchemy import Column, Connection, Table, bindparam, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert, Update

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
    values = dict(head_values or {})
    moved = connection.execute(
        _move(head, tuple(sorted(values))),
        {"stream": stream_id, "expected": expected_seq, "new_last": last,
         **{f"new_{name}": value for name, value in values.items()}},
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
        connection.execute(_insert(events), rows)
    except IntegrityError as exc:
        msg = f"{what} moved on while these events were stored: reload and retry"
        raise ConflictError(msg) from exc
    return last


@cache
def _move(head: Table, columns: tuple[str, ...]) -> Update:
    """The conditional UPDATE of a stream's head (and ``columns``), built once per shape:
    a statement built for each call costs several times its execution on SQLite."""
    key: Column[Any] = head.c.id
    return (
        update(head)
        .where(key == bindparam("stream"), head.c.last_seq == bindparam("expected"))
        .values(last_seq=bindparam("new_last"), **{c: bindparam(f"new_{c}") for c in columns})
    )


@cache
def _insert(events: Table) -> Insert:
    return insert(events)


__all__ = ["append_records"]
