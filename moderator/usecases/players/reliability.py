"""
The reliability record of tournament players (issues 7 and 26): moves made in time,
timeouts and seats lost, counted for whoever holds the seat when it happens.

Each is counted in the outcome that changes the game:

- the mail handler, when the player a running deadline waited for moves the game on
  before it fell due (``on_time``);
- the clock (``clockwork``), when a deadline passes and the refusal-to-play defaults
  are given for the player (``timeouts``);
- whoever hands a seat to the robot or a standby because its player dropped out
  (``seats_lost``), decided while the seat is still his: the lookup's seats are read
  as they are before the outcome hands the seat over.  A seat lost also takes its
  player off the tournament's waiting list (the core decides it on the whole state):
  he is placed in no new game until he joins again.

Games that belong to no tournament are not counted.  The counts are tournament events
(``ReliabilityRecorded``): the standings show them, and a director's minimum to join
reads them over every tournament.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import Lookup, TournamentWrite
from moderator.rules.state import GameState
from moderator.schedule import timing
from moderator.schedule.record import GameRecord
from moderator.tournament import commands as cmd
from moderator.tournament.decide import decide
from moderator.tournament.errors import TournamentError
from moderator.tournament.state import TournamentGame, TournamentState


def reliability_write(
    lookup: Lookup,
    game_id: str,
    seat: str,
    *,
    on_time: int = 0,
    timeouts: int = 0,
    seats_lost: int = 0,
    now: datetime,
) -> TournamentWrite | None:
    """
    The tournament event counting moves made in time, timeouts and seats lost for
    whoever holds ``seat`` in ``game_id``, to be written with the change that caused
    it; None if the game is no tournament's.

    The tournament's whole state is not needed for this, and loading it would cost more
    as the tournament grows: the core decides on a state holding this one game, with
    its seats as the store holds them now (a seat handed over is rewritten in the same
    transaction as its ``SeatReplaced`` event), and the event goes after the stream's
    head.

    Raises:
        TournamentError: the seat is unknown or the counts make no sense.
    """
    record = lookup.record(game_id)
    name = record.tournament if record is not None else None
    head = lookup.tournament_head(name) if name else None
    if name is None or head is None:
        return None
    command = cmd.RecordReliability(
        game=game_id, seat=seat, on_time=on_time, timeouts=timeouts, seats_lost=seats_lost
    )
    if seats_lost:  # rare, and it takes him off the waiting list: the whole state is read
        loaded = lookup.tournament(name)
        if loaded is not None:
            new = decide(loaded.state, command, now=now)
            return TournamentWrite(name, loaded.seq, tuple(new))
    holders = tuple((seat_name, address) for address, seat_name in lookup.seats(game_id).items())
    game = TournamentGame(game=game_id, formed=holders, seats=holders, formed_at="", everyone=())
    state = TournamentState(name=name, games={game_id: game})
    return TournamentWrite(name, head, tuple(decide(state, command, now=now)))


def moved_in_time(
    record: GameRecord, before: GameState, after: GameState, seat: str, now: datetime
) -> bool:
    """
    Whether ``seat``'s mail, taking the game from ``before`` to ``after`` at ``now``,
    met the deadline that was running for him (``record`` is the game's before it).
    """
    running = timing.current(record)
    if running is None or running.player != seat or now > running.due:
        return False
    return timing.step_key(before) == running.key and timing.step_key(after) != running.key


def count_quietly(
    lookup: Lookup,
    game_id: str,
    seat: str,
    *,
    on_time: int = 0,
    timeouts: int = 0,
    seats_lost: int = 0,
    now: datetime,
) -> tuple[tuple[TournamentWrite, ...], str | None]:
    """
    ``reliability_write`` as a tuple to add to the change's work, and its refusal as a
    line for the log, never raised.
    """
    try:
        found = reliability_write(
            lookup,
            game_id,
            seat,
            on_time=on_time,
            timeouts=timeouts,
            seats_lost=seats_lost,
            now=now,
        )
    except TournamentError as exc:
        return (), f"{game_id}: reliability of {seat} not counted: {exc}"
    return ((found,) if found is not None else ()), None


__all__ = ["count_quietly", "moved_in_time", "reliability_write"]
