"""
Tournaments by mail: the pure core (no I/O, no clock, no randomness of its own).

Like the rules core it is event-sourced: a command is checked against the
tournament's state and becomes events (``decide``), the state is the fold of the
events (``evolve``/``replay``), and a command that is not allowed raises
``TournamentError`` with a stable code and a sentence the player can act on.  The
shell (``moderator.usecases.tournaments.tournaments``) passes in the moment (``now``) and the
seed that formation uses to break ties.
"""

from __future__ import annotations

from moderator.tournament.decide import decide
from moderator.tournament.errors import TournamentError
from moderator.tournament.settings import GameEndRule, Scoring, Settings
from moderator.tournament.state import Entrant, TournamentGame, TournamentState, evolve, replay

__all__ = [
    "Entrant",
    "GameEndRule",
    "Scoring",
    "Settings",
    "TournamentError",
    "TournamentGame",
    "TournamentState",
    "decide",
    "evolve",
    "replay",
]
