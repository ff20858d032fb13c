"""
Reports and game records: what a player reads of a game, and the board as text.

A report has two parts.  The **public** part is signed by the moderator when it is
sent, so it holds only what every player may know and that names no legion's contents:
markers, lands, heights, scores, whose move it is, the public events that name no
character of a legion, the commitments.  The **private** part (never signed,
encrypted to the player when he has a key: Wolff 4.5) holds the rest: his legions, the
contents he knows, the events he alone (or with a few) was shown, and what every
player saw but the moderator may not sign: reveals, musters, a battle and its strikes,
the openings of commitments.  The use case (``service.reports``) chooses those
values from ``player_view(state, viewer)`` and the events the viewer may see; this
module only words and cuts them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any

from moderator.letters.templates import letter, render
from moderator.letters.texts import Texts
from moderator.records import record
from moderator.reporting.views import battle_model, status_model

if TYPE_CHECKING:  # a picture's type only: the text of a view needs nothing drawn
    from moderator.pictures.spec import Picture

#: Order lines a report lists before cutting short (``legal`` lists them all).
REPORT_ORDER_LINES = 60
#: Events a report tells before leaving the older ones to ``history``.
REPORT_EVENTS = 300
#: Lines a game record sends in one mail.
HISTORY_LINES = 3000


@letter("status.txt.j2")
def status(
    view: dict[str, Any],
    viewer: str | None = None,
    *,
    contents: bool = True,
    legions_as_of: str = "",
) -> str:
    """
    A readable rendering of ``player_view``'s dict (turn, whose move, scores, board, and
    the battle when one is on).  ``contents`` False leaves out what the legions hold
    (the signed part of a report: the moderator never signs legion contents, Wolff 4.5),
    the battle's characters with them, and points ``viewer`` to the private part.
    ``legions_as_of`` (a report's reference) says the legions stand as that report
    listed them, in a line instead of the list.
    """
    model = {**status_model(view, viewer), "legions_as_of": legions_as_of}
    return render("status.txt.j2", **model, contents=contents, viewer=viewer)


@letter("battle.txt.j2")
def battle(view: dict[str, Any], viewer: str | None = None) -> str | None:
    """The battleland drawn as text; None when no battle is on."""
    model = battle_model(view, viewer)
    return None if model is None else render("battle.txt.j2", battle=model)


@record
class Report:
    """
    What ``viewer``'s report says, as the use case found it: ``public_view`` the game as
    everybody sees it, the events he may see (public and private), his legions and those
    he knows of as lines, the orders he may give (all of them: the letter cuts).
    """

    game: str
    viewer: str
    ref: str
    since: str  # the first version the report covers, "GAME-N"
    public_view: dict[str, Any]
    deadline: str
    actor: str | None = None
    over: bool = False
    your_move: bool = False
    out: bool = False
    resend: bool = False
    digest: bool = False
    public_events: Sequence[str] = ()
    #: Public events that name what a legion holds: every player saw them, but they go
    #: in the private part (Wolff 4.5).
    told_events: Sequence[str] = ()
    private_events: Sequence[str] = ()
    dice_commitment: str = ""
    dice_not_secret: bool = False
    commitments: Sequence[str] = ()
    openings: Sequence[str] = ()  # the audit's openings every player saw: private part
    how: Sequence[str] = ()
    own: Sequence[str] = ()
    known: Sequence[str] = ()
    engagement: Mapping[str, Any] | None = None  # with its proposals, for the engaged
    move_plan: Sequence[str] = ()
    orders: Sequence[str] = ()
    muster_notes: Sequence[str] = ()
    #: What the caretaker's stacks hold, at the steps where that shapes his choice.
    caretaker: Sequence[str] = ()
    #: His split-offs that share a land, and what 'done' makes of them (4.3, 4.7).
    sharing: Sequence[str] = ()
    #: At his negotiate step: what the engaged legions are worth, what each end scores.
    stakes: Sequence[str] = ()
    standing: Sequence[str] = ()
    pictures: tuple[Picture, ...] = field(default=())
    #: Whether the standing explanations are written out in full (his first report, and
    #: it sent again); later reports name them in a line each.
    explain: bool = True
    #: The legions stand as his last report (``since``) listed them: the signed part
    #: says so in a line instead of listing them again (the private part lists each).
    legions_unchanged: bool = False


@letter("player.report.txt.j2", "player.report-private.txt.j2")
def report(facts: Report, headline: str) -> Texts:
    """
    The report ``facts`` describe, under the subject ``headline`` (why it is sent,
    ``service.subjects``); the oldest events beyond ``REPORT_EVENTS`` and the orders
    beyond ``REPORT_ORDER_LINES`` are left to ``history`` and ``legal``.
    """
    more = max(0, len(facts.public_events) - REPORT_EVENTS)
    public = render(
        "player.report.txt.j2",
        game=facts.game,
        viewer=facts.viewer,
        ref=facts.ref,
        since=facts.since,
        resend=facts.resend,
        digest=facts.digest,
        your_move=facts.your_move,
        actor=facts.actor,
        over=facts.over,
        deadline=facts.deadline,
        out=facts.out,
        events=list(facts.public_events[more:]),
        more_events=more,
        told=len(facts.told_events),
        status=status(
            facts.public_view,
            facts.viewer,
            contents=False,
            legions_as_of=facts.since if facts.legions_unchanged else "",
        ),
        dice_commitment=facts.dice_commitment,
        dice_not_secret=facts.dice_not_secret,
        commitments=list(facts.commitments),
        how=list(facts.how),
        explain=facts.explain,
    )
    private = render(
        "player.report-private.txt.j2",
        game=facts.game,
        viewer=facts.viewer,
        ref=facts.ref,
        events=list(facts.private_events[-REPORT_EVENTS:]),
        told=list(facts.told_events[-REPORT_EVENTS:]),
        battle=battle(facts.public_view, facts.viewer),
        openings=list(facts.openings),
        own=list(facts.own),
        known=list(facts.known),
        engagement=facts.engagement,
        your_move=facts.your_move,
        move_plan=list(facts.move_plan),
        orders=list(facts.orders[:REPORT_ORDER_LINES]),
        muster_notes=list(facts.muster_notes),
        caretaker=list(facts.caretaker),
        sharing=list(facts.sharing),
        stakes=list(facts.stakes),
        standing=list(facts.standing),
        more_orders=max(0, len(facts.orders) - REPORT_ORDER_LINES),
    )
    return Texts(f"{headline} (ref {facts.ref})", public, private, facts.pictures)


@letter("player.history-public.txt.j2", "player.history.txt.j2")
def history(
    game: str, ref: str, viewer: str, lines: Sequence[str], first: int | None, last: int | None
) -> Texts:
    """The game record ``viewer`` asked for (turns ``first`` to ``last``), cut at ``HISTORY_LINES``."""
    span = ""
    if first is not None:
        span = f", turns {first} to {last}" if last is not None else f", from turn {first}"
    public = render("player.history-public.txt.j2", game=game, span=span, ref=ref)
    private = render(
        "player.history.txt.j2",
        game=game,
        viewer=viewer,
        span=span,
        ref=ref,
        lines=list(lines[:HISTORY_LINES]),
        cut=max(0, len(lines) - HISTORY_LINES),
    )
    return Texts(f"Game record{span} (ref {ref})", public, private)


__all__ = [
    "HISTORY_LINES",
    "REPORT_EVENTS",
    "REPORT_ORDER_LINES",
    "Report",
    "battle",
    "history",
    "report",
    "status",
]
