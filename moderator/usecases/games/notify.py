"""
Who hears of a change, and the outbox rows of the service's mails.

After a mail changed the game, every seated player who may see one of the new events,
and the player to act, gets a report of what he may see since his last one; a player
who may see none of them gets nothing, and his last reported version moves on all the
same (there was nothing to tell him).  The game's record keeps, per player, the
version he was last reported (``GameRecord.reported``) and where that report began
(``GameRecord.report_from``, for the ``report`` query).

``settle`` is what every change to a game calls (a mail's orders, a timeout, the end
date): the deadline that follows the player to act (``timing.follow``), the reports
showing it, and the result of a game ended by its time limit (rulebook 20.5).

A show or a message (Wolff 4.5) goes at once to those named, but one player's asides
make the moderator mail another at most ``aside_mails_a_day`` times a day: beyond that
his report waits, and the next one he gets tells them (it covers every event since the
version he was last reported).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from moderator.letters import notices as notice_letters
from moderator.letters.texts import Texts
from moderator.mail import compose
from moderator.pictures.spec import BATTLE, MASTERBOARD
from moderator.ports import DeadlineChange, GameContext, Lookup, OutgoingMail, Player
from moderator.ports.deadlines import deadline_change
from moderator.ports.players import normal_address
from moderator.records import record
from moderator.reporting.knowledge import Knowledge, knowledge_of
from moderator.reporting.narrate import is_bookkeeping, may_see
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule import notify as notify_choice
from moderator.schedule import reference, timing
from moderator.schedule.record import GameRecord, count_on, counted
from moderator.usecases.games import audits, reports
from moderator.usecases.games.asked import NOTHING, AsideCap, Asked
from moderator.usecases.games.caches import caches_of
from moderator.usecases.games.shown import shown
from moderator.usecases.players import auth

#: Mail kinds (the outbox's ``kind``).
REPORT, REPLY, REFUSAL, HISTORY, WELCOME = "report", "reply", "refusal", "history", "welcome"
#: The kind of the mails nobody's mail asked for (reminders, timeouts, absences, the end
#: date, outages, tournament notices): the sender marks them as generated
#: (``Auto-Submitted: auto-generated``), not as an answer to a mail.
NOTICE = "notice"
#: A refused sign-on (its own daily budget: the sender is nobody yet).
SIGNON_REFUSAL = "signon-refusal"
#: The kinds that answer a mail: what the daily reply budget counts.
ANSWER_KINDS = (REPLY, REFUSAL, HISTORY, WELCOME, SIGNON_REFUSAL)
#: The mails one player's shows and messages may cause another to get at once in a day
#: (the configuration's ``[service] aside_mails_a_day``).
ASIDE_MAILS_A_DAY = 20


def mail_to(
    sender: str,
    player: Player,
    kind: str,
    texts: Texts,
    game_id: str | None,
    headers: Mapping[str, str],
) -> OutgoingMail:
    """
    An outbox row to ``player``'s registered address: the public text, the private text
    with a fresh one-time token (Wolff 4.5), and his key to encrypt to.
    """
    subject = compose.tagged_subject(game_id, texts.subject) if game_id else texts.subject
    return OutgoingMail(
        normal_address(player.address),
        subject,
        texts.public,
        {"From": sender, **headers},
        private_body=texts.private,
        token=compose.new_token() if texts.private is not None else None,
        recipient_key=player.key_fingerprint,
        kind=kind,
        pictures=[picture.to_json() for picture in texts.pictures],
    )


def report_round(
    sender: str,
    game: GameContext,
    lookup: Lookup,
    new: Sequence[ev.Event],
    state: GameState,
    record: GameRecord,
    asked: Asked = NOTHING,
) -> tuple[GameRecord, list[OutgoingMail], Texts | None]:
    """
    The reports ``new`` events (after ``game``'s state, leading to ``state``) call for,
    by each player's notification choice (``schedule.notify``), and those ``asked``
    for; and the game's ``record`` with each player's reported version brought up to
    date.  The report of ``asked.answering`` is returned as texts, to go in the answer
    to his mail.  A report only other players' shows and messages call for goes at once
    within ``asked.aside_cap`` (``record.aside_mails`` counts them), else it waits for
    his next.  A player out of the game hears only what
    ``notify_choice.hears_while_out`` lets through, and what he asks for (a resend, the
    answer to his mail).
    """
    return _round(
        sender, _Stored(game, lookup, new), lookup.seated_players(game.game_id), new, state,
        record, asked,
    )


def first_reports(
    sender: str,
    game_id: str,
    seated: Mapping[str, Player],
    new: Sequence[ev.Event],
    state: GameState,
    record: GameRecord,
) -> tuple[GameRecord, list[OutgoingMail]]:
    """
    The first reports of a game not yet stored, whose setup ``new`` events lead to
    ``state``, to its ``seated`` players (seat -> player); and its ``record`` with
    their reported versions.  Nothing is read back: the game has no past.
    """
    record, mails, _ = _round(sender, _Fresh(game_id, new), seated, new, state, record, Asked())
    return record, mails


class _Stored:
    """A stored game's past, as a report round reads it (``game`` before ``new``)."""

    def __init__(self, game: GameContext, lookup: Lookup, new: Sequence[ev.Event]) -> None:
        self.game, self.lookup, self.new = game, lookup, new
        self.game_id, self.before, self.seq = game.game_id, game.state, game.seq

    def sees_since(self, seat: str, last: int) -> bool:
        return _sees_since(self.lookup, self.game, seat, last)

    def timeline(self, since: int) -> list[tuple[int, ev.Event, GameState]]:
        return _timeline(self.game, self.lookup, self.new, since)

    def knowledge(self) -> Knowledge:
        return caches_of(self.lookup).knowledge.knowledge_after(self.game, self.lookup, self.new)


class _Fresh:
    """A new game's past: nothing before its setup events ``new``."""

    def __init__(self, game_id: str, new: Sequence[ev.Event]) -> None:
        self.game_id, self.new, self.before, self.seq = game_id, new, GameState(), 0

    def sees_since(self, seat: str, last: int) -> bool:
        return False

    def timeline(self, since: int) -> list[tuple[int, ev.Event, GameState]]:
        timeline, state = [], GameState()
        for number, event in enumerate(self.new, 1):
            timeline.append((number, event, state))
            state = evolve(state, event)
        return timeline

    def knowledge(self) -> Knowledge:
        return knowledge_of(self.new)


def _round(
    sender: str,
    game: _Stored | _Fresh,
    seated: Mapping[str, Player],
    new: Sequence[ev.Event],
    state: GameState,
    record: GameRecord,
    asked: Asked,
) -> tuple[GameRecord, list[OutgoingMail], Texts | None]:
    resend, answering, catch_up = asked.resend, asked.answering, asked.catch_up
    reported = dict(record.reported)
    began = dict(record.report_from)
    aside_mails: Mapping[str, str] = record.aside_mails
    actor = to_act(state)
    due: list[tuple[str, Player, int, bool]] = []
    for seat, player in sorted(seated.items()):
        if not state.has_player(seat):
            continue
        last = reported.get(seat, 0)
        sees = any(may_see(e, seat) and not is_bookkeeping(e) for e in new)
        choice = notify_choice.choice_of(record.notify.get(seat))
        if (
            _out(state, seat)
            and seat not in resend
            and seat != answering
            and not notify_choice.hears_while_out(choice, seat, new)
        ):
            reported[seat] = state.version  # he chose not to hear: nothing is kept for him
            continue
        if new and (sees or (seat == actor and not all(ev.is_aside(e) for e in new))):
            requested = seat in resend or seat == answering or seat in catch_up
            if requested or (
                _meant_for(seat, new)
                or notify_choice.wants_report(choice, seat, new, game.before, state, actor)
            ):
                authors = set() if requested else _aside_authors(seat, new, actor)
                aside_mails, at_once = _within_cap(aside_mails, asked.aside_cap, authors, seat)
                if at_once:  # else over the cap: his next report tells them
                    due.append((seat, player, last, False))
            # else held back: his next report tells the net result
        elif seat in resend:
            due.append((seat, player, began.get(seat, last), True))
        elif seat in catch_up and last < game.seq and game.sees_since(seat, last):
            due.append((seat, player, last, False))
        elif new and last >= game.seq:  # nothing he may see happened: he is up to date
            reported[seat] = state.version
    if aside_mails != record.aside_mails:
        record = record.but(aside_mails=aside_mails)
    if not due:
        if new:
            record = record.but(reported=reported)
        return record, [], None
    boards = dict(record.boards)  # the version each one's last board showed
    # and his last battle picture, while a battle is on (so the log is not read back further)
    battles = dict(record.battles) if state.battle else {}
    timeline = game.timeline(
        min(min(since, boards.get(s, since), battles.get(s, since)) for s, _, since, _ in due)
    )
    allowed = record.allow_secrets
    knowledge = game.knowledge()
    mails: list[OutgoingMail] = []
    own: Texts | None = None
    for seat, player, since, again in due:
        texts = reports.report(
            reference.current(game.game_id, state, seat),  # his own: what he may see
            state,
            seat,
            [(event, before) for number, event, before in timeline if number > since],
            since,
            record=record,
            known=knowledge.legions(seat),
            time_zone=player.time_zone,
            how=auth.how_to_authenticate(player, allowed),
            resend=again,
            news_after=game.seq,
            digest=asked.digest and seat in catch_up,
            answering=seat == answering,
            shown=shown(timeline, boards.get(seat), battles.get(seat), state, seat),
        )
        kinds = {picture.kind for picture in texts.pictures}
        if MASTERBOARD in kinds:
            boards[seat] = state.version
        if BATTLE in kinds:
            battles[seat] = state.version
        if seat == answering:
            own = texts
        else:
            mails.append(mail_to(sender, player, REPORT, texts, game.game_id, {}))
        reported[seat] = state.version
        began[seat] = since
    record = record.but(reported=reported, report_from=began, boards=boards, battles=battles)
    return record, mails, own


def _out(state: GameState, seat: str) -> bool:
    """Whether ``seat`` is out of the game (eliminated or withdrawn)."""
    return not any(p.name == seat for p in state.live_players)


def _meant_for(seat: str, new: Sequence[ev.Event]) -> bool:
    """
    Whether another player showed ``seat`` a legion or passed him a message (Wolff 4.5):
    that goes to him at once, whatever he chose to hear of the others' play.
    """
    return any(
        ev.author(e) not in (None, seat) and may_see(e, seat) for e in new
    )


def _within_cap(
    counts: Mapping[str, str], cap: AsideCap | None, authors: set[str], seat: str
) -> tuple[Mapping[str, str], bool]:
    """
    (the counts after it, whether it goes) for a report to ``seat`` that the asides of
    ``authors`` alone call for: it goes while one of them has caused fewer than the
    cap's mails to ``seat`` today, and counts for each.
    """
    if cap is None or not authors:
        return counts, True
    keys = [f"{author}>{seat}" for author in sorted(authors)]
    if all(count_on(counts, key, cap.day) >= cap.per_day for key in keys):
        return counts, False
    for key in keys:
        counts = counted(counts, key, cap.day, 1)
    return counts, True


def _utc_day(moment: datetime) -> str:
    """The UTC day of ``moment``, as the daily counts name it (an ISO date)."""
    return moment.astimezone(UTC).date().isoformat()


def _aside_authors(seat: str, new: Sequence[ev.Event], actor: str | None) -> set[str]:
    """
    The other players whose shows and messages alone call for a report to ``seat``:
    everything of ``new`` he may see is an aside (or an audit note) and it is not his
    move that the events made.  Empty when anything else calls for it.
    """
    if seat == actor and not all(ev.is_aside(e) for e in new):
        return set()
    seen = [e for e in new if may_see(e, seat) and not is_bookkeeping(e)]
    if not all(ev.is_aside(e) for e in seen):
        return set()
    return {author for e in seen if (author := ev.author(e)) not in (None, seat)}


def _sees_since(lookup: Lookup, game: GameContext, seat: str, last: int) -> bool:
    """Whether ``seat`` may see any stored event of ``game`` after ``last``."""
    stored = lookup.events(game.game_id, after=last, upto=game.seq)
    return any(may_see(e, seat) and not is_bookkeeping(e) for e in stored)


@record
class Settled:
    """
    What a change to a game calls for: its new record, the mails, the deadline, and the
    report of the player whose mail is being answered (it goes in the answer).
    """

    record: GameRecord
    mails: list[OutgoingMail]
    deadlines: tuple[DeadlineChange, ...]
    own: Texts | None = None


def settle(
    sender: str,
    game: GameContext,
    lookup: Lookup,
    new: Sequence[ev.Event],
    state: GameState,
    record: GameRecord,
    now: datetime,
    resend: set[str] | None = None,
    answering: str | None = None,
    catch_up: frozenset[str] = frozenset(),
    aside_mails_a_day: int | None = None,
) -> Settled:
    """
    After ``new`` events led from ``game``'s state to ``state``: the deadline that
    follows the player to act (a new one when he or the kind of step changed), the
    reports (``report_round``, showing that deadline) and, when the game ended by its
    time limit, the result (rulebook 20.5) to every player.  ``aside_mails_a_day``
    caps the reports one player's shows and messages cause another to get at once.
    """
    record, change = timing.follow(state, record, now)
    cap = None if aside_mails_a_day is None else AsideCap(aside_mails_a_day, _utc_day(now))
    asked = Asked(frozenset(resend or ()), answering, catch_up, cap)
    record, mails, own = report_round(sender, game, lookup, new, state, record, asked)
    if state.step is Step.OVER and game.state.step is not Step.OVER:
        mails += _audit_mails(sender, game, lookup, new, record, now)
        caches_of(lookup).forget(lookup.database, game.game_id)  # its last reports are made
    scored = [e for e in new if isinstance(e, ev.GameScored)]
    if scored:
        for seat, player in sorted(lookup.seated_players(game.game_id).items()):
            if state.has_player(seat):
                ref = str(reference.current(game.game_id, state, seat))
                texts = notice_letters.result(game.game_id, ref, scored[-1])
                mails.append(mail_to(sender, player, NOTICE, texts, game.game_id, {}))
    return Settled(record, mails, deadline_change(change), own)


def _audit_mails(
    sender: str,
    game: GameContext,
    lookup: Lookup,
    new: Sequence[ev.Event],
    record: GameRecord,
    now: datetime,
) -> list[OutgoingMail]:
    """
    The game just ended: its audit bundle to every player in it, eliminated or not; and
    the public one (nothing any player only showed or told) to each former holder of a
    seat handed over (``schedule.holders``), so he can check the dice and seals of the
    turns he played without reading his successor's private part.
    """
    events = [*lookup.events(game.game_id, upto=game.seq), *new]
    mails = []
    for seat, player in sorted(lookup.seated_players(game.game_id).items()):
        found = audits.audit(game.game_id, events, record, now, seat)  # his own bundle
        if found is None:
            return []
        mails.append(
            found.attached_to(mail_to(sender, player, audits.AUDIT, found.texts, game.game_id, {}))
        )
    seated = {p.address for p in lookup.seated_players(game.game_id).values()}
    for address in sorted({h.address for h in record.former} - seated):
        gone, public = lookup.player(address), audits.audit(game.game_id, events, record, now, None)
        if gone is not None and public is not None:  # a seat handed from him: the public bundle
            mail = mail_to(sender, gone, audits.AUDIT, public.texts, game.game_id, {})
            mails.append(public.attached_to(mail))
    return mails


def _timeline(
    game: GameContext, lookup: Lookup, new: Sequence[ev.Event], since: int
) -> list[tuple[int, ev.Event, GameState]]:
    """
    (number, event, the game before it) for every event after ``since``: the stored
    ones (when a player is behind: his reports were held back, or events were added
    outside the mail service), replayed from the nearest kept state, and the ``new``
    ones.
    """
    key = (lookup.database, game.game_id)
    kept = caches_of(lookup).states
    kept.remember(key, game.seq, game.state)
    timeline: list[tuple[int, ev.Event, GameState]] = []
    if since < game.seq:
        start, state = kept.nearest(key, since) or (0, GameState())
        stored = lookup.events(game.game_id, after=start, upto=game.seq)
        try:
            for number, event in enumerate(stored, start + 1):
                if number > since:
                    timeline.append((number, event, state))
                state = evolve(state, event)
        except Exception:
            if start == 0:
                raise
            state = GameState()
        if state != game.state and start > 0:  # not this game's past: from the first event
            kept.forget(key)
            return _timeline(game, lookup, new, since)
    state = game.state
    for number, event in enumerate(new, game.seq + 1):
        timeline.append((number, event, state))
        state = evolve(state, event)
    return timeline
