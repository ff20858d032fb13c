"""
A message's order lines run in turn against a game's state, nothing stored: the one
path every order takes (parse -> decide -> apply), shared by local play and the mail
service, which each store the result and word the reply their own way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from moderator.orders import OrderError, Query, parse_order
from moderator.play.dice import CountingDice
from moderator.play.queries import answer_query, legal_hint
from moderator.reporting.narrate import describe, is_bookkeeping, may_see
from moderator.rules import events as ev
from moderator.rules.decide import decide
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord

#: ``LineResult.outcome``: a query answered, an order carried out, a line refused.
ANSWERED, DONE, REFUSED = "answered", "done", "refused"

Answerer = Callable[[Query, Callable[[], list[ev.Event]], GameState], list[str]]


@dataclass(frozen=True, slots=True)
class LineResult:
    """
    What became of one order line: ``answered`` (a query; ``lines`` is the answer),
    ``done`` (an order; ``lines`` tells the events the player may see, ``events`` are
    all of them) or ``refused`` (``reason``, its stable ``code``, and ``hint``: what
    would be legal now).
    """

    line: str
    outcome: str
    lines: tuple[str, ...] = ()
    reason: str = ""
    code: str = ""
    hint: str = ""
    events: tuple[ev.Event, ...] = ()


@dataclass
class OrderRun:
    """The order lines of one message, run in turn (see ``run_orders``)."""

    results: list[LineResult]
    unprocessed: list[str]  # lines not run because an earlier one was refused
    events: list[ev.Event]
    record: GameRecord  # the game's record after them (the dice moved on)
    state: GameState

    @property
    def ok(self) -> bool:
        return all(r.outcome != REFUSED for r in self.results)

    @property
    def refused(self) -> list[LineResult]:
        return [r for r in self.results if r.outcome == REFUSED]


def run_orders(
    state: GameState,
    record: GameRecord,
    player: str,
    lines: Sequence[str],
    history: Callable[[], list[ev.Event]],
    *,
    refuse_changes: tuple[str, str] | None = None,
    answer: Answerer | None = None,
) -> OrderRun:
    """
    ``player``'s order ``lines`` run in turn on ``state``, nothing stored: queries are
    answered (by ``answer``, default ``answer_query``), orders decided and applied.  The
    first line that cannot be read or is not legal stops the run; the lines after it are
    ``unprocessed``.  With ``refuse_changes`` = (code, reason) every order that would
    change the game is refused with that reason instead, queries are still answered, and
    nothing stops the run.
    """
    dice = CountingDice.from_record(record.dice)
    answer = answer or answer_query
    new_events: list[ev.Event] = []
    results: list[LineResult] = []
    for index, line in enumerate(lines):
        code = ""
        try:
            parsed = parse_order(line, player, state)
            if isinstance(parsed, Query):
                answered = answer(parsed, lambda: history() + new_events, state)
                results.append(LineResult(line, ANSWERED, tuple(answered)))
                continue
            if refuse_changes is not None:
                code, reason = refuse_changes
                results.append(LineResult(line, REFUSED, reason=reason, code=code))
                continue
            new = decide(state, parsed, dice)
        except (OrderError, RuleError) as exc:
            code, reason = exc.code, str(exc)
        except IndexError as exc:  # scripted dice ran out
            code, reason = "E-DICE", f"the dice script has run out ({exc})"
        else:
            record = record.but(dice=dice.record())
            told: list[str] = []
            for event in new:
                if may_see(event, player) and not is_bookkeeping(event):
                    told.append(describe(event, state))
                state = evolve(state, event)
            new_events.extend(new)
            results.append(LineResult(line, DONE, tuple(told), events=tuple(new)))
            continue
        results.append(
            LineResult(line, REFUSED, reason=reason, code=code, hint=legal_hint(state, player))
        )
        if refuse_changes is None:
            return OrderRun(results, list(lines[index + 1 :]), new_events, record, state)
    return OrderRun(results, [], new_events, record, state)
