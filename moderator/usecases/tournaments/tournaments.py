"""
Tournaments by mail: the shell around the pure ``moderator.tournament`` core.

What the mail handler and the tournament runner call:

- ``tournament_lines(lines)``: which of a mail's lines are tournament lines;
- ``carry_out(mail, lookup, now)``: an authenticated player's (or director's)
  tournament lines.  Each line must see what the line before it did, so the outcome is
  a chain (``Outcome.then``): the runner applies one line's changes, in the mail's
  transaction, before the next line is decided; the last outcome holds the mails (the
  answer first, then notices to others) and the lines for the log;
- ``form_games_in``, ``record_finished`` (``tournament_games``: games and standings);
- ``reliability_write`` (``reliability``): moves made in time and timeouts, for the
  standings and the minimum to join.

A tournament line that is refused changes nothing and does not stop the lines after
it: each is answered on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from moderator.letters import tournaments as wording
from moderator.letters.moments import moment_line
from moderator.ports import (
    Lookup,
    Outcome,
    OutgoingMail,
    Player,
    TournamentWrite,
)
from moderator.ports.games import LoadedTournament
from moderator.ports.players import DIRECTOR
from moderator.records import record
from moderator.rules.state import Step
from moderator.tournament import commands as cmd
from moderator.tournament import errors as err
from moderator.tournament import events as tev
from moderator.tournament.decide import decide
from moderator.tournament.errors import TournamentError
from moderator.tournament.lines import Request, parse_line
from moderator.tournament.lines import tournament_lines as _tournament_lines
from moderator.tournament.state import TournamentState
from moderator.tournament.state import replay as fold
from moderator.usecases.games import notify
from moderator.usecases.tournaments import games_directed
from moderator.usecases.tournaments.clock_settings import checked_clock
from moderator.usecases.tournaments.tournament_games import (
    GameOver,
    notice,
    record_finished,
    to_seats,
)


@dataclass
class _Result:
    """What became of one tournament line."""

    line: str
    outcome: str  # "done", "refused", "answered"
    lines: list[str] = field(default_factory=list)
    code: str = ""
    reason: str = ""
    hint: str = ""  # a tournament line's refusal lists no legal lines


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


@record
class LinesMail:
    """
    The tournament lines of an authenticated ``player``'s mail, to answer from
    ``moderator_address`` with ``headers``; ``others``: the mail's lines that are not
    read (listed in the answer, with ``others_why``).  ``operator``: the service's
    operator gives the director's lines (the command line's ``tournament direct``),
    answered to ``player``, the tournament's director.
    """

    player: Player
    lines: tuple[str, ...]
    moderator_address: str
    headers: Mapping[str, str] = field(default_factory=dict)
    others: tuple[str, ...] = ()
    others_why: str = ""
    operator: bool = False


@dataclass
class _Progress:
    """What the lines decided so far came to (a chain's state, made anew each decision)."""

    results: list[_Result] = field(default_factory=list)
    mails: list[OutgoingMail] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


Then = Callable[[Lookup, datetime], Outcome]


def carry_out(mail: LinesMail, lookup: Lookup, now: datetime) -> Outcome:
    """
    The mail's tournament lines, as a chain of outcomes: the first line's changes, then
    (once the runner applied them) the next line decided on what they left, and so on;
    the last outcome holds the answer to him (line by line), the mails the lines cause
    for others, and the log's lines.

    Raises:
        ConflictError: a tournament or game moved on meanwhile (the runner decides again).
    """
    return _from(mail, 0, _Progress(), lookup, now)


def _from(mail: LinesMail, index: int, progress: _Progress, lookup: Lookup, now: datetime) -> Outcome:
    """Lines ``index`` and after: the next line that changes something, or the answer."""
    while index < len(mail.lines):
        line = mail.lines[index]
        index += 1
        try:
            request = parse_line(line)
            result, outcome = _carry_out_one(lookup, mail, request, now)
        except TournamentError as exc:
            progress.results.append(_Result(line.strip(), "refused", code=exc.code, reason=str(exc)))
            continue
        progress.results.append(result)
        return _held(outcome, progress, _rest(mail, index, progress))
    return _answer(mail, progress, now)


def _rest(mail: LinesMail, index: int, progress: _Progress) -> Then:
    """The decision of line ``index`` and those after it, to take once the lines before
    it are applied."""
    return lambda lookup, now: _from(mail, index, progress, lookup, now)


def _held(outcome: Outcome, progress: _Progress, after: Then) -> Outcome:
    """``outcome`` to apply now, its mails and log kept for the answer's outcome, then ``after``."""
    progress.mails.extend(outcome.mails)
    progress.log.extend(outcome.log)
    first = outcome.then
    if first is None:
        return outcome.but(mails=(), log=(), then=after)
    return outcome.but(
        mails=(), log=(), then=lambda lookup, now: _held(first(lookup, now), progress, after)
    )


def _answer(mail: LinesMail, progress: _Progress, now: datetime) -> Outcome:
    """The answer to the mail (his lines are quoted in the private part only: never signed)."""
    results, player = progress.results, mail.player
    mails = list(progress.mails)
    if results or mail.others:
        texts = wording.reply(
            f"your mail read {moment_line(now, player.time_zone)}",
            mail.headers.get("In-Reply-To", ""),
            results,
            mail.others,
            mail.others_why,
        )
        answer = notify.mail_to(mail.moderator_address, player, notify.REPLY, texts, None, mail.headers)
        mails.insert(0, answer)
    log = tuple(progress.log)
    return Outcome(mails=tuple(mails), log=log, note="; ".join(log))


def _carry_out_one(
    lookup: Lookup, mail: LinesMail, request: Request, now: datetime
) -> tuple[_Result, Outcome]:
    player, sender = mail.player, mail.moderator_address
    address = player.address
    line = request.line
    if request.kind == "create":
        return _create(lookup, player, request, now)
    if request.kind == "standings":
        loaded = _load(lookup, request.tournament or "")
        text = wording.standings(loaded.state)
        return _Result(line, "answered", text.splitlines()), Outcome()
    if request.tournament is not None:
        loaded = _load(lookup, request.tournament)
        command = _player_command(lookup, player, request)
        new = decide(loaded.state, command, now=now)
        written = TournamentWrite(loaded.tournament_id, loaded.seq, tuple(new))
        state = fold(new, loaded.state)
        mails: tuple[OutgoingMail, ...] = ()
        log = (f"{state.name}: {address} {request.kind}",)
        outcome = Outcome(tournaments=(written,), mails=mails, log=log)
        if request.kind == "withdraw":  # the director told; his seats kept where games keep them
            outcome = outcome.but(mails=_withdrawal_notice(lookup, sender, state, address))
            left = games_directed.Withdrawn(state, address, sender)
            outcome = outcome.followed_by(
                lambda lookup, now: games_directed.seats_left(left, lookup, now)
            )
        return _Result(line, "done", wording.confirmation(state, request.kind)), outcome
    game_id = request.game or ""
    loaded = _load(lookup, _tournament_of(lookup, game_id))
    if request.kind == "audit":  # asks for mail, changes nothing
        asker = loaded.state.director if mail.operator else address
        ask = games_directed.AuditAgain(loaded.state, game_id, asker, sender)
        sent = games_directed.audit_again(ask, lookup, now)
        return _Result(line, "done", [f"The audit of {game_id} is on its way."]), sent
    return _direct(lookup, Director(player, mail.operator), request, loaded, sender, now)


def _load(lookup: Lookup, name: str) -> LoadedTournament:
    loaded = lookup.tournament(name)
    if loaded is None:
        raise TournamentError(err.E_UNKNOWN, f"there is no tournament called {name}")
    return loaded


def _tournament_of(lookup: Lookup, game_id: str) -> str:
    record = lookup.record(game_id)
    if record is None:
        raise TournamentError(err.E_GAME, f"there is no game {game_id}")
    if not record.tournament:
        raise TournamentError(err.E_GAME, f"{game_id} is not a tournament game")
    return str(record.tournament)


def _player_command(lookup: Lookup, player: Player, request: Request) -> cmd.Command:
    address = player.address
    match request.kind:
        case "join":
            return cmd.Join(player=address, name=player.name, record=lookup.reliability(address))
        case "leave":
            return cmd.Leave(player=address)
        case "withdraw":
            return cmd.Withdraw(player=address)
        case _:
            return cmd.Standby(player=address, name=player.name)


def _create(
    lookup: Lookup, player: Player, request: Request, now: datetime
) -> tuple[_Result, Outcome]:
    assert request.settings is not None and request.tournament is not None
    name = request.tournament
    if not player.has_role(DIRECTOR):
        raise TournamentError(err.E_DIRECTOR, "only a tournament director may create a tournament")
    if lookup.tournament_head(name) is not None:
        raise TournamentError(err.E_EXISTS, f"there is already a tournament called {name}")
    settings = checked_clock(request.settings)
    command = cmd.CreateTournament(
        tournament=name,
        by=player.address,
        by_name=player.name,
        may_direct=player.has_role(DIRECTOR),
        settings=settings,
    )
    new = decide(TournamentState(), command, now=now)
    created = TournamentWrite(name, 0, tuple(new), player.address)
    lines = [
        f"The tournament {name} is open for sign-up ('join tournament {name}').",
        *settings.describe(),
    ]
    return _Result(request.line, "done", lines), Outcome(tournaments=(created,))


# -- the director's lines -------------------------------------------------------------------


@record
class Director:
    """Who gives a director's line: the tournament's director, or the service's operator
    (``operator``; ``player`` is then the director, whom the answer goes to)."""

    player: Player
    operator: bool = False

    @property
    def by(self) -> str:
        """Who the tournament's history says gave the line."""
        return cmd.OPERATOR if self.operator else self.player.address

    @property
    def title(self) -> str:
        """Who the players are told did it (a sentence's first words)."""
        return wording.directed_by(self.by).capitalize()


def _direct(
    lookup: Lookup,
    director: Director,
    request: Request,
    loaded: LoadedTournament,
    sender: str,
    now: datetime,
) -> tuple[_Result, Outcome]:
    game_id = request.game or ""
    by, operator = director.by, director.operator
    state = loaded.state
    new_player: Player | None = None
    command: cmd.Command
    match request.kind:
        case "pause":
            command = cmd.PauseGame(by=by, game=game_id, operator=operator)
        case "resume":
            command = cmd.ResumeGame(by=by, game=game_id, operator=operator)
        case "extend":
            command = cmd.ExtendDeadline(
                by=by, game=game_id, hours=request.hours or 0, operator=operator
            )
        case "end":
            command = cmd.EndGame(by=by, game=game_id, operator=operator)
        case _:
            if request.address is not None:
                new_player = lookup.player(request.address)
                if new_player is None:
                    raise TournamentError(
                        err.E_PLAYER,
                        f"nobody is registered with {request.address}: he signs on by mail first",
                    )
            command = cmd.ReplaceSeat(
                by=by,
                operator=operator,
                game=game_id,
                seat=request.seat or "",
                new=new_player.address if new_player else None,
                new_name=new_player.name if new_player else "",
            )
    new = decide(state, command, now=now)
    reseats: tuple[tuple[str, str, str], ...] = ()
    if isinstance(new[0], tev.SeatReplaced):
        reseats = (_reseat(lookup, new[0]),)  # refused here: a refusal changes nothing
    if isinstance(new[0], tev.GameEndedByDirector):
        played = lookup.game(game_id)
        if played is not None and played.state.step is Step.OVER:
            raise TournamentError(err.E_GAME_OVER, f"{game_id} is over already: it counts as played")
    written = Outcome(
        tournaments=(TournamentWrite(loaded.tournament_id, loaded.seq, tuple(new)),),
        reseats=reseats,
        log=(f"{state.name}: {request.kind} {game_id} by {by}",),
    )
    after = fold(new, state)
    game = after.games[game_id]
    changed = None
    match new[0]:
        case tev.GamePaused():
            lines, changed = games_directed.pause_game(games_directed.game_of(lookup, game_id), now)
            heading = f"{director.title} has paused the game {game_id}."
        case tev.GameResumed():
            held = games_directed.game_of(lookup, game_id)
            lines, changed = games_directed.resume_game(held, now)
            heading = f"{director.title} has resumed the game {game_id}."
        case tev.DeadlineExtended(hours=hours):
            lines, changed = games_directed.extend_deadline(
                games_directed.game_of(lookup, game_id), hours, now
            )
            heading = (
                f"{director.title} has extended the deadline of {game_id} by {hours} hours."
            )
        case tev.SeatReplaced() as replaced:
            # the seat's report goes to whoever holds it once the seat is handed over
            handed = games_directed.HandOver(after, game, replaced, sender, director.by)

            def report(lookup: Lookup, now: datetime) -> Outcome:
                return games_directed.seat_handed_over(handed, lookup, now)

            done = [f"{replaced.seat} in {game_id} is now {replaced.new}."]
            return _Result(request.line, "done", done), written.followed_by(report)
        case _:
            stop = games_directed.StopGame(game_id, sender)
            stopped = games_directed.stop_game(stop, lookup, now)

            def scored(lookup: Lookup, now: datetime) -> Outcome:
                return record_finished(GameOver(game_id, sender), lookup, now)

            both = written.but(
                games=stopped.games, mails=stopped.mails, log=written.log + stopped.log
            )
            done = [f"{game_id} is stopped and scored (20.5)."]
            return _Result(request.line, "done", done), both.followed_by(scored)
    mails = to_seats(lookup, sender, game, heading, lines)
    games = (changed,) if changed is not None else ()
    return _Result(request.line, "done", [heading, *lines]), written.but(
        games=games, mails=tuple(mails)
    )


def _reseat(lookup: Lookup, replaced: tev.SeatReplaced) -> tuple[str, str, str]:
    """The seat handed over, as the unit of work writes it; refused as the store would."""
    seats = lookup.seats(replaced.game)  # address -> seat
    address = replaced.new.strip().lower()
    if lookup.player(address) is None:
        why = f"no player is registered with the address {address!r}"
        raise TournamentError(err.E_SEATED, why)
    held = seats.get(address)
    if held is not None:
        why = f"{address!r} has the seat {held!r} in game {replaced.game!r} already"
        raise TournamentError(err.E_SEATED, why)
    if replaced.seat not in seats.values():
        raise TournamentError(err.E_SEATED, f"game {replaced.game!r} has no seat {replaced.seat!r}")
    return (replaced.game, replaced.seat, replaced.new)


def _withdrawal_notice(
    lookup: Lookup, sender: str, state: TournamentState, player: str
) -> tuple[OutgoingMail, ...]:
    told = wording.withdrawal(state, player)
    director = lookup.player(state.director)
    if told is None or director is None:
        return ()
    return (notice(sender, director, *told, None),)


__all__ = [
    "LinesMail",
    "carry_out",
    "games_named",
    "tournament_lines",
]
