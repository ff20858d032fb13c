"""
Ann forwards, from her own address, an order text Bob signed and mailed her as a
promise.  The signature makes it Bob's mail wherever it comes from: carried out once as
his, and answered to him alone, so he learns at once what was done in his name; Ann
gets no answer to it, and a second copy changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.store import inbox

from .conftest import Table, World, address, headers_of, plain_mail


def test_a_signed_text_forwarded_by_another_player_is_the_signers_mail_answered_to_him(
    make_table: Callable[..., Table], world: World
) -> None:
    table = make_table(keyring=world.moderator.keyring, keys=world.players, allow_secrets=False)
    signer = to_act(table.state)
    assert signer is not None
    forwarder = "Bob" if signer == "Ann" else "Ann"
    line = legal_orders(table.state, signer)[0]
    text = f"game g1\n{table.ref_of(signer)}\n{line}\n"
    promise = world.players[signer].keyring.clearsign(text, world.players[signer].fingerprint)
    body = f"Look what {signer} promised me:\n\n{promise.decode('ascii')}"
    version = table.state.version

    sent = table.send(plain_mail(body, headers_of(forwarder, message_id=table.next_id())))
    assert sent.status == inbox.PROCESSED, sent.note
    assert table.state.version > version  # his order, given in his name
    answers = [m for m in sent.mails if m.kind == "reply"]
    assert [m.recipient for m in answers] == [address(signer)]
    assert not [m for m in sent.mails if m.recipient == address(forwarder) and m.kind == "reply"]

    moved = table.state.version
    again = table.send(plain_mail(body, headers_of(forwarder, message_id=table.next_id())))
    assert again.status == inbox.REJECTED and table.state.version == moved
    assert {m.recipient for m in again.mails} <= {address(signer)}

