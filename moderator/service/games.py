"""
Starting a game played by mail: players who signed on are seated, the game is set up,
and each player is mailed his first report.

The moderator does this with ``titan-moderator game new``; a tournament does it when
it forms a game.  Setting up rolls for the towers and the first player (1.1-1.6); the
first report tells each player his tower and who picks a colour first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from moderator.play.errors import GameError
from moderator.play.games import plan_game
from moderator.ports import GameContext, Work, game_write
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.schedule.timing import TimeLimits
from moderator.service import notify
from moderator.store import players
from moderator.store.eventstore import EventStore
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write


class StartError(ValueError):
    """The game cannot be started as asked; says why."""


def start_game(
    store: EventStore,
    game_id: str,
    addresses: Sequence[str],
    *,
    sender: str,
    seed: int | None = None,
    insecure_seed: bool = False,
    allow_secrets: bool = False,
    time_limits: TimeLimits | None = None,
    ends_at: datetime | None = None,
) -> GameState:
    """
    Create ``game_id`` for the players registered with ``addresses`` (2 to 6, in seat
    order), seat them, and write each one's first report to the outbox.

    ``time_limits`` gives the game deadlines (Wolff 21.0; the first report shows the
    first one) and ``ends_at`` an end date (Wolff 21.1); without them it has neither.
    The dice get a secret seed of their own; ``seed`` is taken only with
    ``insecure_seed`` (a test or a demo that must replay: every report then says the
    dice are not secret, ``plan_game``).

    Raises:
        StartError: an address is not registered, two players share a name, the
            game exists, or a seed was given without ``insecure_seed``.
    """
    if not 2 <= len(addresses) <= 6:
        raise StartError(f"a game of Titan has 2 to 6 players, not {len(addresses)}")
    with store.reading() as tx:
        found = [players.player_by_address(tx, address) for address in addresses]
        exists = game_id in tx.games()
    if exists:
        raise StartError(f"there is already a game {game_id!r}")
    missing = [a for a, p in zip(addresses, found) if p is None]
    if missing:
        raise StartError(
            f"not signed on: {', '.join(missing)} (a player signs on by mail first)"
        )
    seated = [p for p in found if p is not None]
    names = [p.name for p in seated]
    if len(set(names)) != len(names):
        raise StartError(f"two players have the same name in {names}: one must sign on anew")
    seats = tuple((p.name, p.address) for p in seated)
    try:
        planned, state = plan_game(
            game_id, names, seed, None, None, store.clock(), time_limits, ends_at, seats,
            bound=True, insecure_seed=insecure_seed,
        )
    except GameError as exc:
        raise StartError(str(exc)) from exc
    with store.transaction() as tx:  # the game, its seats and first reports: all or nothing
        base = (planned.record or GameRecord()).but(allow_secrets=allow_secrets)
        write(tx, Work(games=(planned.but(record=base),)))
        context = GameContext(game_id, GameState(), 0, base, players.seats(tx, game_id))
        record, mails, _ = notify.report_round(
            sender, context, SqlLookup(tx), planned.events, state, base, set()
        )
        reported = game_write(game_id, len(planned.events), record=record)
        write(tx, Work(games=(reported,), mails=tuple(mails)), game_id=game_id)
    return state


def set_relay(store: EventStore, game_id: str, on: bool) -> bool:
    """
    The game master lets players pass messages through the moderator in ``game_id``
    (Wolff 4.5), or stops it; the game's record keeps it.  Returns whether it changed.

    Raises:
        GameNotFoundError: there is no such game.
    """
    with store.transaction() as tx:
        loaded = tx.load(game_id, lock=True)
        if loaded.record.relay == on:
            return False
        record = loaded.record.but(relay=on)
        write(tx, Work(games=(game_write(game_id, loaded.seq, record=record),)))
    return True
