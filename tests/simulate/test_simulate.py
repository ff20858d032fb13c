"""``titan-moderator simulate``: robot games through the mail service, in one process."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.simulate import Options, simulate
from moderator.simulate.answers import refusals
from moderator.simulate.composer import COMPETENT, RANDOM, Composer
from moderator.simulate.inprocess import EPOCH, InProcess, secret_of, simulation_config
from moderator.simulate.run import play_game
from moderator.testing.apps import on_test_clock

#: A seed whose 2-player games between random robots are short in both modes (about a
#: second each): the tests of whole games play the random robot, whose games end sooner
#: when both seats are played badly; the competent robot's games are bounded by mails.
SEED = 7
#: Each game on a hand-moved clock from the simulation's epoch, as the command line runs it.
APP = on_test_clock(EPOCH)
KEYS = (
    "games",
    "players",
    "mode",
    "seed",
    "player_mails_per_game",
    "handoffs_per_game",
    "signed_mails_per_order",
    "bystander_mails_per_player_turn",
    "days_per_game",
)


@pytest.mark.long
def test_a_strict_game_ends_with_one_line_in_every_mail() -> None:
    game = play_game(Options(players=2, seed=SEED, strict=True, robot=RANDOM), 0, APP)
    assert game.finished  # won, or a draw (both Titans slain)
    assert game.most_lines == 1 and game.order_lines == game.player_mails
    assert game.handoffs > 0 and game.player_turns > 0 and game.days > 0
    assert game.signed_mails > game.player_mails  # an answer each, and reports


@pytest.mark.long
def test_a_default_game_ends_with_several_orders_a_mail() -> None:
    game = play_game(Options(players=2, seed=SEED, robot=RANDOM), 0, APP)
    assert game.finished  # won, or a draw (both Titans slain)
    assert game.order_lines > game.player_mails
    assert game.timeouts == 0  # generous limits: no deadline fires


#: The command line's ``--json`` run that two tests share (one xdist worker runs both):
#: two default-mode games between random robots, stopped after 25 mails each.  The JSON
#: test reads its figures; the same-seed test plays it again through ``simulate``.
SHARED = Options(players=2, games=2, seed=11, strict=False, max_mails=25, robot=RANDOM)
SHARED_GROUP = pytest.mark.xdist_group("simulate-shared-json")


@pytest.fixture(scope="module")
def shared_json() -> dict[str, Any]:
    args = ["simulate", "--players", str(SHARED.players), "--games", str(SHARED.games),
            "--seed", str(SHARED.seed), "--max-mails", str(SHARED.max_mails),
            "--robot", SHARED.robot, "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    figures: dict[str, Any] = json.loads(result.output)
    return figures


@SHARED_GROUP
@pytest.mark.long
def test_json_has_every_figure_with_its_median_and_mean(shared_json: dict[str, Any]) -> None:
    figures = shared_json
    assert set(KEYS) <= set(figures)
    assert (figures["games"], figures["players"], figures["mode"], figures["seed"]) == (
        2,
        2,
        "default",
        SHARED.seed,
    )
    assert figures["robot"] == "random" and len(figures["per_game"]) == 2
    for key in KEYS[4:]:
        assert set(figures[key]) == {"median", "mean"}
    assert figures["player_mails_per_game"]["median"] > 0


@pytest.mark.long
def test_issue_26_simulate_plays_the_competent_robot_unless_told_otherwise() -> None:
    """The figures are those of plausible games: the competent robot holds every seat
    by default (the table and the JSON say which); ``--robot random`` is the switch."""
    base = ["simulate", "--players", "2", "--seed", str(SEED), "--strict", "--max-mails", "12"]
    played = {}
    for extra in ([], ["--robot", "random"]):
        result = CliRunner().invoke(app, [*base, *extra, "--json"])
        assert result.exit_code == 0, result.output
        figures = json.loads(result.output)
        played[figures["robot"]] = figures
        assert figures["refused_mails_per_game"]["median"] == 0
    assert set(played) == {"competent", "random"}
    table = CliRunner().invoke(app, [*base, "--max-mails", "3"])
    assert "2 competent robots" in table.output
    wrong = CliRunner().invoke(app, [*base, "--robot", "clever"])
    assert wrong.exit_code != 0 and "competent, random" in wrong.output


def test_the_table_names_the_reply_times_and_the_deadlines() -> None:
    args = ["simulate", "--players", "2", "--seed", str(SEED), "--strict", "--max-mails", "10"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "strict mode" in result.output and "sigma 1" in result.output
    assert "player mails per game" in result.output and "Deadlines:" in result.output


def _timeless(figures: dict[str, Any]) -> dict[str, Any]:
    """The figures less the seconds each game took (the machine's, not the game's)."""
    figures = copy.deepcopy(figures)
    figures.pop("seconds_per_game")
    for game in figures["per_game"]:
        game.pop("seconds_per_game")
    return figures


def _figures(options: Options) -> dict[str, Any]:
    """The figures of ``options``' games as ``--json`` prints them, less the seconds."""
    return _timeless(json.loads(json.dumps(simulate(options, APP).to_json())))


@SHARED_GROUP
@pytest.mark.long
def test_the_same_seed_gives_the_same_figures(shared_json: dict[str, Any]) -> None:
    """Each case played twice; the default-mode case's first play is the command line's
    (``shared_json``), so its second shows the command and ``simulate`` agree too."""
    assert _timeless(shared_json) == _figures(SHARED)
    for strict, robot, games, mails in ((True, RANDOM, 2, 25), (True, COMPETENT, 1, 10)):
        options = Options(players=2, games=games, seed=11, strict=strict, max_mails=mails,
                          robot=robot)
        assert _figures(options) == _figures(options)


def test_max_mails_stops_a_game() -> None:
    game = play_game(Options(players=2, seed=SEED, strict=True, max_mails=12), 0, APP)
    assert game.player_mails == 12 and not game.finished


def test_under_the_service_limits_slow_robots_time_out() -> None:
    # A timeout is a withdrawal (Wolff 20.4): with replies of some 25 days the first
    # one ends a 2-player game.
    options = Options(players=2, seed=SEED, reply_hours=600, service_limits=True)
    game = play_game(options, 0, APP)
    assert game.timeouts >= 1 and game.reminders >= 1 and game.finished


def test_a_robot_reads_its_refused_lines_from_the_answer(tmp_path: Any) -> None:
    world = InProcess(APP(simulation_config(tmp_path)))
    try:
        for name in ("Ann", "Bob"):
            world.sign_on(name, "g1")
        state = world.start("g1", ["Ann", "Bob"], 3, Options().time_limits)
        world.new_mails()
        actor = next(p.name for p in state.players if p.name in ("Ann", "Bob"))
        lines = ["game g1", f"ref g1-{state.steps_seen(actor)}", f"secret {secret_of(actor, 'g1')}"]
        delivered = world.mail(actor, [*lines, "frobnicate the dice"])
        texts = [text for m in delivered.mails for text in (m.body, m.private_body)]
        assert refusals(texts) == [("frobnicate the dice", "E-UNKNOWN-ORDER")]
    finally:
        world.close()


def test_a_robot_whose_mails_change_nothing_stops_the_run(monkeypatch: Any) -> None:
    monkeypatch.setattr(Composer, "order_mail", lambda _self, _state: ["frobnicate"])
    with pytest.raises(RuntimeError, match="changed nothing"):
        play_game(Options(players=2, seed=SEED), 0, APP)
