"""
The answer to a player's order mail: what became of each line, counted in one line, in
the private part (his lines are his words, and the moderator signs nothing a player
chose); the signed part names the mail by when it came, the step it was read at, the
reference now, whose move it is and the deadline.  When his report goes in the same
mail (one mail per mail), the two are joined here.  ``service.mail_answers`` decides
what the results say; this module words them, from ``templates/player.reply*.j2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moderator.orders.conditional import is_conditional
from moderator.pictures.spec import BATTLE, reach_picture
from moderator.play.battle_queries import reach_asked
from moderator.play.run import ANSWERED, LineResult
from moderator.reporting.render import render
from moderator.reporting.views import legal_lines, player_view
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule.record import GameRecord
from moderator.schedule.reference import StepRef
from moderator.service.reports import MailInfo, Texts, deadline_whose, mail_named

#: Order lines a refusal lists as legal instead.
HINT_LINES = 30


def _whose(state: GameState) -> tuple[str | None, bool]:
    """(the player to act, whether the game is over)."""
    return to_act(state), state.step is Step.OVER


def counts(results: Sequence[LineResult], unprocessed: int, ignored: int) -> str:
    """
    The results of a mail in one line: orders, refusals, questions, and the ``on roll``
    lines (plans for the movement roll, not questions) when it has any.
    """
    plans = sum(1 for r in results if r.outcome == ANSWERED and is_conditional(r.line))
    done = sum(1 for r in results if r.outcome == "done")
    refused = sum(1 for r in results if r.outcome == "refused")
    answered = sum(1 for r in results if r.outcome == ANSWERED) - plans
    rolls = f"{plans} 'on roll' line(s) read, " if plans else ""
    return (
        f"{done} order(s) carried out, {refused} refused, {answered} question(s) answered, "
        f"{rolls}{unprocessed} line(s) not processed, {ignored} ignored."
    )


def legal_now(state: GameState, viewer: str) -> list[str]:
    """What ``viewer`` may write now (cut short), or whose move it is."""
    actor, over = _whose(state)
    if over:
        return ["The game is over."]
    if actor != viewer:
        return [f"It is {actor}'s move ({state.step.value} step), not yours."]
    orders = legal_lines(state, viewer)
    shown = [f"  {line}" for line in orders[:HINT_LINES]]
    if len(orders) > HINT_LINES:
        shown.append(f"  ... and {len(orders) - HINT_LINES} more ('legal' lists them all)")
    return ["What you may write now:", *shown]


def _result(result: LineResult, state: GameState, viewer: str) -> dict[str, Any]:
    """A result as the reply template prints it; a refusal with what is legal instead."""
    hint = legal_now(state, viewer) if result.outcome == "refused" and result.hint else []
    return {
        "line": result.line,
        "outcome": result.outcome,
        "lines": [piece.rstrip() for line in result.lines for piece in line.split("\n")],
        "reason": result.reason,
        "code": result.code,
        "hint": hint,
    }


def reply(
    ref: StepRef,
    state: GameState,
    viewer: str,
    mail: MailInfo,
    results: Sequence[LineResult],
    unprocessed: Sequence[str],
    ignored: Sequence[str],
    *,
    record: GameRecord,
    time_zone: str = "UTC",
    ref_problem: str = "",
    brief: bool = False,
    read_at: StepRef | None = None,
) -> Texts:
    """
    The answer to ``viewer``'s mail: counts in the public part, results in the private;
    ``brief`` when his report follows in the same mail (it tells the reference, whose
    move it is and the deadline).  The public part names the mail by when it came and
    the step the game was at when it was read (``read_at``), and ``ref_problem`` must
    quote nothing of the mail: the moderator signs nothing a
    player chose.
    """
    actor, over = _whose(state)
    public = render(
        "player.reply.txt.j2",
        game=ref.game,
        mail=mail_named(mail, time_zone),
        read_at=str(read_at) if read_at is not None else "",
        ref_problem=ref_problem,
        ref=str(ref),
        over=over,
        your_move=actor == viewer and not over,
        actor=actor,
        deadline=deadline_whose(record, viewer, time_zone),
        brief=brief,
    )
    private = render(
        "player.reply-private.txt.j2",
        game=ref.game,
        viewer=viewer,
        sender=mail.sender,
        subject=mail.subject or "(no subject)",
        date=mail.date or "(no date)",
        message_id=mail.message_id or "(no Message-ID)",
        counts=counts(results, len(unprocessed), len(ignored)),
        results=[_result(r, state, viewer) for r in results],
        unprocessed=list(unprocessed),
        ignored=list(ignored),
    )
    reach = reach_asked(state, viewer, [r.line for r in results if r.outcome == ANSWERED])
    everyone = player_view(state, None)
    marked = () if reach is None else (reach_picture(everyone, viewer, ref.game, *reach),)
    return Texts(f"Re: {mail.topic} (ref {ref})", public, private, marked)


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
