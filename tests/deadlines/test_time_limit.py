"""
The game's end date (Wolff 21.1): when it comes, the turn in progress is finished and
every remaining player has one more full turn; then the game is scored by rulebook 20.5
(score plus the value of all legions) and the result is mailed to all.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from moderator import robot
from moderator.ports.deadlines import GAME_END
from moderator.reporting.views import legal_json
from moderator.rules import events as ev
from moderator.rules.state import GameState, Step

from .conftest import Desk, hours, position, to


def _choose(state: GameState, rng: random.Random) -> str:
    """A quick legal order: roll, end the movement or muster, a move onto no enemy."""
    actions: list[dict[str, Any]] = legal_json(state)["actions"]
    kinds = {a["kind"]: a for a in actions}
    for kind in ("roll", "done"):
        if kind in kinds:
            return str(kinds[kind]["order"])
    occupied = {lg.land for lg in state.legions.values() if lg.owner != state.active}
    for a in actions:
        if a["kind"] == "move" and a["land"] not in occupied and not a.get("teleport"):
            return str(a["order"])
    line, _command = robot.choose_order(state, rng)
    return line


def _play_to_the_end(desk: Desk, limit: int = 200) -> None:
    rng = random.Random(3)
    for _ in range(limit):
        state = desk.table.state
        actor = desk.actor
        if actor is None:
            return
        desk.clock.advance(minutes=5)
        sent = desk.orders(actor, _choose(state, rng))
        assert sent.note is None, sent.note
    raise AssertionError("the game did not end")


START = datetime(2024, 7, 1, 10, tzinfo=UTC)  # the test clock's start


def _time_limited(make_desk: Callable[..., Desk]) -> Desk:
    return make_desk(
        position=position(
            [
                ("Rd01", 600, "Titan Angel Ogre Ogre"),
                ("Rd02", 6, "Troll Troll Lion"),
                ("Bu01", 300, "Titan Angel Gargoyle"),
                ("Bu02", 200, "Centaur Centaur"),
            ],
            phase="split",
            scores={"Ann": 40, "Bob": 55},
        ),
        ends_at=START + hours(30),
    )


def test_wolff_21_1_the_end_date_is_a_deadline_of_the_game(make_desk: Callable[..., Desk]) -> None:
    desk = _time_limited(make_desk)
    assert desk.table.record.ends_at == START + hours(30)
    (end,) = [d for d in desk.open() if d.kind == GAME_END]
    assert end.due_at == START + hours(30) and end.player is None
    assert desk.advance(hours=29) == []


def test_wolff_21_1_end_date_gives_every_player_one_more_turn(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _time_limited(make_desk)
    seq = desk.table.state.version
    lines = desk.at(START + hours(30))
    assert lines == ["g1: end date reached (Wolff 21.1); the game ends after Ann's turn 3"]
    called = desk.store.load("g1")[seq:]
    assert called == [ev.TimeCalled(last_player="Ann", last_turn=3)]
    mails = desk.mails()
    for name in ("Ann", "Bob"):
        (told,) = [m for m in to(mails, name) if "end date has come" in m.subject]
        assert "the game ends after\nAnn's turn in round 3" in told.body
        assert to(mails, name, "report")
    assert desk.check() == []  # called once
    assert [d for d in desk.open() if d.kind == GAME_END] == []
    _play_to_the_end(desk)
    events = desk.store.load("g1")
    after = events[seq:]
    turns = [(e.player, e.turn) for e in after if isinstance(e, ev.TurnStarted)]
    # Ann finishes her turn 2; then Bob and Ann have one more full turn each
    assert turns == [("Bob", 2), ("Ann", 3)]
    assert desk.table.state.step is Step.OVER


def test_rulebook_20_5_the_result_of_a_time_limited_game_is_mailed_to_all(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _time_limited(make_desk)
    desk.at(START + hours(30))
    desk.mails()
    _play_to_the_end(desk)
    scored = next(e for e in desk.store.load("g1") if isinstance(e, ev.GameScored))
    mails = desk.mails()
    for name in ("Ann", "Bob"):
        (result,) = [
            m for m in to(mails, name) if m.subject.startswith("[titan g1] The game is over:")
        ]
        for player, score, value, total in scored.scores:
            assert player in result.body and f"total {total:5d}" in result.body
            assert f"score {score:5d}" in result.body and f"legions {value:5d}" in result.body
        # revealed (20.5), but never signed (Wolff 4.5): in the private part
        private = result.private_body or ""
        assert "Rd01 (Ann): " in private and "Bu01 (Bob): " in private
        assert "Rd01 (Ann): " not in result.body and "Titan," not in result.body
        winners = " and ".join(scored.winners)
        assert winners in result.subject
    assert desk.acting() is None and desk.table.record.deadline is None


def test_wolff_21_1_a_game_over_before_its_end_date_stays_over(
    make_desk: Callable[..., Desk],
) -> None:
    desk = _time_limited(make_desk)
    desk.orders("Ann", "withdraw")
    assert desk.table.state.step is Step.OVER
    desk.mails()
    lines = desk.at(START + hours(31))
    assert lines == ["g1: end date reached; the game was over already"]
    assert desk.mails() == []
