"""
A message's order lines run in turn against a game's state, nothing stored: the one
path every order takes (parse -> decide -> apply), shared by local play and the mail
service, which each store the result and word the reply their own way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from moderator.orders import OrderError, Query, conditional, parse_order, render_order
from moderator.records import record
from moderator.reporting.narrate import describe, is_bookkeeping, may_see
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import decide
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.usecases.games.allowance import Allowance
from moderator.usecases.games.dice import dice_for, seal_order
from moderator.usecases.games.queries import answer_query, legal_hint

#: ``LineResult.outcome``: a query answered, an order carried out, a line refused.
ANSWERED, DONE, REFUSED = "answered", "done", "refused"

Answerer = Callable[[Query, Callable[[], list[ev.Event]], GameState], list[str]]


@record
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
    game: str = "",
    trigger: str = "local",
    any_time: bool = False,
    allowance: Allowance | None = None,
) -> OrderRun:
    """
    ``player``'s order ``lines`` run in turn on ``state``, nothing stored: queries are
    answered (by ``answer``, default ``answer_query``), orders decided and applied.  The
    first line that cannot be read or is not legal stops the run; the lines after it are
    ``unprocessed``.  With ``refuse_changes`` = (code, reason) every order that would
    change the game is refused with that reason instead, queries are still answered, and
    nothing stops the run.  ``game`` and ``trigger`` (the digest of the mail being
    carried out) bind the dice of a game whose dice are bound (``play.dice``).
    ``any_time``: ``show`` and ``tell`` (Wolff 4.5: not tied to the sequence of play) run
    even so (a mail that quotes an earlier reference of this game).  ``allowance``: the
    shows and messages the player may still give today (``play.allowance``); one beyond
    it is refused, and the lines after it still run.

    ``on roll N: ...`` lines (``orders.conditional``) wait for the movement roll: when
    an order rolls, the orders given for that roll run next, each as a line of its own;
    with none given for it the run stops there and the game waits for the player.
    """
    dice = dice_for(record.dice, game, trigger)
    answer = answer or answer_query
    split, unreadable = conditional.split(lines)
    queue = deque(split.lines)
    new_events: list[ev.Event] = []
    results = [
        LineResult(line, REFUSED, reason=str(exc), code=exc.code) for line, exc in unreadable
    ]
    if unreadable and refuse_changes is None:  # a plan half read is not carried out
        return OrderRun(results, list(split.lines), new_events, record, state)
    used = False
    while queue:
        line = queue.popleft()
        code = ""
        try:
            parsed = parse_order(line.removeprefix(_FROM_BLOCK), player, state)
            if isinstance(parsed, Query):
                answered = answer(parsed, lambda: history() + new_events, state)
                results.append(LineResult(line, ANSWERED, tuple(answered)))
                continue
            if refuse_changes is not None and not (
                any_time and isinstance(parsed, (cmd.ShowLegion, cmd.Tell))
            ):
                code, reason = refuse_changes
                results.append(LineResult(line, REFUSED, reason=reason, code=code))
                continue
            if isinstance(parsed, cmd.Tell) and not record.relay:
                raise OrderError(
                    "E-TELL-OFF", "the game master has turned off passing messages in this game"
                )
            if allowance is not None and (over := allowance.over(parsed)) is not None:
                results.append(LineResult(line, REFUSED, reason=over[1], code=over[0]))
                continue
            dice.at(state.version + 1)
            new = decide(state, parsed, dice)
            if allowance is not None:
                allowance.spend(parsed)
        except (OrderError, RuleError) as exc:
            code, reason = exc.code, str(exc)
        except IndexError as exc:  # scripted dice ran out
            code, reason = "E-DICE", f"the dice script has run out ({exc})"
        else:
            record = record.but(dice=dice.record())
            told: list[str] = []
            before = state
            for event in new:
                if may_see(event, player) and not is_bookkeeping(event):
                    told.append(describe(event, state))
                state = evolve(state, event)
            notes, state, record = seal_order(
                before, state, dice, record,
                player=player, order=render_order(parsed, before), events=new,
            )
            new_events.extend((*new, *notes))
            results.append(LineResult(line, DONE, tuple(told), events=tuple(new)))
            rolled = [e.roll for e in new if isinstance(e, ev.MovementRolled)]
            if rolled and split.blocks:
                used = True
                block = split.for_roll(rolled[-1])
                results += _blocks_told(split, block, rolled[-1])
                if block is None:
                    results.append(_no_block(rolled[-1], state, player))
                    return OrderRun(results, list(queue), new_events, record, state)
                queue.extendleft(reversed([f"{_FROM_BLOCK}{o}" for o in block.orders]))
            continue
        results.append(
            LineResult(line, REFUSED, reason=reason, code=code, hint=legal_hint(state, player))
        )
        if refuse_changes is None:
            return OrderRun(results, list(queue), new_events, record, state)
    if split.blocks and not used:
        results += [
            LineResult(b.line, ANSWERED, ("Not used: this mail rolled no movement die.",))
            for b in split.blocks
        ]
    return OrderRun(results, [], new_events, record, state)


#: How an order from an ``on roll`` line is shown among the results.
_FROM_BLOCK = "(on roll) "


def _blocks_told(
    split: conditional.Conditional, chosen: conditional.Block | None, roll: int
) -> list[LineResult]:
    """A result per ``on roll`` line: used for this roll, or not."""
    return [
        LineResult(
            block.line,
            ANSWERED,
            (f"You rolled a {roll}: these orders follow."
             if block is chosen else f"Not used: you rolled a {roll}.",),
        )
        for block in split.blocks
    ]


def _no_block(roll: int, state: GameState, player: str) -> LineResult:
    """The run stops: orders were given for other rolls only."""
    return LineResult(
        f"on roll {roll}",
        REFUSED,
        reason=(
            f"you rolled a {roll} and gave no orders for it: the lines after the roll "
            "were not carried out, and the game waits for your moves"
        ),
        code=conditional.CODE,
        hint=legal_hint(state, player),
    )
