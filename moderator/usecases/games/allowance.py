"""
The daily allowance of shows and messages (Wolff 4.5) a player spends in a game.

A show or a message costs the moderator a mail to each player named, so each has a
daily allowance.  It is spent where the order is decided (``play.run.run_orders``
asks ``over`` before it decides one and ``spend``s once the rules took it), so every
``show`` and ``tell`` counts wherever its line stands: on its own, inside an ``on roll``
block, or however else the run comes to it.  A refused one costs nothing, and the
lines after it still run.
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.rules import commands as cmd

#: The codes of a show or a message beyond the day's allowance.
TELL_LIMIT, SHOW_LIMIT = "E-TELL-LIMIT", "E-SHOW-LIMIT"


@dataclass
class Allowance:
    """
    What a player may still show and tell today (``tells``, ``shows`` left of
    ``tells_a_day`` and ``shows_a_day``), when that renews (``renews``: "at ..."), and
    what the run spent of it (``told``, ``shown``).
    """

    tells: int
    shows: int
    tells_a_day: int
    shows_a_day: int
    renews: str
    told: int = 0
    shown: int = 0

    def over(self, command: cmd.Command) -> tuple[str, str] | None:
        """(code, why) when ``command`` is a show or a message beyond the allowance."""
        if isinstance(command, cmd.Tell) and self.told >= self.tells:
            return TELL_LIMIT, (
                f"at most {self.tells_a_day} messages a day in a game, and today's are "
                f"used: this one was not passed on; the allowance renews {self.renews}"
            )
        if isinstance(command, cmd.ShowLegion) and self.shown >= self.shows:
            return SHOW_LIMIT, (
                f"at most {self.shows_a_day} shows a day in a game, and today's are "
                f"used: this legion was not shown; the allowance renews {self.renews}"
            )
        return None

    def spend(self, command: cmd.Command) -> None:
        """``command`` was carried out: a show or a message costs one."""
        if isinstance(command, cmd.Tell):
            self.told += 1
        elif isinstance(command, cmd.ShowLegion):
            self.shown += 1
