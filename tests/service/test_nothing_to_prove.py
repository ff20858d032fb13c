"""
Wolff 4.5 by mail: a player may tell others what a legion holds, never prove it.

The signed part of every report lists the audit's commitments to hidden legions (a
salted SHA-256 of what each holds).  A salt handed to a player during the game turns
that signed commitment into a proof: with the salt and the contents he recomputes the
digest, and anybody can compare it with the one in his own signed report.  So no mail
of a game still running may carry the salt of any commitment: not the owner's (he could
prove his own legion), not the one a look at an engagement or a ``show`` opened to a few
(they could prove another player's), and not the one of a legion every player saw
opened when it fought (that all saw it makes it known, not provable).  The salts all
come with the audit once the game is over, and it opens every commitment.
"""

from __future__ import annotations

import json
from email.message import EmailMessage

from moderator.audit.commitments import salt_for
from moderator.audit.report_check import COMMITMENT, check_report
from moderator.audit.verify import verify
from moderator.ports import StoredMail, Work
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.store import EventStore, inbox, outbox
from moderator.store.unit_of_work import write
from moderator.usecases.games.audits import AUDIT
from moderator.usecases.games.planning import plan_game
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, carries_report, seat_players
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


def _salts(table: Table) -> dict[str, str]:
    """Every salt of the game's commitments (what each opens): those of its commitments,
    derived from the seed, and those its openings carry."""
    seed = table.record.dice.seed
    assert seed is not None
    salts = {}
    for seq, event in enumerate(table.events(), 1):
        if isinstance(event, ev.LegionCommitted):
            salts[salt_for(seed, "g1", event.marker, seq)] = f"{event.marker}'s commitment {seq}"
        elif isinstance(event, ev.CommitmentOpened):
            salts[event.salt] = f"{event.marker}'s commitment {event.seq}"
    return salts


def _proofs(table: Table) -> list[str]:
    """
    Every salt of a commitment that a mail of the game handed a player, in either part:
    with it and the contents he could prove what that legion holds, since every signed
    part carries the commitment.
    """
    with table.store.reading() as tx:
        mails = outbox.mails(tx)
    return [
        f"{mail.recipient}: the salt {salt} of {what}"
        for mail in mails
        for salt, what in _salts(table).items()
        if salt in mail.body or salt in (mail.private_body or "")
    ]


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


def _end(table: Table) -> list[StoredMail]:
    """The game played to its end by its players, each conceding or withdrawing when he
    may, else giving his first legal order: the mails that ended it."""
    for _ in range(200):
        actor = to_act(table.state)
        if actor is None:
            break
        legal = legal_orders(table.state, actor)
        line = next((o for o in ("concede", "withdraw") if o in legal), legal[0])
        sent = table.orders(actor, line)
        assert sent.status == inbox.PROCESSED, sent.note
        if table.state.step is Step.OVER:
            return sent.mails
    raise AssertionError(f"the game did not end: {table.state.step}")


def test_wolff_4_5_an_opening_every_player_saw_gives_no_salt_and_the_audit_opens_all(
    store: EventStore,
) -> None:
    """Ann attacks Bob and they fight: both legions are shown to every player and their
    commitments opened for all.  Before, each report's private part gave those openings
    with their salts, and with a salt, the contents and the commitment his signed report
    carries, anybody could prove what the legion held.  Now the private part says what
    it held and no more, and the audit at the end gives every salt: every commitment
    verifies, and each report's notes are found in the bundle."""
    table = _bound_game(store, ENGAGED)
    table.set_record(reported=dict.fromkeys(NAMES, 1))
    for name, line in (("Ann", "engage 1"), ("Bob", "no more proposals"), ("Ann", "fight")):
        assert table.orders(name, line).status == inbox.PROCESSED
    opened = [e for e in table.events() if isinstance(e, ev.CommitmentOpened)]
    assert any(e.visible_to is None for e in opened)  # the battle showed them to all
    with table.store.reading() as tx:
        running = outbox.mails(tx)
    assert _proofs(table) == []
    assert [m for m in running if " opened: held " in (m.private_body or "")]
    assert not [m for m in running if " opened: " in m.body]  # never signed
    last = _end(table)
    committed = [e for e in table.events() if isinstance(e, ev.LegionCommitted)]
    audits = [m for m in last if m.kind == AUDIT]
    assert {m.recipient for m in audits} == {address(n) for n in NAMES}
    for mail in audits:
        (attached,) = mail.attachments
        bundle = json.loads(attached["text"])
        verdict = verify(bundle)
        assert verdict.ok, verdict.problem
        assert len(bundle["salts"]) == len(committed)
        assert f"commitments: {len(committed)} to hidden legions match" in "\n".join(
            verdict.checked
        )
        reports = [m for m in running if m.recipient == mail.recipient and carries_report(m)]
        assert reports
        for report in reports:
            held = check_report(bundle, _decrypted_copy(report))
            assert held.ok, (report.subject, held.problem)


def _decrypted_copy(mail: StoredMail) -> bytes:
    """The mail as its reader saves a decrypted copy: both parts' text."""
    copy = EmailMessage()
    copy["Subject"] = mail.subject
    copy.set_content(mail.body)
    copy.add_attachment(mail.private_body or "", subtype="plain", disposition="inline")
    return copy.as_bytes()
