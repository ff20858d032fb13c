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
from moderator.schedule import pictures as pictures_choice
from moderator.usecases.games.reports import chosen_pictures

from ..pictures.positions import board_view
from .conftest import Table, address
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
