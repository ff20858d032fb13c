"""
What a tournament director's line does to one of the tournament's games, once the
tournament's event is decided.  Two kinds, as everywhere in the use cases:

- pure steps on the game as the caller read it (``GameContext``): its clock stopped
  (``pause_game``), started again (``resume_game``) or its deadline moved
  (``extend_deadline``), each the reply's lines and the game's write;
- deciders asked ``(ask, lookup, now) -> Outcome``: the game ended and scored
  (``stop_game``, asked ``StopGame``), a seat's report sent to its new holder
  (``seat_handed_over``, asked ``HandOver``), a finished game's audit sent again
  (``audit_again``, asked ``AuditAgain``).

The runner applies each change with the tournament's event, before the mail's next line
is decided.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from moderator.audit.seal import DIRECTOR_END
from moderator.letters import tournaments as wording
from moderator.letters.moments import deadline_line
from moderator.ports import (
    DeadlineChange,
    GameContext,
    GameWrite,
    Lookup,
    Outcome,
    OutgoingMail,
    Player,
    TournamentWrite,
    game_write,
)
from moderator.ports.deadlines import GAME_END, deadline_change
from moderator.ports.errors import GameNotFoundError
from moderator.records import record
from moderator.rules.state import Step
from moderator.schedule import seats, timing
from moderator.schedule.record import Pause
from moderator.tournament import errors as err
from moderator.tournament import events as tev
from moderator.tournament.errors import TournamentError
from moderator.tournament.scoring import stop_events
from moderator.tournament.state import TournamentGame, TournamentState
from moderator.usecases.games import audits, handover, notify, robot_seats
from moderator.usecases.games.dice import sealed
from moderator.usecases.players import reliability
from moderator.usecases.tournaments.tournament_games import notice, to_seats


def game_of(lookup: Lookup, game_id: str) -> GameContext:
    """The directed game as it stands (a query: what the pure steps are handed).

    Raises:
        GameNotFoundError: there is no such game.
    """
    found = lookup.game(game_id)
    if found is None:
        raise GameNotFoundError(game_id)
    return found


@record
class StopGame:
    """The director's ``end GAME``: ``game_id`` ended now, its mails from ``sender``."""

    game_id: str
    sender: str


@record
class HandOver:
    """The director's ``replace SEAT in GAME``, decided (``replaced``): the seat of ``held``
    in ``tournament`` (as it stands after it) goes to its new holder, mails from ``sender``;
    ``by`` gave the line (the director's address, or the operator: the players are told)."""

    tournament: TournamentState
    held: TournamentGame
    replaced: tev.SeatReplaced
    sender: str
    by: str


@record
class Withdrawn:
    """``player`` (an address) withdrew from ``tournament`` (as it stands after it): his
    seats in running games that keep seats go to the robot, mails from ``sender``."""

    tournament: TournamentState
    player: str
    sender: str


@record
class AuditAgain:
    """``audit GAME`` from ``by``, in ``tournament``: its mails from ``sender``."""

    tournament: TournamentState
    game_id: str
    by: str
    sender: str


def pause_game(game: GameContext, now: datetime) -> tuple[list[str], GameWrite]:
    """Stop the game's clock: its limits are kept aside, its deadlines cancelled."""
    game_id = game.game_id
    record = game.record
    record = record.but(time_limits=None, deadline=None, paused=Pause(now, record.time_limits))
    stopped = (DeadlineChange("", None), DeadlineChange(GAME_END, None))
    return wording.paused_lines(), game_write(game_id, game.seq, record=record, deadlines=stopped)


def resume_game(game: GameContext, now: datetime) -> tuple[list[str], GameWrite]:
    """Start the clock again: a fresh deadline for the player to act, the end date moved on."""
    game_id = game.game_id
    record, paused = game.record, game.record.paused
    changes: list[DeadlineChange] = []
    record = record.but(paused=None)
    if paused is not None and paused.time_limits is not None:
        record = record.but(time_limits=paused.time_limits)
    since = paused.at if paused is not None else now
    ends = record.ends_at
    if ends is not None:
        ends += now - since
        record = record.but(ends_at=ends)
        changes.append(DeadlineChange(GAME_END, ends))
    record, change = timing.follow(game.state, record, now)
    changes.extend(deadline_change(change))
    ends_at = timing.iso(ends) if ends is not None else ""
    lines = wording.resumed_lines(now - since, ends_at, deadline_line(record))
    return lines, game_write(game_id, game.seq, record=record, deadlines=changes)


def extend_deadline(
    game: GameContext, hours: int, now: datetime
) -> tuple[list[str], GameWrite | None]:
    """The running deadline moved on by ``hours`` (nothing if none runs)."""
    game_id = game.game_id
    record, change = timing.extend(game.record, timedelta(hours=hours), now)
    if change is None:
        return wording.extended_lines(None), None
    moved = deadline_change(change)
    lines = wording.extended_lines(deadline_line(record))
    return lines, game_write(game_id, game.seq, record=record, deadlines=moved)


def stop_game(ask: StopGame, lookup: Lookup, now: datetime) -> Outcome:
    """End the game now, scored by rulebook 20.5: reports and the result to every player."""
    game_id, sender = ask.game_id, ask.sender
    game = game_of(lookup, game_id)
    new = stop_events(game.state)
    if not new:
        return Outcome()
    new, state, record = sealed(game.state, new, game.record, game_id, DIRECTOR_END, DIRECTOR_END)
    settled = notify.settle(sender, game, lookup, new, state, record, now)
    rows = (*settled.deadlines, DeadlineChange(GAME_END, None))
    stopped = game_write(game_id, game.seq, new, record=settled.record, state=state, deadlines=rows)
    log = (f"{game_id}: stopped by the director and scored",)
    return Outcome(games=(stopped,), mails=tuple(settled.mails), log=log)


def seat_handed_over(ask: HandOver, lookup: Lookup, now: datetime) -> Outcome:
    """
    The seat's report to its new holder (what the seat may see), and word to everyone;
    a seat the robot held for a standby is the standby's now (everyone told).
    """
    state, held, replaced, sender = ask.tournament, ask.held, ask.replaced, ask.sender
    game = game_of(lookup, held.game)
    record, back = robot_seats.take_back(
        sender, lookup, held.game, game.state, game.record, replaced.seat,
        standby=state.name_of(replaced.new), named_by=wording.directed_by(ask.by),
    )
    record, closed = handover.handed(  # the old holder's own: gone; he a former holder
        record, replaced.seat, replaced.old, game.state.version
    )
    settled = notify.settle(sender, game, lookup, [], game.state, record, now, {replaced.seat})
    rows = (*closed, *settled.deadlines)
    reported = game_write(held.game, game.seq, record=settled.record, deadlines=rows)
    heading, to_new, to_old, to_others = wording.replacement(state, replaced, ask.by)
    to_new = [*to_new, *handover.choices_lines()]
    mails: list[OutgoingMail] = []
    for address, lines in ((replaced.new, to_new), (replaced.old, to_old)):
        player = lookup.player(address)
        if player is not None:
            mails.append(notice(sender, player, heading, lines, held.game))
    others = [p for p in held.players if p != replaced.new]
    mails.extend(to_seats(lookup, sender, held, heading, to_others, only=others))
    mails.extend(back)
    mails.extend(settled.mails)
    log = (f"{held.game}: {replaced.seat} {replaced.old} -> {replaced.new}",)
    return Outcome(games=(reported,), mails=tuple(mails), log=log)


def seats_left(ask: Withdrawn, lookup: Lookup, now: datetime) -> Outcome:
    """
    ``ask.player`` withdrew: in each running game of the tournament that keeps seats
    (``schedule.seats``), the robot takes the seat he held (everyone told; the robot
    acts when the seat is to act, in the runner's step after this is applied); each
    counts as a seat lost in his reliability.  In a game that keeps none (``defaults``)
    the seat is marked left: the defaults play it, and he is reminded of nothing.
    """
    state, player, sender = ask.tournament, ask.player, ask.sender
    changed: list[GameWrite] = []
    mails: list[OutgoingMail] = []
    log: list[str] = []
    lost: list[TournamentWrite] = []
    for held in state.games.values():
        seat = held.seat_of(player)
        game = lookup.game(held.game) if seat is not None and not held.finished else None
        if game is None or seat is None or game.state.step is Step.OVER:
            continue
        if seats.held(game.record, seat):
            continue
        if game.record.seat_keeping == seats.DEFAULTS:  # the defaults play on, unreminded
            changed.append(game_write(held.game, game.seq, record=seats.leave(game.record, seat)))
            log.append(f"{held.game}: {seat} withdrew; the defaults play the seat")
            continue
        record, told = robot_seats.drop_seat(
            sender, lookup, held.game, game.state, game.record, seat, withdrew=True
        )
        counted, uncounted = reliability.count_quietly(
            lookup, held.game, seat, seats_lost=1, now=now
        )
        changed.append(game_write(held.game, game.seq, record=record))
        mails.extend(told)
        lost.extend(counted)
        log.append(f"{held.game}: {seat} withdrew; the robot holds the seat")
        log.extend([uncounted] if uncounted else [])
    # one tournament stream, one head: the seats lost in one write
    counts: tuple[TournamentWrite, ...] = ()
    if lost:
        events = tuple(e for w in lost for e in w.events)
        counts = (TournamentWrite(lost[0].tournament_id, lost[0].seq, events),)
    return Outcome(games=tuple(changed), mails=tuple(mails), log=tuple(log), tournaments=counts)


def audit_again(ask: AuditAgain, lookup: Lookup, now: datetime) -> Outcome:
    """
    The director's ``audit GAME``: a finished game's audit bundle mailed again to every
    player of it and to the director.

    Raises:
        TournamentError: not the director, the game is not over, or its dice are not bound.
    """
    state, game_id, by, sender = ask.tournament, ask.game_id, ask.by, ask.sender
    if by != state.director:
        raise TournamentError(err.E_DIRECTOR, f"only the director of {state.name} may ask for it")
    loaded = game_of(lookup, game_id)
    if loaded.state.step is not Step.OVER:
        raise TournamentError(
            err.E_GAME,
            f"{game_id} is not over: its audit tells the dice seed, so it comes after the game",
        )
    events = lookup.events(game_id)
    if not loaded.record.dice.bound or loaded.record.dice.seed is None:
        raise TournamentError(err.E_GAME, f"{game_id} was played with scripted dice: no audit")
    to: dict[str, tuple[str | None, Player]] = {
        seat: (seat, p) for seat, p in lookup.seated_players(game_id).items()
    }
    director = lookup.player(state.director)
    if director is not None and director.address not in {p.address for _, p in to.values()}:
        to["(director)"] = (None, director)  # no seat: the bundle anybody may have
    mails = []
    for reader, p in (to[key] for key in sorted(to)):
        found = audits.audit(game_id, events, loaded.record, now, reader, asked="the director")
        assert found is not None
        mails.append(
            found.attached_to(notify.mail_to(sender, p, audits.AUDIT, found.texts, game_id, {}))
        )
    return Outcome(mails=tuple(mails), log=(f"{game_id}: audit sent again to {len(mails)}",))


__all__ = [
    "AuditAgain",
    "HandOver",
    "StopGame",
    "audit_again",
    "extend_deadline",
    "game_of",
    "pause_game",
    "resume_game",
    "seat_handed_over",
    "stop_game",
]
