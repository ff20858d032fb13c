"""
Tournaments by mail: the shell around the pure ``moderator.tournament`` core.

What the mail handler and the service's clock call:

- ``tournament_lines(lines)``: which of a mail's lines are tournament lines;
- ``carry_out(tx, player, lines, moderator_address=..., now=...)``: an authenticated
  player's (or director's) tournament lines, in the mail's transaction; returns the
  mails (the answer, and notices to others) for the outbox and lines for the log;
- ``form_games``, ``game_finished``, ``finish_games`` (``tournament_games``: the
  games formed, started, finished and scored, the standings mailed);
- ``record_reliability(tx, game_id, seat, on_time=..., timeouts=..., now=...)``
  (``reliability``): moves made in time and timeouts, for the standings and the
  minimum to join.

This module reads a mail's lines and carries them out, the director's among them.

A tournament line that is refused changes nothing and does not stop the lines after
it: each is answered on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from moderator.letters import tournaments as wording
from moderator.letters.moments import moment_line
from moderator.ports import GameNotFoundError, Player, StoreError, TournamentWrite, Work
from moderator.ports.errors import TournamentNotFoundError
from moderator.ports.players import DIRECTOR
from moderator.rules.state import Step
from moderator.schedule import timing
from moderator.service import games_directed, notify
from moderator.service.reliability import record_reliability
from moderator.service.tournament_games import (
    TournamentOutcome,
    finish_games,
    form_games,
    form_games_in,
    game_finished,
    notice,
    record_finished,
    record_game_finished,
    to_seats,
)
from moderator.store import players
from moderator.store import tournaments as stored
from moderator.store.eventstore import Tx
from moderator.store.unit_of_work import write
from moderator.tournament import commands as cmd
from moderator.tournament import errors as err
from moderator.tournament import events as tev
from moderator.tournament.decide import decide
from moderator.tournament.errors import TournamentError
from moderator.tournament.lines import Request, parse_line
from moderator.tournament.lines import tournament_lines as _tournament_lines
from moderator.tournament.settings import Settings
from moderator.tournament.state import TournamentState
from moderator.tournament.state import replay as fold

#: Short names a director may use for the clock settings (``timing turn=72``).
_ALIASES = {
    "setup": "setup_hours",
    "turn": "turn_hours",
    "engagement": "engagement_hours",
    "battle": "battle_hours",
    "muster": "muster_hours",
    "minimum": "minimum_hours",
    "reminders": "reminder_hours",
    "count": "absences",
    "days": "absence_days",
    "total": "absence_total_days",
}


@dataclass
class _Result:
    """What became of one tournament line."""

    line: str
    outcome: str  # "done", "refused", "answered"
    lines: list[str] = field(default_factory=list)
    code: str = ""
    reason: str = ""


def tournament_lines(lines: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the tournament lines of a mail, the other lines), each in the mail's order."""
    return _tournament_lines(lines)


def games_named(lines: Sequence[str]) -> set[str]:
    """The games the director's lines among ``lines`` act on (``pause G``, ``end G``...)."""
    named: set[str] = set()
    for line in lines:
        try:
            request = parse_line(line)
        except TournamentError:
            continue
        if request.game is not None:
            named.add(request.game)
    return named


# -- a mail's tournament lines ------------------------------------------------------------


def carry_out(
    tx: Tx,
    player: Player,
    lines: Sequence[str],
    *,
    moderator_address: str,
    now: datetime,
    headers: Mapping[str, str] | None = None,
    others: Sequence[str] = (),
    others_why: str = "",
) -> TournamentOutcome:
    """
    The tournament lines of an authenticated ``player``'s mail, carried out in ``tx``:
    the answer to him (line by line) and the mails the lines cause for others.
    ``others``: the mail's lines that are not read (listed in the answer, with
    ``others_why``).

    Raises:
        ConflictError: a tournament or game moved on meanwhile (the caller retries).
    """
    out = TournamentOutcome()
    results: list[_Result] = []
    for line in lines:
        try:
            request = parse_line(line)
            result, caused = _carry_out_one(tx, player, request, moderator_address, now)
        except TournamentError as exc:
            results.append(_Result(line.strip(), "refused", code=exc.code, reason=str(exc)))
            continue
        results.append(result)
        out.add(caused)
    if results or others:  # his lines are quoted in the private part only: never signed
        texts = wording.reply(
            f"your mail read {moment_line(now, player.time_zone)}",
            (headers or {}).get("In-Reply-To", ""),
            results,
            others,
            others_why,
        )
        mail = notify.mail_to(moderator_address, player, notify.REPLY, texts, None, headers or {})
        out.mails.insert(0, mail)
    return out


def _carry_out_one(
    tx: Tx, player: Player, request: Request, sender: str, now: datetime
) -> tuple[_Result, TournamentOutcome]:
    address = player.address
    line = request.line
    if request.kind == "create":
        return _create(tx, player, request, now), TournamentOutcome()
    if request.kind == "standings":
        loaded = _load(tx, request.tournament or "")
        text = wording.standings(loaded.state)
        return _Result(line, "answered", text.splitlines()), TournamentOutcome()
    if request.tournament is not None:
        loaded = _load(tx, request.tournament, lock=True)
        command = _player_command(tx, player, request)
        new = decide(loaded.state, command, now=now)
        write(
            tx, Work(tournaments=(TournamentWrite(loaded.tournament_id, loaded.seq, tuple(new)),))
        )
        state = fold(new, loaded.state)
        caused = TournamentOutcome(log=[f"{state.name}: {address} {request.kind}"])
        if request.kind == "withdraw":
            caused.add(_withdrawal_notice(tx, sender, state, address))
        return _Result(line, "done", wording.confirmation(state, request.kind)), caused
    game_id = request.game or ""
    loaded = _load(tx, _tournament_of(tx, game_id), lock=True)
    if request.kind == "audit":  # asks for mail, changes nothing
        sent = games_directed.audit_again(tx, sender, loaded.state, game_id, address, now)
        return _Result(line, "done", [f"The audit of {game_id} is on its way."]), sent
    return _direct(tx, player, request, loaded, sender, now)


def _load(tx: Tx, name: str, *, lock: bool = False) -> stored.LoadedTournament:
    try:
        return stored.load(tx, name, lock=lock)
    except TournamentNotFoundError as exc:
        raise TournamentError(err.E_UNKNOWN, f"there is no tournament called {name}") from exc


def _tournament_of(tx: Tx, game_id: str) -> str:
    try:
        name = tx.record(game_id).tournament
    except GameNotFoundError as exc:
        raise TournamentError(err.E_GAME, f"there is no game {game_id}") from exc
    if not name:
        raise TournamentError(err.E_GAME, f"{game_id} is not a tournament game")
    return str(name)


def _player_command(tx: Tx, player: Player, request: Request) -> cmd.Command:
    address = player.address
    match request.kind:
        case "join":
            return cmd.Join(
                player=address, name=player.name, record=stored.reliability(tx, address)
            )
        case "leave":
            return cmd.Leave(player=address)
        case "withdraw":
            return cmd.Withdraw(player=address)
        case _:
            return cmd.Standby(player=address, name=player.name)


def _create(tx: Tx, player: Player, request: Request, now: datetime) -> _Result:
    assert request.settings is not None and request.tournament is not None
    name = request.tournament
    if not player.has_role(DIRECTOR):
        raise TournamentError(err.E_DIRECTOR, "only a tournament director may create a tournament")
    if stored.exists(tx, name):
        raise TournamentError(err.E_EXISTS, f"there is already a tournament called {name}")
    settings = _checked_clock(request.settings)
    command = cmd.CreateTournament(
        tournament=name,
        by=player.address,
        by_name=player.name,
        may_direct=player.has_role(DIRECTOR),
        settings=settings,
    )
    new = decide(TournamentState(), command, now=now)
    write(tx, Work(tournaments=(TournamentWrite(name, 0, tuple(new), player.address),)))
    lines = [
        f"The tournament {name} is open for sign-up ('join tournament {name}').",
        *settings.describe(),
    ]
    return _Result(request.line, "done", lines)


def _checked_clock(settings: Settings) -> Settings:
    """The settings with the clock's keys spelt out, checked against ``TimeLimits``."""
    known = {f.name for f in fields(timing.TimeLimits)}

    def spelt(mapping: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in mapping.items():
            name = _ALIASES.get(key, key)
            if name not in known:
                allowed = ", ".join(sorted({*known, *_ALIASES}))
                raise TournamentError(err.E_SETTINGS, f"{key!r} is not a clock setting ({allowed})")
            if name == "reminder_hours":
                value = [float(v) for v in str(value).split(",") if v]
            out[name] = value
        return out

    try:
        timing_part, absence_part = spelt(settings.time_limits), spelt(settings.absence)
        timing.TimeLimits.from_json({**timing_part, **absence_part})
    except TournamentError:
        raise
    except (TypeError, ValueError) as exc:
        raise TournamentError(err.E_SETTINGS, f"the clock settings cannot be used: {exc}") from exc
    return Settings(
        **{f.name: getattr(settings, f.name) for f in fields(Settings)}
        | {"time_limits": timing_part, "absence": absence_part}
    )


# -- the director's lines -------------------------------------------------------------------


def _direct(
    tx: Tx,
    player: Player,
    request: Request,
    loaded: stored.LoadedTournament,
    sender: str,
    now: datetime,
) -> tuple[_Result, TournamentOutcome]:
    game_id = request.game or ""
    by = player.address
    state = loaded.state
    new_player: Player | None = None
    command: cmd.Command
    match request.kind:
        case "pause":
            command = cmd.PauseGame(by=by, game=game_id)
        case "resume":
            command = cmd.ResumeGame(by=by, game=game_id)
        case "extend":
            command = cmd.ExtendDeadline(by=by, game=game_id, hours=request.hours or 0)
        case "end":
            command = cmd.EndGame(by=by, game=game_id)
        case _:
            if request.address is not None:
                new_player = players.player_by_address(tx, request.address)
                if new_player is None:
                    raise TournamentError(
                        err.E_PLAYER,
                        f"nobody is registered with {request.address}: he signs on by mail first",
                    )
            command = cmd.ReplaceSeat(
                by=by,
                game=game_id,
                seat=request.seat or "",
                new=new_player.address if new_player else None,
                new_name=new_player.name if new_player else "",
            )
    new = decide(state, command, now=now)
    if isinstance(new[0], tev.SeatReplaced):
        _reseat(tx, new[0])  # before the event is stored: a refusal changes nothing
    if isinstance(new[0], tev.GameEndedByDirector) and tx.load(game_id).state.step is Step.OVER:
        raise TournamentError(err.E_GAME_OVER, f"{game_id} is over already: it counts as played")
    write(tx, Work(tournaments=(TournamentWrite(loaded.tournament_id, loaded.seq, tuple(new)),)))
    after = fold(new, state)
    game = after.games[game_id]
    out = TournamentOutcome(log=[f"{after.name}: {request.kind} {game_id} by {by}"])
    match new[0]:
        case tev.GamePaused():
            lines = games_directed.pause_game(tx, game_id, now)
            heading = f"The tournament director has paused the game {game_id}."
        case tev.GameResumed():
            lines = games_directed.resume_game(tx, game_id, now)
            heading = f"The tournament director has resumed the game {game_id}."
        case tev.DeadlineExtended(hours=hours):
            lines = games_directed.extend_deadline(tx, game_id, hours, now)
            heading = (
                f"The tournament director has extended the deadline of {game_id} by {hours} hours."
            )
        case tev.SeatReplaced() as replaced:
            out.add(games_directed.seat_handed_over(tx, sender, after, game, replaced, now))
            return _Result(
                request.line, "done", [f"{replaced.seat} in {game_id} is now {replaced.new}."]
            ), out
        case _:
            out.add(games_directed.stop_game(tx, sender, game_id, now))
            out.add(record_finished(tx, sender, game_id, now))
            return _Result(request.line, "done", [f"{game_id} is stopped and scored (20.5)."]), out
    out.mails.extend(to_seats(tx, sender, game, heading, lines))
    return _Result(request.line, "done", [heading, *lines]), out


def _reseat(tx: Tx, replaced: tev.SeatReplaced) -> None:
    try:
        write(tx, Work(reseats=((replaced.game, replaced.seat, replaced.new),)))
    except StoreError as exc:
        raise TournamentError(err.E_SEATED, str(exc)) from exc


def _withdrawal_notice(
    tx: Tx, sender: str, state: TournamentState, player: str
) -> TournamentOutcome:
    told = wording.withdrawal(state, player)
    director = players.player_by_address(tx, state.director)
    if told is None or director is None:
        return TournamentOutcome()
    return TournamentOutcome([notice(sender, director, *told, None)])


__all__ = [
    "TournamentOutcome",
    "carry_out",
    "finish_games",
    "form_games",
    "form_games_in",
    "game_finished",
    "games_named",
    "record_game_finished",
    "record_reliability",
    "tournament_lines",
]
