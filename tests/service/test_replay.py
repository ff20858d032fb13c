"""
Every signed mail counts once: a copy of a player's signed (or secret) mail, sent again
under a new Message-ID or re-aimed at another game by its unsigned subject, changes
nothing, for every kind of line that needs no step reference (absences, tournament and
director lines, changes of address, sign-ons, queries).  Signatures far from the
moderator's clock are refused; a signed mail picks its game from its signed text.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlmodel import SQLModel

from moderator.ports import StoredMail
from moderator.ports.players import DIRECTOR as DIRECTOR_ROLE
from moderator.runners import mail as processing
from moderator.runners import tournaments as tournament_service
from moderator.runners.commands import new_game
from moderator.schedule.timing import TimeLimits
from moderator.store import EventStore, inbox, outbox, players
from moderator.store import seals as kept_seals
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.mail import seals
from moderator.usecases.mail.handler import MailGameHandler

from ..gpgparties import Party
from .conftest import (
    MODERATOR,
    World,
    address,
    clearsigned_mail,
    headers_of,
    pgp_mime_mail,
    plain_mail,
    secret_of,
)

#: What a replay may add: the mail itself, its answer, and the seal it left.
_NOT_STATE = {"inbound", "outbox", "used_seal", "service_state", "poller_lock"}
DIRECTOR = "Flo"


def table_rows(store: EventStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table that holds the state of games, players and tournaments."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    with store.reading() as tx:
        for table in SQLModel.metadata.sorted_tables:
            if table.name in _NOT_STATE:
                continue
            rows = tx.connection.execute(select(table)).all()
            found[table.name] = sorted((tuple(map(repr, row)) for row in rows), key=str)
    return found


def rewrapped(raw: bytes, *, subject: str | None = None) -> bytes:
    """``raw`` with a new Message-ID (and subject): the signed part untouched."""
    head, sep, body = raw.partition(b"\n\n")
    if not sep:
        head, sep, body = raw.partition(b"\r\n\r\n")
    new_id = f"<{uuid.uuid4().hex}@elsewhere.example>".encode()
    head = re.sub(rb"(?mi)^Message-ID:.*$", b"Message-ID: " + new_id, head)
    if subject is not None:
        head = re.sub(rb"(?mi)^Subject:.*$", b"Subject: " + subject.encode(), head)
    return head + sep + body


@dataclass
class Club:
    """Players with keys and secrets, two games with time limits, a director."""

    store: EventStore
    world: World
    clock: Clock
    handler: MailGameHandler

    def send(self, raw: bytes) -> tuple[str, str, list[StoredMail]]:
        message = inbox.receive(self.store, raw)
        status = processing.process_message(self.store, message, self.handler)
        with self.store.reading() as tx:
            note = inbox.message(tx, message).error or ""
            return status, note, outbox.mails(tx, inbound_id=message)

    def mail(self, name: str, body: str, *, how: str = "pgp-mime", subject: str = "orders") -> bytes:
        headers = headers_of(name, subject=subject)
        party: Party = self.world.players[name]
        if how == "pgp-mime":
            return pgp_mime_mail(party, body, headers)
        if how == "clearsigned":
            return clearsigned_mail(party, body, headers)
        return plain_mail(f"secret {secret_of(name)}\n{body}", headers)


@pytest.fixture
def club(store: EventStore, world: World, clock: Clock) -> Iterator[Club]:
    names = ("Ann", "Bob", "Cy", "Di", DIRECTOR)
    with store.transaction() as tx:
        for name in names:
            players.add_player(
                tx,
                name,
                address(name),
                key_fingerprint=world.players[name].fingerprint,
                secret=secret_of(name),
            )
        players.set_roles(tx, address(DIRECTOR), (DIRECTOR_ROLE,))
    for game_id, seated in (("g1", ["Ann", "Bob"]), ("g2", ["Ann", "Cy"])):
        new_game(store, game_id, seated, seed=5, time_limits=TimeLimits())
        with store.transaction() as tx:
            for name in seated:
                players.seat_player(tx, game_id, name, address(name))
            loaded = tx.load(game_id)
            tx.append(game_id, loaded.seq, [], record=loaded.record.but(allow_secrets=True))
    handler = MailGameHandler(lambda: world.moderator.keyring, MODERATOR)
    yield Club(store, world, clock, handler)


def answers(mails: list[StoredMail], name: str) -> str:
    """Both parts of the mails to ``name`` (a refusal says why in its private part)."""
    return "\n".join(f"{m.body}\n{m.private_body or ''}" for m in mails if m.recipient == address(name))


def assert_counts_once(club: Club, name: str, raw: bytes, *, tag: str = "[titan g2] orders") -> None:
    """``raw`` was carried out; sent again, then re-aimed by its subject, it changes nothing."""
    before = table_rows(club.store)
    club.clock.advance(minutes=5)
    notes = []
    for copy in (rewrapped(raw), rewrapped(raw, subject=tag), rewrapped(raw)):
        status, note, mails = club.send(copy)
        assert status == inbox.REJECTED, note
        assert table_rows(club.store) == before
        assert all((m.kind, m.recipient) == ("refusal", address(name)) for m in mails)
        notes.append((note.split(":")[0], len(mails)))
    # Answered once (unless a refusal went out today already), then not again.
    told = "refused, not answered (refused today)"
    assert notes[1:] == [(told, 0), (told, 0)]
    assert notes[0] in (("refused", 1), (told, 0))


def carried(club: Club, name: str, body: str, *, how: str = "pgp-mime", subject: str = "orders") -> bytes:
    raw = club.mail(name, body, how=how, subject=subject)
    status, note, mails = club.send(raw)
    assert status in (inbox.PROCESSED, inbox.REJECTED), note
    assert "refused" not in note, (note, answers(mails, name))
    return raw


# -- absences (the attacks found in the trial) ------------------------------------------------


@pytest.mark.parametrize("how", ["pgp-mime", "clearsigned", "secret"])
def test_a_replayed_absence_changes_nothing(club: Club, how: str) -> None:
    raw = carried(club, "Ann", "game g1\nabsent from 2024-08-01 to 2024-08-10", how=how)
    carried(club, "Ann", "game g1\nabsent cancel", how=how)
    assert_counts_once(club, "Ann", raw)


def test_a_replayed_absence_cancel_changes_nothing(club: Club) -> None:
    carried(club, "Ann", "game g1\nabsent from 2024-08-01 to 2024-08-10")
    raw = carried(club, "Ann", "game g1\nabsent cancel")
    carried(club, "Ann", "game g1\nabsent from 2024-08-02 to 2024-08-09")
    assert_counts_once(club, "Ann", raw)


def test_a_signed_mail_acts_on_the_game_of_its_signed_text_not_the_subject(club: Club) -> None:
    """The re-aimed absence: the [titan g2] tag is not signed; 'game g1' inside is."""
    raw = club.mail("Ann", "game g1\nabsent from 2024-08-01 to 2024-08-10", subject="[titan g2]")
    status, note, _mails = club.send(raw)
    assert status == inbox.PROCESSED, note
    with club.store.reading() as tx:
        away = {g: tx.record(g).absences for g in ("g1", "g2")}
    assert away["g1"] and not away["g2"]


def test_the_subject_tag_cannot_pick_a_game_for_a_signer_of_two_games(club: Club) -> None:
    before = table_rows(club.store)
    raw = club.mail("Ann", "absent from 2024-08-01 to 2024-08-10", subject="[titan g2] away")
    _status, _note, mails = club.send(raw)
    assert table_rows(club.store) == before
    body = answers(mails, "Ann")
    assert "names no game and you play 2 games" in body
    assert "g1 (as Ann), g2 (as Ann)" in body and "'game NAME' inside the signed text" in body


def test_the_subject_tag_picks_the_game_of_a_signer_of_one_game(club: Club) -> None:
    raw = club.mail("Bob", "absent from 2024-08-01 to 2024-08-10", subject="[titan g1] away")
    status, note, _mails = club.send(raw)
    assert status == inbox.PROCESSED and "refused" not in note, note
    assert_counts_once(club, "Bob", raw, tag="[titan g2] away")


# -- tournament and director lines --------------------------------------------------------------


def _tournament(club: Club) -> None:
    carried(club, DIRECTOR, "tournament create duel players 2 rounds 1 timing turn=24")
    for name in ("Bob", "Cy"):
        carried(club, name, "join tournament duel")
    tournament_service.form_games(club.store, MODERATOR, club.clock.now(), seed=3)


@pytest.mark.parametrize(
    ("name", "line", "after"),
    [
        ("Di", "join tournament duel", "leave tournament duel"),
        ("Di", "standby tournament duel", "leave tournament duel"),
        ("Di", "leave tournament duel", "join tournament duel"),
        ("Bob", "withdraw from tournament duel", None),
        ("Di", "standings duel", None),
        (DIRECTOR, "tournament create spring players 2 rounds 1", None),
        (DIRECTOR, "pause duel-1", "resume duel-1"),
        (DIRECTOR, "resume duel-1", "pause duel-1"),
        (DIRECTOR, "extend duel-1 24", None),
        (DIRECTOR, "replace Bob in duel-1 with di@example.org", None),
        (DIRECTOR, "end duel-1", None),
    ],
)
def test_a_replayed_tournament_or_director_line_changes_nothing(
    club: Club, name: str, line: str, after: str | None
) -> None:
    _tournament(club)
    if line.startswith(("leave", "resume")):
        carried(club, name, after or "")
    raw = carried(club, name, line)
    if after and not line.startswith(("leave", "resume")):
        carried(club, name, after)
    assert_counts_once(club, name, raw)


# -- accounts -------------------------------------------------------------------------------------


def test_a_replayed_address_change_request_and_confirmation_change_nothing(club: Club) -> None:
    new = "ann.new@example.org"
    headers = headers_of("Ann", sender=new)
    request = pgp_mime_mail(club.world.players["Ann"], "change address from ann@example.org", headers)
    status, note, mails = club.send(request)
    assert status == inbox.PROCESSED, note
    (token_mail,) = [m for m in mails if m.recipient == address("Ann")]
    token = re.search(r"confirm address (\S+)", token_mail.private_body or "")
    assert token is not None, token_mail.private_body
    confirm = carried(club, "Ann", f"confirm address {token.group(1)}")
    with club.store.reading() as tx:
        assert players.player_by_address(tx, new) is not None
    before = table_rows(club.store)
    for raw in (request, confirm):
        for copy in (rewrapped(raw), rewrapped(raw, subject="[titan g2] x")):
            club.send(copy)
            assert table_rows(club.store) == before


def test_a_replayed_sign_on_changes_nothing(
    store: EventStore, world: World, clock: Clock, fresh_keyring: Any
) -> None:
    party = world.players["Di"]
    key = party.keyring.export_public(party.fingerprint)
    block = party.keyring.clearsign(f"signon Di\n\n{key}", party.fingerprint)
    raw = plain_mail(block.decode(), headers_of("Di"))
    club = Club(store, world, clock, MailGameHandler(lambda: fresh_keyring, MODERATOR))
    status, note, mails = club.send(raw)
    assert status == inbox.PROCESSED, note
    before = table_rows(store)
    status, note, mails = club.send(rewrapped(raw))
    assert status == inbox.REJECTED and table_rows(store) == before
    assert "already used" in answers(mails, "Di")
    with store.transaction() as tx:  # even once the address is free again
        players.move_player(tx, address("Di"), "di.new@example.org")
    before = table_rows(store)
    status, note, mails = club.send(rewrapped(raw))
    assert status == inbox.REJECTED and table_rows(store) == before, note


# -- queries ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["status", "history", "report"])
def test_a_replayed_query_changes_nothing(club: Club, query: str) -> None:
    raw = carried(club, "Bob", f"game g1\n{query}")
    assert_counts_once(club, "Bob", raw)


# -- the signature's time window -----------------------------------------------------------------


def test_a_signature_older_than_the_window_is_refused(club: Club) -> None:
    raw = club.mail("Bob", "game g1\nstatus")
    club.clock.advance(days=15)
    status, _note, mails = club.send(raw)
    assert status == inbox.REJECTED
    assert "more than 14 days ago" in answers(mails, "Bob")


def test_a_signature_dated_in_the_future_is_refused(club: Club) -> None:
    club.clock.advance(hours=2)
    raw = club.mail("Bob", "game g1\nstatus")
    club.clock.advance(-(timedelta(hours=2)))
    status, _note, mails = club.send(raw)
    assert status == inbox.REJECTED
    assert "in the future" in answers(mails, "Bob")


def test_seals_of_old_signatures_are_pruned_and_secret_ones_kept(club: Club) -> None:
    carried(club, "Bob", "game g1\nstatus")
    carried(club, "Bob", "game g1\nstatus", how="secret")
    with club.store.transaction() as tx:
        assert kept_seals.prune(tx, club.clock.now()) == 0
        assert kept_seals.prune(tx, club.clock.now() + seals.WINDOW + timedelta(hours=2)) == 1
        assert kept_seals.prune(tx, club.clock.now() + timedelta(days=3650)) == 0


def test_mail_without_message_id_is_read_once(club: Club) -> None:
    raw = club.mail("Bob", "game g1\nstatus", how="secret")
    raw = re.sub(rb"(?mi)^Message-ID:.*\r?\n", b"", raw)
    first = club.send(raw)
    again = club.send(raw)
    assert first[0] == inbox.PROCESSED
    assert again[0] == inbox.REJECTED and "a copy of message" in again[1] and again[2] == []



# -- the intake's caps, before anything parses a mail --------------------------------------------


def _huge(name: str, sender: str | None = None) -> bytes:
    parts = "".join(f"--b\nContent-Type: text/plain\n\npart {n}\n" for n in range(20_000))
    head = headers_of(name, sender=sender)
    lines = [f"{k}: {v}" for k, v in head.items()]
    lines.append('Content-Type: multipart/mixed; boundary="b"')
    return ("\n".join(lines) + "\n\n" + parts + "--b--\n").encode()


def test_a_mail_over_the_caps_from_a_stranger_is_kept_and_not_answered(club: Club) -> None:
    before = table_rows(club.store)
    status, note, mails = club.send(_huge("Zed", sender="zed@elsewhere.example"))
    assert status == inbox.REJECTED and mails == []
    assert "over the intake's limits" in note and "at most" in note
    assert table_rows(club.store) == before


def test_a_mail_over_the_caps_from_a_player_is_answered_once_a_day(club: Club) -> None:
    first = club.send(_huge("Bob"))
    second = club.send(_huge("Bob"))
    assert first[0] == second[0] == inbox.REJECTED
    assert [m.kind for m in first[2]] == ["refusal"]
    assert "too large to read" in (first[2][0].private_body or "")
    assert second[2] == []
    club.clock.advance(days=1)
    assert len(club.send(_huge("Bob"))[2]) == 1
