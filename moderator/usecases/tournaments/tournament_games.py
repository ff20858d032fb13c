"""
The tournaments' games, as the tournament job sees them (the shell around
``moderator.tournament``; ``moderator.usecases.tournaments.tournaments`` re-exports it).  Each is a
use case: it reads through the lookup and returns an ``Outcome``, which the tournament
runner (``moderator.runners.tournaments``) applies:

- ``form_games_in(ask, lookup, now)``: the games one tournament can form now, created,
  seated, clocked and their players mailed, with the tournament's events, in one outcome;
- ``record_finished(ask, lookup, now)``: a finished game's result recorded and the
  standings mailed (nothing if it is recorded already);
- who is mailed the standings and the notices (``letters.tournaments`` words them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from moderator.letters import tournaments as wording
from moderator.letters.moments import moment_line
from moderator.ports import (
    GameWrite,
    Lookup,
    Outcome,
    OutgoingMail,
    Player,
    TournamentWrite,
)
from moderator.ports.deadlines import with_time_limits
from moderator.records import record
from moderator.rules import setup
from moderator.rules.decide import advance
from moderator.rules.evolve import replay
from moderator.rules.lateness import WOLFF
from moderator.rules.state import Step
from moderator.schedule.limits import TimeLimits
from moderator.schedule.record import GameRecord
from moderator.schedule.seats import OWN
from moderator.tournament import commands as cmd
from moderator.tournament import events as tev
from moderator.tournament.decide import decide
from moderator.tournament.scoring import game_result
from moderator.tournament.standings import standings
from moderator.tournament.state import TournamentGame, TournamentState
from moderator.tournament.state import replay as fold
from moderator.usecases.games import notify
from moderator.usecases.games.dice import BoundDice, new_seed, sealed_start
from moderator.usecases.games.notify import NOTICE


@record
class FormGames:
    """Form the games ``tournament`` can form now, the seats drawn with ``seed``; the
    mails come from ``sender``."""

    tournament: str
    sender: str
    seed: int


@record
class GameOver:
    """A game that may be a finished tournament game whose result is not recorded yet."""

    game_id: str
    sender: str


# -- forming games --------------------------------------------------------------------------


def form_games_in(ask: FormGames, lookup: Lookup, now: datetime) -> Outcome:
    """
    The games ``ask.tournament`` can form at ``now``: its events, each game created with
    its seats, setup events, clock and first reports, and the mails, in one outcome.
    """
    loaded = lookup.tournament(ask.tournament)
    if loaded is None:
        return Outcome()
    taken = frozenset(lookup.game_ids())
    new = decide(loaded.state, cmd.FormGames(seed=ask.seed, taken=taken), now=now)
    if not new:
        return Outcome()
    state = fold(new, loaded.state)
    games: list[GameWrite] = []
    mails: list[OutgoingMail] = []
    log: list[str] = []
    for event in new:
        if isinstance(event, tev.GameFormed):
            game, started, line = _start(lookup, ask.sender, state, event, now, new_seed())
            games.append(game)
            mails.extend(started)
            log.append(line)
        elif isinstance(event, tev.TournamentFinished):
            mails.extend(standings_to_all(lookup, ask.sender, state, None))
            log.append(f"{ask.tournament}: finished")
    written = TournamentWrite(ask.tournament, loaded.seq, tuple(new))
    return Outcome(tournaments=(written,), games=tuple(games), mails=tuple(mails), log=tuple(log))


def _start(
    lookup: Lookup,
    sender: str,
    state: TournamentState,
    formed: tev.GameFormed,
    now: datetime,
    seed: int,
) -> tuple[GameWrite, list[OutgoingMail], str]:
    """The game created (tower rolls), its players seated, its clock started, and mailed."""
    names = [seat for seat, _ in formed.seats]
    # Fair dice (play.dice): a secret seed of full strength for every game, never derived
    # from the round's seed, which draws the seats and may be known.
    dice = BoundDice(seed=seed, game=formed.game, trigger="start")
    dice.at(1)
    settings = state.settings
    events = setup.start_game(names, dice, variant=settings.variant)
    events += advance(replay(events))
    record = GameRecord(
        players=tuple(names),
        dice=dice.record(),
        tournament=state.name,
        allow_secrets=settings.allow_secrets,
        seat_keeping=settings.seat_keeping,
        keep_after=settings.keep_after,
        robot_delay=settings.robot_delay,
    )
    limits = TimeLimits.from_json(settings.limits())
    lateness = limits.lateness if limits is not None else WOLFF
    events, record = sealed_start(events, dice, record, lateness)
    game_state = replay(events)
    record, changes = with_time_limits(game_state, record, now, limits, settings.ends_at(now))
    seated = {seat: p for seat, address in formed.seats if (p := lookup.player(address))}
    record, reports_out = notify.first_reports(
        sender, formed.game, seated, events, game_state, record
    )
    game = GameWrite(
        formed.game,
        0,
        tuple(events),
        record=record,
        state=game_state,
        deadlines=tuple(changes),
        create=True,
        seats=formed.seats,
    )
    ends = settings.ends_at(now)
    seats = [{"seat": seat, "name": state.name_of(address)} for seat, address in formed.seats]
    mails: list[OutgoingMail] = []
    for seat, player in seated.items():
        texts = wording.game_start(
            state.name,
            formed.game,
            seat,
            seats,
            settings.describe(),
            moment_line(ends, player.time_zone) if ends else "",
        )
        mails.append(notify.mail_to(sender, player, NOTICE, texts, formed.game, {}))
    who = ", ".join(f"{seat} <{address}>" for seat, address in formed.seats)
    return game, [*mails, *reports_out], f"{state.name}: formed {formed.game}: {who}"


# -- finished games -------------------------------------------------------------------------


def finished_games(lookup: Lookup) -> list[str]:
    """The games of unfinished tournaments that are over (their results may be recorded)."""
    over = []
    for name in lookup.tournament_ids(finished=False):
        loaded = lookup.tournament(name)
        for game in loaded.state.unfinished if loaded is not None else ():
            played = lookup.game(game.game)
            if played is not None and played.state.step is Step.OVER:
                over.append(game.game)
    return over


def record_finished(ask: GameOver, lookup: Lookup, now: datetime) -> Outcome:
    """
    The result of ``ask.game_id`` recorded if it is a finished tournament game whose
    result is not recorded yet, and the standings mailed to every player of the
    tournament; nothing the second time.
    """
    record = lookup.record(ask.game_id)
    name = record.tournament if record is not None else None
    loaded = lookup.tournament(str(name)) if name else None
    if loaded is None:
        return Outcome()
    game = loaded.state.games.get(ask.game_id)
    played = lookup.game(ask.game_id)
    if game is None or game.finished or played is None or played.state.step is not Step.OVER:
        return Outcome()
    events = lookup.events(ask.game_id)
    result = game_result(events, played.state, by_director=game.ended_by_director)
    dropped = tuple(s for s, why in played.record.robots.items() if why != OWN)
    asked = cmd.RecordResult(game=ask.game_id, result=result, robots=dropped)
    new = decide(loaded.state, asked, now=now)
    stream = TournamentWrite(loaded.tournament_id, loaded.seq, tuple(new))
    state = fold(new, loaded.state)
    mails = standings_to_all(lookup, ask.sender, state, state.games[ask.game_id])
    log = [f"{state.name}: {ask.game_id} finished ({result.ended}); standings mailed"]
    if state.finished:
        log.append(f"{state.name}: finished")
    return Outcome(tournaments=(stream,), mails=tuple(mails), log=tuple(log))


# -- standings and notices ------------------------------------------------------------------


def standings_to_all(
    lookup: Lookup, sender: str, state: TournamentState, game: TournamentGame | None
) -> list[OutgoingMail]:
    texts = wording.standings_mail(state, game)
    addresses = [row.player for row in standings(state)]
    if state.director not in addresses:
        addresses.append(state.director)
    mails = []
    for address in addresses:
        player = lookup.player(address)
        if player is not None:
            mails.append(notify.mail_to(sender, player, NOTICE, texts, None, {}))
    return mails


def notice(
    sender: str, player: Player, heading: str, lines: Iterable[str], game_id: str | None
) -> OutgoingMail:
    return notify.mail_to(sender, player, NOTICE, wording.notice(heading, lines), game_id, {})


def to_seats(
    lookup: Lookup,
    sender: str,
    game: TournamentGame,
    heading: str,
    lines: Sequence[str],
    *,
    only: Sequence[str] | None = None,
) -> list[OutgoingMail]:
    mails = []
    for address in game.players if only is None else only:
        player = lookup.player(address)
        if player is not None:
            mails.append(notice(sender, player, heading, lines, game.game))
    return mails


__all__ = [
    "FormGames",
    "GameOver",
    "finished_games",
    "form_games_in",
    "notice",
    "record_finished",
    "standings_to_all",
    "to_seats",
]
