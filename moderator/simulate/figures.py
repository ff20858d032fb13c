"""
The figures of a ``simulate`` run: each game's tally reduced to medians and means, as
a short table or a JSON object (the keys issue 15's targets name).

- ``player_mails_per_game``: every mail the players sent to the game, orders and
  settings, refused ones too;
- ``handoffs_per_game``: how often the player the game waits on (``to_act``) changed
  from one player to another after a mail or a timeout;
- ``signed_mails_per_order``: the outbox rows the moderator wrote from the first
  reports on (answers, reports, notices, reminders: each a mail a real sender signs),
  per player mail (``signed_mails_per_order_line``: per order line, for a mail may now
  carry many);
- ``bystander_mails_per_player_turn``: for each player turn (a ``TurnStarted``), the
  rows written to the players whose turn it is not, divided by how many they were;
  summed and divided by the player turns;
- ``days_per_game``: simulated time from the start to the mail that ended the game.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from moderator.records import record
from moderator.simulate.run import REPLY_SIGMA, GameTally, Options

#: How the deadlines were treated, said with every result.
SERVICE_LIMITS = (
    "the service's default time limits (72 h a masterboard turn, 48 h other steps, "
    "reminders 24 h and 4 h before); reminders and timeouts (withdrawals) fire and are counted"
)
GENEROUS_LIMITS = (
    "time limits of {hours:g} h a step, so generous that none fires (counted all the same)"
)


def deadlines(options: Options) -> str:
    """How the run treated deadlines, in words."""
    if options.service_limits:
        return SERVICE_LIMITS
    return GENEROUS_LIMITS.format(hours=options.time_limits.turn_hours)


_Figure = Callable[[GameTally], float]
#: (JSON key, table label, the figure of one game), in the order shown.
FIGURES: tuple[tuple[str, str, _Figure], ...] = (
    ("player_mails_per_game", "player mails per game", lambda t: t.player_mails),
    ("handoffs_per_game", "hand-offs per game", lambda t: t.handoffs),
    ("signed_mails_per_order", "signed mails per player mail", lambda t: t.signed_mails_per_order),
    (
        "signed_mails_per_order_line",
        "signed mails per order line",
        lambda t: t.signed_mails / max(t.order_lines, 1),
    ),
    (
        "bystander_mails_per_player_turn",
        "mails per bystander per player turn",
        lambda t: t.bystander_mails_per_player_turn,
    ),
    ("days_per_game", "days per game", lambda t: t.days),
    # Games differ in length between the modes (standing strikes fight better than the
    # robot's random picks): per player turn compares them fairly.
    (
        "player_mails_per_player_turn",
        "player mails per player turn",
        lambda t: t.player_mails / max(t.player_turns, 1),
    ),
    ("days_per_player_turn", "days per player turn", lambda t: t.days / max(t.player_turns, 1)),
    ("lines_per_mail", "lines per player mail", lambda t: t.order_lines / max(t.player_mails, 1)),
    ("refused_mails_per_game", "mails with a refused line", lambda t: t.refused_mails),
    ("reminders_per_game", "reminders per game", lambda t: t.reminders),
    ("timeouts_per_game", "timeouts per game", lambda t: t.timeouts),
    ("turns_per_game", "game turns per game", lambda t: t.turns),
    ("seconds_per_game", "seconds of computing per game", lambda t: t.seconds),
)


@record
class Report:
    """The games of one run and what was asked for."""

    options: Options
    games: Sequence[GameTally]

    def figure(self, key: str) -> dict[str, float]:
        """The median and mean of one figure over the games."""
        fn = next(f for k, _label, f in FIGURES if k == key)
        values = [float(fn(game)) for game in self.games] or [0.0]
        return {
            "median": _round(statistics.median(values)),
            "mean": _round(statistics.mean(values)),
        }

    def to_json(self) -> dict[str, Any]:
        options = self.options
        out: dict[str, Any] = {
            "games": len(self.games),
            "players": options.players,
            "mode": options.mode,
            "robot": options.robot,
            "variant": options.variant,
            "seed": options.seed,
            "reply_hours": options.reply_hours,
            "reply_sigma": REPLY_SIGMA,
            "deadlines": deadlines(options),
            "service_limits": options.service_limits,
            "finished": sum(game.finished for game in self.games),
        }
        for key, _label, _fn in FIGURES:
            out[key] = self.figure(key)
        out["per_game"] = [
            {
                "game": g.game_id,
                "dice_seed": g.dice_seed,
                "finished": g.finished,
                "winner": g.winner,
            }
            | {key: _round(float(fn(g))) for key, _label, fn in FIGURES}
            for g in self.games
        ]
        return out

    def text(self) -> str:
        options = self.options
        finished = sum(game.finished for game in self.games)
        lines = [
            (
                f"{len(self.games)} game(s) of {options.variant} between {options.players} "
                f"{options.robot} robots, {options.mode} mode, seed {options.seed}; "
                f"{finished} finished."
            ),
            f"Replies: log-normal, median {options.reply_hours:g} h, sigma {REPLY_SIGMA:g}.",
            f"Deadlines: {deadlines(options)}.",
            "",
            f"{'':<38}{'median':>10}{'mean':>10}",
        ]
        for key, label, _fn in FIGURES:
            shown = self.figure(key)
            lines.append(f"{label:<38}{shown['median']:>10.2f}{shown['mean']:>10.2f}")
        return "\n".join(lines)


def _round(value: float) -> float:
    return round(value, 3)
