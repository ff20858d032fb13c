"""
What players, the director and the shell ask of a tournament, in the imperative.

Players are named by their registered address.  ``by`` is who asks (for the
director's commands: he must be the tournament's director).
"""

from __future__ import annotations

from moderator.records import record
from moderator.tournament.scoring import GameResult
from moderator.tournament.settings import Settings


@record(kw_only=True)
class Command:
    pass


@record(kw_only=True)
class CreateTournament(Command):
    tournament: str
    by: str
    by_name: str
    may_direct: bool  # the shell's answer: does ``by`` hold the director role?
    settings: Settings


@record(kw_only=True)
class Join(Command):
    player: str
    name: str
    #: (moves on time, timeouts) over every tournament: the shell adds them up.
    record: tuple[int, int] = (0, 0)


@record(kw_only=True)
class Leave(Command):
    player: str


@record(kw_only=True)
class Withdraw(Command):
    player: str


@record(kw_only=True)
class Standby(Command):
    player: str
    name: str


@record(kw_only=True)
class FormGames(Command):
    seed: int
    #: Game ids in use (in the store): a new game gets the next free ``TOURNAMENT-N``.
    taken: frozenset[str] = frozenset()


@record(kw_only=True)
class RecordResult(Command):
    game: str
    result: GameResult
    robots: tuple[str, ...] = ()  # seats the robot holds at the finish: their players dropped


#: How the tournament's history names the service's operator (``Directed.by``): no
#: address lacks an '@', so it names nobody else.
OPERATOR = "operator"


@record(kw_only=True)
class Directed(Command):
    """
    A line directing a running game, by the tournament's director; or, with
    ``operator``, by the service's operator (``by`` names him), who may direct any game,
    the director's own included.
    """

    by: str
    game: str
    operator: bool = False


@record(kw_only=True)
class ReplaceSeat(Directed):
    seat: str  # the seat's name in the game, or its holder's address
    new: str | None = None  # None: the first suitable player on the standby list
    new_name: str = ""


@record(kw_only=True)
class RecordReliability(Command):
    game: str
    seat: str
    on_time: int = 0
    timeouts: int = 0
    seats_lost: int = 0  # the seat taken over (robot or standby) because its player dropped


@record(kw_only=True)
class PauseGame(Directed):
    pass


@record(kw_only=True)
class ResumeGame(Directed):
    pass


@record(kw_only=True)
class ExtendDeadline(Directed):
    hours: int


@record(kw_only=True)
class EndGame(Directed):
    pass
