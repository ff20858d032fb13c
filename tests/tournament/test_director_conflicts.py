"""
A director who plays in his own tournament directs none of the games he sits in: he
could end his game while ahead on 20.5 totals, stretch his own deadline, pause an
opponent's clock or hand a rival's seat to a friend (or to himself).  The operator
directs those games from the command line (``tournament direct``), and the players are
told it was the operator.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from moderator.cli import app
from moderator.runners import tournaments as service
from moderator.store import EventStore, outbox
from moderator.store import tournaments as stored
from moderator.testing.clocks import TestClock as Clock
from moderator.testing.stores import open_store, sqlite_url

from .conftest import DIRECTOR, MODERATOR, address, register
from .test_mail import reply, seats_of, send

NAMES = ("Ann", "Bob", "Cy")


def _played_by_the_director(store: EventStore, clock: Clock) -> tuple[str, str]:
    """A tournament of two-player games in which Dee, its director, plays: (her game, another)."""
    register(store, DIRECTOR, *NAMES)
    line = "tournament create duel players 2 rounds 1 timing turn=24"
    assert send(store, DIRECTOR, [line])[0] == "processed"
    for name in (DIRECTOR, *NAMES):
        send(store, name, ["join tournament duel"])
    assert len(service.form_games(store, MODERATOR, clock.now(), seed=3)) == 2
    mine = next(g for g in ("duel-1", "duel-2") if address(DIRECTOR) in seats_of(store, g).values())
    return mine, ({"duel-1", "duel-2"} - {mine}).pop()


def test_a_director_directs_no_game_he_plays_in(store: EventStore, clock: Clock) -> None:
    mine, other = _played_by_the_director(store, clock)
    rival = next(s for s, who in seats_of(store, mine).items() if who != address(DIRECTOR))
    lines = [f"end {mine}", f"extend {mine} 48", f"pause {mine}", f"replace {rival} in {mine}"]
    status, mails = send(store, DIRECTOR, lines)
    assert status == "processed"
    assert reply(mails, DIRECTOR).count("Refused (E-T-DIRECTOR)") == 4
    record = store.record(mine)
    assert record.paused is None
    with store.reading() as tx:
        game = stored.load(tx, "duel").state.games[mine]
    assert not game.ended_by_director and game.extended_hours == 0 and not game.replaced
    # He may not take a seat of a game he directs for himself either (the operator may).
    seat = min(seats_of(store, other))
    status, mails = send(store, DIRECTOR, [f"replace {seat} in {other} with {address(DIRECTOR)}"])
    assert "Refused (E-T-DIRECTOR)" in reply(mails, DIRECTOR)
    assert address(DIRECTOR) not in seats_of(store, other).values()
    # The games he does not play in he still directs.
    status, mails = send(store, DIRECTOR, [f"pause {other}"])
    assert "paused the game" in reply(mails, DIRECTOR)


def test_the_operator_directs_the_directors_own_game_from_the_command_line(
    tmp_path: Path,
) -> None:
    db = sqlite_url(tmp_path, "direct.sqlite")
    store = open_store(db)
    try:
        mine, _other = _played_by_the_director(store, Clock())
        runner = CliRunner()

        def run(*args: str, code: int = 0) -> str:
            result = runner.invoke(app, [*args, "--db", db], env={"TITAN_MODERATOR_CONFIG": ""})
            assert result.exit_code == code, result.output
            return result.output

        out = run("tournament", "direct", "duel", f"pause {mine}")
        assert "The moderator's operator has paused the game" in out
        assert store.record(mine).paused is not None
        with store.reading() as tx:
            told = [m for m in outbox.mails(tx) if "operator has paused" in m.body]
        assert {m.recipient for m in told} >= set(seats_of(store, mine).values())
        # Only a director's lines: the operator joins nobody to anything.
        out = run("tournament", "direct", "duel", "join tournament duel", code=2)
        assert "director's lines" in out
        run("tournament", "direct", "nowhere", f"resume {mine}", code=2)
    finally:
        store.close()


def test_players_are_told_the_operator_not_the_director_replaced_a_seat_or_ended_a_game(
    tmp_path: Path,
) -> None:
    # Told "the tournament director" did it, the players of the director's own game would
    # blame (or argue with) a player of their game who had no say in it.
    db = sqlite_url(tmp_path, "direct.sqlite")
    store = open_store(db)
    try:
        mine, _other = _played_by_the_director(store, Clock())
        register(store, "Ed")
        runner = CliRunner()

        def run(*args: str) -> str:
            result = runner.invoke(app, [*args, "--db", db], env={"TITAN_MODERATOR_CONFIG": ""})
            assert result.exit_code == 0, result.output
            return result.output

        seat, rival = next((s, w) for s, w in seats_of(store, mine).items() if w != address(DIRECTOR))
        run("tournament", "direct", "duel", f"replace {seat} in {mine} with {address('Ed')}")
        assert seats_of(store, mine)[seat] == address("Ed")
        with store.reading() as tx:
            to_rival = [m for m in outbox.mails(tx) if m.recipient == rival]
        handed = [m.body for m in to_rival if "handed your seat" in m.body]
        assert handed and all("The moderator's operator has handed" in b for b in handed)
        run("tournament", "direct", "duel", f"end {mine}")
        with store.reading() as tx:
            over = [m.body for m in outbox.mails(tx) if f"Game {mine} is over" in m.body]
        assert over and all(f"Game {mine} is over (stopped by the moderator's operator)" in b
                            for b in over)
        assert not any("tournament director" in b for b in [*handed, *over])
    finally:
        store.close()
