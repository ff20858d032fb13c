"""
The texts of the mails the service writes: reports, game records, refusals and
welcomes, each from a ``templates/player.*.txt.j2`` template (the answer to an order
mail is ``service.answer_texts``, a report's subject ``service.subjects``).

A report or reply has two parts.  The **public** part is signed by the moderator when
it is sent, so it holds only what every player may know: the public view of the game
(``player_view(state, None)``), the public events, counts, whose move it is.  The
**private** part (never signed, encrypted to the player when he has a key: Wolff 4.5)
holds what only its recipient may see: his legions, the contents he knows, the events
he alone (or with a few) was shown, his order lines and their results.  Everything
here is built from ``player_view(state, viewer)`` and the events ``viewer`` may see,
so no mail can hold anything its recipient may not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.orders.errors import OrderError
from moderator.orders.standing import read as read_standing
from moderator.pictures.changes import changed_lands
from moderator.pictures.spec import Picture, report_pictures
from moderator.reporting.audit_notes import audit_notes
from moderator.reporting.knowledge import KnownLegion, legion_line
from moderator.reporting.move_plan import plan_lines
from moderator.reporting.muster_notes import muster_notes
from moderator.reporting.narrate import describe, is_bookkeeping, may_see
from moderator.reporting.render import render
from moderator.reporting.views import (
    land_name,
    legal_lines,
    marker_names,
    player_view,
    view_text,
)
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import load_variant
from moderator.schedule.record import GameRecord
from moderator.schedule.reference import StepRef
from moderator.schedule.timing import KIND_NAMES
from moderator.service import subjects

#: Order lines a report lists before cutting short (``legal`` lists them all).
REPORT_ORDER_LINES = 60
#: Events a report tells before leaving the older ones to ``history``.
REPORT_EVENTS = 300
#: Lines a game record sends in one mail.
HISTORY_LINES = 3000

#: (event, the game just before it): what a report narrates.
Timeline = Sequence[tuple[ev.Event, GameState]]


@dataclass(frozen=True, slots=True)
class Texts:
    """
    A mail's subject, its public (signed) part, its private part (None: none) and the
    pictures to draw when it is sent.
    """

    subject: str
    public: str
    private: str | None = None
    pictures: tuple[Picture, ...] = ()


@dataclass(frozen=True, slots=True)
class MailInfo:
    """
    What an answer quotes of the mail it answers: what its author wrote (only ever in
    the private part) and when the moderator received it (``received``).
    """

    sender: str
    subject: str  # as written
    date: str
    message_id: str
    topic: str = "your mail"  # the subject without "Re:" and step references
    received: datetime | None = None


def mail_named(mail: MailInfo, time_zone: str = "UTC") -> str:
    """
    How the signed part of an answer names the mail it answers: by when it came.  Its
    Message-ID, date and subject are its author's words, and the moderator signs
    nothing a player chose (they are echoed in the private part).
    """
    if mail.received is None:
        return "your mail"
    return f"your mail received {moment_line(mail.received, time_zone)}"



def moment_line(moment: datetime, time_zone: str = "UTC") -> str:
    """A moment as mails print it, in the player's time zone: ``2024-07-04 12:00 (Europe/Berlin)``."""
    try:
        zone = ZoneInfo(time_zone)
    except (ValueError, ZoneInfoNotFoundError):
        zone, time_zone = ZoneInfo("UTC"), "UTC"
    return f"{moment.astimezone(zone):%Y-%m-%d %H:%M} ({time_zone})"


def deadline_line(record: GameRecord, time_zone: str = "UTC") -> str:
    """The game's deadline in the player's time zone, or why there is none."""
    if record.deadline is None and record.undelivered:
        who = ", ".join(sorted(record.undelivered))
        ends = [p.until for p in record.undelivered.values() if p.until is not None]
        until = f", at most until {moment_line(max(ends), time_zone)}" if ends else ""
        return f"none while mail to {who} cannot be delivered{until} (the game master is told)"
    if record.deadline is None:
        return "no deadline set"
    return moment_line(record.deadline.due, time_zone)


def deadline_whose(record: GameRecord, viewer: str, time_zone: str = "UTC") -> str:
    """
    The deadline as a report or answer to ``viewer`` prints it: when, in his time zone,
    and whose it is and for what kind of step (``for your muster``, ``for Bob's battle
    step``).
    """
    line = deadline_line(record, time_zone)
    deadline = record.deadline
    if deadline is None or not deadline.player:
        return line
    mine = deadline.player == viewer
    what = KIND_NAMES.get(deadline.kind)
    if what is None:
        return f"{line}, for {'you' if mine else deadline.player} to act"
    whose = "your" if mine else f"{deadline.player}'s"
    return f"{line}, for {whose} {what}"


def _whose(state: GameState) -> tuple[str | None, bool]:
    """(the player to act, whether the game is over)."""
    return to_act(state), state.step is Step.OVER


def _legion_line(view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    picture = names.get(view["marker"], "")
    contents = ", ".join(view["contents"]) if view["contents"] is not None else "contents unknown"
    moved = " (moved)" if view["moved"] else ""
    where = land_name(view["land"])
    return f"{view['marker']} ({picture}) in {where}, {view['height']} high: {contents}{moved}"


def _known_line(known: KnownLegion, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """Another player's legion as ``known`` says the viewer knows it (Wolff 4.5: only in
    the private part)."""
    land = int(view["land"])
    terrain = load_variant().lands[land].terrain
    moved = " (moved)" if view["moved"] else ""
    return legion_line(known, land, terrain, names.get(known.marker) or None) + moved


def visible(timeline: Timeline, viewer: str) -> tuple[list[str], list[str]]:
    """(public lines, private lines) of the events ``viewer`` may see in ``timeline``."""
    public: list[str] = []
    private: list[str] = []
    for event, before in timeline:
        if is_bookkeeping(event) or not may_see(event, viewer):
            continue
        (public if event.visible_to is None else private).append(describe(event, before))
    return public, private


def report(
    ref: StepRef,
    state: GameState,
    viewer: str,
    timeline: Timeline,
    since: int,
    *,
    record: GameRecord,
    known: Mapping[str, KnownLegion] | None = None,
    time_zone: str = "UTC",
    how: Sequence[str] = (),
    resend: bool = False,
    news_after: int | None = None,
    digest: bool = False,
    answering: bool = False,
) -> Texts:
    """
    ``viewer``'s report of the game now: the events he may see in ``timeline`` (those
    after event ``since``), the public state, his legions and, if it is his move, the
    orders he may give.  Its subject says why it is sent (``subjects.headline``: the
    events after ``news_after`` are the news, ``digest`` his daily digest,
    ``answering`` the answer to his mail).
    """
    actor, over = _whose(state)
    your_move = actor == viewer and not over
    public_events, private_events = visible(timeline, viewer)
    more = max(0, len(public_events) - REPORT_EVENTS)
    names = marker_names()
    mine = player_view(state, viewer)
    own = [_legion_line(lg, names) for lg in mine["legions"] if lg["owner"] == viewer]
    others = [lg for lg in mine["legions"] if lg["owner"] != viewer]
    if known is not None:  # what the viewer knows for certain, partly known legions too
        lines = [_known_line(known[lg["marker"]], lg, names) for lg in others]
    else:
        lines = [_legion_line(lg, names) for lg in others if lg["contents"] is not None]
    orders = legal_lines(state, viewer) if your_move else []
    everyone = player_view(state, None)
    changed = changed_lands([event for event, _ in timeline], viewer, everyone)
    sealed, opened = audit_notes(
        timeline, viewer, ref.game, record.dice.seed if record.dice.bound else None
    )
    public = render(
        "player.report.txt.j2",
        game=ref.game,
        viewer=viewer,
        ref=str(ref),
        since=f"{ref.game}-{since}",
        resend=resend,
        digest=digest,
        your_move=your_move,
        actor=actor,
        over=over,
        deadline=deadline_whose(record, viewer, time_zone),
        out=not any(p.name == viewer for p in state.live_players),
        events=public_events[more:],
        more_events=more,
        status=view_text(everyone, viewer, contents=False),
        dice_commitment=record.dice.commitment if record.dice.bound and since == 0 else "",
        dice_not_secret=record.insecure_dice,
        commitments=sealed,
        how=list(how),
    )
    private = render(
        "player.report-private.txt.j2",
        game=ref.game,
        viewer=viewer,
        ref=str(ref),
        events=private_events[-REPORT_EVENTS:],
        own=own,
        known=lines,
        engagement=mine["engagement"] if "proposals" in (mine["engagement"] or {}) else None,
        your_move=your_move,
        move_plan=plan_lines(state, viewer) if your_move else [],
        orders=orders[:REPORT_ORDER_LINES],
        muster_notes=muster_notes(state, viewer),
        standing=standing_lines(record.standing.get(viewer, ())),
        more_orders=max(0, len(orders) - REPORT_ORDER_LINES),
        audit=opened,
    )
    headline = subjects.headline(
        state, viewer, timeline, news_after=news_after, digest=digest, answering=answering
    )
    pictures = report_pictures(everyone, viewer, ref.game, changed)
    return Texts(f"{headline} (ref {ref})", public, private, pictures)


def standing_lines(lines: Sequence[str]) -> list[str]:
    """A player's standing orders as his report lists them (as he would write them)."""
    try:
        return read_standing(lines).lines()
    except OrderError:  # kept lines were read when they came; shown as written if not now
        return list(lines)


def history(
    ref: StepRef, viewer: str, lines: Sequence[str], first: int | None, last: int | None
) -> Texts:
    """The game record ``viewer`` asked for (lines from ``history_lines``)."""
    span = ""
    if first is not None:
        span = f", turns {first} to {last}" if last is not None else f", from turn {first}"
    public = render("player.history-public.txt.j2", game=ref.game, span=span, ref=str(ref))
    private = render(
        "player.history.txt.j2",
        game=ref.game,
        viewer=viewer,
        span=span,
        ref=str(ref),
        lines=list(lines[:HISTORY_LINES]),
        cut=max(0, len(lines) - HISTORY_LINES),
    )
    return Texts(f"Game record{span} (ref {ref})", public, private)


def refusal(
    mail: MailInfo,
    why: str,
    how: Sequence[str],
    *,
    games: str = "",
    once: bool = True,
    per_day: int | None = None,
    time_zone: str = "UTC",
) -> Texts:
    """
    A refused mail: what to do instead, in the signed part; why, in the private part
    (``why`` may quote the mail: a game it names, an address it gives, which nobody
    signs for its author).  ``per_day`` (or ``once``: 1) says how many such answers
    the address may get a day.
    """
    public = render(
        "player.refusal.txt.j2",
        mail=mail_named(mail, time_zone),
        how=list(how),
        games=games,
        per_day=per_day if per_day is not None else int(once),
    )
    private = render(
        "player.refusal-private.txt.j2",
        why=why,
        date=mail.date or "(no date)",
        message_id=mail.message_id or "(no Message-ID)",
    )
    return Texts("Your mail was not carried out", public, private)


def welcome(name: str, address: str, time_zone: str, key: str | None, secret: bool) -> Texts:
    text = render(
        "player.welcome.txt.j2",
        player=name,
        address=address,
        time_zone=time_zone,
        key=key,
        secret=secret,
    )
    return Texts(f"Welcome, {name}", text)
