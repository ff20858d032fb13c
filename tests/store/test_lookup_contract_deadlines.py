"""
The ``Lookup`` contract for deadlines and the clock's heartbeat: the rows the clock's use
cases read (``deadline``, ``open_deadlines``, ``heartbeat``) are the same on the
in-memory store, SQLite and PostgreSQL, written the one way the service writes them
(a game's ``DeadlineChange``s, closed rows, counted reminders, the heartbeat in ``Work``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from moderator.ports import ConflictError, DeadlineChange, Work, game_write
from moderator.ports.deadlines import (
    ABSENCE_END,
    CANCELLED,
    DONE,
    DUE,
    GAME_END,
    ROBOT_TURN,
    Deadline,
)
from moderator.usecases.games.planning import plan_game

from .lookup_backends import ANN, BOB, CY, NOW, Backend, mail, register, two_player_game

HOUR = timedelta(hours=1)
DEE = "dee@example.com"
MOVE = "move"  # an acting kind of deadline (any kind but the NOT_ACTING ones)


def ann_and_bob(backend: Backend) -> None:
    """Ann and Bob registered, and their game g1 written."""
    register(backend, ANN, BOB)
    two_player_game(backend)


def change(backend: Backend, game_id: str, *changes: DeadlineChange) -> None:
    """The game's deadlines changed, as a use case's ``GameWrite`` changes them."""
    with backend.reading() as lookup:
        game = lookup.game(game_id)
    assert game is not None
    backend.write(Work(games=(game_write(game_id, game.seq, deadlines=changes),)))


def open_rows(backend: Backend) -> list[Deadline]:
    with backend.reading() as lookup:
        return lookup.open_deadlines()


def row(backend: Backend, deadline_id: int) -> Deadline | None:
    with backend.reading() as lookup:
        return lookup.deadline(deadline_id)


def test_a_deadline_written_reads_back_as_a_due_row(backend: Backend) -> None:
    ann_and_bob(backend)
    change(backend, "g1", DeadlineChange(MOVE, NOW + HOUR, "Ann", "Ann/turn/1", reminded=1))
    [due] = open_rows(backend)
    assert (due.game_id, due.player, due.kind, due.step) == ("g1", "Ann", MOVE, "Ann/turn/1")
    assert (due.due_at, due.status, due.reminded, due.created_at) == (NOW + HOUR, DUE, 1, NOW)
    assert due.acting and row(backend, due.id) == due
    assert row(backend, due.id + 100) is None


def test_a_game_has_one_acting_deadline_which_follows_the_step(backend: Backend) -> None:
    """Wolff 21.0: the deadline is the player to act's; a new step replaces it, the same
    step moves it."""
    ann_and_bob(backend)
    change(backend, "g1", DeadlineChange(MOVE, NOW + HOUR, "Ann", "Ann/turn/1"))
    [first] = open_rows(backend)
    change(backend, "g1", DeadlineChange(MOVE, NOW + 2 * HOUR, "Bob", "Bob/turn/1"))
    [second] = open_rows(backend)
    assert second.id != first.id and second.player == "Bob"
    gone = row(backend, first.id)
    assert gone is not None and gone.status == CANCELLED
    change(backend, "g1", DeadlineChange(MOVE, NOW + 3 * HOUR, "Bob", "Bob/turn/1", reminded=2))
    [moved] = open_rows(backend)
    assert (moved.id, moved.due_at, moved.reminded) == (second.id, NOW + 3 * HOUR, 2)
    change(backend, "g1", DeadlineChange(MOVE, None, "Bob", "Bob/turn/1"))  # closed
    assert open_rows(backend) == []


def test_end_dates_and_absences_are_rows_beside_the_acting_one(backend: Backend) -> None:
    """Wolff 21.1's end date and a player's absence each keep a row of their own; the
    absence by player and name, so a second absence is a second row."""
    ann_and_bob(backend)
    change(
        backend,
        "g1",
        DeadlineChange(MOVE, NOW + 5 * HOUR, "Ann", "Ann/turn/1"),
        DeadlineChange(GAME_END, NOW + 9 * HOUR),
        DeadlineChange(ABSENCE_END, NOW + 2 * HOUR, "Ann", "a1"),
        DeadlineChange(ABSENCE_END, NOW + 3 * HOUR, "Ann", "a2"),
    )
    kinds = [(r.kind, r.step) for r in open_rows(backend)]  # earliest first
    assert kinds == [
        (ABSENCE_END, "a1"),
        (ABSENCE_END, "a2"),
        (MOVE, "Ann/turn/1"),
        (GAME_END, None),
    ]
    change(backend, "g1", DeadlineChange(GAME_END, NOW + 8 * HOUR))  # the end date moved
    change(backend, "g1", DeadlineChange(ABSENCE_END, None, "Ann", "a1"))  # absence cancelled
    kinds = [(r.kind, r.step, r.due_at) for r in open_rows(backend)]
    assert kinds == [
        (ABSENCE_END, "a2", NOW + 3 * HOUR),
        (MOVE, "Ann/turn/1", NOW + 5 * HOUR),
        (GAME_END, None, NOW + 8 * HOUR),
    ]


def test_a_robots_turn_is_a_row_beside_the_acting_deadline_and_moves_alone(
    backend: Backend,
) -> None:
    """Issue 26: a robot that waits its delay keeps a row of its own (by seat and step);
    writing it neither cancels the acting deadline nor is cancelled by a new one."""
    ann_and_bob(backend)
    change(
        backend,
        "g1",
        DeadlineChange(MOVE, NOW + 5 * HOUR, "Ann", "Ann/turn/1"),
        DeadlineChange(ROBOT_TURN, NOW + HOUR, "Ann", "Ann/turn/1"),
    )
    change(backend, "g1", DeadlineChange(ROBOT_TURN, NOW + 2 * HOUR, "Ann", "Ann/turn/1"))
    change(backend, "g1", DeadlineChange(MOVE, NOW + 6 * HOUR, "Bob", "Bob/turn/1"))
    kinds = [(r.kind, r.step, r.due_at) for r in open_rows(backend)]
    assert kinds == [
        (ROBOT_TURN, "Ann/turn/1", NOW + 2 * HOUR),
        (MOVE, "Bob/turn/1", NOW + 6 * HOUR),
    ]


def test_open_deadlines_of_every_game_come_earliest_first(backend: Backend) -> None:
    ann_and_bob(backend)
    register(backend, CY, DEE)
    planned, _ = plan_game(
        "g2", ["Cy", "Dee"], 4, None, None, NOW,
        seats=(("Cy", CY), ("Dee", DEE)),
    )
    backend.write(Work(games=(planned,)))
    change(backend, "g1", DeadlineChange(MOVE, NOW + 2 * HOUR, "Ann", "Ann/turn/1"))
    change(backend, "g2", DeadlineChange(MOVE, NOW + HOUR, "Cy", "Cy/turn/1"))
    assert [(r.game_id, r.due_at) for r in open_rows(backend)] == [
        ("g2", NOW + HOUR),
        ("g1", NOW + 2 * HOUR),
    ]


def test_a_deadline_dealt_with_is_closed_once(backend: Backend) -> None:
    """A timeout carried out closes its row ``done``; a later close leaves it so."""
    ann_and_bob(backend)
    change(backend, "g1", DeadlineChange(MOVE, NOW + HOUR, "Ann", "Ann/turn/1"))
    [due] = open_rows(backend)
    backend.write(Work(closed=((due.id, DONE),)))
    backend.write(Work(closed=((due.id, CANCELLED),)))
    closed = row(backend, due.id)
    assert closed is not None and closed.status == DONE
    assert open_rows(backend) == []


def test_a_reminder_counted_by_another_worker_conflicts_and_nothing_lands(
    backend: Backend,
) -> None:
    """Each reminder goes once: counting from a stale count is a conflict, and the mail
    decided with it is not written."""
    ann_and_bob(backend)
    change(backend, "g1", DeadlineChange(MOVE, NOW + HOUR, "Ann", "Ann/turn/1"))
    [due] = open_rows(backend)
    before = backend.outbox_ids()
    backend.write(Work(reminded=((due.id, 0, 1),), mails=(mail(ANN, "notice"),)))
    counted = row(backend, due.id)
    assert counted is not None and counted.reminded == 1
    with pytest.raises(ConflictError):
        backend.write(Work(reminded=((due.id, 0, 1),), mails=(mail(ANN, "notice"),)))
    assert len(backend.outbox_ids()) == len(before) + 1


def test_the_heartbeat_is_the_clocks_last_run(backend: Backend) -> None:
    with backend.reading() as lookup:
        assert lookup.heartbeat() is None
    backend.write(Work(heartbeat=NOW))
    backend.write(Work(heartbeat=NOW + HOUR))
    with backend.reading() as lookup:
        assert lookup.heartbeat() == NOW + HOUR
