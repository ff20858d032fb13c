"""
The tournaments' games, as the service's ``tournaments`` job sees them (the shell
around ``moderator.tournament``; ``moderator.service.tournaments`` re-exports it):

- ``form_games(store, moderator_address, now, seed)``: forms the games every tournament
  can form, creates and seats them, starts their clocks and mails their players (each
  tournament in a transaction of its own);
- ``game_finished(store, moderator_address, game_id)`` (or ``record_game_finished`` in a
  transaction): records a finished game's result and mails the standings; idempotent;
  ``finish_games`` does it for every finished tournament game;
- who is mailed the standings and the notices (``letters.tournaments`` words them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from moderator.letters import tournaments as wording
from moderator.letters.moments import moment_line
from moderator.play.dice import BoundDice, new_seed, sealed_start
from moderator.ports import (
    ConflictError,
    GameContext,
    GameNotFoundError,
    GameWrite,
    OutgoingMail,
    Player,
    TournamentWrite,
    Work,
    game_write,
)
from moderator.rules import setup
from moderator.rules.decide import advance
from moderator.rules.evolve import replay
from moderator.rules.state import GameState, Step
from moderator.schedule.limits import TimeLimits
from moderator.schedule.record import GameRecord
from moderator.service import (
    clockwork,
    notify,
)
from moderator.service.notify import NOTICE
from moderator.store import players
from moderator.store import tournaments as stored
from moderator.store.eventstore import EventStore, Tx
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write
from moderator.tournament import commands as cmd
from moderator.tournament import events as tev
from moderator.tournament.decide import decide
from moderator.tournament.scoring import game_result
from moderator.tournament.standings import standings
from moderator.tournament.state import TournamentGame, TournamentState
from moderator.tournament.state import replay as fold


@dataclass
class TournamentOutcome:
    """Mails for the outbox and lines for the log."""

    mails: list[OutgoingMail] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def add(self, other: TournamentOutcome) -> None:
        self.mails.extend(other.mails)
        self.log.extend(other.log)


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
                write(tx, Work(mails=tuple(outcome.mails)))
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
    write(tx, Work(tournaments=(TournamentWrite(tournament_id, loaded.seq, tuple(new)),)))
    state = fold(new, loaded.state)
    out = TournamentOutcome()
    for event in new:
        if isinstance(event, tev.GameFormed):
            out.add(_start(tx, moderator_address, state, event, now, new_seed()))
        elif isinstance(event, tev.TournamentFinished):
            out.add(standings_to_all(tx, moderator_address, state, None))
            out.log.append(f"{tournament_id}: finished")
    return out


def _start(
    tx: Tx, sender: str, state: TournamentState, formed: tev.GameFormed, now: datetime, seed: int
) -> TournamentOutcome:
    """Create the game (tower rolls), seat its players, start its clock, mail them."""
    names = [seat for seat, _ in formed.seats]
    # Fair dice (play.dice): a secret seed of full strength for every game, never derived
    # from the round's seed, which draws the seats and may be known.
    dice = BoundDice(seed=seed, game=formed.game, trigger="start")
    dice.at(1)
    events = setup.start_game(names, dice)
    events += advance(replay(events))
    settings = state.settings
    record = GameRecord(
        players=tuple(names),
        dice=dice.record(),
        tournament=state.name,
        allow_secrets=settings.allow_secrets,
    )
    events, record = sealed_start(events, dice, record)
    game_state = replay(events)
    # The game and its seats first: its first reports go to whoever sits in it.
    write(
        tx, Work(games=(GameWrite(formed.game, 0, record=record, create=True, seats=formed.seats),))
    )
    record, changes = clockwork.with_time_limits(
        game_state, record, now, TimeLimits.from_json(settings.limits()), settings.ends_at(now)
    )
    context = GameContext(formed.game, GameState(), 0, record, players.seats(tx, formed.game))
    record, reports_out, _ = notify.report_round(
        sender, context, SqlLookup(tx), events, game_state, record, set()
    )
    started = game_write(formed.game, 0, events, record=record, state=game_state, deadlines=changes)
    write(tx, Work(games=(started,)))
    ends = settings.ends_at(now)
    seats = [{"seat": seat, "name": state.name_of(address)} for seat, address in formed.seats]
    mails: list[OutgoingMail] = []
    for seat, address in formed.seats:
        player = players.player_by_address(tx, address)
        if player is None:
            continue
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
        write(tx, Work(mails=tuple(outcome.mails)))
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
    return record_finished(tx, moderator_address, game_id, now)


def record_finished(tx: Tx, sender: str, game_id: str, now: datetime) -> TournamentOutcome:
    try:
        name = tx.record(game_id).tournament
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
    stream = TournamentWrite(loaded.tournament_id, loaded.seq, tuple(new))
    write(tx, Work(tournaments=(stream,)))
    state = fold(new, loaded.state)
    out = standings_to_all(tx, sender, state, state.games[game_id])
    out.log.insert(0, f"{state.name}: {game_id} finished ({result.ended}); standings mailed")
    if state.finished:
        out.log.append(f"{state.name}: finished")
    return out


# -- standings and notices ------------------------------------------------------------------


def standings_to_all(
    tx: Tx, sender: str, state: TournamentState, game: TournamentGame | None
) -> TournamentOutcome:
    texts = wording.standings_mail(state, game)
    addresses = [row.player for row in standings(state)]
    if state.director not in addresses:
        addresses.append(state.director)
    mails = []
    for address in addresses:
        player = players.player_by_address(tx, address)
        if player is not None:
            mails.append(notify.mail_to(sender, player, NOTICE, texts, None, {}))
    return TournamentOutcome(mails)


def notice(
    sender: str, player: Player, heading: str, lines: Iterable[str], game_id: str | None
) -> OutgoingMail:
    return notify.mail_to(sender, player, NOTICE, wording.notice(heading, lines), game_id, {})


def to_seats(
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
            mails.append(notice(sender, player, heading, lines, game.game))
    return mails


__all__ = [
    "TournamentOutcome",
    "finish_games",
    "form_games",
    "form_games_in",
    "game_finished",
    "notice",
    "record_finished",
    "record_game_finished",
    "standings_to_all",
    "to_seats",
]
