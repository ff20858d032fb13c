"""
The ports: the types the use cases and the store agree on, and nothing of SQLAlchemy.

A use case reads through a ``Lookup`` (a protocol: the store's SQL lookup or the
in-memory one of ``moderator.testing``) and returns an ``Outcome``; the runner hands
what it decided to the unit of work as ``Work``.  The use cases import these from
here and nothing of ``moderator.store``; the store imports them too, so that both
sides speak of the same values.

- ``errors``: what the store raises that a caller acts on (``ConflictError``...);
- ``mail``: the inbound message, outgoing and stored mail, their states;
- ``players``: a player, a waiting change of address, address and secret forms;
- ``deadlines``: deadline changes and rows, their kinds and states;
- ``writes``: game and tournament writes, new players, address changes, seals, ``Work``;
- ``games``: the game's context, a loaded game, the ``Outcome``;
- ``lookup``: the read-only ``Lookup`` protocol.
"""

from __future__ import annotations

from moderator.ports.deadlines import Deadline, DeadlineChange, Due
from moderator.ports.errors import (
    ConflictError,
    GameExistsError,
    GameNotFoundError,
    MessageNotFoundError,
    PlayerExistsError,
    StoreError,
    TournamentExistsError,
    TournamentNotFoundError,
    UnknownChangeError,
)
from moderator.ports.games import GameContext, LoadedGame, Outcome
from moderator.ports.lookup import Lookup
from moderator.ports.mail import InboundMessage, OutgoingMail, StoredMail
from moderator.ports.players import PendingAddressChange, Player
from moderator.ports.writes import (
    ASK,
    CANCEL,
    MOVE,
    AddressChange,
    GameWrite,
    MessageDone,
    NewPlayer,
    Seal,
    TournamentWrite,
    UsedSeal,
    Work,
    game_write,
)

__all__ = [
    "ASK",
    "CANCEL",
    "MOVE",
    "AddressChange",
    "ConflictError",
    "Deadline",
    "DeadlineChange",
    "Due",
    "GameContext",
    "GameExistsError",
    "GameNotFoundError",
    "GameWrite",
    "InboundMessage",
    "LoadedGame",
    "Lookup",
    "MessageDone",
    "MessageNotFoundError",
    "NewPlayer",
    "Outcome",
    "OutgoingMail",
    "PendingAddressChange",
    "Player",
    "PlayerExistsError",
    "Seal",
    "StoreError",
    "StoredMail",
    "TournamentExistsError",
    "TournamentNotFoundError",
    "TournamentWrite",
    "UnknownChangeError",
    "UsedSeal",
    "Work",
    "game_write",
]
