"""
Commands: what a player asks for, in the imperative.

Only the order parser, robots, deadline defaults and moderator tools make
them.  A command carries no derived state: ``decide`` checks it against the
state and either raises ``RuleError`` or returns events.
"""

from __future__ import annotations

from moderator.records import record
from moderator.rules.state import Proposal


@record(kw_only=True)
class Command:
    player: str


@record(kw_only=True)
class ChooseColour(Command):
    colour: str


@record(kw_only=True)
class Withdraw(Command):
    pass


@record(kw_only=True)
class Split(Command):
    parent: str
    child: str | None  # None: the lowest free marker
    characters: tuple[str, ...]  # what goes under the new marker


@record(kw_only=True)
class Roll(Command):
    pass


@record(kw_only=True)
class Mulligan(Command):
    pass


@record(kw_only=True)
class MoveLegion(Command):
    marker: str
    land: int
    entry: str | None = None  # "left", "right" or "bottom"; drawn at random if needed and absent
    teleport: bool = False
    showing: str | None = None  # the lord revealed for a teleport


@record(kw_only=True)
class UndoMove(Command):
    marker: str | None = None  # None: the last move


@record(kw_only=True)
class Done(Command):
    """End the movement phase (2.3) or the turn (2.7), whichever is current.

    ``keep`` names, for split-offs that recombine at the end of movement, the marker
    the recombined legion keeps where Wolff 4.7 leaves the choice to the player (a
    three-way split whose original moved off): at most one marker per land.
    """

    keep: tuple[str, ...] = ()


@record(kw_only=True)
class Engage(Command):
    land: int


@record(kw_only=True)
class Flee(Command):
    pass


@record(kw_only=True)
class Propose(Command):
    proposals: tuple[Proposal, ...]


@record(kw_only=True)
class Accept(Command):
    number: int


@record(kw_only=True)
class NoMore(Command):
    pass


@record(kw_only=True)
class Concede(Command):
    pass


@record(kw_only=True)
class Fight(Command):
    pass


@record(kw_only=True)
class Summon(Command):
    lord: str
    source: str


@record(kw_only=True)
class Reinforce(Command):
    creature: str
    showing: tuple[str, ...] = ()


@record(kw_only=True)
class TakeAngel(Command):
    lord: str


@record(kw_only=True)
class Decline(Command):
    """Pass up a reinforcement, a summons or an earned angel."""


@record(kw_only=True)
class Muster(Command):
    marker: str
    creature: str
    showing: tuple[str, ...] = ()


# -- battle orders (2.5.6) ----------------------------------------------------------


@record(kw_only=True)
class Maneuver(Command):
    """Move (or enter, or deploy) one character: by its hex, or by type when off the board."""

    to_hex: str
    from_hex: str | None = None
    creature: str | None = None


@record(kw_only=True)
class ResetManeuver(Command):
    pass


@record(kw_only=True)
class Proceed(Command):
    """Pass a window in which one may concede (2.5.6.2, 2.5.6.3, 2.5.6.4.x.5, ...)."""


@record(kw_only=True)
class AcceptConcession(Command):
    pass


@record(kw_only=True)
class Strike(Command):
    striker: str  # hex
    target: str  # hex
    strike_number: int | None = None  # None: the most effective
    dice: int | None = None


@record(kw_only=True)
class Rangestrike(Command):
    striker: str
    target: str
    via: tuple[str, ...] = ()
    strike_number: int | None = None


@record(kw_only=True)
class Carry(Command):
    """Carry excess damage to these hexes in order (12.4); empty: carry nowhere."""

    targets: tuple[str, ...] = ()


@record(kw_only=True)
class ShowLegion(Command):
    """Wolff 4.5: show some or all of one's own legion, at any time, to some or all players."""

    marker: str
    to: tuple[str, ...] | None  # None: every other player still in the game
    characters: tuple[str, ...] | None = None  # None: all the legion holds


@record(kw_only=True)
class Tell(Command):
    """Wolff 4.5: a message to other players, passed on by the moderator."""

    to: tuple[str, ...] | None  # None: every other player still in the game
    text: str
