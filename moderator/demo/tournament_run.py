"""
What a tournament demo run is made of: its options, its cast of robots, and what the
run keeps while it goes (``DemoRun``).

Shared by the run loop (``tournament_demo``), the robots' and director's steps
(``tournament_steps``) and the report at the end (``tournament_summary``), so none of
them needs another's module to know the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from moderator.runtime.service import Service
from moderator.testing.mailrobot import COMPETENT, MailRobot

TOURNAMENT = "demo"
#: The robots who play, the director and the one on standby.
PLAYER_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
DIRECTOR_NAME = "Tess"
STANDBY_NAME = "Gus"


@dataclass
class TournamentDemoOptions:
    #: Robots who join (2 to 6).
    players: int = 4
    #: Players per game.
    per_game: int = 2
    #: Games each player plays (the tournament's rounds): the second round's games are
    #: formed when the first round's players are free again, avoiding repeat pairings.
    rounds: int = 2
    #: The games' end date (Wolff 21.1), in game days after each game starts.
    days: int = 1
    #: Game seconds per real second: a game day in 30 s by default.
    speed: float = 2880.0
    #: The time limit of a masterboard turn, in game hours.
    turn_hours: int = 8
    seed: int | None = None
    folder: Path | None = None
    #: Whether the director hands a seat of the first game to the standby robot.
    replace: bool = True
    #: Give up after this many real seconds.
    timeout: float = 900.0
    #: The robot the players play with (``testing.mailrobot.ROBOT_KINDS``).
    robot: str = COMPETENT


@dataclass
class DemoRun:
    """What the demo keeps while it runs."""

    options: TournamentDemoOptions
    progress: Callable[[str], None]
    folder: Path
    seed: int
    started: float
    service: Service
    director: MailRobot
    standby: MailRobot
    robots: list[MailRobot]
    replaced: tuple[str, str, str, str] | None = None
    outbox_at_replacement: int = 0
    reported_over: set[str] = field(default_factory=set)
    reported_formed: set[str] = field(default_factory=set)

    @property
    def everyone(self) -> list[MailRobot]:
        return [*self.robots, self.standby, self.director]

    def check_time(self, doing: str) -> None:
        if time.monotonic() - self.started > self.options.timeout:
            msg = f"the tournament demo did not finish in {self.options.timeout:.0f} s ({doing})"
            raise TimeoutError(msg)
