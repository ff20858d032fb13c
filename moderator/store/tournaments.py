"""
Tournaments in the store: each an event stream (``moderator.tournament.events``) with
optimistic appends, like a game's (``moderator.store.eventstore``).

``append`` moves the tournament's ``last_seq`` from the number the caller saw to the
new one in one conditional UPDATE, backed by the unique ``(tournament_id, seq)`` key
(``moderator.store.streams.append_records``, as a game's append does): a caller who
saw an old number gets ``ConflictError`` and nothing is stored.  On
PostgreSQL that UPDATE (or ``load(..., lock=True)``) holds the tournament's row until
the transaction ends, which serialises its writers.

Also here: handing a game's seat to another player (``reseat``), a player's
reliability summed over every tournament, and a player's new address
(``move_address``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from moderator.ports.errors import StoreError, TournamentExistsError, TournamentNotFoundError
from moderator.ports.games import LoadedTournament
from moderator.ports.players import normal_address
from moderator.store.eventstore import Tx
from moderator.store.players import player_by_address
from moderator.store.snapshots import decode_as, encode_as, shape_of
from moderator.store.streams import append_records
from moderator.store.tables import SEAT, TOURNAMENT, TOURNAMENT_EVENT
from moderator.tournament import events as tev
from moderator.tournament.codec import decode, encode
from moderator.tournament.state import TournamentState, replay

#: Events folded by a load before it writes the state back as the snapshot.
SNAPSHOT_EVERY = 100
_SHAPE = shape_of(TournamentState)


def create(tx: Tx, tournament_id: str, director: str) -> None:
    """
    Make an empty stream for ``tournament_id`` (its first event is appended next).

    Raises:
        TournamentExistsError: the name is taken.
    """
    found = tx.connection.execute(
        select(TOURNAMENT.c.id).where(TOURNAMENT.c.id == tournament_id)
    ).first()
    if found is not None:
        raise TournamentExistsError(tournament_id)
    try:
        with tx.connection.begin_nested():
            tx.connection.execute(
                insert(TOURNAMENT).values(
                    id=tournament_id,
                    created_at=tx.now(),
                    director=normal_address(director),
                    last_seq=0,
                    finished=False,
                )
            )
    except IntegrityError as exc:
        raise TournamentExistsError(tournament_id) from exc


def exists(tx: Tx, tournament_id: str) -> bool:
    query = select(TOURNAMENT.c.id).where(TOURNAMENT.c.id == tournament_id)
    return tx.connection.execute(query).first() is not None


def tournament_ids(tx: Tx, *, finished: bool | None = None) -> list[str]:
    """Every tournament's name (or only the finished / unfinished ones), in order."""
    query = select(TOURNAMENT.c.id).order_by(TOURNAMENT.c.id)
    if finished is not None:
        query = query.where(TOURNAMENT.c.finished == finished)
    return [str(name) for name in tx.connection.scalars(query)]


def append(
    tx: Tx, tournament_id: str, expected_seq: int, events: Iterable[tev.TournamentEvent]
) -> int:
    """
    Store ``events`` as ``expected_seq + 1, ...``; returns the new last seq.

    Raises:
        ConflictError: the stream is not at ``expected_seq``; nothing was stored.
        TournamentNotFoundError: there is no such tournament.
    """
    events = list(events)
    finished = any(isinstance(e, tev.TournamentFinished) for e in events)
    return append_records(
        tx.connection,
        head=TOURNAMENT,
        events=TOURNAMENT_EVENT,
        stream_column="tournament_id",
        stream_id=tournament_id,
        expected_seq=expected_seq,
        records=[encode(e) for e in events],
        now=tx.now(),
        actual_seq=lambda: head(tx, tournament_id),
        what=f"tournament {tournament_id!r}",
        head_values={"finished": True} if finished else None,
    )


def head(tx: Tx, tournament_id: str, *, lock: bool = False) -> int:
    """
    The seq of the stream's last event (what ``append`` expects), its row locked on
    PostgreSQL with ``lock``.

    Raises:
        TournamentNotFoundError: there is no such tournament.
    """
    return int(_row(tx, tournament_id, lock=lock, head_only=True).last_seq)


def _row(tx: Tx, tournament_id: str, *, lock: bool = False, head_only: bool = False) -> Any:
    """
    The tournament's row; ``head_only``: its name and last seq alone, without the
    snapshot (the folded state of every game, decoded from JSON on every read).
    """
    columns = (TOURNAMENT.c.id, TOURNAMENT.c.last_seq) if head_only else (TOURNAMENT,)
    query = select(*columns).where(TOURNAMENT.c.id == tournament_id)
    if lock and tx.dialect == "postgresql":
        query = query.with_for_update()
    row = tx.connection.execute(query).first()
    if row is None:
        raise TournamentNotFoundError(tournament_id)
    return row


def events(tx: Tx, tournament_id: str, *, after: int = 0) -> list[tev.TournamentEvent]:
    """The tournament's events after ``after``, in order."""
    _row(tx, tournament_id, head_only=True)
    rows = tx.connection.execute(
        select(TOURNAMENT_EVENT.c.type, TOURNAMENT_EVENT.c.version, TOURNAMENT_EVENT.c.payload)
        .where(
            TOURNAMENT_EVENT.c.tournament_id == tournament_id, TOURNAMENT_EVENT.c.seq > after
        )
        .order_by(TOURNAMENT_EVENT.c.seq)
    )
    return [decode({"type": t, "version": v, "payload": p}) for t, v, p in rows]


def load(tx: Tx, tournament_id: str, *, lock: bool = False) -> LoadedTournament:
    """
    The tournament's state: its snapshot plus the fold of the events after it.  ``lock``
    holds its row until the transaction ends on PostgreSQL.  When more than
    ``SNAPSHOT_EVERY`` events were folded, the state is written back as the new
    snapshot, in the same transaction (a rolled-back transaction takes it along); never
    in a reading, which is rolled back anyway and which SQLite may refuse the write
    lock (``database is locked``) while another connection writes.

    Raises:
        TournamentNotFoundError: there is no such tournament.
    """
    row = _row(tx, tournament_id, lock=lock)
    start, state = 0, None
    if row.snapshot is not None and row.snapshot_shape == _SHAPE:
        start, state = int(row.snapshot_seq), decode_as(TournamentState, row.snapshot)
    found = events(tx, tournament_id, after=start)
    state = replay(found, state)
    seq = start + len(found)
    if len(found) >= SNAPSHOT_EVERY and tx.writing:
        tx.connection.execute(
            update(TOURNAMENT)
            .where(TOURNAMENT.c.id == tournament_id)
            .values(
                snapshot=encode_as(TournamentState, state),
                snapshot_seq=seq,
                snapshot_shape=_SHAPE,
            )
        )
    return LoadedTournament(tournament_id, state, seq)


def reliability(tx: Tx, player: str) -> tuple[int, int]:
    """(moves on time, timeouts) of the player with ``player``'s address, over every tournament."""
    address = normal_address(player)
    rows = tx.connection.execute(
        select(TOURNAMENT_EVENT.c.type, TOURNAMENT_EVENT.c.payload)
        .where(
            TOURNAMENT_EVENT.c.type.in_(
                (tev.ReliabilityRecorded.TYPE, tev.AddressChanged.TYPE)
            )
        )
        .order_by(TOURNAMENT_EVENT.c.id)
    )
    tallies: dict[str, tuple[int, int]] = {}  # address -> (on time, timeouts) so far
    for kind, payload in rows:
        if kind == tev.AddressChanged.TYPE:  # what he did before moving is still his
            before = tallies.pop(str(payload["old"]), (0, 0))
            now = tallies.get(str(payload["new"]), (0, 0))
            tallies[str(payload["new"])] = (now[0] + before[0], now[1] + before[1])
        else:
            who = str(payload.get("player", ""))
            had = tallies.get(who, (0, 0))
            on, late = int(payload.get("on_time", 0)), int(payload.get("timeouts", 0))
            tallies[who] = (had[0] + on, had[1] + late)
    return tallies.get(address, (0, 0))


def reseat(tx: Tx, game_id: str, seat: str, address: str) -> None:
    """
    Hand the seat ``seat`` of ``game_id`` to the player registered with ``address``:
    from now on the seat's reports and mails are his, and the old holder's mail for
    the game is refused like a stranger's.

    Raises:
        StoreError: no player has that address, the seat does not exist, or the player
            has another seat in the game.
    """
    tx.game(game_id)
    player = player_by_address(tx, address)
    if player is None:
        msg = f"no player is registered with the address {normal_address(address)!r}"
        raise StoreError(msg)
    other = tx.connection.execute(
        select(SEAT.c.seat).where(SEAT.c.game_id == game_id, SEAT.c.player_id == player.id)
    ).first()
    if other is not None:
        msg = f"{player.address!r} has the seat {other[0]!r} in game {game_id!r} already"
        raise StoreError(msg)
    moved = tx.connection.execute(
        update(SEAT)
        .where(SEAT.c.game_id == game_id, SEAT.c.seat == seat)
        .values(player_id=player.id)
    )
    if moved.rowcount != 1:
        msg = f"game {game_id!r} has no seat {seat!r}"
        raise StoreError(msg)


def move_address(tx: Tx, old: str, new: str) -> list[str]:
    """
    The player registered with ``old`` now has the address ``new``: every tournament
    that knows him records it (``AddressChanged``; its history is not rewritten) and
    names him by ``new`` from now on, as director too.  Returns those tournaments.
    """
    old, new = normal_address(old), normal_address(new)
    tx.connection.execute(
        update(TOURNAMENT).where(TOURNAMENT.c.director == old).values(director=new)
    )
    moved: list[str] = []
    for tournament_id in tx.connection.scalars(select(TOURNAMENT.c.id).order_by(TOURNAMENT.c.id)):
        loaded = load(tx, str(tournament_id), lock=True)
        state = loaded.state
        knows = (
            state.director == old
            or old in state.entrants
            or any(old in game.everyone for game in state.games.values())
        )
        if knows:
            event = tev.AddressChanged(old=old, new=new, at=tx.now().isoformat())
            append(tx, loaded.tournament_id, loaded.seq, [event])
            moved.append(loaded.tournament_id)
    return moved
