"""
Playing a game by mail: an authenticated mail's lines in the game it names.

The order lines themselves run as in local play (``moderator.usecases.games.run.run_orders``);
what only a mail has is here: the step reference it must quote, its absence lines
(they change no game state, so need none), the ``history`` and ``report`` queries
answered by mails of their own, the reply, the reports and deadlines that follow
(``moderator.usecases.games.notify.settle``), the other players told of an absence, and a
move in time counted for a tournament game's reliability.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta

from moderator.letters import answers, notices
from moderator.letters import reports as report_letters
from moderator.letters.moments import deadline_line, moment_line
from moderator.orders import Query
from moderator.orders import standing as orders_standing
from moderator.orders.errors import OrderError
from moderator.ports import (
    DeadlineChange,
    GameContext,
    Lookup,
    Outcome,
    OutgoingMail,
    Player,
    TournamentWrite,
)
from moderator.ports.deadlines import ABSENCE_END, deadline_change
from moderator.records import record
from moderator.reporting.narrate import history_lines
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import Variant
from moderator.schedule import absence, holders, reference, seats, timing
from moderator.schedule import notify as notify_choice
from moderator.schedule import pictures as pictures_choice
from moderator.schedule.record import GameRecord, counted
from moderator.usecases.games import digests, notify, robot_seats, standing
from moderator.usecases.games.allowance import Allowance
from moderator.usecases.games.caches import caches_of
from moderator.usecases.games.notify import HISTORY, REPLY
from moderator.usecases.games.run import DONE, REFUSED, LineResult, run_orders
from moderator.usecases.mail import answer_texts, mail_answers
from moderator.usecases.mail.mail_answers import HISTORIES_PER_MAIL
from moderator.usecases.mail.replies import Replies
from moderator.usecases.players import auth, reliability, signon

#: The code of a refused absence line.
ABSENCE_REFUSED = "E-ABSENCE"
#: The code of a refused ``notify`` line.
NOTIFY_REFUSED = "E-NOTIFY"
#: The code of a refused ``pictures`` line.
PICTURES_REFUSED = "E-PICTURES"


@record
class _AbsenceChange:
    """An absence a mail declared, ended early or withdrew."""

    absence: absence.Absence
    what: str  # declared, cancelled, withdrawn
    withdrawn: bool


def play(
    replies: Replies,
    game: GameContext,
    lookup: Lookup,
    now: datetime,
    player: Player,
    seat: str,
    method: str | None,
    lines: list[str],
    ignored: list[str],
    aside_mails_a_day: int = notify.ASIDE_MAILS_A_DAY,
) -> Outcome:
    """
    ``player``'s mail played in ``game`` as ``seat`` at ``now``: ``method`` is how the mail proved
    it is his (``auth.PGP``: the subject, which no signature covers, may not give the
    step reference), ``ignored`` the lines the intake set aside, for the reply.
    ``aside_mails_a_day``: the mails his shows and messages may cause another player
    to get at once in a day (``notify.report_round``).
    """
    info = replies.info
    original = game.record
    game, back = _seat_back(replies, game, lookup, seat)
    refs, lines, unreadable = reference.split_refs(lines)
    skipped = [line for line in lines if signon.is_signon(line) or signon.is_timezone(line)]
    away = [line for line in lines if absence.is_absence(line)]
    choices = [line for line in lines if notify_choice.is_notify(line)]
    shown = [line for line in lines if pictures_choice.is_pictures(line)]
    standing_lines = [line for line in lines if orders_standing.is_standing(line)]
    written = lines
    lines = [
        line for line in lines if line not in skipped + away + choices + shown + standing_lines
    ]
    quoted = refs[0] if refs else None
    if quoted is None and method != auth.PGP:  # the subject is not covered by a signature
        quoted = reference.subject_ref(info.subject)  # the subject as written
    # His own reference: shows, messages and what only others saw do not move it.
    current = reference.current(game.game_id, game.state, seat)
    problem = reference.check(quoted, current)
    record, absent, changes, moved = _absences(game, seat, player, away, now)
    record, notified, digest_rows = _notify_choices(record, seat, choices, player, now)
    record, pictured = _pictures_choices(record, seat, shown)
    record, standing_told = _standing_orders(record, seat, standing_lines, game.state.variant)
    absent = [*absent, *notified, *pictured, *standing_told]
    allowance = _allowance(record, seat, now, player.time_zone)
    asked: list[Query] = []
    run = run_orders(
        game.state,
        record,
        seat,
        lines,
        lambda: lookup.events(game.game_id),
        refuse_changes=problem,
        answer=mail_answers.answerer(asked),
        game=game.game_id,
        trigger=replies.message_digest,
        any_time=problem is not None and reference.of_this_game(problem[0]),
        allowance=allowance,
    )
    ref_refused = problem is not None and any(r.code == problem[0] for r in run.results)
    carried = standing.carry_out(run.state, run.record, game.game_id, replies.message_digest)
    if _acted(game.state, run.state, seat):  # his run of missed deadlines ends
        carried = dataclasses.replace(carried, record=seats.met(carried.record, seat))
    new_events = [*run.events, *carried.events]
    carried = _count_asides(carried, seat, allowance, now)
    own_state = carried.state  # the game after his mail, before the robots that follow it
    carried, robots_too = _robots_follow(game, lookup, carried, new_events)
    new_events = [*new_events, *robots_too]
    now_state = carried.state
    after = reference.current(game.game_id, now_state, seat)
    results = mail_answers.in_mail_order(written, absent, run.results)
    if problem is not None:
        results = mail_answers.reworded(results, quoted, problem[0], after)
    if any(q.kind in mail_answers.AT_END for q in asked):
        known = caches_of(lookup).knowledge.knowledge_after(game, lookup, new_events).legions(seat)
        results = mail_answers.answered_at_end(results, asked, now_state, seat, known, after)
    resend = {seat} if any(q.kind == "report" for q in asked) else set()
    settled = notify.settle(
        replies.moderator_address,
        game,
        lookup,
        new_events,
        now_state,
        carried.record,
        now,
        resend,
        answering=seat,
        aside_mails_a_day=aside_mails_a_day,
    )
    record = settled.record
    ref_problem = ""
    if ref_refused and problem is not None:
        done = mail_answers.carried_out(results)
        ref_problem = answers.ref_problem(problem[0], after, done)
    texts = answer_texts.reply(
        after,
        now_state,
        seat,
        info,
        results,
        run.unprocessed,
        [*ignored, *unreadable, *skipped],
        record=record,
        time_zone=player.time_zone,
        ref_problem=ref_problem,
        brief=settled.own is not None,
        read_at=current,
    )
    texts = answers.with_report(texts, settled.own)
    mails = [replies.answer(player, REPLY, texts, game.game_id), *back]
    histories = [q for q in asked if q.kind == "history"][:HISTORIES_PER_MAIL]
    events = [*lookup.events(game.game_id), *new_events] if histories else []
    for query in histories:
        since = holders.held_since(game.record.former, seat)
        told = history_lines(events, seat, query.from_turn, query.to_turn, since)
        found = report_letters.history(
            after.game, str(after), seat, told, query.from_turn, query.to_turn
        )
        mails.append(replies.answer(player, HISTORY, found, game.game_id))
    mails.extend(settled.mails)
    for change in changes:
        mails.extend(_absence_notices(replies, game, lookup, now_state, record, seat, change))
    refused = [r for r in results if r.outcome == REFUSED]
    note = f"refused: {', '.join(r.code for r in refused)}" if refused else ""
    counted: tuple[TournamentWrite, ...] = ()
    if run.events and reliability.moved_in_time(
        game.record, game.state, own_state, seat, now
    ):  # a tournament game counts it for the seat's holder
        counted, uncounted = reliability.count_quietly(
            lookup, game.game_id, seat, on_time=1, now=now
        )
        note = "; ".join(n for n in (note, uncounted) if n)
    changed = bool(new_events) or record != original
    deadline_rows = [*moved, *digest_rows, *settled.deadlines]
    for change in changes:
        ends = None if change.withdrawn else change.absence.ends
        deadline_rows.append(DeadlineChange(ABSENCE_END, ends, seat, change.absence.key))
    return Outcome(
        events=tuple(new_events),
        mails=tuple(mails),
        record=record if changed else None,
        note=note,
        deadlines=tuple(deadline_rows) if changed else (),
        tournaments=counted,
    )


def _seat_back(
    replies: Replies, game: GameContext, lookup: Lookup, seat: str
) -> tuple[GameContext, list[OutgoingMail]]:
    """
    A mail of the seat's player: a seat the robot kept for him is his again (every player
    told); the game as his orders then see it.  Only his orders end a run of missed
    deadlines (``_acted``): a mail that asks for his status between deadlines while the
    robot plays each of his steps does not keep the seat his.
    """
    record, told = robot_seats.take_back(
        replies.moderator_address, lookup, game.game_id, game.state, game.record, seat
    )
    return dataclasses.replace(game, record=record), told


def _acted(before: GameState, after: GameState, seat: str) -> bool:
    """Whether ``seat``'s orders took the game on from a step he was to act in."""
    return to_act(before) == seat and timing.step_key(after) != timing.step_key(before)


def _robots_follow(
    game: GameContext, lookup: Lookup, carried: standing.Carried, new: list[ev.Event]
) -> tuple[standing.Carried, tuple[ev.Event, ...]]:
    """
    The robots' orders that follow the mail's change at once (``robot_seats.following``),
    so that the answer carries the report after them: the player whose order woke them
    gets one mail, not his answer and then their report moments later.  A mail that
    changed nothing, or leaves the game waiting on a person, wakes no robot here.
    """
    if not new:
        return carried, ()
    played = robot_seats.following(
        game.game_id, carried.state, carried.record,
        lambda: caches_of(lookup).knowledge.knowledge_after(game, lookup, new),
    )
    if played is None or not played.events:
        return carried, ()
    return dataclasses.replace(carried, state=played.state, record=played.record), played.events


def _notify_choices(
    record: GameRecord, seat: str, lines: list[str], player: Player, now: datetime
) -> tuple[GameRecord, list[LineResult], list[DeadlineChange]]:
    """
    The mail's ``notify`` lines (they change no game state): the record after them, a
    result per line, and the player's digest deadline set or closed.
    """

    def choose(record: GameRecord, line: str) -> tuple[GameRecord, str]:
        choice = notify_choice.parse(line)
        return record.but(notify={**record.notify, seat: str(choice)}), choice.describe()

    record, results = _choices(record, lines, choose, NOTIFY_REFUSED)
    if not any(r.outcome == DONE for r in results):
        return record, results, []
    chosen = record.notify[seat]  # the last line read is the choice kept
    return record, results, [digests.digest_change(chosen, seat, now, player.time_zone)]


def _pictures_choices(
    record: GameRecord, seat: str, lines: list[str]
) -> tuple[GameRecord, list[LineResult]]:
    """The mail's ``pictures`` lines (they change no game state): the record after them."""

    def choose(record: GameRecord, line: str) -> tuple[GameRecord, str]:
        mode = pictures_choice.parse(line)
        return record.but(pictures={**record.pictures, seat: mode}), pictures_choice.describe(mode)

    return _choices(record, lines, choose, PICTURES_REFUSED)


def _choices(
    record: GameRecord,
    lines: list[str],
    choose: Callable[[GameRecord, str], tuple[GameRecord, str]],
    refused: str,
) -> tuple[GameRecord, list[LineResult]]:
    """
    Lines that set one of the seat's choices in the game's record, in turn: ``choose``
    reads a line into the record after it and what to tell him, or raises ``ValueError``
    (the line is refused with the code ``refused``, its reason the error's).
    """
    results: list[LineResult] = []
    for line in lines:
        try:
            record, told = choose(record, line)
        except ValueError as exc:
            results.append(LineResult(line, REFUSED, reason=str(exc), code=refused))
            continue
        results.append(LineResult(line, DONE, (told,)))
    return record, results


#: The most messages a player may pass on in one game a day (Wolff 4.5; UTC days).
RELAYS_A_DAY = 20
#: The most times a player may show a legion in one game a day (Wolff 4.5; UTC days).
SHOWS_A_DAY = 20


def _allowance(record: GameRecord, seat: str, now: datetime, time_zone: str) -> Allowance:
    """
    What ``seat`` may still show and tell today (UTC days): ``run_orders`` spends it on
    every show and message it carries out, wherever the line stands.
    """
    today = now.astimezone(UTC).date()
    day = today.isoformat()
    midnight = datetime.combine(today + timedelta(days=1), time(), UTC)
    return Allowance(
        tells=RELAYS_A_DAY - record.relayed_on(seat, day),
        shows=SHOWS_A_DAY - record.shown_on(seat, day),
        tells_a_day=RELAYS_A_DAY,
        shows_a_day=SHOWS_A_DAY,
        renews=f"at midnight UTC, {moment_line(midnight, time_zone)}",
    )


def _count_asides(
    carried: standing.Carried, seat: str, allowance: Allowance, now: datetime
) -> standing.Carried:
    """The record counts the messages ``seat`` passed on and the legions he showed today."""
    if not allowance.told and not allowance.shown:
        return carried
    day = now.astimezone(UTC).date().isoformat()
    record = carried.record
    if allowance.told:
        record = record.but(relayed=counted(record.relayed, seat, day, allowance.told))
    if allowance.shown:
        record = record.but(shown=counted(record.shown, seat, day, allowance.shown))
    return dataclasses.replace(carried, record=record)


def _standing_orders(
    record: GameRecord, seat: str, lines: list[str], variant: Variant
) -> tuple[GameRecord, list[LineResult]]:
    """The mail's standing orders, kept (private to the moderator, Wolff 9.4)."""
    results: list[LineResult] = []
    for line in lines:
        try:
            kept = orders_standing.merged(record.standing.get(seat, ()), [line], variant)
        except OrderError as exc:
            results.append(LineResult(line, REFUSED, reason=str(exc), code=exc.code))
            continue
        record = record.but(standing={**record.standing, seat: kept})
        shown = "; ".join(orders_standing.read(kept, variant).lines()) or "none"
        results.append(LineResult(line, DONE, (f"Your standing orders now: {shown}.",)))
    return record, results


def _absences(
    game: GameContext,
    seat: str,
    player: Player,
    lines: list[str],
    now: datetime,
) -> tuple[GameRecord, list[LineResult], list[_AbsenceChange], list[DeadlineChange]]:
    """
    The mail's absence lines (they change no game state, so need no step reference):
    the game's record after them, a result per line, the absences changed and the
    running deadline moved by them.
    """
    record = game.record
    results: list[LineResult] = []
    changes: list[_AbsenceChange] = []
    moved: list[DeadlineChange] = []
    limits = record.time_limits
    for line in lines:
        if game.state.step is Step.OVER:
            results.append(
                LineResult(line, REFUSED, reason="the game is over", code=ABSENCE_REFUSED)
            )
            continue
        done = absence.request(record, seat, line, now, player.time_zone, limits)
        if done.record is None:
            results.append(LineResult(line, REFUSED, reason=done.answer, code=ABSENCE_REFUSED))
            continue
        record, change = timing.recompute(done.record, now)
        moved.extend(deadline_change(change))
        results.append(LineResult(line, DONE, (done.answer[:1].upper() + done.answer[1:],)))
        if done.absence is not None:
            withdrawn = done.cancelled and done.absence.begins > now
            what = "withdrawn" if withdrawn else "cancelled" if done.cancelled else "declared"
            changes.append(_AbsenceChange(done.absence, what, withdrawn))
    return record, results, changes, moved


def _absence_notices(
    replies: Replies,
    game: GameContext,
    lookup: Lookup,
    state: GameState,
    record: GameRecord,
    seat: str,
    change: _AbsenceChange,
) -> list[OutgoingMail]:
    """The other players are told of ``seat``'s absence (it is public)."""
    actor = to_act(state)
    mails: list[OutgoingMail] = []
    for other, player in sorted(lookup.seated_players(game.game_id).items()):
        if other == seat or not state.has_player(other):
            continue
        texts = notices.absence(
            game.game_id,
            seat,
            change.what,
            change.absence.first,
            change.absence.last,
            change.absence.begins,
            change.absence.ends,
            actor=actor,
            deadline=deadline_line(record, player.time_zone),
            time_zone=player.time_zone,
        )
        mails.append(replies.mail(player, notify.NOTICE, texts, game.game_id, {}))
    return mails
