"""
Recent states of each game, kept between mails, so that a report that begins some way
back does not replay the game from its first event.

A player who hears of the others' play only at the end of a turn, or once a day
(``schedule.notify``), is reported from a version well before the game's present, and
the narration needs the state before each event since then.  Every report round
remembers the stored state it starts from; a later round finds the newest one at or
before where a report begins and replays only from there.  Games are kept by database
and name; a kept state is trusted only if replaying the stored events from it leads to
the game's present state, so a game replaced under the same name (or a kept state that
cannot even be replayed) falls back to the first event.  A finished game's states are
not kept (``remember`` of a state whose game is over forgets the game): its reports are
done, and a service that runs for months would otherwise hold every game it ended until
``GAMES`` newer ones pushed it out.

A ``StateCache`` is an object the runtime builds once (``service.caches``) and hands to
the use cases through the lookup; nothing is kept at module level.
"""

from __future__ import annotations

from moderator.kept_states import KeptStates
from moderator.rules.state import GameState, Step

#: Games, and states per game, a cache keeps.
GAMES = 64
STATES = 48

Key = tuple[str, str]  # (database, game)


class StateCache(KeptStates[Key]):
    """Recent states of at most ``games`` games, ``states`` each (the least recently used go)."""

    def __init__(self, games: int = GAMES, states: int = STATES) -> None:
        super().__init__(games, states)

    def remember(self, game_id: Key, seq: int, state: GameState) -> None:
        """Keep ``state`` as ``game_id``'s state after event ``seq`` (a finished game: forget it)."""
        if state.step is Step.OVER:
            self.forget(game_id)
        else:
            self.keep(game_id, seq, state)
