"""
A picture costs once (issue 28): the finished PNGs are kept by the SHA-256 of their
content, bounded by a count and by bytes, the least recently used forgotten first.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from moderator.pictures.cache import PngCache, digest
from moderator.pictures.spec import report_pictures
from moderator.runtime import picture_worker

from .positions import board_view


def _counting() -> tuple[list[str], Callable[[str], bytes]]:
    drawn: list[str] = []

    def draw(content: str) -> bytes:
        drawn.append(content)
        return b"\x89PNG" + content.encode()

    return drawn, draw


def test_the_same_board_for_three_players_is_drawn_once() -> None:
    cache = PngCache()
    drawn, draw = _counting()
    board = json.dumps({"kind": "masterboard", "turn": 3})
    pngs = {cache.get_or_draw(board, draw) for _ in ("Ann", "Bob", "Cy")}
    assert drawn == [board]
    assert len(pngs) == 1
    assert (cache.hits, cache.misses) == (2, 1)


def test_a_different_picture_is_drawn_again() -> None:
    cache = PngCache()
    drawn, draw = _counting()
    cache.get_or_draw("turn 3", draw)
    cache.get_or_draw("turn 4", draw)
    assert drawn == ["turn 3", "turn 4"]


def test_the_cache_forgets_the_least_recently_used_beyond_its_count() -> None:
    cache = PngCache(count=2)
    drawn, draw = _counting()
    for content in ("a", "b", "a", "c", "a", "b"):
        cache.get_or_draw(content, draw)
    assert drawn == ["a", "b", "c", "b"]  # "b" was the least recently used when "c" came
    assert len(cache) == 2


def test_the_cache_keeps_no_more_bytes_than_its_bound() -> None:
    cache = PngCache(count=100, max_bytes=20)
    _, draw = _counting()
    for content in ("one", "two", "three", "four"):
        cache.get_or_draw(content, draw)
        assert cache.size <= 20
    cache.get_or_draw("x" * 50, draw)  # larger than the bound
    assert cache.size <= 20


def test_a_cache_that_could_hold_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        PngCache(count=0)


def test_a_picture_is_keyed_by_the_sha256_of_its_content() -> None:
    assert digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_the_worker_draws_a_report_picture_sent_twice_once() -> None:
    board = report_pictures(board_view("Ann"), "Ann", "g1")[0]
    spec = board.to_json()
    misses = picture_worker.DRAWN.misses
    first = picture_worker.draw_here(json.dumps(spec))
    again = picture_worker.draw_here(json.dumps(spec, indent=1))  # the same picture, spaced
    assert first == again and first.startswith(b"\x89PNG")
    assert picture_worker.DRAWN.misses - misses <= 1  # drawn now, or earlier in this process


def test_players_shown_the_same_board_at_once_share_one_png() -> None:
    """The board of a report names no viewer ("(you)", "you to act" are in the text), so
    the boards of one round of reports are one picture, drawn once for all of them."""
    view = board_view(None)
    specs = [
        json.dumps(report_pictures(view, name, "g1", [41])[0].to_json())
        for name in ("Ann", "Bob", "Cy")
    ]
    assert len(set(specs)) == 1
    misses = picture_worker.DRAWN.misses
    pngs = {picture_worker.draw_here(spec) for spec in specs}
    assert len(pngs) == 1 and picture_worker.DRAWN.misses - misses <= 1
