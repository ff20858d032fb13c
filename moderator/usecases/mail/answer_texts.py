"""
The answer to a player's order mail, gathered: whose move it is, the deadline, what he
may write now when a line was refused, the battle a ``reach`` asked about.
``service.mail_answers`` decides what the results say; ``letters.answers`` words them
(and ``letters.answers.with_report`` joins the answer and his report).
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.letters import answers
from moderator.letters.moments import deadline_whose
from moderator.letters.texts import MailInfo, Texts
from moderator.pictures.spec import Picture, reach_picture
from moderator.reporting.views import legal_lines, player_view
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule.record import GameRecord
from moderator.schedule.reference import StepRef
from moderator.usecases.games.battle_queries import reach_asked
from moderator.usecases.games.run import ANSWERED, REFUSED, LineResult


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
    The answer to ``viewer``'s mail (``letters.answers.reply``) on ``state``, the game
    once the mail has run: a refused line with a hint lists what he may write now.
    """
    actor, over = to_act(state), state.step is Step.OVER
    hinted = any(r.outcome == REFUSED and r.hint for r in results)
    legal = legal_lines(state, viewer) if hinted and actor == viewer and not over else []
    reach = reach_asked(state, viewer, [r.line for r in results if r.outcome == ANSWERED])
    marked: tuple[Picture, ...] = ()
    if reach is not None:
        marked = (reach_picture(player_view(state, None), viewer, ref.game, *reach),)
    return answers.reply(
        ref.game,
        str(ref),
        viewer,
        mail,
        results,
        unprocessed,
        ignored,
        actor=actor,
        over=over,
        step=state.step.value,
        deadline=deadline_whose(record, viewer, time_zone),
        legal=legal,
        time_zone=time_zone,
        ref_problem=ref_problem,
        brief=brief,
        read_at=str(read_at) if read_at is not None else "",
        pictures=marked,
    )
