"""The handler's main road: orders by mail, the reply, the reports."""

from __future__ import annotations

from collections.abc import Callable

from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.store import inbox

from .conftest import Table, address


def test_good_orders_are_carried_out_and_answered(make_table: Callable[..., Table]) -> None:
    table = make_table()
    state = table.state
    actor = to_act(state)
    assert actor is not None
    line = legal_orders(state, actor)[0]
    sent = table.orders(actor, line)
    assert sent.status == inbox.PROCESSED and sent.note is None
    assert table.state.version > state.version
    reply = sent.one(address(actor), "reply")
    private = reply.private_body or ""
    assert f"> {line}" in private and "done." in private
    assert line not in reply.body  # the signed part never echoes the orders
    assert table.ref_of(actor) in reply.body
    # one mail per mail: the answer carries the report, under the game as it is now
    assert reply.subject.startswith("[titan g1] Re: Turn 1, colour step")
    assert reply.subject.endswith(f"({table.ref_of(actor)})")
    assert reply.token and reply.headers["In-Reply-To"] == "<mail-g1-1@example.org>"
    assert reply.headers["From"] == "moderator@titan.example"
    other = next(a for a in ("ann@example.org", "bob@example.org") if a != address(actor))
    assert sorted((m.kind, m.recipient) for m in sent.mails) == sorted(
        [("reply", address(actor)), ("report", other)]
    )
    for report in sent.to("ann@example.org", "report") + sent.to("bob@example.org", "report"):
        assert report.token and report.private_body and "In-Reply-To" not in report.headers
