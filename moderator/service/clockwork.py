"""
The service's clock: everything that happens because time passed, not because a mail
came.  The runtime calls ``check_deadlines`` about once a minute and
``service_started`` once at start-up, each with the moment to act on (an injected
clock: tests move it by hand).

- **Reminders** (``TimeLimits.reminder_hours``, a day and four hours before by
  default) go to the player to act, each once (the ``deadline`` row counts them).
- **Timeouts** (Wolff 21.0): when a deadline passes, the player is treated as refusing
  to continue (Wolff 20.4): ``refusal_command`` is decided for him, with the game's
  dice, again and again while he is still to act under the same deadline (a refused
  carry-over, then the concession it leaves him in).  Every player is told what was
  given on his behalf, the reports follow, and the next deadline starts.
- **The game's end date** (Wolff 21.1): ``moderator.rules.timelimit.time_called``;
  the players are told, and when the game then ends its result (rulebook 20.5) is
  mailed to all (``notify.settle``).
- **Absences ending**: the players are told the player is back.
- **Reliability** (tournament games): a timeout counts against the seat's holder
  (``reliability.record_reliability``), in the timeout's transaction.
- **Outages**: ``check_deadlines`` records a heartbeat; at start-up a gap longer than
  ``max_outage`` moves every running deadline on by the gap instead of timing players
  out (their mail may be waiting unread), and the moderator and players are told.

Each game is dealt with in a transaction of its own, with the game's row locked (on
PostgreSQL a game another worker holds is left for the next check).  Every change
writes its events, the game's record, its deadline and its mails together.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from moderator.audit.seal import TIME_CALLED
from moderator.letters import notices
from moderator.letters.moments import deadline_line
from moderator.letters.texts import Texts
from moderator.orders import render_order
from moderator.play.dice import dice_for, seal_order, sealed
from moderator.ports import (
    ConflictError,
    Deadline,
    DeadlineChange,
    GameContext,
    LoadedGame,
    OutgoingMail,
    Player,
    TournamentWrite,
    Work,
    game_write,
)
from moderator.ports.deadlines import (
    ABSENCE_END,
    BOUNCE_END,
    CANCELLED,
    DIGEST,
    DONE,
    DUE,
    GAME_END,
    deadline_change,
    with_time_limits,
)
from moderator.rules import events as ev
from moderator.rules import timelimit  # the rules core's time limit (Wolff 21.1)
from moderator.rules.decide import decide
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.refusal import refusal_command
from moderator.rules.state import GameState, Step
from moderator.schedule import absence, reference, timing
from moderator.schedule.record import GameRecord
from moderator.service import (
    bounce_clock,
    digests,
    notify,
    outages,
    reliability,
    standing,
)
from moderator.store import EventStore, Tx, deadlines, players
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write

log = logging.getLogger(__name__)

#: Refusals decided in a row for one timed-out player before giving up (a guard: each
#: refusal moves the game on, and a step rarely needs more than two).
MAX_DEFAULTS = 50


def set_time_limits(
    store: EventStore,
    game_id: str,
    now: datetime,
    limits: timing.TimeLimits | None,
    *,
    ends_at: datetime | None = None,
) -> str:
    """
    Give a running game time limits (None: take them away) and, if given, an end date;
    the deadline of the player to act starts ``now``.  Returns a line for the log.
    """
    with store.transaction() as tx:
        loaded = tx.load(game_id, lock=True)
        record = loaded.record.but(time_limits=None, deadline=None)
        record, changes = with_time_limits(loaded.state, record, now, limits, ends_at)
        if limits is None:
            changes.append(DeadlineChange("", None))
        write(tx, Work(games=(game_write(game_id, loaded.seq, record=record, deadlines=changes),)))
    shown = _shown(record)
    return f"{game_id}: time limits {'set' if limits else 'removed'}; deadline {shown}"


# -- the minute's work ------------------------------------------------------------------------


def check_deadlines(
    store: EventStore,
    moderator_address: str,
    now: datetime,
    *,
    max_outage: timedelta | None = None,
) -> list[str]:
    """
    Everything due at ``now``: reminders, timeouts with their default actions, games'
    end dates, absences ending; each game in a transaction of its own.  Returns one
    line per thing done.  With ``max_outage``, a heartbeat older than that is treated
    as an outage first (see ``service_started``).
    """
    lines: list[str] = []
    if max_outage is not None:
        lines.extend(outages.after_outage(store, moderator_address, now, max_outage))
    with store.reading() as tx:
        rows = deadlines.open_deadlines(tx)
        behind = _reminders_due(tx, rows, now)
    for row in rows:
        if row.due_at > now and row.id not in behind:
            continue
        try:
            lines.extend(_one(store, moderator_address, row, now))
        except ConflictError:
            lines.append(f"{row.game_id}: changed meanwhile; tried again at the next check")
        except Exception as exc:  # one game's trouble must not stop the others
            log.exception("deadline %s of game %s failed", row.id, row.game_id)
            lines.append(f"{row.game_id}: deadline {row.id} failed: {type(exc).__name__}: {exc}")
    with store.transaction() as tx:
        deadlines.beat(tx, now)
    return lines


def service_started(
    store: EventStore, moderator_address: str, now: datetime, *, max_outage: timedelta
) -> list[str]:
    """
    At start-up: if the service was down (no heartbeat) for longer than ``max_outage``,
    every running deadline is extended by the time it was down, and the moderator and
    the players are told by mail; then whatever is due is dealt with as usual.
    """
    lines = outages.after_outage(store, moderator_address, now, max_outage)
    return [*lines, *check_deadlines(store, moderator_address, now)]


def _shown(record: GameRecord) -> str:
    """The deadline as the log shows it."""
    return timing.iso(record.deadline.due) if record.deadline is not None else "none"


# -- what is due ------------------------------------------------------------------------------


def _reminders_due(tx: Tx, rows: Sequence[Deadline], now: datetime) -> set[int]:
    """The ids of acting deadlines not yet due whose next reminder is."""
    due: set[int] = set()
    limits_of: dict[str, timing.TimeLimits | None] = {}
    for row in rows:
        if not row.acting or row.due_at <= now:
            continue
        if row.game_id not in limits_of:
            limits_of[row.game_id] = tx.record(row.game_id).time_limits
        limits = limits_of[row.game_id]
        if limits is not None and timing.reminders_behind(limits, row.due_at, now) > row.reminded:
            due.add(row.id)
    return due


def _one(store: EventStore, sender: str, row: Deadline, now: datetime) -> list[str]:
    with store.transaction() as tx:
        if tx.game(row.game_id, lock=True, skip_locked=True) is None:
            return [f"{row.game_id}: busy; tried again at the next check"]
        fresh = deadlines.deadline(tx, row.id)
        if fresh is None or fresh.status != DUE:
            return []
        if fresh.kind == GAME_END:
            return _time_called(tx, sender, fresh, now) if fresh.due_at <= now else []
        if fresh.kind == ABSENCE_END:
            return _absence_over(tx, sender, fresh, now) if fresh.due_at <= now else []
        if fresh.kind == BOUNCE_END:
            return bounce_clock.pause_over(tx, sender, fresh, now) if fresh.due_at <= now else []
        if fresh.kind == DIGEST:
            return digests.send_digest(tx, sender, fresh, now) if fresh.due_at <= now else []
        loaded = tx.load(fresh.game_id)
        if timing.step_key(loaded.state) != fresh.step:
            return _resync(tx, fresh, loaded, now)
        if fresh.due_at <= now:
            return _time_out(tx, sender, fresh, loaded, now)
        return _remind(tx, sender, fresh, loaded, now)


def _seated(tx: Tx, game_id: str, state: GameState) -> list[tuple[str, Player]]:
    """The game's seated players still in it (by seat name)."""
    seats = players.seated_players(tx, game_id)
    return [(seat, p) for seat, p in sorted(seats.items()) if state.has_player(seat)]


def _mail(sender: str, player: Player, texts: Texts, game_id: str) -> OutgoingMail:
    return notify.mail_to(sender, player, notify.NOTICE, texts, game_id, {})


def _store(
    tx: Tx,
    loaded: LoadedGame,
    events: Sequence[ev.Event],
    state: GameState,
    record: GameRecord,
    changes: Sequence[DeadlineChange],
    mails: Sequence[OutgoingMail],
    counted: tuple[TournamentWrite, ...] = (),
) -> None:
    game = game_write(
        loaded.game_id, loaded.seq, events, record=record, state=state, deadlines=changes
    )
    write(tx, Work(games=(game,), tournaments=counted, mails=tuple(mails)))


def _resync(tx: Tx, row: Deadline, loaded: LoadedGame, now: datetime) -> list[str]:
    """
    The game moved on outside the mail service (a GM's local command): the deadline
    follows the player to act again, from now.
    """
    record, change = timing.follow(loaded.state, loaded.record.but(deadline=None), now)
    write(tx, Work(closed=((row.id, CANCELLED),)))
    changes = deadline_change(change) or (DeadlineChange("", None),)
    _store(tx, loaded, [], loaded.state, record, changes, [])
    shown = _shown(record)
    return [f"{row.game_id}: the game moved on without the mail service; deadline now {shown}"]


def _default_line(state: GameState) -> str | None:
    command = refusal_command(state)
    return None if command is None else render_order(command, state)


def _remind(tx: Tx, sender: str, row: Deadline, loaded: LoadedGame, now: datetime) -> list[str]:
    limits = loaded.record.time_limits
    if limits is None:
        return []
    behind = timing.reminders_behind(limits, row.due_at, now)
    if behind <= row.reminded or not deadlines.mark_reminded(tx, row.id, row.reminded, behind):
        return []
    seats = players.seated_players(tx, row.game_id)
    player = seats.get(row.player or "")
    if player is None:
        return [f"{row.game_id}: no reminder for {row.player}: nobody has that seat"]
    ref = str(reference.current(row.game_id, loaded.state))
    texts = notices.reminder(
        row.game_id,
        ref,
        row.player or "",
        row.kind,
        row.due_at,
        now,
        player.time_zone,
        _default_line(loaded.state),
    )
    write(tx, Work(mails=(_mail(sender, player, texts, row.game_id),)), game_id=row.game_id)
    return [f"{row.game_id}: reminded {row.player} of the deadline {timing.iso(row.due_at)}"]


def _time_out(tx: Tx, sender: str, row: Deadline, loaded: LoadedGame, now: datetime) -> list[str]:
    """Wolff 21.0/20.4: the player to act is treated as refusing to continue."""
    state = loaded.state
    trigger = f"timeout:{row.id}:{timing.iso(row.due_at)}"
    dice = dice_for(loaded.record.dice, row.game_id, trigger)
    record = loaded.record
    given: list[str] = []
    events: list[ev.Event] = []
    for _ in range(MAX_DEFAULTS):
        command = refusal_command(state)
        if command is None:
            break
        dice.at(state.version + 1)
        new = decide(state, command, dice)
        given.append(line := render_order(command, state))
        notes, after, record = seal_order(
            state, replay(new, state), dice, record, player=command.player, order=line, events=new
        )
        events.extend((*new, *notes))
        state = after
        if timing.step_key(state) != row.step:
            break
    write(tx, Work(closed=((row.id, DONE),)))
    record = record.but(dice=dice.record(), deadline=None)  # this deadline is over
    carried = standing.carry_out(state, record, row.game_id, trigger)  # the next ones'
    events, state, record = [*events, *carried.events], carried.state, carried.record
    context = GameContext(
        row.game_id, loaded.state, loaded.seq, loaded.record, players.seats(tx, row.game_id)
    )
    late = frozenset({row.player or ""})  # told what was done for him, whatever his choice
    settled = notify.settle(sender, context, SqlLookup(tx), events, state, record, now, catch_up=late)
    ref = str(reference.current(row.game_id, state))
    actor = to_act(state)
    told = [
        _mail(
            sender,
            player,
            notices.timeout(
                row.game_id,
                ref,
                row.player or "",
                seat,
                row.kind,
                row.due_at,
                given,
                actor=actor,
                over=state.step is Step.OVER,
                next_deadline=deadline_line(settled.record, player.time_zone),
                time_zone=player.time_zone,
            ),
            row.game_id,
        )
        for seat, player in _seated(tx, row.game_id, state)
    ]
    # A tournament game's timeout counts against whoever holds the seat (issue 7).
    counted, uncounted = reliability.count_quietly(
        SqlLookup(tx), row.game_id, row.player or "", timeouts=1, now=now
    )
    mails = [*told, *settled.mails]
    _store(tx, loaded, events, state, settled.record, settled.deadlines, mails, counted)
    line = (
        f"{row.game_id}: {row.player} did not act by {timing.iso(row.due_at)} "
        f"({row.kind}); given for him: {'; '.join(given) or 'nothing'}"
    )
    return [line] if uncounted is None else [line, uncounted]


def _time_called(tx: Tx, sender: str, row: Deadline, now: datetime) -> list[str]:
    """Wolff 21.1: the game's end date has come."""
    loaded = tx.load(row.game_id)
    write(tx, Work(closed=((row.id, DONE),)))
    if loaded.state.step is Step.OVER:
        return [f"{row.game_id}: end date reached; the game was over already"]
    events = list(timelimit.time_called(loaded.state))
    if not events:
        return [f"{row.game_id}: end date reached; time was called already"]
    trigger = f"time-limit:{row.id}:{timing.iso(row.due_at)}"
    events, state, record = sealed(
        loaded.state, events, loaded.record, row.game_id, trigger, TIME_CALLED
    )
    context = GameContext(
        row.game_id, loaded.state, loaded.seq, loaded.record, players.seats(tx, row.game_id)
    )
    settled = notify.settle(sender, context, SqlLookup(tx), events, state, record, now)
    ref = str(reference.current(row.game_id, state))
    called = next((e for e in events if isinstance(e, ev.TimeCalled)), None)
    told: list[OutgoingMail] = []
    if called is not None:
        told = [
            _mail(
                sender,
                player,
                notices.time_called(row.game_id, ref, row.due_at, called, player.time_zone),
                row.game_id,
            )
            for seat, player in _seated(tx, row.game_id, state)
        ]
    _store(tx, loaded, events, state, settled.record, settled.deadlines, [*told, *settled.mails])
    if state.step is Step.OVER:
        return [f"{row.game_id}: end date reached; the game is over (rulebook 20.5)"]
    last = f"after {called.last_player}'s turn {called.last_turn}" if called else "soon"
    return [f"{row.game_id}: end date reached (Wolff 21.1); the game ends {last}"]


def _absence_over(tx: Tx, sender: str, row: Deadline, now: datetime) -> list[str]:
    write(tx, Work(closed=((row.id, DONE),)))
    loaded = tx.load(row.game_id)
    state = loaded.state
    found = next(
        (a for a in absence.absences(loaded.record, row.player or "") if a.key == row.step),
        None,
    )
    if found is None or state.step is Step.OVER:
        return []
    actor = to_act(state)
    mails = [
        _mail(
            sender,
            player,
            notices.absence(
                row.game_id,
                found.player,
                "ended",
                found.first,
                found.last,
                found.begins,
                found.ends,
                actor=actor,
                deadline=deadline_line(loaded.record, player.time_zone),
                time_zone=player.time_zone,
            ),
            row.game_id,
        )
        for _seat, player in _seated(tx, row.game_id, state)
    ]
    write(tx, Work(mails=tuple(mails)), game_id=row.game_id)
    return [f"{row.game_id}: {found.player}'s absence ({found.first} to {found.last}) is over"]


__all__ = [
    "MAX_DEFAULTS",
    "check_deadlines",
    "service_started",
    "set_time_limits",
    "with_time_limits",
]
