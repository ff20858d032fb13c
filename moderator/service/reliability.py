"""
The reliability record of tournament players (issue 7): moves made in time and
timeouts, counted for whoever holds the seat when it happens.

Two places count, each in the transaction that changes the game:

- the mail handler, when the player a running deadline waited for moves the game on
  before it fell due (``on_time``);
- the clock (``clockwork``), when a deadline passes and the refusal-to-play defaults
  are given for the player (``timeouts``).

Games that belong to no tournament are not counted.  The counts are tournament events
(``ReliabilityRecorded``): the standings show them, and a director's minimum to join
reads them over every tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from moderator.rules.state import GameState
from moderator.schedule import timing
from moderator.store import tournaments as stored
from moderator.store.errors import GameNotFoundError
from moderator.store.eventstore import Tx
from moderator.store.players import seats
from moderator.tournament import commands as cmd
from moderator.tournament.decide import decide
from moderator.tournament.errors import TournamentError
from moderator.tournament.settings import OPTION_TOURNAMENT
from moderator.tournament.state import TournamentGame, TournamentState


def record_reliability(
    tx: Tx, game_id: str, seat: str, *, on_time: int = 0, timeouts: int = 0, now: datetime
) -> bool:
    """
    Count moves made in time and timeouts for whoever holds ``seat`` in ``game_id`` (a
    tournament game); False if the game is no tournament's.

    The tournament's whole state is not needed for this, and loading it would cost more
    as the tournament grows: the core decides on a state holding this one game, with
    its seats as the store holds them now (a seat handed over is rewritten in the same
    transaction as its ``SeatReplaced`` event), and the event is appended after the
    stream's head.

    Raises:
        TournamentError: the seat is unknown or the counts make no sense.
    """
    try:
        name = tx.options(game_id).get(OPTION_TOURNAMENT)
    except GameNotFoundError:
        return False
    if not name or not stored.exists(tx, str(name)):
        return False
    head = stored.head(tx, str(name), lock=True)
    holders = tuple((seat_name, address) for address, seat_name in seats(tx, game_id).items())
    game = TournamentGame(game=game_id, formed=holders, seats=holders, formed_at="", everyone=())
    state = TournamentState(name=str(name), games={game_id: game})
    command = cmd.RecordReliability(game=game_id, seat=seat, on_time=on_time, timeouts=timeouts)
    stored.append(tx, str(name), head, decide(state, command, now=now))
    return True


def moved_in_time(
    options: Mapping[str, Any], before: GameState, after: GameState, seat: str, now: datetime
) -> bool:
    """
    Whether ``seat``'s mail, taking the game from ``before`` to ``after`` at ``now``,
    met the deadline that was running for him (``options`` are the game's before it).
    """
    running = timing.current(options)
    if running is None or running.player != seat or now > running.due:
        return False
    return timing.step_key(before) == running.key and timing.step_key(after) != running.key


def count_quietly(
    tx: Tx, game_id: str, seat: str, *, on_time: int = 0, timeouts: int = 0, now: datetime
) -> str | None:
    """``record_reliability``, whose refusal is returned as a line for the log, never raised."""
    try:
        record_reliability(tx, game_id, seat, on_time=on_time, timeouts=timeouts, now=now)
    except TournamentError as exc:
        return f"{game_id}: reliability of {seat} not counted: {exc}"
    return None


__all__ = ["count_quietly", "moved_in_time", "record_reliability"]
