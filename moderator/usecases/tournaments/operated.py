"""
The operator's lines on a game outside tournaments (``titan-moderator game
pause|resume|extend|replace GAME``): a game started with ``game new`` has no director,
so the operator stops its clock, starts it again, moves its deadline on or hands a seat
to another player.  The clock's steps are the director's own
(``games_directed.pause_game``, ``resume_game``, ``extend_deadline``): a paused game
has no deadline, so nobody is reminded or timed out, and on resuming its end date moves
on by the pause.  Every player of the game is told that the moderator's operator did it,
in the words the tournament notices use, and the line is an event of the game
(``OperatorActed``, seen by all, sealed as an order of its own when the dice are bound):
in every player's history and audit bundle, checked by ``verify``, so a player can prove
what the operator did to his game.

A tournament's game is refused here: its director (or the operator, ``tournament
direct``) gives these lines, so that the tournament's history keeps them.
"""

from __future__ import annotations

from datetime import datetime

from moderator.audit.seal import OPERATOR as OPERATOR_TRIGGER
from moderator.audit.seal import operator_order
from moderator.letters import tournaments as wording
from moderator.ports import GameContext, GameWrite, Lookup, Outcome, OutgoingMail, game_write
from moderator.records import record
from moderator.rules import events as ev
from moderator.rules.state import Step
from moderator.tournament.commands import OPERATOR
from moderator.usecases.games import handover, notify, robot_seats
from moderator.usecases.games.dice import sealed
from moderator.usecases.tournaments import games_directed
from moderator.usecases.tournaments.tournament_games import notice

PAUSE, RESUME, EXTEND, REPLACE = "pause", "resume", "extend", "replace"
#: Who the players are told gave the line.
BY = wording.directed_by(OPERATOR)


class OperatorLineError(ValueError):
    """The line cannot apply to that game; the message says why and what to write."""


@record
class Operate:
    """``game WHAT GAME``: ``hours`` for extend; ``seat`` and ``new`` (an address) for replace;
    mails from ``sender``."""

    what: str
    game_id: str
    sender: str
    hours: int = 0
    seat: str = ""
    new: str = ""


def operate(ask: Operate, lookup: Lookup, now: datetime) -> Outcome:
    """
    The operator's line on ``ask.game_id``, as the game stands now.

    Raises:
        GameNotFoundError: there is no such game.
        OperatorLineError: a tournament's game, a game over, or a line that does not fit.
    """
    game = games_directed.game_of(lookup, ask.game_id)
    game_id = ask.game_id
    if game.record.tournament:
        msg = f"{game_id} is a game of the tournament {game.record.tournament}: write "
        raise OperatorLineError(f"{msg}'titan-moderator tournament direct' instead")
    if game.state.step is Step.OVER:
        raise OperatorLineError(f"{game_id} is over")
    if ask.what == REPLACE:
        return _replace(ask, game, lookup)
    changed: GameWrite
    if ask.what == PAUSE:
        if game.record.paused is not None:
            raise OperatorLineError(f"{game_id} is paused already ('game resume {game_id}')")
        if game.record.time_limits is None:
            raise OperatorLineError(f"{game_id} has no time limits: there is no clock to stop")
        lines, changed = games_directed.pause_game(game, now)
        heading, said = f"{BY.capitalize()} has paused the game {game_id}.", "paused the game"
    elif ask.what == RESUME:
        if game.record.paused is None:
            raise OperatorLineError(f"{game_id} is not paused")
        lines, changed = games_directed.resume_game(game, now)
        heading, said = f"{BY.capitalize()} has resumed the game {game_id}.", "resumed the game"
    elif ask.what == EXTEND:
        if ask.hours < 1:
            raise OperatorLineError(f"extend by 1 hour or more, not {ask.hours}")
        lines, extended = games_directed.extend_deadline(game, ask.hours, now)
        if extended is None:
            raise OperatorLineError(f"no deadline runs in {game_id}: nothing to extend")
        changed = extended
        said = f"extended the deadline by {ask.hours} hours"
        heading = f"{BY.capitalize()} has extended the deadline of {game_id} by {ask.hours} hours."
    else:
        raise OperatorLineError(f"{ask.what!r}: write pause, resume, extend or replace")
    mails = _to_everyone(lookup, ask.sender, game_id, heading, lines)
    log = (f"{game_id}: {ask.what} by the operator",)
    return Outcome(games=(logged(game, changed, said),), mails=tuple(mails), log=log)


def _replace(ask: Operate, game: GameContext, lookup: Lookup) -> Outcome:
    """The seat handed over (the unit of work moves it), then its report to its new holder."""
    game_id, seat = ask.game_id, ask.seat
    holders = {s: a for a, s in lookup.seats(game_id).items()}  # seat -> address
    if seat not in holders:
        raise OperatorLineError(f"{game_id} has no seat {seat!r}; its seats: {', '.join(holders)}")
    new = lookup.player(ask.new)
    if new is None:
        raise OperatorLineError(f"nobody is registered with {ask.new}: he signs on by mail first")
    if new.address in holders.values():
        raise OperatorLineError(f"{new.address} has a seat in {game_id} already")
    handed = (game_id, seat, new.address)

    def report(lookup: Lookup, now: datetime) -> Outcome:
        return _handed_over(ask, new.name, holders[seat], lookup, now)

    log = (f"{game_id}: {seat} {holders[seat]} -> {new.address} by the operator",)
    return Outcome(reseats=(handed,), log=log).followed_by(report)


def _handed_over(
    ask: Operate, new_name: str, old_address: str, lookup: Lookup, now: datetime
) -> Outcome:
    """Once the seat is the new holder's: a seat the robot held is his now, the seat's run of
    misses (or its player's leaving) forgotten, its report sent to him, everyone told."""
    game_id, seat, sender = ask.game_id, ask.seat, ask.sender
    game = games_directed.game_of(lookup, game_id)
    record, back = robot_seats.take_back(
        sender, lookup, game_id, game.state, game.record, seat, named_by=BY
    )
    record, closed = handover.handed(  # his misses, orders, absences, choices: gone
        record, seat, old_address, game.state.version
    )
    settled = notify.settle(sender, game, lookup, [], game.state, record, now, {seat})
    gone = lookup.player(old_address)
    old_name = gone.name if gone is not None else old_address
    heading = f"Game {game_id}: the seat {seat} is now played by {new_name}."
    who = BY.capitalize()
    to_new = [
        f"{who} has handed you the seat {seat} in the game {game_id}; its latest report "
        + "follows in a mail of its own.",
        *handover.choices_lines(),
    ]
    to_old = [
        f"{who} has handed your seat {seat} in the game {game_id} to {new_name}: mail of "
        + "yours to the game is no longer read."
    ]
    to_others = [f"{BY.capitalize()} has handed the seat {seat} from {old_name} to {new_name}."]
    mails: list[OutgoingMail] = []
    for viewer, player in sorted(lookup.seated_players(game_id).items()):
        lines = to_new if viewer == seat else to_others
        mails.append(notice(sender, player, heading, lines, game_id))
    if gone is not None:
        mails.append(notice(sender, gone, heading, to_old, game_id))
    mails.extend(back)
    mails.extend(settled.mails)
    rows = (*closed, *settled.deadlines)
    written = game_write(game_id, game.seq, record=settled.record, deadlines=rows)
    said = f"handed the seat {seat} from {old_name} to {new_name}"
    return Outcome(games=(logged(game, written, said),), mails=tuple(mails))


def logged(game: GameContext, write: GameWrite, said: str) -> GameWrite:
    """
    ``write`` with the operator's line appended to the game's log: ``OperatorActed``
    (``said``, as the players' history tells it) and, when the dice are bound, its seal
    (``audit.seal.operator_order``), chained after the game's last one.
    """
    record = write.record or game.record
    line = [ev.OperatorActed(line=said)]
    new, state, record = sealed(
        game.state, line, record, game.game_id, OPERATOR_TRIGGER, operator_order(said)
    )
    return write.but(events=(*write.events, *new), record=record, state=state)


def _to_everyone(
    lookup: Lookup, sender: str, game_id: str, heading: str, lines: list[str]
) -> list[OutgoingMail]:
    return [
        notice(sender, player, heading, lines, game_id)
        for _seat, player in sorted(lookup.seated_players(game_id).items())
    ]


__all__ = ["EXTEND", "PAUSE", "REPLACE", "RESUME", "Operate", "OperatorLineError", "operate"]
