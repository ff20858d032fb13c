"""
The local play service, by its old name: games in an event store, played order by
order (the CLI's ``local`` commands), and whole robot games in memory (the CLI's
``play``).  The work is done in ``moderator.play``; this module re-exports what the
CLI, the mail service and the tests use.

Every order goes parse -> decide -> append: a line that cannot be read or is not
legal changes nothing, and the reply says why and what would be legal instead.
"""

from __future__ import annotations

from moderator.play.battle_queries import NO_BATTLE, reach_lines, strike_lines
from moderator.play.dice import CountingDice, read_dice_script
from moderator.play.errors import GameError
from moderator.play.games import current_state, history, legal, load, new_game, show
from moderator.play.messages import OrderResult, carry_out, order
from moderator.play.queries import LEGAL_HINT_LINES, answer_query, legal_hint, waiting_line
from moderator.play.robot_games import DEFAULT_NAMES, RobotGameSummary, play_robot_game
from moderator.play.run import ANSWERED, DONE, REFUSED, Answerer, LineResult, OrderRun, run_orders

__all__ = [
    "ANSWERED",
    "DEFAULT_NAMES",
    "DONE",
    "LEGAL_HINT_LINES",
    "NO_BATTLE",
    "REFUSED",
    "Answerer",
    "CountingDice",
    "GameError",
    "LineResult",
    "OrderResult",
    "OrderRun",
    "RobotGameSummary",
    "answer_query",
    "carry_out",
    "current_state",
    "history",
    "legal",
    "legal_hint",
    "load",
    "new_game",
    "order",
    "play_robot_game",
    "reach_lines",
    "read_dice_script",
    "run_orders",
    "show",
    "strike_lines",
    "waiting_line",
]
