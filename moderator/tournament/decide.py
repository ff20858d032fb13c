"""
``decide(state, command, now=...)``: check a command against the tournament and
return its events, or raise ``TournamentError`` (nothing changes).
"""

from __future__ import annotations

from datetime import datetime
from functools import singledispatch

from moderator.tournament import commands as cmd
from moderator.tournament import errors as err
from moderator.tournament import events as ev
from moderator.tournament.errors import TournamentError
from moderator.tournament.formation import formable, plan
from moderator.tournament.state import TournamentGame, TournamentState, replay

#: The longest a director may extend a deadline at once.
MAX_EXTENSION_HOURS = 24 * 30


def decide(
    state: TournamentState, command: cmd.Command, *, now: datetime
) -> list[ev.TournamentEvent]:
    """
    The events ``command`` causes at moment ``now``.

    Raises:
        TournamentError: the command is not allowed (its ``code`` says why).
    """
    if isinstance(command, cmd.CreateTournament):
        return _create(state, command, now.isoformat())
    if not state.exists:
        raise TournamentError(err.E_UNKNOWN, "there is no such tournament")
    return _decide(command, state, now.isoformat())


def on_time_percent(on_time: int, timeouts: int) -> int | None:
    """The on-time percentage (rounded down), or None without a record."""
    total = on_time + timeouts
    return None if total == 0 else on_time * 100 // total


def _create(state: TournamentState, c: cmd.CreateTournament, at: str) -> list[ev.TournamentEvent]:
    if state.exists:
        raise TournamentError(err.E_EXISTS, f"there is already a tournament called {c.tournament}")
    if not c.may_direct:
        raise TournamentError(err.E_DIRECTOR, "only a tournament director may create a tournament")
    c.settings.check()
    return [
        ev.TournamentCreated(
            at=at,
            tournament=c.tournament,
            director=c.by,
            director_name=c.by_name,
            settings=c.settings.to_payload(),
        )
    ]


@singledispatch
def _decide(command: cmd.Command, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    msg = f"no decision for {type(command).__name__}"
    raise TypeError(msg)


def _open(state: TournamentState) -> None:
    if state.finished:
        raise TournamentError(err.E_FINISHED, f"the tournament {state.name} is over")


@_decide.register
def _join(c: cmd.Join, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    _open(state)
    entrant = state.entrant(c.player)
    if entrant is not None and entrant.withdrawn:
        raise TournamentError(
            err.E_WITHDRAWN, f"you withdrew from {state.name} and cannot join it again"
        )
    if entrant is not None and entrant.waiting:
        raise TournamentError(err.E_JOINED, f"you are on the waiting list of {state.name} already")
    rounds = state.settings.rounds
    if state.games_placed(c.player) >= rounds:
        raise TournamentError(
            err.E_ROUNDS, f"you have played the {rounds} game(s) {state.name} allows"
        )
    ratio = on_time_percent(*c.record)
    if ratio is not None and ratio < state.settings.min_reliability:
        raise TournamentError(
            err.E_RELIABILITY,
            f"{state.name} needs {state.settings.min_reliability}% of moves on time; "
            f"yours is {ratio}%",
        )
    return [ev.PlayerJoined(at=at, player=c.player, name=c.name)]


@_decide.register
def _leave(c: cmd.Leave, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    _open(state)
    entrant = state.entrant(c.player)
    if entrant is None or not entrant.waiting:
        raise TournamentError(err.E_NOT_JOINED, f"you are not on the waiting list of {state.name}")
    return [ev.PlayerLeft(at=at, player=c.player)]


@_decide.register
def _withdraw(c: cmd.Withdraw, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    _open(state)
    entrant = state.entrant(c.player)
    if entrant is None or not (entrant.joined or entrant.standby) or entrant.withdrawn:
        raise TournamentError(err.E_NOT_JOINED, f"you are not in the tournament {state.name}")
    return [ev.PlayerWithdrew(at=at, player=c.player)]


@_decide.register
def _standby(c: cmd.Standby, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    _open(state)
    entrant = state.entrant(c.player)
    if entrant is not None and entrant.withdrawn:
        raise TournamentError(err.E_WITHDRAWN, f"you withdrew from {state.name}")
    if entrant is not None and entrant.standby:
        raise TournamentError(err.E_STANDBY, f"you are on the standby list of {state.name} already")
    return [ev.StandbyJoined(at=at, player=c.player, name=c.name)]


@_decide.register
def _form(c: cmd.FormGames, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    if state.finished:
        return []
    out: list[ev.TournamentEvent] = []
    number = len(state.games)
    for players in plan(state, c.seed):
        number += 1
        while f"{state.name}-{number}" in c.taken:
            number += 1
        seats = _seat_names(players, state)
        out.append(ev.GameFormed(at=at, game=f"{state.name}-{number}", seats=seats))
    if not out and state.games and not state.unfinished:
        out.append(ev.TournamentFinished(at=at))
    return out


def _seat_names(players: tuple[str, ...], state: TournamentState) -> ev.Seats:
    """Each player's name in the game: his registered name, numbered if two share it."""
    seats: list[tuple[str, str]] = []
    used: set[str] = set()
    for player in players:
        base = "".join(ch for ch in state.name_of(player) if ch.isalnum() or ch in " .'-").strip()
        base = base or "Player"
        name, n = base, 1
        while name.lower() in used:
            n += 1
            name = f"{base}{n}"
        used.add(name.lower())
        seats.append((name, player))
    return tuple(seats)


@_decide.register
def _record(c: cmd.RecordResult, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    game = _game(state, c.game)
    if game.finished:
        raise TournamentError(err.E_GAME_OVER, f"the result of {c.game} is recorded already")
    seats = {seat for seat, _ in game.seats}
    ranked = [seat for group in c.result.ranking for seat in group]
    if sorted(ranked) != sorted(seats):
        msg = (
            f"the ranking {c.result.ranking!r} does not name the seats of {c.game}: {sorted(seats)}"
        )
        raise ValueError(msg)
    if not set(c.robots) <= seats:
        msg = f"the robot's seats {c.robots!r} are not seats of {c.game}: {sorted(seats)}"
        raise ValueError(msg)
    # Going silent must not earn the robot's results: a seat its holder dropped out of
    # scores for nobody, whether the robot still holds it or he took it back.
    unscored = set(c.robots) | {seat for seat, p in game.seats if (seat, p) in game.lost}
    out: list[ev.TournamentEvent] = [
        ev.GameFinished(
            at=at,
            game=c.game,
            ranking=c.result.ranking,
            totals=c.result.totals,
            ended=c.result.ended,
            winner=c.result.winner,
            unscored=tuple(sorted(unscored)),
        )
    ]
    after = replay(out, state)
    if not after.unfinished and not formable(after):
        out.append(ev.TournamentFinished(at=at))
    return out


def _game(state: TournamentState, game_id: str) -> TournamentGame:
    game = state.games.get(game_id)
    if game is None:
        raise TournamentError(err.E_GAME, f"{game_id} is not a game of the tournament {state.name}")
    return game


def _directed(state: TournamentState, c: cmd.Directed) -> TournamentGame:
    """
    The running game ``c.game``, if ``c.by`` directs the tournament and plays in none of
    its seats (a director who plays could end his game while ahead, stretch his own
    deadline or hand a rival's seat away): the operator directs those.
    """
    game_id = c.game
    if not c.operator and c.by != state.director:
        raise TournamentError(
            err.E_DIRECTOR, f"only the director of {state.name} may do this to {game_id}"
        )
    game = _game(state, game_id)
    if not c.operator and c.by in game.everyone:
        raise TournamentError(
            err.E_DIRECTOR,
            f"you play (or played) in {game_id}, so you do not direct it: ask the moderator's operator "
            "(he gives director lines with 'titan-moderator tournament direct')",
        )
    if game.finished or game.ended_by_director:
        raise TournamentError(err.E_GAME_OVER, f"{game_id} is finished")
    return game


@_decide.register
def _replace(c: cmd.ReplaceSeat, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    game = _directed(state, c)
    wanted = c.seat.strip().lower()
    seat = next((s for s, p in game.seats if s.lower() == wanted or p == wanted), None)
    if seat is None:
        names = ", ".join(s for s, _ in game.seats)
        raise TournamentError(err.E_SEAT, f"{c.game} has no seat {c.seat!r}; its seats: {names}")
    old = game.holder(seat)
    new, name = c.new, c.new_name
    if new is None:
        found = _standby_for(state, game)
        if found is None:
            raise TournamentError(
                err.E_NO_STANDBY,
                f"nobody on the standby list of {state.name} is free to take {seat} in {c.game}: "
                "name the new player ('with ADDRESS')",
            )
        new, name = found, state.name_of(found)
    if new in game.players:
        raise TournamentError(err.E_SEATED, f"{new} has a seat in {c.game} already")
    if new == c.by and not c.operator:
        raise TournamentError(
            err.E_DIRECTOR,
            f"you direct {state.name}, so you take no seat of its games yourself: "
            "ask the moderator's operator",
        )
    entrant = state.entrant(new)
    if entrant is not None and entrant.withdrawn:
        raise TournamentError(err.E_WITHDRAWN, f"{new} withdrew from {state.name}")
    return [ev.SeatReplaced(at=at, game=c.game, seat=seat, old=old, new=new, new_name=name or new)]


def _standby_for(state: TournamentState, game: TournamentGame) -> str | None:
    ready = [
        e
        for e in state.entrants.values()
        if e.standby
        and not e.withdrawn
        and e.player not in game.players
        and state.running(e.player) < state.settings.max_games
    ]
    ready.sort(key=lambda e: (e.standby_since, e.player))
    return ready[0].player if ready else None


@_decide.register
def _reliability(
    c: cmd.RecordReliability, state: TournamentState, at: str
) -> list[ev.TournamentEvent]:
    game = _game(state, c.game)
    counts = (c.on_time, c.timeouts, c.seats_lost)
    if min(counts) < 0 or sum(counts) == 0:
        raise TournamentError(
            err.E_RELIABILITY_DATA,
            "record at least one move on time, timeout or seat lost, none negative",
        )
    try:
        player = game.holder(c.seat)
    except KeyError as exc:
        raise TournamentError(err.E_SEAT, f"{c.game} has no seat {c.seat!r}") from exc
    out: list[ev.TournamentEvent] = [
        ev.ReliabilityRecorded(
            at=at,
            player=player,
            game=c.game,
            seat=c.seat,
            on_time=c.on_time,
            timeouts=c.timeouts,
            seats_lost=c.seats_lost,
        )
    ]
    # A player who dropped out of a game is placed in no new one until he joins again:
    # his next opponents would meet a robot or a seat that only times out.  Nor is he
    # handed another game's seat from the standby list, for the same reason.
    entrant = state.entrant(player)
    if c.seats_lost and entrant is not None and entrant.waiting:
        out.append(ev.PlayerLeft(at=at, player=player))
    if c.seats_lost and entrant is not None and entrant.standby:
        out.append(ev.StandbyLeft(at=at, player=player))
    return out


@_decide.register
def _pause(c: cmd.PauseGame, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    if _directed(state, c).paused:
        raise TournamentError(err.E_PAUSED, f"{c.game} is paused already")
    return [ev.GamePaused(at=at, game=c.game, by=c.by)]


@_decide.register
def _resume(c: cmd.ResumeGame, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    if not _directed(state, c).paused:
        raise TournamentError(err.E_NOT_PAUSED, f"{c.game} is not paused")
    return [ev.GameResumed(at=at, game=c.game, by=c.by)]


@_decide.register
def _extend(c: cmd.ExtendDeadline, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    _directed(state, c)
    if not 1 <= c.hours <= MAX_EXTENSION_HOURS:
        raise TournamentError(
            err.E_HOURS, f"extend by 1 to {MAX_EXTENSION_HOURS} hours, not {c.hours}"
        )
    return [ev.DeadlineExtended(at=at, game=c.game, by=c.by, hours=c.hours)]


@_decide.register
def _end(c: cmd.EndGame, state: TournamentState, at: str) -> list[ev.TournamentEvent]:
    _directed(state, c)
    return [ev.GameEndedByDirector(at=at, game=c.game, by=c.by)]
