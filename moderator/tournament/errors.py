"""The one error type of the tournament core, and its code catalogue."""

from __future__ import annotations

#: The codes ``TournamentError`` carries (tests and tools match on them).
E_SYNTAX = "E-T-SYNTAX"  # the line cannot be read
E_UNKNOWN = "E-T-UNKNOWN"  # no such tournament
E_EXISTS = "E-T-EXISTS"  # a tournament (or game) by that name exists already
E_DIRECTOR = "E-T-DIRECTOR"  # only the tournament's director (or a director) may do this
E_SETTINGS = "E-T-SETTINGS"  # a setting is out of range
E_FINISHED = "E-T-FINISHED"  # the tournament is over
E_JOINED = "E-T-JOINED"  # already on the waiting list
E_NOT_JOINED = "E-T-NOT-JOINED"  # not on the waiting list / not in the tournament
E_WITHDRAWN = "E-T-WITHDRAWN"  # withdrew from this tournament: may not come back
E_ROUNDS = "E-T-ROUNDS"  # has played every game the tournament allows
E_RELIABILITY = "E-T-RELIABILITY"  # below the tournament's minimum reliability
E_STANDBY = "E-T-STANDBY"  # already on the standby list
E_NO_STANDBY = "E-T-NO-STANDBY"  # nobody on the standby list can take the seat
E_GAME = "E-T-GAME"  # no such game in the tournament
E_GAME_OVER = "E-T-GAME-OVER"  # the game is finished already
E_PAUSED = "E-T-PAUSED"  # the game is paused already
E_NOT_PAUSED = "E-T-NOT-PAUSED"  # the game is not paused
E_SEAT = "E-T-SEAT"  # no such seat in the game
E_SEATED = "E-T-SEATED"  # the new player has a seat in that game already
E_PLAYER = "E-T-PLAYER"  # no player is registered with that address
E_HOURS = "E-T-HOURS"  # an extension out of range
E_RELIABILITY_DATA = "E-T-RELIABILITY-DATA"  # reliability counts that make no sense


class TournamentError(ValueError):
    """
    Raised when a tournament command is not allowed in the current state.

    ``code`` is stable (one of the ``E_*`` constants); ``str(error)`` is the sentence
    a player reads: what is wrong and, where it can, what to do instead.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
