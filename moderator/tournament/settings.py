"""
A tournament's settings: how big its games are, how many each player plays, how a
game ends, how it is scored, and the clock settings its games get.

The time-limit and absence settings are opaque here: together they become each
game's ``time_limits`` option, which the deadline service reads
(``moderator.schedule.timing.TimeLimits``); the shell checks them when the
tournament is created.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import field
from datetime import datetime, timedelta
from typing import Any

from moderator.records import record
from moderator.rules.variant import STANDARD, offered_variants
from moderator.tournament.errors import E_SETTINGS, TournamentError

#: Titan takes 2 to 6 players.
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_ROUNDS = 100
MAX_SIMULTANEOUS = 20
MAX_DAYS = 3650
#: What may become of a dropped player's seat (the shell's ``schedule.seats.KEEPINGS``).
SEAT_KEEPING = ("defaults", "robot", "standby")



class GameEndRule(enum.Enum):
    """How a tournament game ends."""

    #: Wolff 21.1: after ``time_limit_days`` the turn is finished, every remaining
    #: player gets one more full turn, and the game is scored by rulebook 20.5.
    TIME_LIMIT = "time_limit"
    #: Played until one player (or nobody) is left.
    TO_THE_END = "to_the_end"


class Scoring(enum.Enum):
    """What a finished game is worth in the standings (see ``scoring.place_points``)."""

    #: Each player scores the number of players he finished ahead of: in a game of
    #: N the winner N-1, the first eliminated 0; tied places share their points.
    PLACES = "places"
    #: The winner 1 point, everybody else 0; a shared first place shares the point.
    WINNER = "winner"


@record(kw_only=True)
class Settings:
    """What the director chose when he created the tournament."""

    players_per_game: int = 4
    #: Each player is placed in at most this many games.
    rounds: int = 1
    #: Games a player may be in at the same time.
    max_games: int = 1
    game_end: GameEndRule = GameEndRule.TO_THE_END
    time_limit_days: int | None = None
    #: The on-time percentage (0-100) a player needs to join; a player with no
    #: record yet counts as fully reliable.
    min_reliability: int = 0
    scoring: Scoring = Scoring.PLACES
    #: Whether players may authenticate with a secret line in the tournament's games.
    allow_secrets: bool = True
    #: Opaque: the per-action clock (read by the deadline service).
    time_limits: Mapping[str, Any] = field(default_factory=dict)
    #: Opaque: the absence budget (read by the deadline service).
    absence: Mapping[str, Any] = field(default_factory=dict)
    #: The variant every game of the tournament is played in (docs/variants.md).
    variant: str = STANDARD
    #: What happens to a seat whose player missed ``keep_after`` deadlines in a row or
    #: withdrew (the shell's ``schedule.seats``): ``defaults``, ``robot`` or ``standby``;
    #: every game of the tournament gets it.
    seat_keeping: str = "defaults"
    keep_after: int = 2
    #: Minutes a robot holding a seat waits before it acts.
    robot_delay: int = 0

    def check(self) -> None:
        """
        Raises:
            TournamentError: ``E-T-SETTINGS``, naming the setting that is out of range.
        """
        _within("players", self.players_per_game, MIN_PLAYERS, MAX_PLAYERS)
        _within("rounds", self.rounds, 1, MAX_ROUNDS)
        _within("games", self.max_games, 1, MAX_SIMULTANEOUS)
        _within("reliability", self.min_reliability, 0, 100)
        if self.variant not in offered_variants():
            known = ", ".join(offered_variants())
            raise TournamentError(E_SETTINGS, f"there is no variant {self.variant!r}; variants: {known}")
        if self.seat_keeping not in SEAT_KEEPING:
            raise TournamentError(
                E_SETTINGS, f"'seats' is one of {', '.join(SEAT_KEEPING)}, not {self.seat_keeping}"
            )
        _within("keep", self.keep_after, 1, 100)
        _within("delay", self.robot_delay, 0, 7 * 24 * 60)
        if self.game_end is GameEndRule.TIME_LIMIT:
            if self.time_limit_days is None:
                raise TournamentError(E_SETTINGS, "a time limit needs its length: 'days N'")
            _within("days", self.time_limit_days, 1, MAX_DAYS)
        elif self.time_limit_days is not None:
            raise TournamentError(
                E_SETTINGS, "'days N' and 'to-the-end' exclude each other: choose one"
            )

    def ends_at(self, formed: datetime) -> datetime | None:
        """When a game formed at ``formed`` reaches its time limit (None: played to the end)."""
        if self.game_end is GameEndRule.TIME_LIMIT and self.time_limit_days is not None:
            return formed + timedelta(days=self.time_limit_days)
        return None

    def limits(self) -> dict[str, Any]:
        """The clock settings a game gets: the time limits and the absence budget together."""
        return {**self.time_limits, **self.absence}

    def describe(self) -> list[str]:
        """The settings as lines a mail can print."""
        end = (
            f"time limit of {self.time_limit_days} days (Wolff 21.1), then scored by 20.5"
            if self.game_end is GameEndRule.TIME_LIMIT
            else "played to the end"
        )
        scoring = (
            "one point per player finished ahead of (ties share)"
            if self.scoring is Scoring.PLACES
            else "one point for the winner (a shared win shares it)"
        )
        lines = [
            f"Players per game: {self.players_per_game}",
            f"Games per player: at most {self.rounds}, at most {self.max_games} at a time",
            f"Games end: {end}",
            f"Scoring: {scoring}",
            f"Minimum reliability to join: {self.min_reliability}%",
            f"Secret lines allowed: {'yes' if self.allow_secrets else 'no (sign your mails)'}",
        ]
        if self.variant != STANDARD:
            lines.append(f"Variant: {self.variant} (docs/variants.md)")
        if self.seat_keeping != "defaults":
            keeper = "the robot" if self.seat_keeping == "robot" else "the robot until a standby"
            delay = f", after {self.robot_delay} minutes" if self.robot_delay else ""
            lines.append(
                f"Seats kept: after {self.keep_after} missed deadlines in a row or a "
                f"withdrawal, {keeper} plays the seat{delay}"
            )
        if self.time_limits:
            lines.append("Time limits: " + _pairs(self.time_limits))
        if self.absence:
            lines.append("Absence budget: " + _pairs(self.absence))
        return lines

    def to_payload(self) -> dict[str, Any]:
        """The settings as JSON-able values (for the ``TournamentCreated`` event)."""
        return {
            "players_per_game": self.players_per_game,
            "rounds": self.rounds,
            "max_games": self.max_games,
            "game_end": self.game_end.value,
            "time_limit_days": self.time_limit_days,
            "min_reliability": self.min_reliability,
            "scoring": self.scoring.value,
            "allow_secrets": self.allow_secrets,
            "time_limits": dict(self.time_limits),
            "absence": dict(self.absence),
            "variant": self.variant,
            "seat_keeping": self.seat_keeping,
            "keep_after": self.keep_after,
            "robot_delay": self.robot_delay,
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Settings:
        days = payload.get("time_limit_days")
        return cls(
            players_per_game=int(payload["players_per_game"]),
            rounds=int(payload["rounds"]),
            max_games=int(payload["max_games"]),
            game_end=GameEndRule(payload["game_end"]),
            time_limit_days=None if days is None else int(days),
            min_reliability=int(payload["min_reliability"]),
            scoring=Scoring(payload["scoring"]),
            allow_secrets=bool(payload.get("allow_secrets", True)),
            time_limits=dict(payload.get("time_limits") or {}),
            absence=dict(payload.get("absence") or {}),
            variant=str(payload.get("variant", STANDARD)),  # older tournaments: standard
            seat_keeping=str(payload.get("seat_keeping") or "defaults"),
            keep_after=int(payload.get("keep_after") or 2),
            robot_delay=int(payload.get("robot_delay") or 0),
        )


def _within(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise TournamentError(E_SETTINGS, f"'{name}' must be from {low} to {high}, not {value}")


def _pairs(mapping: Mapping[str, Any]) -> str:
    return ", ".join(f"{key} {value}" for key, value in sorted(mapping.items()))
