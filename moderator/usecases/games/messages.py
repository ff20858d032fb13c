"""
Local play's messages: a player's orders carried out on a game's state, and the reply
written, nothing stored (the command line's runner, ``runners.commands.order``, writes
the events; the store's tests' handler too).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from moderator.orders import split_lines
from moderator.rules import events as ev
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord
from moderator.usecases.games.queries import waiting_line
from moderator.usecases.games.run import ANSWERED, DONE, run_orders


@dataclass
class OrderResult:
    """What a message of orders did: the reply, and the events and dice position to store."""

    reply: str
    ok: bool  # every order was accepted
    events: list[ev.Event]
    record: GameRecord  # the game's record after the accepted orders
    state: GameState  # the state after them


def local_trigger(game_id: str, player: str, text: str) -> str:
    """
    What binds the dice of orders given on the command line (``local order``), as a
    mail's digest binds a mail's: ``local:`` and the SHA-256 of the game, the player,
    the lines and 128 random bits, so that nobody can know a roll before the command
    is given and the audit names the game master's command as the cause.
    """
    nonce = secrets.token_hex(16)
    digest = hashlib.sha256(f"{game_id}|{player}|{text}|{nonce}".encode()).hexdigest()
    return f"local:{digest}"


def carry_out(
    game_id: str,
    state: GameState,
    record: GameRecord,
    player: str,
    text: str,
    history: Callable[[], list[ev.Event]],
) -> OrderResult:
    """
    The orders in ``text`` from ``player``, carried out on ``state`` without storing
    anything (``history()`` gives the game's stored events, for the ``history`` query).
    """
    if not state.has_player(player):
        names = ", ".join(p.name for p in state.players)
        reply = f"{player} is not playing in game {game_id} (players: {names})."
        return OrderResult(reply, False, [], record, state)
    lines, ignored = split_lines(text)
    if not lines:
        reply = "There is no order in your message; 'help' lists the orders."
        return OrderResult(reply, False, [], record, state)
    trigger = local_trigger(game_id, player, text)
    run = run_orders(state, record, player, lines, history, game=game_id, trigger=trigger)
    out: list[str] = []
    for result in run.results:
        out.append(f"> {result.line}")
        if result.outcome == ANSWERED:
            out.extend(result.lines)
        elif result.outcome == DONE:
            out.extend(f"  {told}" for told in result.lines)
        else:
            out.append(f"Rejected: {result.reason}")
            out.append(result.hint)
    if run.unprocessed:
        out.append(f"The {len(run.unprocessed)} order line(s) after it were not carried out.")
    if ignored:
        out.append(f"({len(ignored)} line(s) after the end of the orders were ignored.)")
    if run.ok:
        out.append(waiting_line(run.state, player))
    return OrderResult("\n".join(out), run.ok, run.events, run.record, run.state)
