"""
Wolff 4.5 by mail: the audit's notes in a report (the commitments and the seal in its
signed part, the openings every player saw in its private part) are numbered among the
events every player saw.  They were numbered by the game's log, hidden events too, so a
message, a show or the look two engaged players take at each other's legions moved a
bystander's numbers: comparing two of his reports, he learnt that something had passed
between others.  Two games that differ only in such an aside between Ann and Bob now
send Cy the very same notes (the digests aside: a commitment's and a seal's are made
with the log's numbers, and say nothing without the salts and the seed).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.ports import StoredMail, Work
from moderator.rules import events as ev
from moderator.store import EventStore, inbox, outbox
from moderator.store.unit_of_work import write
from moderator.testing.clocks import TestClock
from moderator.testing.stores import open_store, sqlite_url
from moderator.usecases.games.planning import plan_game
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, seat_players
from .test_reports import ENGAGED

NAMES = ["Ann", "Bob", "Cy"]
#: A digest (a commitment, a seal, the seed's hash): made from the log's numbers.
_DIGEST = re.compile(r"\b[0-9a-f]{32}(?:[0-9a-f]{32})?\b")


def _engaged(store: EventStore) -> Table:
    """ENGAGED by mail with fair dice, every change mailed to everybody."""
    planned, _ = plan_game("g1", None, None, None, ENGAGED, store.clock(), bound=True)
    with store.transaction() as tx:
        write(tx, Work(games=(planned,)))
    seat_players(store, "g1", NAMES)
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(
        allow_secrets=True, notify=dict.fromkeys(NAMES, "all"), reported=dict.fromkeys(NAMES, 1)
    )
    return table


def _fought(table: Table, aside: str) -> list[StoredMail]:
    """Ann engages Bob's legion (with ``aside`` in the same mail), they look at each
    other's legions and fight: every mail of the game."""
    for name, line in (("Ann", f"{aside}engage 1"), ("Bob", "no more proposals"), ("Ann", "fight")):
        sent = table.orders(name, line)
        assert sent.status == inbox.PROCESSED and not sent.note, sent.note
    with table.store.reading() as tx:
        return outbox.mails(tx)


def _notes(mails: list[StoredMail], name: str) -> list[str]:
    """The audit's notes ``name`` was sent, both parts, the digests left out."""
    found = []
    for mail in mails:
        if mail.recipient != address(name):
            continue
        for line in f"{mail.body}\n{mail.private_body or ''}".splitlines():
            if re.search(r"\bevent \d+: ", line):
                found.append(_DIGEST.sub("<digest>", line.strip()))
    return found


def _mails(mails: list[StoredMail], name: str) -> list[tuple[str, str, str]]:
    """What ``name`` was sent: subjects and both texts, the digests left out."""
    return [
        (m.subject, _DIGEST.sub("<digest>", m.body), _DIGEST.sub("<digest>", m.private_body or ""))
        for m in mails
        if m.recipient == address(name)
    ]


@pytest.mark.parametrize(
    "aside",
    ["tell Bob: spare my Titan and I leave you Cy's tower\n", "show Rd01 to Bob\n"],
    ids=["message", "show"],
)
def test_wolff_4_5_audit_note_numbers_do_not_count_events_a_player_may_not_see(
    store: EventStore, tmp_path: Path, clock: TestClock, aside: str
) -> None:
    other = open_store(sqlite_url(tmp_path, "other.sqlite"), clock=clock)
    try:
        quiet = _fought(_engaged(store), "")
        told = _engaged(other)
        talked = _fought(told, aside)
        between = [e for e in told.events() if e.visible_to == frozenset({"Ann", "Bob"})]
        assert any(isinstance(e, ev.ASIDE_EVENT_TYPES) for e in between)
    finally:
        other.close()
    seen = _notes(quiet, "Cy")
    assert any(" commitment <digest>" in n for n in seen) and any(" opened: " in n for n in seen)
    assert any(" order seal <digest>" in n for n in seen)
    assert _notes(talked, "Cy") == seen
    assert _mails(talked, "Cy") == _mails(quiet, "Cy")  # nothing else tells him either
    assert len(_notes(talked, "Ann")) == len(_notes(quiet, "Ann"))
