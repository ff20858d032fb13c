"""
A mail to a game of a group's own variant whose files changed since the game began
(docs/variants.md, "A group's own variant"): the game cannot be replayed as it was
played, so the mail is shunted with the reason and the game master told, the game
untouched; with the files put back, the requeued mail goes through.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from moderator.runners import mail as processing
from moderator.runners.commands import new_game
from moderator.runtime.variants import install_own_variants
from moderator.store import EventStore, inbox, outbox, players
from tests.ownvariant import NAME, change_muster, installed

from .mailbox import ADDRESSES, next_order, order_mail
from .simple_handler import OrderMailHandler


def test_a_mail_to_a_game_whose_own_variant_changed_is_shunted_and_the_game_master_told(
    store: EventStore, tmp_path: Path
) -> None:
    with installed(tmp_path / "variants") as directory:
        kept = tmp_path / "kept"
        shutil.copytree(directory, kept)
        state = new_game(store, "g1", list(ADDRESSES), seed=5, variant=NAME)
        with store.transaction() as tx:
            for name, address in ADDRESSES.items():
                if players.player_by_address(tx, address) is None:
                    players.add_player(tx, f"{name} Example", address)
                players.seat_player(tx, "g1", name, address)
        player, line = next_order(state)
        change_muster(directory)
        install_own_variants(str(tmp_path / "variants"))  # the service started again
        message_id = inbox.receive(store, order_mail(player, line))
        before = store.last_seq("g1")
        result = processing.process_message(store, message_id, OrderMailHandler(), gm_address="gm@example.org")
        assert result == inbox.SHUNTED
        assert store.last_seq("g1") == before
        with store.reading() as tx:
            message = inbox.message(tx, message_id)
            (notice,) = outbox.mails(tx)
        assert "VariantChangedError" in message.error and "changed since the game began" in message.error
        assert notice.recipient == "gm@example.org"
        # the operator puts the files back: the mail goes through
        shutil.rmtree(directory)
        shutil.copytree(kept, directory)
        install_own_variants(str(tmp_path / "variants"))
        assert inbox.requeue(store, message_id)
        assert processing.process_message(store, message_id, OrderMailHandler()) == inbox.PROCESSED
