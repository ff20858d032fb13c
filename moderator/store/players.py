"""
Players and their seats: who plays by mail from which address, in which games.

A player proves his mail is his by a signing key (its fingerprint is stored) or by a
shared secret (only a salted hash is stored).

A player's address may change: a change is asked for from the new address and waits
(``ask_address_change``) until it is confirmed from the old one (``move_player``).
Seats name the player by his id, so his games follow him.  The ``Player`` value and
the forms of addresses, secrets and tokens are the ports' (``moderator.ports.players``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from moderator.ports.players import PendingAddressChange, Player, hash_secret, normal_address
from moderator.store.errors import ConflictError, PlayerExistsError, StoreError
from moderator.store.eventstore import Tx
from moderator.store.tables import ADDRESS_CHANGE, PLAYER, SEAT

# The reads every mail makes, built once: a statement built for each call costs several
# times its execution on SQLite (its clauses made again, then its cache key).
_BY_ADDRESS = select(PLAYER).where(PLAYER.c.address == bindparam("address"))
_SEATED = (
    select(PLAYER, SEAT.c.seat)
    .join(SEAT, SEAT.c.player_id == PLAYER.c.id)
    .where(SEAT.c.game_id == bindparam("game_id"))
)
_GAMES_OF = (
    select(SEAT.c.game_id, SEAT.c.seat)
    .join(PLAYER, SEAT.c.player_id == PLAYER.c.id)
    .where(PLAYER.c.address == bindparam("address"))
    .order_by(SEAT.c.game_id)
)
_SEATS = (
    select(PLAYER.c.address, SEAT.c.seat)
    .join(SEAT, SEAT.c.player_id == PLAYER.c.id)
    .where(SEAT.c.game_id == bindparam("game_id"))
)


def add_player(
    tx: Tx,
    name: str,
    address: str,
    *,
    time_zone: str = "UTC",
    key_fingerprint: str | None = None,
    secret: str | None = None,
    secret_hash: str | None = None,
) -> int:
    """
    Register a player; returns his id.  His secret is given in clear (``secret``, hashed
    here) or already hashed with ``hash_secret`` (``secret_hash``), never both.

    Raises:
        PlayerExistsError: the address is registered already.
    """
    if secret is not None and secret_hash is not None:
        msg = "give the secret or its hash, not both"
        raise ValueError(msg)
    if secret is not None:
        secret_hash = hash_secret(secret)
    address = normal_address(address)
    if player_by_address(tx, address) is not None:
        msg = f"the address {address!r} is registered already"
        raise PlayerExistsError(msg)
    try:
        result = tx.connection.execute(
            insert(PLAYER)
            .values(
                name=name,
                address=address,
                time_zone=time_zone,
                key_fingerprint=key_fingerprint,
                secret_hash=secret_hash,
                created_at=tx.now(),
            )
            .returning(PLAYER.c.id)
        )
    except IntegrityError as exc:
        msg = f"the address {address!r} is registered already"
        raise PlayerExistsError(msg) from exc
    return int(result.scalar_one())


def _player(row: Any) -> Player:
    roles = tuple(r for r in str(row.roles or "").split(",") if r)
    return Player(
        row.id, row.name, row.address, row.time_zone, row.key_fingerprint, row.secret_hash, roles
    )


def set_roles(tx: Tx, address: str, roles: tuple[str, ...]) -> bool:
    """Give the player with ``address`` exactly ``roles``; False if nobody has that address."""
    cleaned = ",".join(sorted({r.strip().lower() for r in roles if r.strip()}))
    moved = tx.connection.execute(
        update(PLAYER).where(PLAYER.c.address == normal_address(address)).values(roles=cleaned)
    )
    return moved.rowcount == 1


def player_by_address(tx: Tx, address: str) -> Player | None:
    row = tx.connection.execute(_BY_ADDRESS, {"address": normal_address(address)}).first()
    return None if row is None else _player(row)


def all_players(tx: Tx) -> list[Player]:
    """Every signed-on player, by address (the operator's ``player list``)."""
    return [_player(row) for row in tx.connection.execute(select(PLAYER).order_by(PLAYER.c.address))]


def players_by_fingerprint(tx: Tx, fingerprint: str) -> list[Player]:
    """The players whose pinned key has this fingerprint (GnuPG's spelling: upper case)."""
    rows = tx.connection.execute(
        select(PLAYER)
        .where(PLAYER.c.key_fingerprint == fingerprint.strip().upper())
        .order_by(PLAYER.c.id)
    )
    return [_player(row) for row in rows]


def seat_player(tx: Tx, game_id: str, seat: str, address: str) -> None:
    """
    Give the player with ``address`` the seat ``seat`` (his name in the game).

    Raises:
        StoreError: no player has that address, or the seat or player is taken.
        GameNotFoundError: there is no such game.
    """
    tx.game(game_id)
    player = player_by_address(tx, address)
    if player is None:
        msg = f"no player is registered with the address {normal_address(address)!r}"
        raise StoreError(msg)
    taken = tx.connection.execute(
        select(SEAT.c.seat).where(
            SEAT.c.game_id == game_id, (SEAT.c.seat == seat) | (SEAT.c.player_id == player.id)
        )
    ).first()
    if taken is not None:
        msg = f"in game {game_id!r} the seat {seat!r} or the player {player.address!r} is taken"
        raise StoreError(msg)
    tx.connection.execute(insert(SEAT).values(game_id=game_id, player_id=player.id, seat=seat))


def seated_players(tx: Tx, game_id: str) -> dict[str, Player]:
    """The game's seats: the name the game knows a player by -> the player."""
    rows = tx.connection.execute(_SEATED, {"game_id": game_id})
    return {str(row.seat): _player(row) for row in rows}


def games_of(tx: Tx, address: str) -> list[tuple[str, str]]:
    """(game, seat) of every game the player with ``address`` has a seat in."""
    rows = tx.connection.execute(_GAMES_OF, {"address": normal_address(address)})
    return [(str(game), str(seat)) for game, seat in rows]


def seats(tx: Tx, game_id: str) -> dict[str, str]:
    """The game's seats: player address -> the name the game knows him by."""
    rows = tx.connection.execute(_SEATS, {"game_id": game_id})
    return {str(address): str(seat) for address, seat in rows}


# -- changes of address ----------------------------------------------------------------


def pending_address_change(tx: Tx, old: str) -> PendingAddressChange | None:
    """The change of address waiting to be confirmed from ``old``, if there is one."""
    row = tx.connection.execute(
        select(ADDRESS_CHANGE).where(ADDRESS_CHANGE.c.old_address == normal_address(old))
    ).first()
    if row is None:
        return None
    return PendingAddressChange(row.old_address, row.new_address, row.token_hash, row.requested_at)


def ask_address_change(tx: Tx, old: str, new: str, hashed_token: str) -> None:
    """Keep a change of ``old`` to ``new`` until confirmed (it replaces an earlier one)."""
    drop_address_change(tx, old)
    tx.connection.execute(
        insert(ADDRESS_CHANGE).values(
            old_address=normal_address(old),
            new_address=normal_address(new),
            token_hash=hashed_token,
            requested_at=tx.now(),
        )
    )


def drop_address_change(tx: Tx, old: str) -> bool:
    """Forget the change waiting for ``old``; False if there was none."""
    dropped = tx.connection.execute(
        delete(ADDRESS_CHANGE).where(ADDRESS_CHANGE.c.old_address == normal_address(old))
    )
    return dropped.rowcount == 1


def move_player(tx: Tx, old: str, new: str) -> None:
    """
    Give the player registered with ``old`` the address ``new`` (his seats follow: they
    name him by his id) and forget the change waiting for ``old``.

    Raises:
        ConflictError: nobody has ``old`` any more, or ``new`` was registered meanwhile
            (the mail that asked is decided again).
    """
    old, new = normal_address(old), normal_address(new)
    if player_by_address(tx, new) is not None:
        msg = f"the address {new!r} is registered already"
        raise ConflictError(msg)
    try:
        with tx.connection.begin_nested():
            moved = tx.connection.execute(
                update(PLAYER).where(PLAYER.c.address == old).values(address=new)
            )
    except IntegrityError as exc:
        msg = f"the address {new!r} is registered already"
        raise ConflictError(msg) from exc
    if moved.rowcount != 1:
        msg = f"no player is registered with the address {old!r} any more"
        raise ConflictError(msg)
    drop_address_change(tx, old)
