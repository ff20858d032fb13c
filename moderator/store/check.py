"""
``db check``: replay a game from its first event and compare the result with its
newest snapshot and with what a snapshot-based load gives; also check that the log
runs 1, 2, 3 ... without a gap and agrees with the game's ``last_seq``.
"""

from __future__ import annotations

from sqlalchemy import select

from moderator.records import record
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.store.eventstore import EventStore, Tx
from moderator.store.snapshots import encode_state, first_difference
from moderator.store.tables import EVENT


@record
class CheckResult:
    """What ``check`` found: ``problem`` is None when everything agrees."""

    game_id: str
    events: int
    snapshot_seq: int | None
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def line(self) -> str:
        where = f"snapshot at event {self.snapshot_seq}" if self.snapshot_seq else "no snapshot"
        if self.ok:
            return f"{self.game_id}: OK ({self.events} events, {where})"
        return f"{self.game_id}: MISMATCH ({where}): {self.problem}"


def check_game(tx: Tx, game_id: str) -> CheckResult:
    """
    Replay the game from its first event and compare with its newest snapshot and
    with the state a snapshot-based load gives; also check the log has no gap.
    """
    game = tx.game(game_id)
    seqs = list(
        tx.connection.scalars(
            select(EVENT.c.seq).where(EVENT.c.game_id == game_id).order_by(EVENT.c.seq)
        )
    )
    snapshot = tx.latest_snapshot(game_id)
    snap_seq = snapshot[0] if snapshot else None
    result = CheckResult(game_id, len(seqs), snap_seq, None)
    if seqs != list(range(1, len(seqs) + 1)):
        gap = next(i for i, s in enumerate(seqs, 1) if s != i)
        return _with(result, f"the log jumps from event {gap - 1} to {seqs[gap - 1]}")
    if len(seqs) != game.last_seq:
        return _with(result, f"the game says {game.last_seq} events, the log has {len(seqs)}")
    try:
        events = tx.events(game_id)
        state = GameState()
        at_snapshot = state
        for seq, event in enumerate(events, 1):
            state = evolve(state, event)
            if seq == snap_seq:
                at_snapshot = state
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        return _with(result, f"the log does not replay: {exc!r}")
    if snapshot is not None:
        found = first_difference(encode_state(snapshot[1]), encode_state(at_snapshot))
        if found:
            return _with(result, f"snapshot != replay at {found}")
    loaded = tx.load(game_id, fresh=True).state
    found = first_difference(encode_state(loaded), encode_state(state))
    if found:
        return _with(result, f"load != replay at {found}")
    return result


def _with(result: CheckResult, problem: str) -> CheckResult:
    return CheckResult(result.game_id, result.events, result.snapshot_seq, problem)


def check_store(store: EventStore, game_id: str) -> CheckResult:
    """``check_game`` in a reading transaction of its own (``titan-moderator db check``)."""
    with store.reading() as tx:
        return check_game(tx, game_id)
