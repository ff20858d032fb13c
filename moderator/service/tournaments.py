"""
Tournaments by mail: the shell around the pure ``moderator.tournament`` core.

What the mail handler and the service's clock call:

- ``tournament_lines(lines)``: which of a mail's lines are tournament lines;
- ``carry_out(tx, player, lines, moderator_address=..., now=...)``: an authenticated
  player's (or director's) tournament lines, in the mail's transaction; returns the
  mails (the answer, and notices to others) for the outbox and lines for the log;
- ``form_games(store, moderator_address, now, seed)``: forms the games every tournament
  can form, creates and seats them, and mails their players (each tournament in a
  transaction of its own);
- ``game_finished(store, moderator_address, game_id)`` (or ``record_game_finished`` in a
  transaction): records a finished game's result and mails the standings; idempotent;
  ``finish_games`` does it for every finished tournament game;
- ``record_reliability(tx, game_id, seat, on_time=..., timeouts=..., now=...)``: moves
  made in time and timeouts, for the standings and the minimum to join.

A tournament line that is refused changes nothing and does not stop the lines after
it: each is answered on its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any

from moderator.game import CountingDice
from moderator.reporting.render import render
from moderator.rules import setup
from moderator.rules.decide import advance
from moderator.rules.evolve import replay
from moderator.rules.state import GameState, Step
from moderator.service import auth, clockwork, notify, reports, timing
from moderator.service.notices import NOTICE
from moderator.store import deadlines, players
from moderator.store import tournaments as stored
from moderator.store.deadlines import GAME_END, DeadlineChange
from moderator.store.errors import ConflictError, GameNotFoundError, StoreError
from moderator.store.eventstore import EventStore, LoadedGame, Tx
from moderator.store.inbox import GameContext, Lookup
from moderator.store.outbox import OutgoingMail, add_mails
from moderator.store.players import DIRECTOR, Player
from moderator.tournament import commands as cmd
from moderator.tournament import errors as err
from moderator.tournament import events as tev
from moderator.tournament import texts as wording
from moderator.tournament.decide import decide
from moderator.tournament.errors import TournamentError
from moderator.tournament.lines import Request, parse_line
from moderator.tournament.lines import tournament_lines as _tournament_lines
from moderator.tournament.scoring import game_result, stop_events
from moderator.tournament.settings import OPTION_TOURNAMENT, Settings
from moderator.tournament.standings import standings
from moderator.tournament.state import TournamentGame, TournamentState
from moderator.tournament.state import replay as fold

#: The game option holding a paused game's stopped clock (``pause G``).
PAUSED = "paused"
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
class TournamentOutcome:
    """Mails for the outbox and lines for the log."""

    mails: list[OutgoingMail] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def add(self, other: TournamentOutcome) -> None:
        self.mails.extend(other.mails)
        self.log.extend(other.log)


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


# -- a mail's tournament lines ------------------------------------------------------------


def carry_out(
    tx: Tx,
    player: Player,
    lines: Sequence[str],
    *,
    moderator_address: str,
    now: datetime,
    headers: Mapping[str, str] | None = None,
) -> TournamentOutcome:
    """
    The tournament lines of an authenticated ``player``'s mail, carried out in ``tx``:
    the answer to him (line by line) and the mails the lines cause for others.

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
    if results:
        text = render(
            "tournament.reply.txt.j2",
            message_id=(headers or {}).get("In-Reply-To", ""),
            results=results,
            done=sum(r.outcome == "done" for r in results),
            refused=sum(r.outcome == "refused" for r in results),
            answered=sum(r.outcome == "answered" for r in results),
        )
        texts = reports.Texts("Re: your tournament lines", text)
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
        text = _standings_text(loaded.state)
        return _Result(line, "answered", text.splitlines()), TournamentOutcome()
    if request.tournament is not None:
        loaded = _load(tx, request.tournament, lock=True)
        command = _player_command(tx, player, request)
        new = decide(loaded.state, command, now=now)
        stored.append(tx, loaded.tournament_id, loaded.seq, new)
        state = fold(new, loaded.state)
        caused = TournamentOutcome(log=[f"{state.name}: {address} {request.kind}"])
        if request.kind == "withdraw":
            caused.add(_withdrawal_notice(tx, sender, state, address))
        return _Result(line, "done", wording.confirmation(state, request.kind)), caused
    game_id = request.game or ""
    loaded = _load(tx, _tournament_of(tx, game_id), lock=True)
    return _direct(tx, player, request, loaded, sender, now)


def _load(tx: Tx, name: str, *, lock: bool = False) -> stored.LoadedTournament:
    try:
        return stored.load(tx, name, lock=lock)
    except stored.TournamentNotFoundError as exc:
        raise TournamentError(err.E_UNKNOWN, f"there is no tournament called {name}") from exc


def _tournament_of(tx: Tx, game_id: str) -> str:
    try:
        options = tx.options(game_id)
    except GameNotFoundError as exc:
        raise TournamentError(err.E_GAME, f"there is no game {game_id}") from exc
    name = options.get(OPTION_TOURNAMENT)
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
    stored.create(tx, name, player.address)
    stored.append(tx, name, 0, new)
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
        timing.TimeLimits.from_options({timing.TIME_LIMITS: {**timing_part, **absence_part}})
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
    stored.append(tx, loaded.tournament_id, loaded.seq, new)
    after = fold(new, state)
    game = after.games[game_id]
    out = TournamentOutcome(log=[f"{after.name}: {request.kind} {game_id} by {by}"])
    match new[0]:
        case tev.GamePaused():
            lines = _pause(tx, game_id, now)
            heading = f"The tournament director has paused the game {game_id}."
        case tev.GameResumed():
            lines = _resume(tx, game_id, now)
            heading = f"The tournament director has resumed the game {game_id}."
        case tev.DeadlineExtended(hours=hours):
            lines = _extend(tx, game_id, hours, now)
            heading = (
                f"The tournament director has extended the deadline of {game_id} by {hours} hours."
            )
        case tev.SeatReplaced() as replaced:
            out.add(_seat_handed_over(tx, sender, after, game, replaced, now))
            return _Result(
                request.line, "done", [f"{replaced.seat} in {game_id} is now {replaced.new}."]
            ), out
        case _:
            out.add(_stop(tx, sender, game_id, now))
            out.add(_record_finished(tx, sender, game_id, now))
            return _Result(request.line, "done", [f"{game_id} is stopped and scored (20.5)."]), out
    out.mails.extend(_to_seats(tx, sender, game, heading, lines))
    return _Result(request.line, "done", [heading, *lines]), out


def _reseat(tx: Tx, replaced: tev.SeatReplaced) -> None:
    try:
        stored.reseat(tx, replaced.game, replaced.seat, replaced.new)
    except StoreError as exc:
        raise TournamentError(err.E_SEATED, str(exc)) from exc


def _game_context(tx: Tx, game_id: str) -> tuple[GameContext, LoadedGame]:
    loaded = tx.load(game_id, lock=True)
    context = GameContext(
        game_id, loaded.state, loaded.seq, loaded.options, players.seats(tx, game_id)
    )
    return context, loaded


def _pause(tx: Tx, game_id: str, now: datetime) -> list[str]:
    """Stop the game's clock: its limits are kept aside, its deadlines cancelled."""
    loaded = tx.load(game_id, lock=True)
    options = dict(loaded.options)
    kept = options.pop(timing.TIME_LIMITS, None)
    options.pop(timing.DEADLINE, None)
    options.pop(timing.DEADLINE_STEP, None)
    options[PAUSED] = {"at": timing.iso(now), "time_limits": kept}
    seq = tx.append(game_id, loaded.seq, [], options=options)
    deadlines.apply(tx, game_id, DeadlineChange("", None), seq)
    deadlines.apply(tx, game_id, DeadlineChange(GAME_END, None), seq)
    return ["No deadline runs until the game is resumed; orders are still carried out."]


def _resume(tx: Tx, game_id: str, now: datetime) -> list[str]:
    """Start the clock again: a fresh deadline for the player to act, the end date moved on."""
    loaded = tx.load(game_id, lock=True)
    options = dict(loaded.options)
    paused = dict(options.pop(PAUSED, None) or {})
    changes: list[DeadlineChange] = []
    if paused.get("time_limits") is not None:
        options[timing.TIME_LIMITS] = paused["time_limits"]
    since = timing.moment(paused.get("at")) or now
    lines = [f"The game was paused for {_span(now - since)}."]
    ends = timing.ends_at(options)
    if ends is not None:
        ends += now - since
        options[timing.ENDS_AT] = timing.iso(ends)
        changes.append(DeadlineChange(GAME_END, ends))
        lines.append(f"Its time limit is now reached at {timing.iso(ends)}.")
    options, change = timing.follow(loaded.state, options, now)
    changes.extend(notify.deadline_change(change))
    seq = tx.append(game_id, loaded.seq, [], options=options)
    for row in changes:
        deadlines.apply(tx, game_id, row, seq)
    lines.append(f"Deadline: {reports.deadline_line(options)}.")
    return lines


def _extend(tx: Tx, game_id: str, hours: int, now: datetime) -> list[str]:
    loaded = tx.load(game_id, lock=True)
    options, change = timing.extend(loaded.options, timedelta(hours=hours), now)
    if change is None:
        return ["No deadline is running in the game now: nothing was moved."]
    seq = tx.append(game_id, loaded.seq, [], options=options)
    for row in notify.deadline_change(change):
        deadlines.apply(tx, game_id, row, seq)
    return [f"Deadline now: {reports.deadline_line(options)}."]


def _stop(tx: Tx, sender: str, game_id: str, now: datetime) -> TournamentOutcome:
    """End the game now, scored by rulebook 20.5: reports and the result to every player."""
    context, loaded = _game_context(tx, game_id)
    new = stop_events(loaded.state)
    if not new:
        return TournamentOutcome()
    state = replay(new, loaded.state)
    settled = notify.settle(sender, context, Lookup(tx), new, state, loaded.options, now)
    seq = tx.append(game_id, loaded.seq, new, options=settled.options, state=state)
    for row in (*settled.deadlines, DeadlineChange(GAME_END, None)):
        deadlines.apply(tx, game_id, row, seq)
    return TournamentOutcome(settled.mails, [f"{game_id}: stopped by the director and scored"])


def _seat_handed_over(
    tx: Tx,
    sender: str,
    state: TournamentState,
    game: TournamentGame,
    replaced: tev.SeatReplaced,
    now: datetime,
) -> TournamentOutcome:
    """The seat's report to its new holder (what the seat may see), and word to everyone."""
    context, loaded = _game_context(tx, game.game)
    settled = notify.settle(
        sender, context, Lookup(tx), [], loaded.state, loaded.options, now, {replaced.seat}
    )
    seq = tx.append(game.game, loaded.seq, [], options=settled.options)
    for row in settled.deadlines:
        deadlines.apply(tx, game.game, row, seq)
    heading, to_new, to_old, to_others = wording.replacement(state, replaced)
    mails: list[OutgoingMail] = []
    for address, lines in ((replaced.new, to_new), (replaced.old, to_old)):
        player = players.player_by_address(tx, address)
        if player is not None:
            mails.append(_notice(sender, player, heading, lines, game.game))
    others = [p for p in game.players if p != replaced.new]
    mails.extend(_to_seats(tx, sender, game, heading, to_others, only=others))
    mails.extend(settled.mails)
    return TournamentOutcome(
        mails, [f"{game.game}: {replaced.seat} {replaced.old} -> {replaced.new}"]
    )


def _withdrawal_notice(
    tx: Tx, sender: str, state: TournamentState, player: str
) -> TournamentOutcome:
    notice = wording.withdrawal(state, player)
    director = players.player_by_address(tx, state.director)
    if notice is None or director is None:
        return TournamentOutcome()
    return TournamentOutcome([_notice(sender, director, *notice, None)])


# -- forming games --------------------------------------------------------------------------


def form_games(store: EventStore, moderator_address: str, now: datetime, seed: int) -> list[str]:
    """
    Form every game the tournaments can form now, each tournament in a transaction of
    its own; the games are created, seated and mailed.  Returns lines for the log.
    """
    with store.reading() as tx:
        names = stored.tournament_ids(tx, finished=False)
    log: list[str] = []
    for name in names:
        try:
            with store.transaction() as tx:
                outcome = form_games_in(tx, name, moderator_address, now, seed)
                add_mails(tx, outcome.mails)
        except ConflictError:
            log.append(f"{name}: changed meanwhile; its games are formed at the next round")
            continue
        log.extend(outcome.log)
    return log


def form_games_in(
    tx: Tx, tournament_id: str, moderator_address: str, now: datetime, seed: int
) -> TournamentOutcome:
    """``form_games`` for one tournament, in ``tx``."""
    loaded = stored.load(tx, tournament_id, lock=True)
    new = decide(loaded.state, cmd.FormGames(seed=seed, taken=frozenset(tx.games())), now=now)
    if not new:
        return TournamentOutcome()
    stored.append(tx, tournament_id, loaded.seq, new)
    state = fold(new, loaded.state)
    out = TournamentOutcome()
    for event in new:
        if isinstance(event, tev.GameFormed):
            out.add(_start(tx, moderator_address, state, event, now, _game_seed(seed, event.game)))
        elif isinstance(event, tev.TournamentFinished):
            out.add(_standings_to_all(tx, moderator_address, state, None))
            out.log.append(f"{tournament_id}: finished")
    return out


def _game_seed(seed: int, game_id: str) -> int:
    digest = hashlib.sha256(f"{seed}:{game_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def _start(
    tx: Tx, sender: str, state: TournamentState, formed: tev.GameFormed, now: datetime, seed: int
) -> TournamentOutcome:
    """Create the game (tower rolls), seat its players, start its clock, mail them."""
    names = [seat for seat, _ in formed.seats]
    dice = CountingDice(seed=seed)
    events = setup.start_game(names, dice)
    events += advance(replay(events))
    game_state = replay(events)
    settings = state.settings
    options: dict[str, Any] = {
        "players": names,
        "from_position": False,
        **dice.options(),
        OPTION_TOURNAMENT: state.name,
        auth.ALLOW_SECRETS: settings.allow_secrets,
    }
    tx.create_game(formed.game, {**options, "dice_rolled": 0})
    for seat, address in formed.seats:
        players.seat_player(tx, formed.game, seat, address)
    options, changes = clockwork.time_limit_options(
        game_state, options, now, settings.limits(), settings.ends_at(now)
    )
    context = GameContext(formed.game, GameState(), 0, options, players.seats(tx, formed.game))
    options, reports_out = notify.report_round(
        sender, context, Lookup(tx), events, game_state, options, set()
    )
    seq = tx.append(formed.game, 0, events, options=options, state=game_state)
    for change in changes:
        deadlines.apply(tx, formed.game, change, seq)
    ends = settings.ends_at(now)
    seats = [{"seat": seat, "name": state.name_of(address)} for seat, address in formed.seats]
    mails: list[OutgoingMail] = []
    for seat, address in formed.seats:
        player = players.player_by_address(tx, address)
        if player is None:
            continue
        text = render(
            "tournament.game-start.txt.j2",
            tournament=state.name,
            game=formed.game,
            seat=seat,
            seats=seats,
            settings=settings.describe(),
            ends_at=reports.moment_line(ends, player.time_zone) if ends else "",
        )
        texts = reports.Texts(f"Tournament {state.name}: your game {formed.game}", text)
        mails.append(notify.mail_to(sender, player, NOTICE, texts, formed.game, {}))
    who = ", ".join(f"{seat} <{address}>" for seat, address in formed.seats)
    return TournamentOutcome([*mails, *reports_out], [f"{state.name}: formed {formed.game}: {who}"])


# -- finished games -------------------------------------------------------------------------


def game_finished(store: EventStore, moderator_address: str, game_id: str) -> list[str]:
    """
    Record the result of ``game_id`` if it is a finished tournament game whose result is
    not recorded yet, and mail the standings to every player of the tournament
    (idempotent: nothing happens the second time).  Returns lines for the log.
    """
    with store.transaction() as tx:
        outcome = record_game_finished(tx, moderator_address, game_id, tx.now())
        add_mails(tx, outcome.mails)
    return outcome.log


def finish_games(store: EventStore, moderator_address: str) -> list[str]:
    """``game_finished`` for every game of an unfinished tournament that is over."""
    with store.reading() as tx:
        over = []
        for name in stored.tournament_ids(tx, finished=False):
            state = stored.load(tx, name).state
            for game in state.unfinished:
                if tx.load(game.game).state.step is Step.OVER:
                    over.append(game.game)
    log: list[str] = []
    for game_id in over:
        try:
            log.extend(game_finished(store, moderator_address, game_id))
        except ConflictError:
            log.append(f"{game_id}: its tournament changed meanwhile; recorded at the next round")
    return log


def record_game_finished(
    tx: Tx, moderator_address: str, game_id: str, now: datetime
) -> TournamentOutcome:
    """``game_finished`` in ``tx`` (the mails are returned, not stored)."""
    return _record_finished(tx, moderator_address, game_id, now)


def _record_finished(tx: Tx, sender: str, game_id: str, now: datetime) -> TournamentOutcome:
    try:
        name = tx.options(game_id).get(OPTION_TOURNAMENT)
    except GameNotFoundError:
        return TournamentOutcome()
    if not name or not stored.exists(tx, str(name)):
        return TournamentOutcome()
    loaded = stored.load(tx, str(name), lock=True)
    game = loaded.state.games.get(game_id)
    if game is None or game.finished:
        return TournamentOutcome()
    played = tx.load(game_id)
    if played.state.step is not Step.OVER:
        return TournamentOutcome()
    result = game_result(tx.events(game_id), played.state, by_director=game.ended_by_director)
    new = decide(loaded.state, cmd.RecordResult(game=game_id, result=result), now=now)
    stored.append(tx, loaded.tournament_id, loaded.seq, new)
    state = fold(new, loaded.state)
    out = _standings_to_all(tx, sender, state, state.games[game_id])
    out.log.insert(0, f"{state.name}: {game_id} finished ({result.ended}); standings mailed")
    if state.finished:
        out.log.append(f"{state.name}: finished")
    return out


# -- reliability ----------------------------------------------------------------------------


def record_reliability(
    tx: Tx, game_id: str, seat: str, *, on_time: int = 0, timeouts: int = 0, now: datetime
) -> bool:
    """
    Count moves made in time and timeouts for whoever holds ``seat`` in ``game_id`` (a
    tournament game); False if the game is no tournament's.

    Raises:
        TournamentError: the seat is unknown or the counts make no sense.
    """
    try:
        name = tx.options(game_id).get(OPTION_TOURNAMENT)
    except GameNotFoundError:
        return False
    if not name:
        return False
    loaded = stored.load(tx, str(name), lock=True)
    command = cmd.RecordReliability(game=game_id, seat=seat, on_time=on_time, timeouts=timeouts)
    stored.append(tx, loaded.tournament_id, loaded.seq, decide(loaded.state, command, now=now))
    return True


# -- standings and notices ------------------------------------------------------------------


def _standings_text(state: TournamentState, game: TournamentGame | None = None) -> str:
    return render("tournament.standings.txt.j2", **wording.standings_context(state, game))


def _standings_to_all(
    tx: Tx, sender: str, state: TournamentState, game: TournamentGame | None
) -> TournamentOutcome:
    text = _standings_text(state, game)
    subject = wording.standings_subject(state, game)
    addresses = [row.player for row in standings(state)]
    if state.director not in addresses:
        addresses.append(state.director)
    mails = []
    for address in addresses:
        player = players.player_by_address(tx, address)
        if player is not None:
            texts = reports.Texts(subject, text)
            mails.append(notify.mail_to(sender, player, NOTICE, texts, None, {}))
    return TournamentOutcome(mails)


def _notice(
    sender: str, player: Player, heading: str, lines: Iterable[str], game_id: str | None
) -> OutgoingMail:
    text = render("tournament.notice.txt.j2", heading=heading, lines=list(lines))
    return notify.mail_to(sender, player, NOTICE, reports.Texts(heading, text), game_id, {})


def _to_seats(
    tx: Tx,
    sender: str,
    game: TournamentGame,
    heading: str,
    lines: Sequence[str],
    *,
    only: Sequence[str] | None = None,
) -> list[OutgoingMail]:
    mails = []
    for address in game.players if only is None else only:
        player = players.player_by_address(tx, address)
        if player is not None:
            mails.append(_notice(sender, player, heading, lines, game.game))
    return mails


def _span(length: timedelta) -> str:
    hours = round(length.total_seconds() / 3600)
    return f"{hours} hour(s)" if hours < 48 else f"{hours // 24} day(s)"


__all__ = [
    "PAUSED",
    "TournamentOutcome",
    "carry_out",
    "finish_games",
    "form_games",
    "form_games_in",
    "game_finished",
    "record_game_finished",
    "record_reliability",
    "tournament_lines",
]
