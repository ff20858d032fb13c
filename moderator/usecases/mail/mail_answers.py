"""
What the answer to an order mail says, so that it says one thing (issue 24, item 4):
which lines were carried out, which were refused and why, and the reference to use
next, the one the game is at once the whole mail has run.

A mail's lines are read at the step it was read at, but the answer is written after
them: a ``show`` carried out despite a stale reference moves the game's reference on,
so a refusal that named the reference of the moment the mail was read would send the
player to one the report beside it no longer gives.  ``status`` and ``legion`` are
answered as of the end of the mail, with what the asker knows for certain: an answer
given half-way through it would describe a game the same mail then changed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from moderator.orders import Query
from moderator.reporting.knowledge import KnownLegion
from moderator.rules import events as ev
from moderator.rules.state import GameState
from moderator.schedule import reference
from moderator.schedule.reference import StepRef
from moderator.usecases.games.queries import answer_query, legion_lines, status_lines
from moderator.usecases.games.run import ANSWERED, DONE, Answerer, LineResult

#: Game record mails one mail may ask for.
HISTORIES_PER_MAIL = 3
#: The queries answered once the whole mail has run (what the game is, not what it was).
AT_END = ("status", "legion")
#: What an ``AT_END`` query's result holds until the end of the mail.
_PENDING = "\x00answered at the end of the mail"


def answerer(asked: list[Query]) -> Answerer:
    """
    Queries as ``answer_query`` answers them, but ``history`` and ``report`` by mails of
    their own and ``status`` and ``legion`` at the end of the mail (``answered_at_end``);
    each of those is added to ``asked``.
    """

    def answer(query: Query, events: Callable[[], list[ev.Event]], state: GameState) -> list[str]:
        if query.kind in AT_END:
            asked.append(query)
            return [_PENDING]
        if query.kind == "history":
            asked.append(query)
            if len([q for q in asked if q.kind == "history"]) > HISTORIES_PER_MAIL:
                return [f"Not sent: at most {HISTORIES_PER_MAIL} game records per mail."]
            return ["The game record follows in a mail of its own."]
        if query.kind == "report":
            asked.append(query)
            return ["Your latest report is sent again: it follows in this mail."]
        return answer_query(query, events, state)

    return answer


def answered_at_end(
    results: Sequence[LineResult],
    asked: Sequence[Query],
    state: GameState,
    viewer: str,
    known: Mapping[str, KnownLegion],
    ref: StepRef,
) -> list[LineResult]:
    """
    ``results`` with each ``status`` and ``legion`` answered on ``state``, the game
    once the mail (and the standing orders it set off) has run, at ``ref``, with what
    ``viewer`` knows for certain (``known``).
    """
    pending = [q for q in asked if q.kind in AT_END]
    out: list[LineResult] = []
    for result in results:
        if result.outcome == ANSWERED and result.lines == (_PENDING,) and pending:
            query = pending.pop(0)
            if query.kind == "status":
                lines = [f"As of the end of your mail (ref {ref}):",
                         *status_lines(state, viewer, known)]
            else:
                lines = legion_lines(state, viewer, query.marker or "", known)
            result = dataclasses.replace(result, lines=tuple(lines))
        out.append(result)
    return out


def in_mail_order(
    lines: Sequence[str], beside: Sequence[LineResult], run: Sequence[LineResult]
) -> list[LineResult]:
    """
    The results in the order of the mail's lines: those read ``beside`` the order lines
    (absences, ``notify``, standing orders) and those of the order lines as they ``run``
    (an ``on roll`` line's orders, and the line its run stops at, stay after it).
    """
    left = list(lines)

    def place(line: str, before: int) -> int:
        if line in left:
            index = left.index(line)
            left[index] = "\x00"  # a line written twice takes its places in turn
            return index
        return before

    keyed: list[tuple[int, int, LineResult]] = []
    for result in beside:
        keyed.append((place(result.line, len(lines)), len(keyed), result))
    last = -1
    for result in run:
        last = place(result.line, last)
        keyed.append((last, len(keyed), result))
    return [result for _, _, result in sorted(keyed, key=lambda k: (k[0], k[1]))]


def reworded(
    results: Sequence[LineResult], quoted: StepRef | None, code: str, after: StepRef
) -> list[LineResult]:
    """
    ``results`` with each refusal for the mail's reference (``code``) saying which
    reference to use now, ``after`` the mail: what it carried out moved the game on.
    """
    problem = reference.check(quoted, after)
    if problem is None or problem[0] != code:
        return list(results)
    return [
        dataclasses.replace(r, reason=problem[1]) if r.code == code else r for r in results
    ]


def carried_out(results: Sequence[LineResult]) -> int:
    """How many lines of ``results`` were carried out."""
    return sum(1 for r in results if r.outcome == DONE)
