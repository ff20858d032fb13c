"""
Answers to a mail: what became of an order mail's lines, a refused mail, the welcome
after a sign-on.

The answer to an order mail counts its lines in the signed part and gives each line
and what became of it in the private part (his lines are his words, and the moderator
signs nothing a player chose); the signed part names the mail by when it came, the step
it was read at, the reference now, whose move it is and the deadline.  When his report
goes in the same mail (one mail per mail), ``with_report`` joins the two.
``service.mail_answers`` decides what the results say; this module words them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moderator.letters.moments import mail_named
from moderator.letters.templates import letter, render
from moderator.letters.texts import LineResult, MailInfo, Texts
from moderator.orders.conditional import is_conditional
from moderator.pictures.spec import BATTLE, Picture
from moderator.schedule import reference
from moderator.schedule.reference import StepRef

#: Order lines a refusal lists as legal instead.
HINT_LINES = 30
#: What became of a line (``moderator.usecases.games.run``'s outcomes).
_ANSWERED, _DONE, _REFUSED = "answered", "done", "refused"


def counts(results: Sequence[LineResult], unprocessed: int, ignored: int) -> str:
    """
    The results of a mail in two lines that fit the mail's width (one line was broken
    by the shell mid-phrase): orders, refusals, questions, and the ``on roll`` lines
    (plans for the movement roll, not questions) when it has any.
    """
    plans = sum(1 for r in results if r.outcome == _ANSWERED and is_conditional(r.line))
    done = sum(1 for r in results if r.outcome == _DONE)
    refused = sum(1 for r in results if r.outcome == _REFUSED)
    answered = sum(1 for r in results if r.outcome == _ANSWERED) - plans
    rolls = f"{plans} 'on roll' line(s) read, " if plans else ""
    return (
        f"{done} order(s) carried out, {refused} refused, {answered} question(s) answered,\n"
        f"{rolls}{unprocessed} line(s) not processed, {ignored} ignored."
    )


def legal_now(
    viewer: str, actor: str | None, over: bool, step: str, legal: Sequence[str]
) -> list[str]:
    """What ``viewer`` may write now (``legal``, cut short), or whose move it is."""
    if over:
        return ["The game is over."]
    if actor != viewer:
        return [f"It is {actor}'s move ({step} step), not yours."]
    shown = [f"  {line}" for line in legal[:HINT_LINES]]
    if len(legal) > HINT_LINES:
        shown.append(f"  ... and {len(legal) - HINT_LINES} more ('legal' lists them all)")
    return ["What you may write now:", *shown]


def _result(result: LineResult, hint: list[str]) -> dict[str, Any]:
    """A result as the reply template prints it; a refusal with what is legal instead."""
    return {
        "line": result.line,
        "outcome": result.outcome,
        "lines": [piece.rstrip() for line in result.lines for piece in line.split("\n")],
        "reason": result.reason,
        "code": result.code,
        "hint": hint if result.outcome == _REFUSED and result.hint else [],
    }


@letter("player.reply.txt.j2", "player.reply-private.txt.j2")
def reply(
    game: str,
    ref: str,
    viewer: str,
    mail: MailInfo,
    results: Sequence[LineResult],
    unprocessed: Sequence[str],
    ignored: Sequence[str],
    *,
    actor: str | None,
    over: bool,
    step: str,
    deadline: str,
    legal: Sequence[str] = (),
    time_zone: str = "UTC",
    ref_problem: str = "",
    brief: bool = False,
    read_at: str = "",
    pictures: tuple[Picture, ...] = (),
) -> Texts:
    """
    The answer to ``viewer``'s mail: counts in the public part, results in the private
    (a refusal with a hint lists ``legal``, what he may write now); ``brief`` when his
    report follows in the same mail (it tells the reference, whose move it is and the
    deadline).  The public part names the mail by when it came and the step the game
    was at when it was read (``read_at``), and ``ref_problem`` must quote nothing of the
    mail: the moderator signs nothing a player chose.
    """
    public = render(
        "player.reply.txt.j2",
        game=game,
        mail=mail_named(mail, time_zone),
        read_at=read_at,
        ref_problem=ref_problem,
        ref=ref,
        over=over,
        your_move=actor == viewer and not over,
        actor=actor,
        deadline=deadline,
        brief=brief,
    )
    hint = legal_now(viewer, actor, over, step, legal)
    private = render(
        "player.reply-private.txt.j2",
        game=game,
        viewer=viewer,
        sender=mail.sender,
        subject=mail.subject or "(no subject)",
        date=mail.date or "(no date)",
        message_id=mail.message_id or "(no Message-ID)",
        counts=counts(results, len(unprocessed), len(ignored)),
        results=[_result(r, hint) for r in results],
        unprocessed=list(unprocessed),
        ignored=list(ignored),
    )
    return Texts(f"Re: {mail.topic} (ref {ref})", public, private, pictures)


def with_report(answer: Texts, report: Texts | None) -> Texts:
    """
    The answer to a player's mail and the report he would get, as one mail: the
    answer's few lines first, then the report, in each part; the report's subject (the
    game as it is now) and pictures (its battle's replaced by the answer's, which rings
    the hexes a 'reach' asked about).
    """
    if report is None:
        return answer
    public = f"{answer.public.rstrip()}\n\n{'-' * 72}\n\n{report.public}"
    private = "\n\n".join(p.rstrip() for p in (answer.private, report.private) if p)
    kept = [p for p in report.pictures if not (answer.pictures and p.kind == BATTLE)]
    pictures = (*kept, *answer.pictures)  # the answer's battle: with 'reach' rings
    return Texts(f"Re: {report.subject}", public, private or None, pictures)


def ref_problem(code: str, after: StepRef, carried: int) -> str:
    """
    Why a mail's orders changed the game in nothing, for the signed part of the answer:
    what happened to the mail, and the reference to quote next (``after``: the game once
    the mail has run), never the one the mail quoted (its author wrote that, and the
    moderator signs nothing a player chose; the refused lines in the private part say
    it).  ``carried``: the lines carried out all the same (shows, messages, ``notify``
    and the like).
    """
    if carried:
        outcome = (
            f"its orders that change the game were not carried out, but {carried} other "
            f"line(s) were (each line and what became of it is in the private part)"
        )
    else:
        outcome = "nothing was changed"
    if code == reference.E_REF_STALE:
        return (
            f"your mail quotes an earlier step of game {after.game}: {outcome}. Read the "
            f"latest report, then send your orders with the line '{after.line}'"
        )
    if code == reference.E_REF_AHEAD:
        return (
            f"your mail quotes a step game {after.game} has not reached: {outcome}. Send "
            f"your orders with the line '{after.line}'"
        )
    if code == reference.E_REF_GAME:
        return (
            f"your mail quotes a reference of another game: {outcome}. Orders for game "
            f"{after.game} need the line '{after.line}'"
        )
    return (
        f"orders that change the game must quote its current step reference: {outcome}. "
        f"Add the line '{after.line}' to your orders (it is in every report)"
    )


@letter("player.refusal.txt.j2", "player.refusal-private.txt.j2")
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


@letter("player.welcome.txt.j2")
def welcome(name: str, address: str, time_zone: str, key: str | None, secret: bool) -> Texts:
    """The answer to a sign-on: who is registered, in which time zone, with what."""
    text = render(
        "player.welcome.txt.j2",
        player=name,
        address=address,
        time_zone=time_zone,
        key=key,
        secret=secret,
    )
    return Texts(f"Welcome, {name}", text)


__all__ = [
    "HINT_LINES",
    "LineResult",
    "counts",
    "legal_now",
    "ref_problem",
    "refusal",
    "reply",
    "welcome",
    "with_report",
]
