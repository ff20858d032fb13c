"""
What every player knows of the legions, kept between mails (``reporting.knowledge``).

The fold starts at the game's first event, so folding a long game for every report
would cost as much as the game is long.  This process keeps, per game, the knowledge
after the last stored event it saw and folds only the events stored since; a report
folds the mail's new events on top without keeping them (they may yet be rolled
back).  An entry is used only while the game it was made from is the game now (the
same state at the same event), so another database, a replaced game or a rolled-back
append starts the fold again from the first event.  At most ``GAMES`` games are kept,
the least recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from moderator.reporting.knowledge import Knowledge, knowledge_of
from moderator.rules import events as ev
from moderator.store.handling import GameContext, Lookup

#: Games whose knowledge a process keeps.
GAMES = 256

_kept: OrderedDict[str, Knowledge] = OrderedDict()
_lock = threading.Lock()


def knowledge_after(game: GameContext, lookup: Lookup, new: Sequence[ev.Event]) -> Knowledge:
    """What every viewer knows after ``game``'s stored events and then ``new``."""
    with _lock:
        kept = _kept.get(game.game_id)
    if kept is None or kept.state.version > game.seq or (
        kept.state.version == game.seq and kept.state != game.state
    ):
        kept = None
    after = kept.state.version if kept is not None else 0
    stored = knowledge_of(lookup.events(game.game_id, after=after, upto=game.seq), kept)
    if kept is not None and stored.state != game.state:  # another game under the same name
        stored = knowledge_of(lookup.events(game.game_id, upto=game.seq))
    if stored.state.version == game.seq and stored.state == game.state:
        with _lock:
            _kept[game.game_id] = stored
            _kept.move_to_end(game.game_id)
            while len(_kept) > GAMES:
                _kept.popitem(last=False)
    return knowledge_of(new, stored)


__all__ = ["GAMES", "knowledge_after"]
