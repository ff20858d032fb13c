"""
The operator's lines on a game outside tournaments (``titan-moderator game
pause|resume|extend|replace``): a game started with ``game new`` has no director, so
the operator runs its clock and its seats, through the director's own steps, and its
players are told that the moderator's operator did it.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.audit.bundle import make_bundle
from moderator.audit.verify import verify
from moderator.cli import app
from moderator.reporting.narrate import history_lines
from moderator.rules import events as ev
from moderator.runners import clock as clockwork
from moderator.runners.commands import start_game
from moderator.schedule import reference
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


def test_the_operators_lines_are_events_of_the_game_in_every_history_and_verified_audit(
    service_db: str,
) -> None:
    """
    What the operator did to a game is in its log, seen by all and sealed among the
    orders: a player's history tells it, his audit bundle proves it (``verify`` names the
    operator as the giver of those lines), a reworded line breaks the audit, and no step
    reference a player quotes goes stale by it.
    """
    with open_store(service_db) as store:
        state = store.load_state("g1").state
        before = {p.name: reference.current("g1", state, p.name) for p in state.players}
        deadline = store.record("g1").deadline
        assert deadline is not None
        seat = deadline.player
        with store.reading() as tx:
            holder = {s: a for a, s in players.seats(tx, "g1").items()}[seat]
    for line in (("pause",), ("resume",), ("extend", "24"), ("replace", seat, "cy@example.org")):
        run("game", line[0], "g1", *line[1:], "--db", service_db)
    with open_store(service_db) as store:
        events = store.load("g1")
        state = store.load_state("g1").state
        seed = store.record("g1").dice.seed
    acted = [e for e in events if isinstance(e, ev.OperatorActed)]
    holder_name = holder.split("@")[0].capitalize()
    assert [e.line for e in acted] == [
        "paused the game", "resumed the game", "extended the deadline by 24 hours",
        f"handed the seat {seat} from {holder_name} to Cy",
    ]
    assert all(e.visible_to is None for e in acted)
    seals = [e for e in events if isinstance(e, ev.OrderSealed) and e.trigger == "operator"]
    assert [s.order for s in seals] == [f"operator: {e.line}" for e in acted]
    assert all(s.player is None and s.visible_to is None for s in seals)
    # the step each player quotes is the one he quoted before the operator's lines
    assert {p.name: reference.current("g1", state, p.name) for p in state.players} == before

    other = next(p.name for p in state.players if p.name != seat)
    history = history_lines(events, other)
    assert "  The moderator's operator paused the game" in history
    assert f"  The moderator's operator handed the seat {seat} from {holder_name} to Cy" in history

    assert seed is not None
    bundle = make_bundle("g1", seed, events, "2026-01-01T00:00:00+00:00", other)
    verdict = verify(bundle)
    assert verdict.ok, verdict.problem
    assert any("the operator 4" in line for line in verdict.checked), verdict.checked
    reworded = copy.deepcopy(bundle)
    first = next(r for r in reworded["events"] if r.get("type") == "operator-acted")
    first["payload"]["line"] = "extended the deadline by 240 hours"
    problem = verify(reworded).problem
    assert problem is not None and problem.event == first["seq"], problem
