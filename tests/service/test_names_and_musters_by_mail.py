"""
What a real table tripped over (issue 24, items 1 and 2), by mail: a player signed on
as "Ann Example" can be told and shown things by the name she signed on with (or a
beginning of it that fits her alone), and a conditional muster decides its own legion
only, leaving a muster step in which another legion may still muster to the player.
"""

from __future__ import annotations

import copy
from typing import Any

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Step
from moderator.runners.commands import new_game
from moderator.store import EventStore, inbox, players
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, full_text, seat_players
from .test_reports import ENGAGED

ANN = "Ann Example"
ANN_ADDRESS = "ann.example@example.org"
ANN_SECRET = "ann-example-secret-42"


def _with_ann_example(store: EventStore) -> Table:
    """ENGAGED, with Ann signed on as 'Ann Example' (Bob and Cy as usual)."""
    position = copy.deepcopy(ENGAGED)
    position["players"][0]["name"] = position["active"] = ANN
    new_game(store, "g1", None, seed=3, position=position)
    with store.transaction() as tx:
        players.add_player(tx, ANN, ANN_ADDRESS, secret=ANN_SECRET)
        players.seat_player(tx, "g1", ANN, ANN_ADDRESS)
    seat_players(store, "g1", ["Bob", "Cy"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys([ANN, "Bob", "Cy"], 1))
    return table


def test_a_player_named_with_a_space_can_be_told(store: EventStore) -> None:
    """The finding: 'tell Ann Example: hi' answered 'E-TELL: Ann is not playing'."""
    table = _with_ann_example(store)
    sent = table.orders("Bob", "tell Ann Example: shall we gang up on Cy?")
    assert sent.status == inbox.PROCESSED, sent.note
    (ann,) = sent.to(ANN_ADDRESS)
    assert '"shall we gang up on Cy?"' in (ann.private_body or "")
    assert "gang up" not in ann.body  # never in the signed part
    assert sent.to(address("Cy")) == []
    (relayed,) = [e for e in table.store.load("g1") if isinstance(e, ev.MessageRelayed)]
    assert relayed.visible_to == frozenset({ANN, "Bob"})


def test_a_player_named_with_a_space_can_be_shown_a_legion(store: EventStore) -> None:
    """A name with a space before the colon, and an abbreviation that fits one player."""
    table = _with_ann_example(store)
    sent = table.orders("Cy", "show Gd01 to ann ex, Bob: troll\ntell Ann and Bob: see?")
    assert sent.status == inbox.PROCESSED, sent.note
    for reader in (ANN_ADDRESS, address("Bob")):
        (mail,) = sent.to(reader)
        private = mail.private_body or ""
        assert f"Cy shows Gd01 to {ANN}, Bob (part of what it holds, Wolff 4.5)" in private
        assert '"see?"' in private
    (shown,) = [e for e in table.store.load("g1") if isinstance(e, ev.LegionShown)]
    assert shown.characters == ("Troll",) and shown.visible_to == frozenset({ANN, "Bob", "Cy"})


def test_an_abbreviated_name_that_fits_two_players_is_refused_with_both_names(
    store: EventStore,
) -> None:
    """Cy's 'tell A...' could be Ann Example or Anne: nothing is passed on, and the
    answer names both and every name he may use."""
    position = copy.deepcopy(ENGAGED)
    position["players"][0]["name"] = position["active"] = ANN
    position["players"][1]["name"] = "Anne"
    new_game(store, "g1", None, seed=3, position=position)
    with store.transaction() as tx:
        players.add_player(tx, ANN, ANN_ADDRESS, secret=ANN_SECRET)
        players.seat_player(tx, "g1", ANN, ANN_ADDRESS)
    seat_players(store, "g1", ["Anne", "Cy"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys([ANN, "Anne", "Cy"], 1))
    sent = table.orders("Cy", "tell Ann: meet me at the tower")
    (answer,) = sent.to(address("Cy"))
    text = full_text(answer)
    assert "E-AMBIGUOUS" in text
    assert "'Ann' could be Ann Example or Anne" in text
    assert "players you may name: Ann Example, Anne, or 'all'" in text
    assert sent.to(ANN_ADDRESS) == [] and sent.to(address("Anne")) == []
    assert not any(isinstance(e, ev.MessageRelayed) for e in table.store.load("g1"))


#: Ann's muster step: Rd01 in a Jungle and Rd02 in a Brush each moved with a Gargoyle,
#: so either may muster a Gargoyle, and neither a Lion.
MUSTERING: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Red", "tower": 600},
        {"name": "Bob", "color": "Blue", "tower": 300},
    ],
    "turn": 2,
    "active": "Ann",
    "phase": "muster",
    "legions": [
        {"marker": "Rd01", "land": 5, "contents": ["Titan", "Gargoyle"], "moved": True},
        {"marker": "Rd02", "land": 3, "contents": ["Angel", "Gargoyle"], "moved": True},
        {"marker": "Bu01", "land": 300, "contents": ["Titan"]},
    ],
}


def _mustering(store: EventStore) -> Table:
    new_game(store, "g1", None, seed=3, position=MUSTERING)
    seat_players(store, "g1", ["Ann", "Bob"])
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(allow_secrets=True, reported=dict.fromkeys(["Ann", "Bob"], 1))
    return table


def _musters_left(table: Table) -> set[str]:
    return {c.marker for c in legal_commands(table.state) if isinstance(c, cmd.Muster)}


def test_a_conditional_muster_leaves_the_others_theirs(store: EventStore) -> None:
    """The finding: Ann mustered with Rd01 and wrote 'muster Rd02 lion if able'; no Lion
    could come to a Brush, and the report said only 'answered for you: done' though
    Rd02 could still muster a Gargoyle.  Now the game waits for Ann, as it does after
    a plain 'muster Rd02 lion' that cannot be carried out."""
    table = _mustering(store)
    sent = table.orders("Ann", "muster Rd01 gargoyle\nmuster Rd02 lion if able")
    assert sent.status == inbox.PROCESSED, sent.note
    state = table.state
    assert state.step is Step.MUSTER and to_act(state) == "Ann"
    assert _musters_left(table) == {"Rd02"}
    assert not [e for e in table.store.load("g1") if isinstance(e, ev.StandingOrderUsed)]
    told = "\n".join(full_text(m) for m in sent.to(address("Ann")))
    assert "answered for you" not in told
    assert "muster Rd02 lion if able" in told  # listed among her standing orders

    plain = table.orders("Ann", "muster Rd02 lion")  # the same, written as a plain order
    assert plain.status == inbox.PROCESSED, plain.note
    assert table.state.step is Step.MUSTER and to_act(table.state) == "Ann"

    done = table.orders("Ann", "muster Rd02 gargoyle\ndone")  # her choice, made by her
    assert done.status == inbox.PROCESSED, done.note
    assert table.state.active == "Bob"


def test_a_conditional_muster_by_mail_musters_its_own_legion_and_leaves_the_rest(
    store: EventStore,
) -> None:
    """Rd02's order is carried out at once, though Rd01 (no order) comes first; Rd01's
    muster stays Ann's, and only she is told what her standing order did."""
    table = _mustering(store)
    sent = table.orders("Ann", "muster Rd02 gargoyle if able", ref=False)
    assert sent.status == inbox.PROCESSED, sent.note
    (used,) = [e for e in table.store.load("g1") if isinstance(e, ev.StandingOrderUsed)]
    assert used.order == "muster Rd02 gargoyle showing gargoyle" and used.visible_to == frozenset({"Ann"})
    assert table.state.legions["Rd02"].contents.count("Gargoyle") == 2
    assert _musters_left(table) == {"Rd01"}
    assert table.state.step is Step.MUSTER and to_act(table.state) == "Ann"
    told = "\n".join(m.private_body or "" for m in sent.to(address("Ann")))
    assert "'muster Rd02 gargoyle if able' answered for you: muster Rd02 gargoyle showing gargoyle" in told
    for mail in sent.to(address("Bob")):
        assert "standing" not in full_text(mail).lower()
