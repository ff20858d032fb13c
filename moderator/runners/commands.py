"""
The command line's runner: what ``titan-moderator game ...`` and ``local ...`` ask of a
store, each in a unit of work of its own (``runners.unit``), decided again when the
game moved on meanwhile.  Tests and demos set games up through it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from moderator.ports import Lookup, Outcome, game_write
from moderator.ports.errors import GameNotFoundError
from moderator.rules.state import GameState
from moderator.rules.variant import STANDARD
from moderator.runners import unit
from moderator.schedule import seats
from moderator.schedule.timing import TimeLimits
from moderator.store.eventstore import EventStore
from moderator.usecases.games import messages, robot_seats
from moderator.usecases.games import starting as games
from moderator.usecases.games.planning import plan_game

if TYPE_CHECKING:
    from moderator.usecases.tournaments.operated import Operate


def _state_of(outcome: Outcome) -> GameState:
    """The state the game written by ``outcome`` starts in."""
    state = outcome.games[0].state
    assert state is not None
    return state


def start_game(
    store: EventStore,
    game_id: str,
    addresses: Sequence[str],
    *,
    sender: str,
    seed: int | None = None,
    insecure_seed: bool = False,
    allow_secrets: bool = False,
    time_limits: TimeLimits | None = None,
    ends_at: datetime | None = None,
    variant: str = STANDARD,
    seat_keeping: str = seats.DEFAULTS,
    keep_after: int = seats.KEEP_AFTER,
    robot_delay: int = 0,
    robots: int = 0,
    pictures: str | None = None,
) -> GameState:
    """
    A game by mail for the players registered with ``addresses`` (``usecases.games.starting.NewGame``),
    created with its seats and first reports in one unit of work, the robots of its
    robot seats acting at once if it is their turn (unless they wait); returns its state.

    Raises:
        StartError: the game cannot be started as asked.
    """
    ask = games.NewGame(
        game_id, tuple(addresses), sender, seed, insecure_seed, allow_secrets, time_limits,
        ends_at, variant, seat_keeping, keep_after, robot_delay, robots, pictures,
    )
    return _state_of(
        unit.run(
            store,
            lambda lookup, now: games.start_game(ask, lookup, now),
            robots=robot_seats.acting_for(sender),
        )
    )


def set_relay(store: EventStore, game_id: str, on: bool) -> bool:
    """``usecases.games.starting.set_relay``; returns whether it changed."""
    ask = games.Relay(game_id, on)
    done = unit.run(store, lambda lookup, now: games.set_relay(ask, lookup, now))
    return bool(done.games)


def new_game(
    store: EventStore,
    game_id: str,
    players: Sequence[str] | None,
    seed: int | None = None,
    script: Sequence[int] | None = None,
    position: Mapping[str, Any] | None = None,
    *,
    time_limits: TimeLimits | None = None,
    ends_at: datetime | None = None,
    variant: str = STANDARD,
) -> GameState:
    """A game played on the command line (``usecases.games.planning.plan_game``), created; returns its state."""

    def decide(_lookup: Lookup, now: datetime) -> Outcome:
        planned, _state = plan_game(
            game_id, players, seed, script, position, now, time_limits, ends_at, variant=variant
        )
        return Outcome(games=(planned,))

    return _state_of(unit.run(store, decide))


def order(
    store: EventStore,
    game_id: str,
    player: str,
    text: str,
    *,
    sender: str = "moderator@localhost",
) -> tuple[str, bool]:
    """
    Carry out ``player``'s orders (one per line, ``usecases.games.messages.carry_out``) and return
    the reply and whether every order was accepted.  Orders are carried out in turn; the
    first one that cannot be read or is not legal changes nothing, and the lines after it
    are not carried out.  The events of the orders carried out are written together, or
    (if anything fails) none of them.  Then the robots holding seats act if one is to, as
    after a mail (``robot_seats.play_robots``, in the same unit of work), their reports
    written to the outbox from ``sender`` (the moderator's address; default: the
    configuration's default).

    Raises:
        GameNotFoundError: there is no such game.
    """
    answer: list[messages.OrderResult] = []

    def decide(lookup: Lookup, _now: datetime) -> Outcome:
        game = lookup.game(game_id)
        if game is None:
            raise GameNotFoundError(game_id)
        result = messages.carry_out(
            game_id, game.state, game.record, player, text, lambda: lookup.events(game_id)
        )
        answer[:] = [result]
        if not result.events:
            return Outcome()
        changed = game_write(
            game_id, game.seq, result.events, record=result.record, state=result.state
        )
        return Outcome(games=(changed,))

    unit.run(store, decide, robots=robot_seats.acting_for(sender))
    return answer[0].reply, answer[0].ok


def mail_word(store: EventStore, what: str, ref: str) -> tuple[str, ...]:
    """
    The operator's ``mail retry|drop REF`` (``usecases.mail.operator_mail``) in a unit of
    work of its own; returns what was done, for the operator.

    Raises:
        MailWordError: no such mail, or one the word does not fit.
    """
    from moderator.usecases.mail import operator_mail

    ask = operator_mail.MailWord(what, ref)
    return unit.run(store, lambda lookup, now: operator_mail.mail_word(ask, lookup, now)).log


def operate(store: EventStore, ask: Operate) -> None:
    """
    The operator's ``game pause|resume|extend|replace`` (``usecases.tournaments.operated``,
    asked ``Operate``) in a unit of work of its own; a seat handed over is written before
    its report is decided, and both commit together.

    Raises:
        GameNotFoundError: there is no such game.
        OperatorLineError: the line does not fit the game.
    """
    from moderator.usecases.tournaments import operated

    unit.run(
        store,
        lambda lookup, now: operated.operate(ask, lookup, now),
        robots=robot_seats.acting_for(ask.sender),
    )


__all__ = ["mail_word", "new_game", "operate", "order", "set_relay", "start_game"]
