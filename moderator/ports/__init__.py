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

The names below are imported when first asked for (PEP 562): a command that reads one
game needs ``games`` and not the mail's, the deadlines' or the tournaments' types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.lazy import lazy_names

if TYPE_CHECKING:
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
        MailStatus,
        MessageDone,
        NewPlayer,
        Seal,
        TournamentWrite,
        UsedSeal,
        Work,
        game_write,
    )

#: Where each name of the package lives.
_HOMES = {
    "Deadline": "moderator.ports.deadlines",
    "DeadlineChange": "moderator.ports.deadlines",
    "Due": "moderator.ports.deadlines",
    "ConflictError": "moderator.ports.errors",
    "GameExistsError": "moderator.ports.errors",
    "GameNotFoundError": "moderator.ports.errors",
    "MessageNotFoundError": "moderator.ports.errors",
    "PlayerExistsError": "moderator.ports.errors",
    "StoreError": "moderator.ports.errors",
    "TournamentExistsError": "moderator.ports.errors",
    "TournamentNotFoundError": "moderator.ports.errors",
    "UnknownChangeError": "moderator.ports.errors",
    "GameContext": "moderator.ports.games",
    "LoadedGame": "moderator.ports.games",
    "Outcome": "moderator.ports.games",
    "Lookup": "moderator.ports.lookup",
    "InboundMessage": "moderator.ports.mail",
    "OutgoingMail": "moderator.ports.mail",
    "StoredMail": "moderator.ports.mail",
    "PendingAddressChange": "moderator.ports.players",
    "Player": "moderator.ports.players",
    "ASK": "moderator.ports.writes",
    "CANCEL": "moderator.ports.writes",
    "MOVE": "moderator.ports.writes",
    "AddressChange": "moderator.ports.writes",
    "GameWrite": "moderator.ports.writes",
    "MailStatus": "moderator.ports.writes",
    "MessageDone": "moderator.ports.writes",
    "NewPlayer": "moderator.ports.writes",
    "Seal": "moderator.ports.writes",
    "TournamentWrite": "moderator.ports.writes",
    "UsedSeal": "moderator.ports.writes",
    "Work": "moderator.ports.writes",
    "game_write": "moderator.ports.writes",
}


__getattr__ = lazy_names(__name__, _HOMES)


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
    "MailStatus",
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
