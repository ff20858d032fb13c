"""
The picture worker draws a group's own variant's board: it is a process of its own, so
the composition root hands it the variants directory and it installs the variants too
(``picture_worker.start_worker``); the board's layout is the variant's base's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.pictures.spec import report_pictures
from moderator.reporting.views import player_view
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.setup import start_game
from moderator.rules.variant import UnknownVariantError
from moderator.runtime.bootstrap import picture_pool
from tests.ownvariant import NAME, installed


def test_the_picture_worker_draws_an_own_variants_board(tmp_path: Path) -> None:
    with installed(tmp_path):
        state = replay(start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant=NAME))
        board = report_pictures(player_view(state, "Ann"), "Ann", "g1")[0]
    picture = json.dumps(board.to_json())
    assert NAME in picture
    pool = picture_pool(str(tmp_path))
    try:
        assert pool.draw_png(picture).startswith(b"\x89PNG")
    finally:
        pool.stop()
    unaware = picture_pool()  # a worker not handed the directory does not know the variant
    try:
        with pytest.raises(UnknownVariantError, match=NAME):
            unaware.draw_png(picture)
    finally:
        unaware.stop()
