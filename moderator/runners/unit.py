"""
The unit of work's boundary, which every runner goes through: begin, read, decide,
apply, commit, and decide again on a conflict.

``apply`` writes an ``Outcome`` and the outcomes it is followed by (``Outcome.then``:
a mail's tournament lines, each of which must see what the line before it wrote) in
the caller's transaction, so that they commit together or not at all.  Given
``robots`` (``usecases.games.robot_seats.play_robots`` for the moderator's address),
it then lets the robots holding seats in the games written act, in the same transaction,
again while one is still to act (at most ``ROBOT_ROUNDS`` times).  ``run`` is the
whole boundary for a decision that needs no more than the lookup and the time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from sqlalchemy.exc import DBAPIError

from moderator.ports import GameContext, GameWrite, Lookup, MessageDone, Outcome, Work
from moderator.ports.errors import ConflictError
from moderator.rules.evolve import replay
from moderator.store.errors import retryable
from moderator.store.eventstore import EventStore, Tx
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write

#: How often a decision is made again when a stream moved on under it.
CONFLICT_RETRIES = 5
#: How many times the robots of one game are asked to act after a change (each time
#: until no robot is to act or ``robot_seats.MAX_ORDERS`` orders).
ROBOT_ROUNDS = 4

Decide = Callable[[Lookup, datetime], Outcome]
#: What applies one ``Work`` (``store.unit_of_work.write`` in the runner's transaction;
#: the recording unit of work's ``write`` on memory): (work, inbound_id, about, guess)
#: -> each written game's new last sequence number.
Writer = Callable[[Work, int | None, str | None, bool], dict[str, int]]
#: What lets the robots holding seats in a game act (``robot_seats.play_robots`` with
#: the moderator's address, or the mail handler's ``robot_turns``): (game, lookup, now).
Robots = Callable[[str, Lookup, datetime], Outcome]
T = TypeVar("T")
log = logging.getLogger(__name__)


class GameBusyError(Exception):
    """Another worker holds the game (try again later)."""


class DecisionError(Exception):
    """A decision taken inside ``apply`` (an outcome's ``then``) raised: its cause says why."""


def work_of(outcome: Outcome, game: GameContext | None = None) -> Work:
    """
    What ``outcome`` changes, as the unit of work writes it; its events, record and
    deadlines are ``game``'s (the deadlines only with a change to the game).

    Raises:
        DecisionError: the events do not fold on the game, or there is no game.
    """
    own: tuple[GameWrite, ...] = ()
    if game is not None and (outcome.events or outcome.record is not None):
        try:
            state = replay(outcome.events, game.state) if outcome.events else None
        except Exception as exc:  # events that do not fold on the game: a decider's bug
            raise DecisionError(f"the events do not fold: {exc!r}") from exc
        own = (
            GameWrite(
                game.game_id,
                game.seq,
                outcome.events,
                record=outcome.record,
                state=state,
                deadlines=outcome.deadlines,
            ),
        )
    elif outcome.events:
        raise DecisionError("the decision gave events for no game")
    return Work(
        games=own + outcome.games,
        tournaments=outcome.tournaments,
        mails=outcome.mails,
        players=outcome.players,
        addresses=outcome.addresses,
        seals=outcome.seals,
        closed=outcome.closed,
        reseats=outcome.reseats,
        undelivered=outcome.undelivered,
        reminded=outcome.reminded,
        heartbeat=outcome.beat,
        statuses=outcome.statuses,
    )


def apply(
    tx: Tx,
    lookup: Lookup,
    outcome: Outcome,
    now: datetime,
    *,
    game: GameContext | None = None,
    inbound_id: int | None = None,
    about: str | None = None,
    done: Callable[[Outcome], MessageDone] | None = None,
    robots: Robots | None = None,
) -> Outcome:
    """``apply_with`` the store's one writer, ``unit_of_work.write``, in ``tx``."""

    def writer(work: Work, inbound: int | None, game_id: str | None, guess: bool) -> dict[str, int]:
        return write(tx, work, inbound_id=inbound, game_id=game_id, guess=guess)

    return apply_with(
        writer, lookup, outcome, now, game=game, inbound_id=inbound_id, about=about, done=done,
        robots=robots,
    )


def apply_with(
    writer: Writer,
    lookup: Lookup,
    outcome: Outcome,
    now: datetime,
    *,
    game: GameContext | None = None,
    inbound_id: int | None = None,
    about: str | None = None,
    done: Callable[[Outcome], MessageDone] | None = None,
    robots: Robots | None = None,
) -> Outcome:
    """
    Write ``outcome`` with ``writer``, then decide and write each outcome it is followed by
    (their mails all with the last, in order); returns them merged (``merged``).  ``game``: the game the outcomes' own events are
    about (its context moves on with each write); ``inbound_id``: the mail that caused
    them; ``about``: the game their mails are about (without it, and without an
    inbound mail, the one game an outcome changes, if one); ``done(merged)``: the inbound
    mail's new state, written with the last outcome; ``robots``: lets the robots holding
    seats in the games written act (their mails after the decision's).

    Raises:
        ConflictError: a stream moved on (decide again from the start).
        DecisionError: a follow-up decision raised (anything but a lost race).
    """
    applied: list[Outcome] = []
    touched: list[str] = []
    while True:
        work = work_of(outcome, game)
        applied.append(outcome)
        then = outcome.then
        if then is not None or robots is not None:  # the mails go out together, at the end
            work = replace(work, mails=())
        else:
            work = replace(work, mails=tuple(m for o in applied for m in o.mails))
            if done is not None:
                work += Work(message=done(merged(applied)))
        heads = writer(work, inbound_id, about, inbound_id is None)
        touched.extend(g.game_id for g in work.games if g.game_id not in touched)
        if game is not None and (outcome.events or outcome.record is not None):
            moved = work.games[0]
            state = moved.state if moved.state is not None else game.state
            record = moved.record if moved.record is not None else game.record
            game = replace(game, seq=heads[game.game_id], state=state, record=record)
        if then is None:
            if robots is None:
                return merged(applied)
            return _robots_then_mails(
                writer, lookup, merged(applied), now, robots, touched, work,
                inbound_id=inbound_id, about=about, done=done,
            )
        try:
            outcome = then(lookup, now)
        except Exception as exc:
            if retryable(exc):
                raise
            raise DecisionError(str(exc)) from exc


def _robots_then_mails(
    writer: Writer,
    lookup: Lookup,
    result: Outcome,
    now: datetime,
    robots: Robots,
    touched: list[str],
    last: Work,
    *,
    inbound_id: int | None,
    about: str | None,
    done: Callable[[Outcome], MessageDone] | None,
) -> Outcome:
    """
    The robots of the games written act (``robots_act``), then every mail is written in
    order, the decision's first, with the inbound mail's new state: ``result`` with the
    robots' mails and log lines after its own (the verdict stays the decision's).
    """
    acted = robots_act(writer, lookup, touched, now, robots, inbound_id)
    result = result.but(
        mails=result.mails + tuple(m for o in acted for m in o.mails),
        log=result.log + tuple(line for o in acted for line in o.log),
    )
    tie = about
    if tie is None and inbound_id is None and len(last.games) == 1:
        tie = last.games[0].game_id  # as ``write`` guesses it for the decision's mails
    final = Work(mails=result.mails)
    if done is not None:
        final += Work(message=done(result))
    writer(final, inbound_id, tie, False)
    return result


def robots_act(
    writer: Writer,
    lookup: Lookup,
    game_ids: list[str],
    now: datetime,
    robots: Robots,
    inbound_id: int | None = None,
) -> list[Outcome]:
    """
    The robots holding seats to act in ``game_ids`` act, each game's orders written with
    ``writer`` as they are decided, their mails not yet (the caller writes them after
    the decision's); returns what they did (nothing if no robot was to act).  A robot
    that fails is logged and left: the game waits, and the seat's deadline wakes it again.
    """
    done: list[Outcome] = []
    for game_id in game_ids:
        for _ in range(ROBOT_ROUNDS):
            try:
                acted = robots(game_id, lookup, now)
            except Exception as exc:  # the robot's trouble must not undo the change before it
                if retryable(exc):
                    raise
                log.exception("the robot of game %s could not act", game_id)
                done.append(Outcome(log=(f"{game_id}: the robot could not act: {exc!r}",)))
                break
            if not acted.games:
                break
            writer(replace(work_of(acted), mails=()), inbound_id, None, False)
            done.append(acted)
    return done


def merged(outcomes: list[Outcome]) -> Outcome:
    """One outcome telling what ``outcomes`` did (mails and log lines in order, the
    notes joined, the last one's verdict); nothing to apply any more."""
    last = outcomes[-1]
    if len(outcomes) == 1:
        return last.but(then=None)
    return last.but(
        mails=tuple(m for o in outcomes for m in o.mails),
        log=tuple(line for o in outcomes for line in o.log),
        note="; ".join(o.note for o in outcomes if o.note),
        then=None,
    )


def run(
    store: EventStore,
    decide: Decide,
    *,
    retries: int = CONFLICT_RETRIES,
    about: str | None = None,
    hold: str | None = None,
    robots: Robots | None = None,
) -> Outcome:
    """
    ``decide`` in a unit of work of its own, its outcome applied and committed; decided
    again (with a fresh lookup) when a stream moved on meanwhile.  ``hold``: a game whose
    row is held first (on PostgreSQL), so that two workers do not both decide on it.
    ``robots``: lets the robots holding seats act after it (``apply``).

    Raises:
        ConflictError: it kept moving on, ``retries`` times.
        GameBusyError: another worker holds the game ``hold``.
    """
    for attempt in range(retries):
        try:
            with store.transaction() as tx:
                if hold is not None and tx.game(hold, lock=True, skip_locked=True) is None:
                    raise GameBusyError(hold)
                lookup = SqlLookup(tx)
                now = tx.now()
                return apply(tx, lookup, decide(lookup, now), now, about=about, robots=robots)
        except (ConflictError, DBAPIError) as exc:
            if not retryable(exc) or attempt == retries - 1:
                raise
    raise ConflictError("no attempt made")  # retries < 1


def read(store: EventStore, look: Callable[[Lookup, datetime], T]) -> T:
    """What ``look`` reads in a read-only transaction (nothing is written)."""
    with store.reading() as tx:
        return look(SqlLookup(tx), tx.now())


__all__ = [
    "CONFLICT_RETRIES",
    "ROBOT_ROUNDS",
    "DecisionError",
    "GameBusyError",
    "Robots",
    "Writer",
    "apply",
    "apply_with",
    "merged",
    "read",
    "robots_act",
    "run",
    "work_of",
]
