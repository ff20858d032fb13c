"""
Wolff 4.5 by mail: a player may tell others what a legion holds, never prove it.

The signed part of every report lists the audit's commitments to hidden legions (a
salted SHA-256 of what each holds).  A salt handed to a player during the game turns
that signed commitment into a proof: with the salt and the contents he recomputes the
digest, and anybody can compare it with the one in his own signed report.  So no mail
of a game still running may carry the salt of a commitment not opened to everybody:
not the owner's (he could prove his own legion), not the one a look at an engagement
or a ``show`` opened to a few (they could prove another player's).  The salts all
come with the audit once the game is over.
"""

from __future__ import annotations

from moderator.audit.report_check import COMMITMENT, OPENING, SALT
from moderator.ports import Work
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.store import EventStore, inbox, outbox
from moderator.store.unit_of_work import write
from moderator.usecases.games.planning import plan_game
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, seat_players
from .test_reports import ENGAGED

NAMES = ["Ann", "Bob", "Cy"]


def _bound_game(store: EventStore, position: dict[str, object] | None = None) -> Table:
    """A game by mail with fair dice (so its reports carry the audit's notes)."""
    players = None if position is not None else NAMES
    planned, _ = plan_game("g1", players, None, None, position, store.clock(), bound=True)
    with store.transaction() as tx:
        write(tx, Work(games=(planned,)))
    seat_players(store, "g1", NAMES)
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, notify=dict.fromkeys(NAMES, "all"))
    return table


def _proofs(table: Table) -> list[str]:
    """
    Every salt a mail of the game handed a player that opens a commitment some signed
    part carries and no signed part opened to everybody: what would let him prove
    what that legion holds.
    """
    with table.store.reading() as tx:
        mails = outbox.mails(tx)
    signed = "\n".join(m.body for m in mails)
    committed = {int(m.group(1)): m.group(3) for m in COMMITMENT.finditer(signed)}
    opened_to_all = {int(m.group(3)) for m in OPENING.finditer(signed)}
    found = []
    for mail in mails:
        private = mail.private_body or ""
        salts = [(int(m.group(1)), m.group(2), m.group(3)) for m in SALT.finditer(private)]
        salts += [(int(m.group(3)), m.group(2), m.group(4)) for m in OPENING.finditer(private)]
        for seq, marker, salt in salts:
            if seq in committed and seq not in opened_to_all:
                found.append(f"{mail.recipient}: the salt {salt} of {marker}'s commitment {seq}")
    return found


def test_wolff_4_5_an_owner_is_sent_no_salt_that_proves_his_hidden_legion(
    store: EventStore,
) -> None:
    """Ann splits; before, her answer's private part held the salts of both halves'
    commitments, and with them she could prove to Bob, from Bob's own signed report,
    what each half holds."""
    table = _bound_game(store)
    while table.state.step is Step.COLOUR:
        actor = to_act(table.state)
        assert actor is not None
        assert table.orders(actor, legal_orders(table.state, actor)[0]).status == inbox.PROCESSED
    actor = to_act(table.state)
    assert actor is not None
    split = next(line for line in legal_orders(table.state, actor) if line.startswith("split "))
    sent = table.orders(actor, split)
    assert sent.status == inbox.PROCESSED, sent.note
    committed = [e for e in table.events() if isinstance(e, ev.LegionCommitted)]
    assert len(committed) >= 2  # both halves are hidden now
    others = [m for m in sent.mails if m.recipient != address(actor)]
    assert others and all(COMMITMENT.search(m.body) for m in others)  # signed for all
    assert _proofs(table) == []


def test_wolff_4_5_a_look_at_an_engagement_or_a_show_gives_no_salt_to_pass_on(
    store: EventStore,
) -> None:
    """Ann attacks Bob: each sees the other's legion, and before, each was sent its
    commitment's opening with the salt, which let Bob prove to Cy what Ann's legion
    holds (Cy's own signed reports carry the commitment).  A ``show`` opened the shown
    legion's commitment to its audience the same way."""
    table = _bound_game(store, ENGAGED)
    table.set_record(reported=dict.fromkeys(NAMES, 1))
    hidden = next(lg for lg in table.state.legions.values() if lg.owner == "Cy")
    assert table.orders("Cy", f"show {hidden.marker} to Bob").status == inbox.PROCESSED
    assert table.orders("Ann", "engage 1").status == inbox.PROCESSED
    opened = [e for e in table.events() if isinstance(e, ev.CommitmentOpened)]
    assert opened and all(e.visible_to is not None for e in opened)  # to a few only
    assert _proofs(table) == []
