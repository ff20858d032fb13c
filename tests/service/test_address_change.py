"""Moving an account to a new address by mail: asked from the new, confirmed from the old."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from moderator.ports import Player
from moderator.ports.players import token_matches
from moderator.store import EventStore, inbox, players
from moderator.store import tournaments as stored
from moderator.store.tables import ADDRESS_CHANGE
from moderator.testing.clocks import TestClock as Clock
from moderator.tournament import events as tev
from moderator.tournament.settings import Settings

from .conftest import (
    Sent,
    Table,
    World,
    address,
    clearsigned_mail,
    full_text,
    headers_of,
    pgp_mime_mail,
    plain_mail,
    secret_of,
)

OLD = address("Ann")
NEW = "ann@new.example"
_TOKEN = re.compile(r"confirm address ([0-9a-f]+)")


def signed_table(make_table: Callable[..., Table], world: World, **options: object) -> Table:
    return make_table(keyring=world.moderator.keyring, keys=world.players, **options)


def ask_signed(table: Table, world: World, *, sender: str = NEW, how: str = "clearsigned") -> Sent:
    """``change address from OLD``, signed with Ann's key, from ``sender``."""
    headers = headers_of("Ann", sender=sender, subject="new address", message_id=table.next_id())
    body = f"change address from {OLD}\n"
    ann = world.players["Ann"]
    if how == "pgp-mime":
        return table.send(pgp_mime_mail(ann, body, headers))
    return table.send(clearsigned_mail(ann, body, headers))


def ask_with_secret(table: Table, secret: str = secret_of("Ann"), sender: str = NEW) -> Sent:
    body = f"change address from {OLD}\nsecret {secret}\n"
    return table.send(
        plain_mail(body, headers_of("Ann", sender=sender, message_id=table.next_id()))
    )


def from_old(table: Table, world: World, body: str) -> Sent:
    """A mail from the old address, signed with Ann's key."""
    headers = headers_of("Ann", subject="confirm", message_id=table.next_id())
    return table.send(clearsigned_mail(world.players["Ann"], body, headers))


def token_of(sent: Sent) -> str:
    """The token mailed to the old address (in the private part)."""
    mail = sent.one(OLD, "notice")
    assert mail.private_body is not None
    found = _TOKEN.search(mail.private_body)
    assert found is not None, mail.private_body
    return found[1]


def player_at(store: EventStore, where: str) -> Player | None:
    with store.reading() as tx:
        return players.player_by_address(tx, where)


def pending(store: EventStore) -> list[tuple[str, str, str]]:
    with store.reading() as tx:
        rows = tx.connection.execute(ADDRESS_CHANGE.select()).all()
    return [(r.old_address, r.new_address, r.token_hash) for r in rows]


def test_a_signed_request_from_the_new_address_mails_the_old_one_a_token(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world)
    sent = ask_signed(table, world)
    assert sent.status == inbox.PROCESSED, sent.note
    assert "change of address asked" in (sent.note or "")
    assert {(m.recipient, m.kind) for m in sent.mails} == {(NEW, "reply"), (OLD, "notice")}
    token = token_of(sent)
    to_old = sent.one(OLD, "notice")
    # The new address (not registered yet: text the requester chose) and the token are
    # in the private part, never in the signed one (issue 23, item 6).
    assert NEW not in to_old.body and token not in to_old.body
    assert NEW in (to_old.private_body or "") and token in (to_old.private_body or "")
    assert to_old.recipient_key == world.players["Ann"].fingerprint  # ...encrypted to Ann's key
    to_new = sent.one(NEW, "reply")
    assert OLD in to_new.body and token not in full_text(to_new)
    # Only a hash of the token is kept; nothing moved yet.
    ((old, new, hashed),) = pending(table.store)
    assert (old, new) == (OLD, NEW) and token not in hashed
    assert token_matches(token, hashed)
    assert player_at(table.store, OLD) is not None and player_at(table.store, NEW) is None


def test_confirming_from_the_old_address_moves_the_account_and_its_seats(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world, allow_secrets=False)
    token = token_of(ask_signed(table, world, how="pgp-mime"))
    sent = from_old(table, world, f"confirm address {token}\n")
    assert sent.status == inbox.PROCESSED, sent.note
    assert {(m.recipient, m.kind) for m in sent.mails} == {(NEW, "notice"), (OLD, "reply")}
    assert "g1 (as Ann)" in sent.one(NEW, "notice").body
    moved = player_at(table.store, NEW)
    assert moved is not None and moved.name == "Ann" and player_at(table.store, OLD) is None
    with table.store.reading() as tx:
        assert players.seats(tx, "g1") == {NEW: "Ann", address("Bob"): "Bob"}
        assert players.games_of(tx, NEW) == [("g1", "Ann")]
    assert pending(table.store) == []
    # Ann plays from the new address; her answers and reports go there.
    ann = world.players["Ann"]
    played = table.orders("Ann", "status", how="clearsigned", party=ann, sender=NEW)
    assert played.status == inbox.PROCESSED, played.note
    assert played.to(NEW, "reply") and not played.to(OLD)
    # The old address gets nothing more, even for a mail signed with her key.
    again = table.orders("Ann", "status", how="clearsigned", party=ann)
    assert again.to(OLD) == [] and again.to(NEW, "reply")
    unsigned = table.orders("Ann", "status", how="plain")
    assert unsigned.status == inbox.REJECTED and unsigned.mails == []


def test_a_forged_request_changes_nothing_and_mails_nobody(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world)
    unsigned = plain_mail(
        f"change address from {OLD}\n", headers_of("Ann", sender=NEW, message_id=table.next_id())
    )
    bob = world.players["Bob"]
    wrong_key = clearsigned_mail(
        bob,
        f"change address from {OLD}\n",
        headers_of("Ann", sender=NEW, message_id=table.next_id()),
    )
    for raw in (unsigned, wrong_key):
        sent = table.send(raw)
        assert sent.status == inbox.REJECTED and sent.mails == []
        assert "not answered" in (sent.note or "") and "proves nothing" in (sent.note or "")
    wrong_secret = ask_with_secret(table, "not-anns-secret")
    assert wrong_secret.status == inbox.REJECTED and wrong_secret.mails == []
    assert pending(table.store) == []
    assert player_at(table.store, NEW) is None and player_at(table.store, OLD) is not None


def test_a_wrong_token_is_refused(make_table: Callable[..., Table], world: World) -> None:
    table = signed_table(make_table, world)
    token = token_of(ask_signed(table, world))
    sent = from_old(table, world, "confirm address 0123456789abcdef\n")
    assert sent.status == inbox.REJECTED
    refusal = sent.one(OLD, "reply")
    assert "the token is not the one mailed to you" in full_text(refusal)
    assert "cancel address change" in refusal.body
    assert player_at(table.store, OLD) is not None and len(pending(table.store)) == 1
    # The right one still works.
    assert from_old(table, world, f"confirm address {token}\n").status == inbox.PROCESSED
    assert player_at(table.store, NEW) is not None


def test_an_expired_token_is_refused(
    make_table: Callable[..., Table], world: World, clock: Clock
) -> None:
    table = signed_table(make_table, world)
    token = token_of(ask_signed(table, world))
    clock.advance(days=7, minutes=1)
    sent = from_old(table, world, f"confirm address {token}\n")
    assert sent.status == inbox.REJECTED
    refusal = sent.one(OLD, "reply")
    assert "has expired" in full_text(refusal) and "within 7 days" in full_text(refusal)
    assert f"change address from {OLD}" in refusal.body  # what to do: ask again
    assert player_at(table.store, OLD) is not None and player_at(table.store, NEW) is None
    assert pending(table.store) == []  # the stale request is forgotten


def test_a_taken_new_address_is_refused(make_table: Callable[..., Table], world: World) -> None:
    table = signed_table(make_table, world)
    bob = address("Bob")
    sent = ask_signed(table, world, sender=bob)
    assert sent.status == inbox.REJECTED
    assert [(m.recipient, m.kind) for m in sent.mails] == [(OLD, "reply")]
    assert f"{bob} is registered already" in full_text(sent.mails[0])
    assert pending(table.store) == []
    # Asked from her own address, it is refused too.
    own = ask_signed(table, world, sender=OLD)
    assert own.status == inbox.REJECTED and "is your registered address already" in (own.note or "")


def test_a_taken_new_address_is_refused_at_confirmation_too(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world)
    token = token_of(ask_signed(table, world))
    with table.store.transaction() as tx:
        players.add_player(tx, "Newcomer", NEW, secret="newcomer-secret")
    sent = from_old(table, world, f"confirm address {token}\n")
    assert sent.status == inbox.REJECTED
    assert "registered meanwhile" in full_text(sent.one(OLD, "reply"))
    assert player_at(table.store, OLD).name == "Ann"  # type: ignore[union-attr]
    assert pending(table.store) == []


def test_the_old_addresses_secret_authenticates_the_change(
    make_table: Callable[..., Table],
) -> None:
    table = make_table()
    asked = ask_with_secret(table)
    assert asked.status == inbox.PROCESSED, asked.note
    assert "(secret)" in (asked.note or "")
    assert all(secret_of("Ann") not in full_text(m) for m in asked.mails)
    token = token_of(asked)
    body = f"confirm address {token}\nsecret {secret_of('Ann')}\n"
    sent = table.send(plain_mail(body, headers_of("Ann", message_id=table.next_id())))
    assert sent.status == inbox.PROCESSED, sent.note
    assert player_at(table.store, NEW) is not None
    # Her secret now works from the new address, and only there.
    played = table.orders("Ann", "status", sender=NEW)
    assert played.status == inbox.PROCESSED and played.to(NEW, "reply")
    old = table.orders("Ann", "status")
    assert old.status == inbox.REJECTED and old.mails == []


def test_an_unauthenticated_confirmation_is_refused_like_any_forged_mail(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world)
    token = token_of(ask_signed(table, world))
    raw = plain_mail(f"confirm address {token}\n", headers_of("Ann", message_id=table.next_id()))
    sent = table.send(raw)
    assert sent.status == inbox.REJECTED
    assert [(m.recipient, m.kind) for m in sent.mails] == [(OLD, "refusal")]
    assert player_at(table.store, OLD) is not None and len(pending(table.store)) == 1


def test_a_change_can_be_cancelled_from_the_old_address(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world)
    token = token_of(ask_signed(table, world))
    sent = from_old(table, world, "cancel address change\n")
    assert sent.status == inbox.PROCESSED, sent.note
    assert "is forgotten" in sent.one(OLD, "reply").body
    assert pending(table.store) == []
    late = from_old(table, world, f"confirm address {token}\n")
    assert late.status == inbox.REJECTED
    assert "no change of" in full_text(late.one(OLD, "reply"))
    assert player_at(table.store, OLD) is not None and player_at(table.store, NEW) is None


def test_a_new_request_replaces_the_waiting_one(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world)
    first = token_of(ask_signed(table, world))
    second = token_of(ask_signed(table, world, sender="ann@third.example"))
    assert [(old, new) for old, new, _ in pending(table.store)] == [(OLD, "ann@third.example")]
    assert from_old(table, world, f"confirm address {first}\n").status == inbox.REJECTED
    assert from_old(table, world, f"confirm address {second}\n").status == inbox.PROCESSED
    assert player_at(table.store, "ann@third.example") is not None


def test_the_move_works_on_each_database(
    make_table: Callable[..., Table], world: World, any_store: EventStore
) -> None:
    table = signed_table(make_table, world, on=any_store)
    token = token_of(ask_signed(table, world))
    assert from_old(table, world, f"confirm address {token}\n").status == inbox.PROCESSED
    with any_store.reading() as tx:
        assert players.seats(tx, "g1")[NEW] == "Ann"


def test_tournaments_follow_the_player_to_the_new_address(
    make_table: Callable[..., Table], world: World
) -> None:
    table = signed_table(make_table, world)
    at = datetime(2024, 7, 1, tzinfo=UTC).isoformat()
    with table.store.transaction() as tx:
        stored.create(tx, "t", OLD)
        stored.append(
            tx,
            "t",
            0,
            [
                tev.TournamentCreated(
                    at=at,
                    tournament="t",
                    director=OLD,
                    director_name="Ann",
                    settings=Settings().to_payload(),
                ),
                tev.PlayerJoined(at=at, player=OLD, name="Ann"),
                tev.PlayerJoined(at=at, player=address("Bob"), name="Bob"),
                tev.GameFormed(at=at, game="g1", seats=(("Ann", OLD), ("Bob", address("Bob")))),
                tev.ReliabilityRecorded(
                    at=at, player=OLD, game="g1", seat="Ann", on_time=3, timeouts=0
                ),
            ],
        )
    token = token_of(ask_signed(table, world))
    assert from_old(table, world, f"confirm address {token}\n").status == inbox.PROCESSED
    with table.store.reading() as tx:
        state = stored.load(tx, "t").state
        assert state.director == NEW
        assert NEW in state.entrants and OLD not in state.entrants
        assert stored.reliability(tx, NEW) == (3, 0)
        assert stored.reliability(tx, OLD) == (0, 0)
        assert state.games["g1"].seats == (("Ann", NEW), ("Bob", address("Bob")))
        # The history stays as it was; the move is a new event of it.
        history = stored.events(tx, "t")
        formed = next(e for e in history if isinstance(e, tev.GameFormed))
        assert formed.seats == (("Ann", OLD), ("Bob", address("Bob")))
        assert isinstance(history[-1], tev.AddressChanged)
        assert (history[-1].old, history[-1].new) == (OLD, NEW)
