"""
The service's clock: everything that happens because time passed, not because a mail
came.  The clock's runner (``moderator.runners.clock``) asks
``due_now`` what is due about once a minute (and at start-up, after an outage), and
lets ``deadline_due`` decide each deadline in a unit of work of its own, with the
moment to act on (an injected clock: tests move it by hand).

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
  (``reliability.count_quietly``), in the timeout's outcome.
- **Outages** (``outages``): the runner records a heartbeat; at start-up a gap longer
  than ``max_outage`` moves every running deadline on by the gap instead of timing
  players out (their mail may be waiting unread), and the moderator and players are told.

Each deadline's outcome holds its events, the game's record, its deadline and its mails
together; the runner holds the game's row while it decides (on PostgreSQL a game another
worker holds is left for the next check).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from moderator.audit.seal import TIME_CALLED
from moderator.letters import notices
from moderator.letters.moments import deadline_line
from moderator.letters.texts import Texts
from moderator.orders import render_order
from moderator.ports import (
    Deadline,
    DeadlineChange,
    Due,
    GameContext,
    Lookup,
    Outcome,
    OutgoingMail,
    Player,
    TournamentWrite,
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
    ROBOT_TURN,
    deadline_change,
)
from moderator.ports.errors import GameNotFoundError
from moderator.rules import events as ev
from moderator.rules import (
    lateness,
    timelimit,  # the rules core's time limit (Wolff 21.1)
)
from moderator.rules.decide import decide
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule import absence, reference, seats, timing
from moderator.schedule.record import GameRecord
from moderator.usecases.clock import bounce_clock, overdue
from moderator.usecases.games import digests, notify, robot_seats, standing
from moderator.usecases.games.dice import dice_for, seal_order, sealed
from moderator.usecases.players import reliability

#: Refusals decided in a row for one timed-out player before giving up (a guard: each
#: refusal moves the game on, and a step rarely needs more than two).
MAX_DEFAULTS = 50


def due_now(lookup: Lookup, now: datetime) -> list[Deadline]:
    """The open deadlines due at ``now``, and those not yet due whose next reminder is."""
    rows = lookup.open_deadlines()
    behind = _reminders_due(lookup, rows, now)
    return [row for row in rows if row.due_at <= now or row.id in behind]


def _shown(record: GameRecord) -> str:
    """The deadline as the log shows it."""
    return timing.iso(record.deadline.due) if record.deadline is not None else "none"


def _reminders_due(lookup: Lookup, rows: Sequence[Deadline], now: datetime) -> set[int]:
    """The ids of acting deadlines not yet due whose next reminder is."""
    due: set[int] = set()
    limits_of: dict[str, timing.TimeLimits | None] = {}
    for row in rows:
        if not row.acting or row.due_at <= now:
            continue
        if row.game_id not in limits_of:
            record = lookup.record(row.game_id)
            limits_of[row.game_id] = record.time_limits if record is not None else None
        limits = limits_of[row.game_id]
        if limits is not None and timing.reminders_behind(limits, row.due_at, now) > row.reminded:
            due.add(row.id)
    return due


def deadline_due(due: Due, lookup: Lookup, now: datetime) -> Outcome:
    """What ``due.row`` calls for at ``now``, as the row stands now (nothing if it was dealt with)."""
    fresh = lookup.deadline(due.row.id)
    sender = due.sender
    if fresh is None or fresh.status != DUE:
        return Outcome()
    ripe = fresh.due_at <= now
    if fresh.kind == GAME_END:
        return _time_called(lookup, sender, fresh, now) if ripe else Outcome()
    if fresh.kind == ABSENCE_END:
        return _absence_over(lookup, sender, fresh, now) if ripe else Outcome()
    if fresh.kind == BOUNCE_END:
        return bounce_clock.pause_over(Due(fresh, sender), lookup, now) if ripe else Outcome()
    if fresh.kind == DIGEST:
        return digests.send_digest(Due(fresh, sender), lookup, now) if ripe else Outcome()
    if fresh.kind == ROBOT_TURN:
        return _robot_wakes(lookup, sender, fresh, now) if ripe else Outcome()
    game = _game(lookup, fresh.game_id)
    if timing.step_key(game.state) != fresh.step:
        return _resync(fresh, game, now)
    if seats.held(game.record, fresh.player):  # the robot acts, nobody is reminded or late
        return _robot_wakes(lookup, sender, fresh, now) if ripe else Outcome()
    if ripe:
        return _time_out(lookup, sender, fresh, game, now)
    return _remind(lookup, sender, fresh, game, now)


def _robot_wakes(lookup: Lookup, sender: str, row: Deadline, now: datetime) -> Outcome:
    """A robot holding the seat to act gives its orders now (its delay is over)."""
    acted = robot_seats.play_robots(row.game_id, sender, lookup, now, woken=True)
    return acted.but(closed=((row.id, DONE), *acted.closed))


def _game(lookup: Lookup, game_id: str) -> GameContext:
    found = lookup.game(game_id)
    if found is None:
        raise GameNotFoundError(game_id)
    return found


def _seated(lookup: Lookup, game_id: str, state: GameState) -> list[tuple[str, Player]]:
    """The game's seated players still in it (by seat name)."""
    seats = lookup.seated_players(game_id)
    return [(seat, p) for seat, p in sorted(seats.items()) if state.has_player(seat)]


def _mail(sender: str, player: Player, texts: Texts, game_id: str) -> OutgoingMail:
    return notify.mail_to(sender, player, notify.NOTICE, texts, game_id, {})


def _changed(
    game: GameContext,
    events: Sequence[ev.Event],
    state: GameState,
    record: GameRecord,
    changes: Sequence[DeadlineChange],
    mails: Sequence[OutgoingMail],
    counted: tuple[TournamentWrite, ...] = (),
) -> Outcome:
    """The game's change: its events, record, deadlines and mails (and reliability counted)."""
    changed = game_write(game.game_id, game.seq, events, record=record, state=state, deadlines=changes)
    return Outcome(games=(changed,), tournaments=counted, mails=tuple(mails))


def _resync(row: Deadline, game: GameContext, now: datetime) -> Outcome:
    """
    The game moved on outside the mail service (a GM's local command): the deadline
    follows the player to act again, from now.
    """
    record, change = timing.follow(game.state, game.record.but(deadline=None), now)
    changes = deadline_change(change) or (DeadlineChange("", None),)
    shown = _shown(record)
    line = f"{row.game_id}: the game moved on without the mail service; deadline now {shown}"
    return _changed(game, [], game.state, record, changes, []).but(
        closed=((row.id, CANCELLED),), log=(line,)
    )


def _remind(
    lookup: Lookup, sender: str, row: Deadline, game: GameContext, now: datetime
) -> Outcome:
    limits = game.record.time_limits
    if limits is None:
        return Outcome()
    behind = timing.reminders_behind(limits, row.due_at, now)
    if behind <= row.reminded:
        return Outcome()
    counted = ((row.id, row.reminded, behind),)  # a conflict if another worker counted
    if seats.quiet(game.record, row.player):  # he withdrew: the defaults play his seat
        line = f"{row.game_id}: no reminder for {row.player}: he withdrew"
        return Outcome(reminded=counted, log=(line,))
    player = lookup.seated_players(row.game_id).get(row.player or "")
    if player is None:
        line = f"{row.game_id}: no reminder for {row.player}: nobody has that seat"
        return Outcome(reminded=counted, log=(line,))
    ref = str(reference.current(row.game_id, game.state, row.player))
    texts = notices.reminder(
        row.game_id,
        ref,
        row.player or "",
        row.kind,
        row.due_at,
        now,
        player.time_zone,
        overdue.default_line(game.state, overdue.policy(game.record)),
    )
    line = f"{row.game_id}: reminded {row.player} of the deadline {timing.iso(row.due_at)}"
    mails = (_mail(sender, player, texts, row.game_id),)
    return Outcome(reminded=counted, mails=mails, log=(line,))


def _time_out(
    lookup: Lookup, sender: str, row: Deadline, game: GameContext, now: datetime
) -> Outcome:
    """
    Wolff 21.0/20.4: the player to act is treated as refusing to continue; or, in a game
    that chose rulebook 21.2, his movement or maneuver is finished for him
    (``moderator.rules.lateness``: the dice draw a legion to move).  In a game that
    keeps seats (``schedule.seats``) the robot gives his orders for the step instead,
    and after his ``keep_after``-th miss in a row it keeps his seat.
    """
    policy = overdue.policy(game.record)
    trigger = f"{lateness.timeout_trigger(policy)}{row.id}:{timing.iso(row.due_at)}"
    seat = row.player or ""
    record = seats.missed(game.record, seat)
    if record.seat_keeping == seats.DEFAULTS:
        events, state, record, given = _defaults(game, record, row, trigger, policy)
    else:
        def acting(now_state: GameState, _record: GameRecord) -> str | None:
            same = timing.step_key(now_state) == row.step and to_act(now_state) == seat
            return seat if same and now_state.step is not Step.OVER else None

        knowledge = robot_seats.robot_knowledge(game, lookup)
        played = robot_seats.robot_orders(
            row.game_id, game.state, record, knowledge, acting
        )
        events, state, record = list(played.events), played.state, played.record
        given = [line.partition(": ")[2] for line in played.given]
    record = record.but(deadline=None)  # this deadline is over
    dropped: list[OutgoingMail] = []
    kept = seats.drops(record, seat)
    if kept:  # missed too many in a row: the robot keeps the seat
        record, dropped = robot_seats.drop_seat(sender, lookup, row.game_id, state, record, seat)
    carried = standing.carry_out(state, record, row.game_id, trigger)  # the next ones'
    events, state, record = [*events, *carried.events], carried.state, carried.record
    left = seats.quiet(game.record, seat)  # he withdrew: not told of his own timeouts
    # told what was done for him, whatever his choice (unless he left the seat)
    late = frozenset() if left else frozenset({row.player or ""})
    settled = notify.settle(sender, game, lookup, events, state, record, now, catch_up=late)
    actor = to_act(state)
    told = [
        _mail(
            sender,
            player,
            notices.timeout(
                row.game_id,
                str(reference.current(row.game_id, state, viewer)),
                seat,
                viewer,
                row.kind,
                row.due_at,
                given,
                actor=actor,
                over=state.step is Step.OVER,
                next_deadline=deadline_line(settled.record, player.time_zone),
                time_zone=player.time_zone,
                robot=record.seat_keeping != seats.DEFAULTS,
            ),
            row.game_id,
        )
        for viewer, player in _seated(lookup, row.game_id, state)
        if not (left and viewer == seat)
    ]
    # A tournament game's timeout counts against whoever holds the seat (issue 7).
    # The robot keeping his seat counts as a seat lost (issue 26), still his to count.
    counted, uncounted = reliability.count_quietly(
        lookup, row.game_id, seat, timeouts=1, seats_lost=1 if kept else 0, now=now
    )
    mails = [*told, *dropped, *settled.mails]
    line = (
        f"{row.game_id}: {row.player} did not act by {timing.iso(row.due_at)} "
        f"({row.kind}); given for him: {'; '.join(given) or 'nothing'}"
    )
    log = (line,) if uncounted is None else (line, uncounted)
    changed = _changed(game, events, state, settled.record, settled.deadlines, mails, counted)
    return changed.but(closed=((row.id, DONE),), log=log)


def _defaults(
    game: GameContext, record: GameRecord, row: Deadline, trigger: str, policy: str
) -> tuple[list[ev.Event], GameState, GameRecord, list[str]]:
    """The lateness policy's default (Wolff 20.4's refusal, or rulebook 21.2's move),
    again while the same deadline's player is to act."""
    state = game.state
    dice = dice_for(record.dice, row.game_id, trigger)
    given: list[str] = []
    events: list[ev.Event] = []
    for _ in range(MAX_DEFAULTS):
        player = to_act(state)
        dice.at(state.version + 1)
        if policy == lateness.RULEBOOK_21_2 and player and lateness.random_move_due(state):
            move, new = lateness.random_move(state, player, dice)
            line = lateness.RANDOM_MOVE
            given.append(f"{render_order(move, state)} (drawn by the dice, rulebook 21.2)")
        else:
            command = overdue.command(state, policy)
            if command is None:
                break
            new = list(decide(state, command, dice))
            given.append(line := render_order(command, state))
            player = command.player
        notes, after, record = seal_order(
            state, replay(new, state), dice, record, player=player, order=line, events=new
        )
        events.extend((*new, *notes))
        state = after
        if timing.step_key(state) != row.step or overdue.timed_part_over(state, policy, line):
            break
    return events, state, record.but(dice=dice.record()), given


def _time_called(lookup: Lookup, sender: str, row: Deadline, now: datetime) -> Outcome:
    """Wolff 21.1: the game's end date has come."""
    game = _game(lookup, row.game_id)
    closed = ((row.id, DONE),)
    if game.state.step is Step.OVER:
        line = f"{row.game_id}: end date reached; the game was over already"
        return Outcome(closed=closed, log=(line,))
    events = list(timelimit.time_called(game.state))
    if not events:
        line = f"{row.game_id}: end date reached; time was called already"
        return Outcome(closed=closed, log=(line,))
    trigger = f"time-limit:{row.id}:{timing.iso(row.due_at)}"
    events, state, record = sealed(
        game.state, events, game.record, row.game_id, trigger, TIME_CALLED
    )
    settled = notify.settle(sender, game, lookup, events, state, record, now)
    called = next((e for e in events if isinstance(e, ev.TimeCalled)), None)
    told: list[OutgoingMail] = []
    if called is not None:
        told = [
            _mail(
                sender,
                player,
                notices.time_called(
                    row.game_id,
                    str(reference.current(row.game_id, state, seat)),
                    row.due_at,
                    called,
                    player.time_zone,
                ),
                row.game_id,
            )
            for seat, player in _seated(lookup, row.game_id, state)
        ]
    mails = [*told, *settled.mails]
    changed = _changed(game, events, state, settled.record, settled.deadlines, mails)
    if state.step is Step.OVER:
        line = f"{row.game_id}: end date reached; the game is over (rulebook 20.5)"
    else:
        last = f"after {called.last_player}'s turn {called.last_turn}" if called else "soon"
        line = f"{row.game_id}: end date reached (Wolff 21.1); the game ends {last}"
    return changed.but(closed=closed, log=(line,))


def _absence_over(lookup: Lookup, sender: str, row: Deadline, now: datetime) -> Outcome:
    closed = ((row.id, DONE),)
    game = _game(lookup, row.game_id)
    state = game.state
    found = next(
        (a for a in absence.absences(game.record, row.player or "") if a.key == row.step),
        None,
    )
    if found is None or state.step is Step.OVER:
        return Outcome(closed=closed)
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
                deadline=deadline_line(game.record, player.time_zone),
                time_zone=player.time_zone,
            ),
            row.game_id,
        )
        for _seat, player in _seated(lookup, row.game_id, state)
    ]
    line = f"{row.game_id}: {found.player}'s absence ({found.first} to {found.last}) is over"
    return Outcome(closed=closed, mails=tuple(mails), log=(line,))


__all__ = ["MAX_DEFAULTS", "Due", "deadline_due", "due_now"]
