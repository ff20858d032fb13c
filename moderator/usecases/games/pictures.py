"""
Pictures of a game kept in an event store, as one player sees it (``local board``).

The store is read through the lookup, in the runner's one read-only transaction: the state, the player's view, and
the events since his last report, whose lands the masterboard marks.  A game played
locally has no reports; there the events since the player last ended a turn stand in
for them (the whole game, before his first turn ends).
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.pictures.battleland import battle_svg
from moderator.pictures.changes import changed_lands
from moderator.pictures.masterboard import masterboard_svg
from moderator.ports import GameNotFoundError, Lookup
from moderator.reporting.views import player_view
from moderator.rules import events as ev
from moderator.usecases.games.errors import GameError


def _since_turn_ended(events: Sequence[ev.Event], viewer: str) -> Sequence[ev.Event]:
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if isinstance(event, ev.TurnEnded) and event.player == viewer:
            return events[index + 1 :]
    return events


def board_svg(lookup: Lookup, game_id: str, viewer: str, *, battle: bool = False) -> str:
    """
    The masterboard (or with ``battle`` the battle being fought) of ``game_id`` as
    ``viewer`` sees it, as SVG text.

    Raises:
        GameError: ``viewer`` does not play in the game, or ``battle`` and none is on.
        GameNotFoundError: there is no such game.
    """
    loaded = lookup.game(game_id)
    if loaded is None:
        raise GameNotFoundError(game_id)
    state = loaded.state
    if not state.has_player(viewer):
        raise GameError(f"{viewer} does not play in {game_id}")
    view = player_view(state, viewer)
    if battle:
        if view["battle"] is None:
            raise GameError(f"no battle is being fought in {game_id}")
        return battle_svg(view, viewer, game=game_id)
    reported = loaded.record.reported.get(viewer)
    if reported:
        events: Sequence[ev.Event] = lookup.events(game_id, after=reported)
    else:
        events = _since_turn_ended(lookup.events(game_id), viewer)
    return masterboard_svg(view, viewer, game=game_id, changed=changed_lands(events, viewer, view))
