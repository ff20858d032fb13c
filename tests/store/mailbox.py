"""Helpers for the inbox tests: a seated two-player game and order mails for it."""

from __future__ import annotations

from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.runners.commands import new_game
from moderator.store import EventStore, players

ADDRESSES = {"Ann": "ann@example.org", "Bob": "bob@example.org"}


def seated_game(store: EventStore, game_id: str = "g1", seed: int = 5) -> GameState:
    """A new game for Ann and Bob, each seated under his address."""
    state = new_game(store, game_id, list(ADDRESSES), seed=seed)
    with store.transaction() as tx:
        for name, address in ADDRESSES.items():
            if players.player_by_address(tx, address) is None:
                players.add_player(tx, f"{name} Example", address)
            players.seat_player(tx, game_id, name, address)
    return state


def order_mail(sender: str, body: str, *, game_id: str | None = "g1", number: int = 1) -> bytes:
    lines = [
        f"From: {sender} <{ADDRESSES.get(sender, sender)}>",
        "To: moderator@example.org",
        f"Subject: orders {number}",
        f"Message-ID: <order-{number}@example.org>",
    ]
    if game_id is not None:
        lines.append(f"X-Titan-Game: {game_id}")
    return ("\r\n".join(lines) + "\r\n\r\n" + body.replace("\n", "\r\n") + "\r\n").encode()


def next_order(state: GameState) -> tuple[str, str]:
    """(player to act, a legal order line for him) in ``state``."""
    from moderator.reporting.views import legal_orders

    player = to_act(state)
    assert player is not None
    lines = [line for line in legal_orders(state, player) if not line.startswith("withdraw")]
    return player, lines[0]


def order_chain(store: EventStore, game_id: str, count: int) -> tuple[list[bytes], list[object]]:
    """
    ``count`` order mails that follow one another from the game's current state (each
    from the player to act then), and the events they will add when carried out in
    order.
    """
    from moderator.usecases.games.messages import carry_out

    loaded = store.load_state(game_id)
    state, record = loaded.state, loaded.record
    mails: list[bytes] = []
    events: list[object] = []
    for number in range(1, count + 1):
        player, line = next_order(state)
        mails.append(order_mail(player, line, game_id=game_id, number=number))
        result = carry_out(game_id, state, record, player, line, list)
        assert result.ok and result.events, result.reply
        state, record = result.state, result.record
        events.extend(result.events)
    return mails, events
