"""
Small mails (issue 28): a report carries the masterboard when the board changed since
the player's last report, a battle's picture when the battle asks him to act, and a
player chooses ``pictures none|changes|always`` by mail like ``notify``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from moderator.pictures.spec import BATTLE, MASTERBOARD, report_pictures
from moderator.ports.errors import GameNotFoundError
from moderator.runners.commands import start_game
from moderator.schedule import pictures as pictures_choice
from moderator.store import EventStore, outbox, players
from moderator.usecases.games.reports import chosen_pictures
from moderator.usecases.games.starting import StartError

from ..pictures.positions import board_view
from .conftest import MODERATOR, Table, address, secret_of
from .test_reports import SPLIT, at_first_split


def _kinds(mail_pictures: Sequence[Mapping[str, Any]]) -> list[str]:
    return [p["kind"] for p in mail_pictures]


def test_a_report_without_a_board_change_carries_no_map(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table)  # Bob hears of every change (notify all)
    split = table.orders("Ann", SPLIT)
    assert _kinds(split.one(address("Bob"), "report").pictures) == [MASTERBOARD]
    rolled = table.orders("Ann", "roll")  # a roll moves nothing on the board
    bob = rolled.one(address("Bob"), "report")
    assert "roll" in bob.body.lower()
    assert bob.pictures == ()


def test_pictures_always_sends_the_map_with_every_report(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table)
    answer = table.orders("Bob", "pictures always", ref=False).one(address("Bob"), "reply")
    assert pictures_choice.describe("always") in (answer.private_body or "")
    assert table.record.pictures == {"Bob": "always"}
    table.orders("Ann", SPLIT)
    rolled = table.orders("Ann", "roll")
    assert _kinds(rolled.one(address("Bob"), "report").pictures) == [MASTERBOARD]


def test_pictures_none_sends_no_picture(make_table: Callable[..., Table]) -> None:
    table = at_first_split(make_table)
    table.orders("Bob", "pictures none", ref=False)
    table.orders("Ann", "pictures none", ref=False)
    sent = table.orders("Ann", SPLIT)
    assert sent.one(address("Bob"), "report").pictures == ()
    assert sent.report(address("Ann")).pictures == ()


def test_a_bad_pictures_line_is_refused_with_what_to_write(
    make_table: Callable[..., Table],
) -> None:
    table = at_first_split(make_table, notify=None)
    answer = table.orders("Bob", "pictures sometimes", ref=False).one(address("Bob"), "reply")
    private = answer.private_body or ""
    assert "refused (E-PICTURES)" in private
    assert "'pictures none'" in private
    assert "Bob" not in table.record.pictures


@pytest.mark.parametrize(
    ("acting", "kinds"), [(True, [MASTERBOARD, BATTLE]), (False, [MASTERBOARD])]
)
def test_the_battle_picture_goes_only_to_a_player_the_battle_asks_to_act(
    acting: bool, kinds: list[str]
) -> None:
    pictures = report_pictures(board_view("Ann"), "Ann", "g1", [41])
    assert [p.kind for p in pictures] == [MASTERBOARD, BATTLE]
    kept = chosen_pictures(
        pictures, pictures_choice.CHANGES, first=False, board_changed=True, acting=acting
    )
    assert [p.kind for p in kept] == kinds


def test_a_players_first_report_carries_the_map_though_nothing_changed() -> None:
    pictures = report_pictures(board_view("Ann"), "Ann", "g1")
    kept = chosen_pictures(
        pictures, pictures_choice.CHANGES, first=True, board_changed=False, acting=False
    )
    assert [p.kind for p in kept] == [MASTERBOARD]


def test_the_default_pictures_choice_is_changes() -> None:
    assert pictures_choice.DEFAULT == pictures_choice.CHANGES
    assert pictures_choice.parse("  Pictures   ALWAYS ") == pictures_choice.ALWAYS


def test_a_players_own_orders_at_a_step_he_is_still_at_carry_no_picture() -> None:
    """He wrote them and the text tells their results: the report that asks him for
    his next step, or tells him of another's play, carries the pictures."""
    pictures = report_pictures(board_view("Ann"), "Ann", "g1", [41])
    mid_step = chosen_pictures(
        pictures, pictures_choice.CHANGES, first=False, board_changed=True, acting=True,
        own_step=True,
    )
    assert mid_step == ()
    asked_again = chosen_pictures(
        pictures, pictures_choice.CHANGES, first=True, board_changed=True, acting=True,
        own_step=True,
    )
    assert [p.kind for p in asked_again] == [MASTERBOARD, BATTLE]


def test_a_game_started_with_a_pictures_choice_gives_it_to_every_player_from_the_first_report(
    store: EventStore,
) -> None:
    """``start_game(..., pictures=...)`` (the demo's ``--pictures``) is every player's
    ``pictures`` line written before his first report: with ``none`` the first reports,
    which carry the board by default, carry nothing; a word that is no choice is refused
    before any game is made."""
    with store.transaction() as tx:
        for name in ("Ann", "Bob"):
            players.add_player(tx, name, address(name), secret=secret_of(name))
    seats = [address("Ann"), address("Bob")]
    with pytest.raises(StartError, match="not a pictures choice"):
        start_game(store, "g0", seats, sender=MODERATOR, pictures="sometimes")
    with pytest.raises(GameNotFoundError):
        store.record("g0")
    start_game(store, "g1", seats, sender=MODERATOR, pictures=pictures_choice.NONE)
    start_game(store, "g2", seats, sender=MODERATOR)
    assert store.record("g1").pictures == {"Ann": "none", "Bob": "none"}
    assert store.record("g2").pictures == {}
    with store.reading() as tx:
        first = [m for m in outbox.mails(tx) if m.kind == "report"]
    by_game = {game: [m for m in first if m.subject.startswith(f"[titan {game}]")] for game in ("g1", "g2")}
    assert len(by_game["g1"]) == len(by_game["g2"]) == 2, [m.subject for m in first]
    assert all(m.pictures == () for m in by_game["g1"])
    assert all(_kinds(m.pictures) == [MASTERBOARD] for m in by_game["g2"])
