"""
Seats kept when a player drops (issue 26), through the mail service: games started as
``game new`` starts them (bound dice, an insecure seed so they replay), mail processed
by the mail runner, deadlines by the clock's runner, a player's signed mail by GnuPG.

A silent player's missed deadlines are played by the robot, and after two in a row it
keeps his seat (everyone told); it then plays his turns at once, marked as the robot's
in reports, history and the audit; a signed mail of his takes the seat back.  A player
alone plays by mail against robots that answer at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.audit.bundle import make_bundle
from moderator.audit.seal import robot_seat_of
from moderator.audit.verify import verify
from moderator.cli import app
from moderator.mail.checks.reply_budget import ReplyBudget
from moderator.ports import Lookup
from moderator.robots.robot import order
from moderator.robots.view import seat_view
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.runners.commands import start_game
from moderator.runners.unit import read
from moderator.schedule import seats
from moderator.schedule.record import GameRecord
from moderator.store import EventStore, players
from moderator.testing.clocks import TestClock
from moderator.testing.stores import open_store
from moderator.usecases.games.reads import history
from moderator.usecases.games.robot_seats import certain, robot_decision, robot_knowledge
from moderator.usecases.games.starting import ROBOT_NAMES
from moderator.usecases.mail.handler import MailGameHandler

from ..service import conftest as service
from ..service.conftest import MODERATOR, Table, address, secret_of
from .conftest import LIMITS, Desk, to

world = service.world

SEED = 5


@pytest.fixture
def robot_desk(
    store: EventStore, clock: TestClock, world: service.World
) -> Iterator[Callable[..., Desk]]:
    """``robot_desk(names, keeping=..., robots=..., delay=...)``: a game by mail."""

    def make(
        names: tuple[str, ...] = ("Ann", "Bob"),
        *,
        keeping: str = seats.ROBOT,
        robots: int = 0,
        delay: int = 0,
    ) -> Desk:
        with store.transaction() as tx:
            for name in names:
                players.add_player(
                    tx,
                    name,
                    address(name),
                    key_fingerprint=world.players[name].fingerprint,
                    secret=secret_of(name),
                )
        start_game(
            store, "g1", [address(n) for n in names], sender=MODERATOR, seed=SEED,
            insecure_seed=True, allow_secrets=True, time_limits=LIMITS, seat_keeping=keeping,
            robots=robots, robot_delay=delay,
        )
        handler = MailGameHandler(  # a player mails every order of a battle: no day's cap
            lambda: world.moderator.keyring, MODERATOR, budget=ReplyBudget(10**6)
        )
        desk = Desk(Table(store, handler, "g1"), clock)
        desk.mails()
        return desk

    yield make


def _play(desk: Desk, name: str, *, limit: int = 400) -> int:
    """``name`` mails one order after another while he is to act in this player's turn
    (robots may play whole turns in between, in the unit of work of his mail); how many
    he sent."""
    sent = 0
    start = desk.table.state
    while (
        desk.actor == name
        and (desk.table.state.turn, desk.table.state.active) == (start.turn, start.active)
        and desk.table.state.step is not Step.OVER
        and sent < limit
    ):
        line, _ = order(seat_view(desk.table.state, name), random.Random(sent))
        done = desk.orders(name, line)
        assert done.status == "processed", (line, done.note)
        sent += 1
    return sent


def _time_out(desk: Desk) -> None:
    row = desk.acting()
    assert row is not None, "no deadline runs"
    desk.at(row.due_at)


def _seals(desk: Desk) -> list[ev.OrderSealed]:
    return [e for e in desk.table.events() if isinstance(e, ev.OrderSealed)]


def _robot_orders(desk: Desk, seat: str) -> list[ev.OrderSealed]:
    return [s for s in _seals(desk) if robot_seat_of(s.trigger) == seat and s.player == seat]


def _silent_until_kept(desk: Desk, silent: str, other: str) -> int:
    """``other`` plays, ``silent`` never answers, until the robot keeps his seat; the
    deadlines he missed."""
    missed = 0
    for _ in range(200):
        if seats.held(desk.table.record, silent):
            return missed
        if desk.actor == other:
            _play(desk, other)
        else:
            assert desk.actor == silent
            _time_out(desk)
            missed += 1
    raise AssertionError("the seat was never kept")


def test_wolff_20_4_a_seat_silent_for_two_deadlines_goes_to_the_robot(
    robot_desk: Callable[..., Desk],
) -> None:
    """Two missed deadlines in a row: the robot keeps the seat, and everyone is told."""
    desk = robot_desk()
    missed = _silent_until_kept(desk, "Bob", "Ann")
    assert missed == 2
    record = desk.table.record
    assert record.robots == {"Bob": seats.KEPT}
    mails = desk.mails()
    for name in ("Ann", "Bob"):
        (told,) = [m for m in to(mails, name) if "played by the robot" in m.subject]
        assert "2 deadlines in a row" in told.body
    (own,) = [m for m in to(mails, "Bob") if "played by the robot" in m.subject]
    assert "any signed mail from you" in own.body
    # the missed steps themselves were played by the robot, not refused (Wolff 20.4)
    assert _robot_orders(desk, "Bob")
    assert not any(s.trigger.startswith("timeout:") for s in _seals(desk) if s.player)


def test_a_kept_seat_is_played_at_once_and_marked_as_the_robots(
    robot_desk: Callable[..., Desk],
) -> None:
    """Once kept, the robot answers as soon as the seat is to act: no deadline runs for
    it; its orders are marked in the reports and the history."""
    desk = robot_desk()
    _silent_until_kept(desk, "Bob", "Ann")
    before = len(_robot_orders(desk, "Bob"))
    for _ in range(3):  # Ann plays three of her turns; Bob's come in between, by robot
        assert desk.actor == "Ann"
        _play(desk, "Ann")
        if desk.table.state.step is Step.OVER:
            break
    assert len(_robot_orders(desk, "Bob")) > before
    row = desk.acting()
    assert row is None or row.player == "Ann"
    mails = desk.mails()
    assert any("Bob's seat (played by the robot)" in m.body for m in to(mails, "Ann"))
    lines = service_history(desk, "Ann")
    assert any("Bob's seat (played by the robot): " in line for line in lines)


def service_history(desk: Desk, viewer: str) -> list[str]:
    return read(desk.store, lambda lookup, _now: history(lookup, "g1", viewer))


def test_a_mail_that_gives_no_order_does_not_break_a_run_of_missed_deadlines(
    robot_desk: Callable[..., Desk],
) -> None:
    """A player who only asks for his status between deadlines lets the robot play
    every step of his for him: his misses still run on, and the robot keeps his seat."""
    desk = robot_desk()
    while desk.actor == "Ann":
        _play(desk, "Ann")
    _time_out(desk)  # Bob's first miss: the robot plays that step
    assert desk.table.record.missed.get("Bob") == 1
    assert desk.orders("Bob", "status").status == "processed"
    assert desk.table.record.missed.get("Bob") == 1
    while desk.actor == "Ann":
        _play(desk, "Ann")
    _time_out(desk)
    assert seats.held(desk.table.record, "Bob")


def test_a_signed_mail_takes_the_seat_back_and_the_audit_names_who_gave_each_order(
    robot_desk: Callable[..., Desk], world: service.World
) -> None:
    """Bob's signed mail gives him his seat back (everyone told); then he plays it, and
    the audit verifies every order, the robot's too, naming who gave them."""
    desk = robot_desk()
    _silent_until_kept(desk, "Bob", "Ann")
    _play(desk, "Ann")
    done = desk.orders("Bob", "status", how="pgp-mime", party=world.players["Bob"])
    assert done.status == "processed", done.note
    assert not seats.held(desk.table.record, "Bob")
    assert desk.table.record.missed.get("Bob", 0) == 0
    for name in ("Ann", "Bob"):
        assert [m for m in done.to(address(name)) if "no longer the robot's" in m.subject]
    robot_before = len(_robot_orders(desk, "Bob"))
    for _ in range(4):  # both play by mail again: nothing more by the robot
        if desk.table.state.step is Step.OVER:
            break
        _play(desk, desk.actor or "")
    assert len(_robot_orders(desk, "Bob")) == robot_before
    events = desk.table.events()
    bundle = make_bundle("g1", SEED, events, "2024-07-01T00:00:00+00:00", None)
    verdict = verify(bundle)
    assert verdict.problem is None, verdict.problem
    (who,) = [line for line in verdict.checked if line.startswith("who gave the orders")]
    assert "the robot for Bob" in who
    assert "Ann " in who and "Bob " in who


def test_the_robot_waits_its_delay_then_acts_when_the_clock_wakes_it(
    robot_desk: Callable[..., Desk],
) -> None:
    """With a delay, a robot's seat gets a 'robot' deadline and acts when it falls."""
    desk = robot_desk(("Ann",), robots=1, delay=30)
    robot = next(p.name for p in desk.table.state.players if p.name != "Ann")
    if desk.actor == "Ann":
        _play(desk, "Ann")
    assert desk.actor == robot
    waiting = [d for d in desk.open() if d.kind == "robot"]
    assert len(waiting) == 1 and waiting[0].player == robot
    desk.advance(minutes=29)
    assert desk.actor == robot
    desk.advance(minutes=2)
    assert desk.actor == "Ann" or desk.table.state.step is Step.OVER


def test_one_player_plays_a_game_by_mail_against_two_robots_that_answer_at_once(
    robot_desk: Callable[..., Desk],
) -> None:
    """``game new -p ann --robots 2``: the robots pick colours and play their turns in
    the unit of work of Ann's mail; she plays several turns of her own by mail."""
    desk = robot_desk(("Ann",), robots=2)
    state = desk.table.state
    assert len(state.players) == 3
    robots = [p.name for p in state.players if p.name != "Ann"]
    assert desk.table.record.robots == dict.fromkeys(robots, seats.OWN)
    turns = 0
    for _ in range(4):
        if desk.table.state.step is Step.OVER:
            break
        assert desk.actor == "Ann", "a robot left its move waiting"
        _play(desk, "Ann")
        turns += 1
    assert turns >= 3 or desk.table.state.step is Step.OVER
    assert desk.table.state.turn >= 3 or desk.table.state.step is Step.OVER
    for robot in robots:
        assert _robot_orders(desk, robot)
    mails = desk.mails()
    assert all(m.recipient == address("Ann") for m in mails)


def test_the_robot_decides_the_same_whatever_the_hidden_legions_hold(
    robot_desk: Callable[..., Desk],
) -> None:
    """What Bob cannot know (Ann's unseen characters) never changes the robot's order."""
    desk = robot_desk(keeping=seats.DEFAULTS)
    hidden = 0
    for _ in range(400):  # both play by mail until Bob is to act with Ann's legions unseen
        state = desk.table.state
        sure = read(desk.store, _known_to("Bob"))
        hidden = sum(
            lg.height - len(sure.get(m, ()))
            for m, lg in state.legions.items()
            if lg.owner != "Bob"
        )
        if desk.actor == "Bob" and hidden and state.turn >= 3:
            break
        _play(desk, desk.actor or "", limit=1)
    assert desk.actor == "Bob" and hidden
    scrambled = state
    for marker, legion in state.legions.items():
        if legion.owner == "Bob":
            continue
        sure_of = list(sure.get(marker, ()))
        fake = tuple(sorted([*sure_of, *(["Gargoyle"] * (legion.height - len(sure_of)))]))
        scrambled = replace(
            scrambled, legions={**scrambled.legions, marker: replace(legion, contents=fake)}
        )
    assert scrambled != state
    for seed in range(5):
        assert robot_decision(state, "Bob", sure, seed) == robot_decision(
            scrambled, "Bob", sure, seed
        )


def _known_to(seat: str) -> Callable[[Lookup, datetime], dict[str, tuple[str, ...]]]:
    def known(lookup: Lookup, _now: datetime) -> dict[str, tuple[str, ...]]:
        game = lookup.game("g1")
        assert game is not None
        return certain(robot_knowledge(game, lookup), seat)

    return known


def test_game_new_seats_robots_and_refuses_a_seat_keeping_it_cannot_apply(
    tmp_path: Path,
) -> None:
    """``game new -p ann --robots 3``: four seats, three the robots' own (named like
    players, with no address); a seat keeping the moderator cannot apply is refused."""
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    with open_store(url) as store, store.transaction() as tx:
        players.add_player(tx, "Ann", address("Ann"), secret=secret_of("Ann"))

    def game_new(game: str, *options: str) -> tuple[int, str]:
        done = CliRunner().invoke(
            app, ["game", "new", game, "-p", address("Ann"), *options, "--db", url]
        )
        return done.exit_code, done.output

    code, output = game_new("g1", "--robots", "3", "--seat-keeping", "robot")
    assert code == 0, output
    assert "(robots: 3)" in output
    with open_store(url) as store:
        record = store.record("g1")
        state = store.load_state("g1").state
        with store.reading() as tx:
            seated = set(players.seats(tx, "g1").values())
    assert record.seat_keeping == seats.ROBOT
    assert sorted(record.robots) == sorted(ROBOT_NAMES[:3])
    assert {p.name for p in state.players} == {"Ann", *ROBOT_NAMES[:3]}
    assert seated == {"Ann"}
    assert desk_actor_is_a_person(state, record)
    code, output = game_new("g2", "--robots", "1", "--seat-keeping", "sometimes")
    assert code != 0
    assert "seat keeping 'sometimes': write one of defaults, robot, standby" in output
    code, output = game_new("g3")
    assert code != 0 and "2 to 6 players" in output


def desk_actor_is_a_person(state: GameState, record: GameRecord) -> bool:
    """The robots answered at once: the game waits for a person (or nobody)."""
    return to_act(state) is None or not seats.held(record, to_act(state))
