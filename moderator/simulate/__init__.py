"""
``titan-moderator simulate``: robot games through the mail service's own path, in one
process, to count what play by mail costs the players (mails, waits, days) and the
moderator (signed mails).

- ``inprocess``: the store, handler and clock of the composition root's App; mails in
  through ``processing.process_message``, the moderator's answers read as outbox rows;
- ``composer``: what a robot writes, in strict mode (one order a mail) or the default
  (standing orders, every order decidable before a die, orders for each roll);
- ``answers``: the refused lines of an answer, as the robot reads them;
- ``run``: one game on a clock of its own, with log-normal reply times and deadlines;
- ``figures``: medians and means over the games, as a table or JSON.

Nothing of the product imports this package except the command line.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.simulate.figures import Report
from moderator.simulate.run import AppBuilder, GameTally, Options, play_game, play_in


def simulate(
    options: Options,
    build: AppBuilder,
    progress: Callable[[GameTally], None] | None = None,
) -> Report:
    """
    Play ``options.games`` games, one after another, each on an App ``build`` makes
    (with a hand-moved clock); ``progress`` hears of each.
    """
    games: list[GameTally] = []
    for index in range(options.games):
        games.append(play_game(options, index, build))
        if progress is not None:
            progress(games[-1])
    return Report(options, games)


__all__ = ["AppBuilder", "GameTally", "Options", "Report", "play_game", "play_in", "simulate"]
