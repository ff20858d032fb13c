"""
The operator's lines on a game outside tournaments (``titan-moderator game
pause|resume|extend|replace``): a game started with ``game new`` has no director, so
the operator runs its clock and its seats, through the director's own steps, and its
players are told that the moderator's operator did it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.runners import clock as clockwork
from moderator.runners.commands import start_game
from moderator.schedule.timing import TimeLimits
from moderator.store import EventStore, outbox, players
from moderator.testing.stores import open_store

runner = CliRunner()
MODERATOR = "titan@example.org"
OPERATOR = "The moderator's operator"


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def service_db(tmp_path: Path) -> str:
    """Ann and Bob in g1 (time limits, an end date in 60 days); Cy signed on, in no game."""
    url = f"sqlite:///{tmp_path / 'service.sqlite'}"
    with open_store(url) as store:
        with store.transaction() as tx:
            for name in ("Ann", "Bob", "Cy"):
                players.add_player(tx, name, f"{name.lower()}@example.org",
                                   secret=f"{name.lower()}-secret-42")
        start_game(
            store, "g1", ["ann@example.org", "bob@example.org"], sender=MODERATOR,
            allow_secrets=True, time_limits=TimeLimits(),
            ends_at=datetime.now(UTC) + timedelta(days=60),
        )
    return url


def _mails(store: EventStore) -> list[outbox.StoredMail]:
    with store.reading() as tx:
        return outbox.mails(tx)


def test_a_paused_game_has_no_reminders_or_timeouts_and_resumes_with_its_end_date_moved_on(
    service_db: str,
) -> None:
    with open_store(service_db) as store:
        ends_before = store.record("g1").ends_at
        before = len(_mails(store))
    out = run("game", "pause", "g1", "--db", service_db)
    assert out.startswith("Game g1 paused")
    with open_store(service_db) as store:
        record = store.record("g1")
        assert record.paused is not None and record.deadline is None
        told = _mails(store)[before:]
        assert {m.recipient for m in told} == {"ann@example.org", "bob@example.org"}
        assert all(f"{OPERATOR} has paused the game g1." in m.body for m in told)
        # Weeks later, past every deadline and reminder the game had: nothing is due.
        weeks = datetime.now(UTC) + timedelta(days=30)
        count = len(_mails(store))
        assert clockwork.check_deadlines(store, MODERATOR, weeks) == []
        assert len(_mails(store)) == count
        paused_at = record.paused.at
    refused = runner.invoke(app, ["game", "pause", "g1", "--db", service_db])
    assert refused.exit_code == 2 and "paused already" in refused.output
    listed = run("game", "list", "--db", service_db)
    assert f"paused by the operator since {paused_at:%Y-%m-%d %H:%M} UTC" in listed

    run("game", "resume", "g1", "--db", service_db)
    with open_store(service_db) as store:
        record = store.record("g1")
        assert record.paused is None and record.deadline is not None
        assert record.time_limits == TimeLimits()
        resumed_at = record.deadline.started
        assert ends_before is not None and record.ends_at == ends_before + (resumed_at - paused_at)
        last = _mails(store)[-2:]
        assert all(f"{OPERATOR} has resumed the game g1." in m.body for m in last)
    refused = runner.invoke(app, ["game", "resume", "g1", "--db", service_db])
    assert refused.exit_code == 2 and "is not paused" in refused.output


def test_the_operator_extends_a_deadline_and_hands_a_seat_over_and_the_players_hear_it_was_him(
    service_db: str,
) -> None:
    with open_store(service_db) as store:
        deadline = store.record("g1").deadline
        assert deadline is not None
        seat = deadline.player
        before = len(_mails(store))
    run("game", "extend", "g1", "24", "--db", service_db)
    with open_store(service_db) as store:
        moved = store.record("g1").deadline
        assert moved is not None and moved.due == deadline.due + timedelta(hours=24)
        told = _mails(store)[before:]
        assert all(f"{OPERATOR} has extended the deadline of g1 by 24 hours." in m.body
                   for m in told) and len(told) == 2
        before = len(_mails(store))
        with store.reading() as tx:
            holder = {s: a for a, s in players.seats(tx, "g1").items()}[seat]

    refused = runner.invoke(app, ["game", "replace", "g1", seat, holder, "--db", service_db])
    assert refused.exit_code == 2 and "has a seat in g1 already" in refused.output
    run("game", "replace", "g1", seat, "cy@example.org", "--db", service_db)
    with open_store(service_db) as store:
        with store.reading() as tx:
            assert players.seats(tx, "g1")["cy@example.org"] == seat
            assert holder not in players.seats(tx, "g1")
        told = _mails(store)[before:]
    to_cy = [m for m in told if m.recipient == "cy@example.org"]
    assert any(f"{OPERATOR} has handed you the seat {seat}" in m.body for m in to_cy)
    assert any(m.kind == "report" for m in to_cy)  # the seat's latest report, to its new holder
    assert any(f"{OPERATOR} has handed your seat {seat}" in m.body
               for m in told if m.recipient == holder)
    unknown = runner.invoke(app, ["game", "pause", "g9", "--db", service_db])
    assert unknown.exit_code == 2 and "there is no game called 'g9'" in unknown.output
