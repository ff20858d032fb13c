"""
The whole service end to end: ``titan-moderator demo`` plays by mail, on the embedded
hub, and the same robots play by mail through a real Dovecot (with an SMTP server
delivering into its maildirs).

Every order goes from a robot's key through SMTP, the moderator's IMAP mailbox, the
poller, intake and rules core, and back as signed reports read over IMAP.  The same seed
plays the same game again, and the commands the demo prints work as printed.  The demo
is run by its command line and judged by what it prints and leaves in its folder (the
mailboxes, the keys, the database), never by its internals.
"""

from __future__ import annotations

import asyncio

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.testing.clocks import DemoClock
from moderator.testing.mailgame import MailGame, play_by_mail, service_config
from moderator.testing.player_keys import PlayerKeys

from ..mail.dovecot import DovecotMailSystem, TemporaryDovecot
from .demo_batches import check_batches_are_one_mail_each_line_answered
from .demo_run import (
    REPLAY_PICTURES,
    Demo,
    Played,
    check_every_mail_is_signed_and_threaded,
    check_reports_carry_the_board_when_it_changed,
    check_the_game_ends_with_its_audit,
    check_the_kept_keys_read_every_mailbox,
    from_moderator,
    game_state,
    messages,
    pictures_in,
    played,
    printed_commands,
    run_demo,
    run_demo_twice,
)

#: The whole game the tests below share: seed 77 between random robots (4 turns, about
#: a hundred orders; each run takes about a minute and a half on an idle machine).  The
#: competent robot plays the demo by default, but its games between two of them take
#: many times more orders by mail (25 turns and some 2,000 orders in the median game
#: in memory, against 14 turns and 240 for the random robot), so the whole game runs
#: on the switch; the other games below play the competent robot by mail (in the
#: Dovecot game Ann orders with it before Bob's seat is timed out).
WHOLE_GAME = ("--seed", "77", "--players", "2", "--robot", "random")
#: The tests sharing the two runs of that demo run on one xdist worker (``--dist
#: loadgroup``): the fixture is the suite's longest, and each worker would otherwise
#: play it anew.
WHOLE_GAME_GROUP = pytest.mark.xdist_group("demo-whole-game")


@pytest.fixture(scope="module")
def whole_game(tmp_path_factory) -> tuple[Demo, Played]:
    """``demo WHOLE_GAME`` played twice (``run_demo_twice``): the command each summary
    prints to play the same game again is the one it was run with (the issue's replay;
    the whole-game checks use the first run)."""
    demo, second = run_demo_twice(
        tmp_path_factory.mktemp("demo-whole"),
        tmp_path_factory.mktemp("demo-whole-again"),
        *WHOLE_GAME,
    )
    for run, extra in ((demo, ()), (second, REPLAY_PICTURES)):
        again = [words for words in printed_commands(run.output) if words[0] == "demo"]
        assert again == [["demo", *WHOLE_GAME, *extra]]
    return demo, played(second.folder)


@WHOLE_GAME_GROUP
def test_the_same_seed_plays_the_same_game_again(whole_game):
    """Issue 24, item 8: ``demo --seed N --players 2 ...`` twice gives the same game: the
    same turns, winner and scores, the same event log to the byte, and every mail the
    robots sent the same bytes (its digest, which its dice are bound to).  The second
    run's reports carried no pictures (``--pictures none``, issue 28): the pictures
    change nothing of the game."""
    demo, again = whole_game
    first = played(demo.folder)
    assert not pictures_in(again.folder), "--pictures none: no report carries a picture"
    assert pictures_in(demo.folder), "the default: the first reports carry the board"

    assert again.state.turn == first.state.turn == demo.state.turn
    assert again.state.winner == first.state.winner
    assert [(p.name, p.score) for p in again.state.players] == [
        (p.name, p.score) for p in first.state.players
    ]
    assert again.events == first.events
    assert again.digests == first.digests
    # every order mail, two sign-ons
    assert len(first.digests) == demo.figures()["order mails"] + 2


@WHOLE_GAME_GROUP
def test_the_replay_commands_work_as_printed(whole_game):
    """The summary's and README.txt's replay commands run as printed and show the game
    from its setup to its end, as the named player read it."""
    demo, _again = whole_game
    readme = (demo.folder / "README.txt").read_text()
    histories = [
        words
        for text in (demo.output, readme)
        for words in printed_commands(text)
        if words[:2] == ["local", "history"]
    ]
    assert len(histories) == 2, histories
    for words in histories:
        assert words[words.index("--as") + 1] == "Ann"
        result = CliRunner().invoke(app, words)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("Setup\n"), result.output[:200]
        assert "Game over" in result.output


@pytest.mark.long  # a demo game of its own (20-40 s in tests/service's durations under load)
def test_the_demo_stops_after_the_turns_asked_for(tmp_path):
    """``demo --turns N`` plays a game's first N turns and stops as turn N + 1 begins,
    the game not over, which is what was asked (status 0): how a long game's first turns
    are measured (benchmarks/bench_mailbox.py).  Its summary says so, the command it
    prints plays the same again, and the robots' mailboxes hold those turns' reports."""
    args = ("--seed", "77", "--players", "2", "--robot", "random", "--turns", "1")
    demo = run_demo(tmp_path, *args)
    assert not demo.finished
    assert demo.state.turn == 2
    assert "Game stopped after turn 1, as asked (--turns 1), not over" in demo.output
    assert [words for words in printed_commands(demo.output) if words[0] == "demo"] == [
        ["demo", *args]
    ]
    subjects = [str(m["Subject"]) for m in messages(demo.mailbox("Ann"))]
    assert any("turn 1" in subject for subject in subjects), subjects
    result = CliRunner().invoke(app, ["demo", "--tournament", "--turns", "3"])
    assert result.exit_code == 2
    assert "--turns is for the one-game demo" in result.output


def test_the_speed_of_the_clock_is_the_tournament_demos_only():
    """The one-game demo's clock moves by itself (a step a mail, a jump to a deadline):
    ``--speed`` there is refused with what to do instead."""
    result = CliRunner().invoke(app, ["demo", "--speed", "7200"])
    assert result.exit_code == 2
    assert "--speed is for --tournament" in result.output


def test_issue_26_the_demo_names_its_robots_and_refuses_an_unknown_one():
    """``--robot`` chooses the robot the players play with; an unknown one is refused
    with the kinds there are, before anything is set up."""
    result = CliRunner().invoke(app, ["demo", "--robot", "clever"])
    assert result.exit_code != 0
    assert "competent" in result.output and "random" in result.output
    assert "--robot" in CliRunner().invoke(app, ["demo", "--help"]).output


def test_issue_26_the_demos_robots_are_named_seat_by_seat():
    """A comma list names each seat's robot, its last kind playing the seats left; the
    demo's default puts one competent robot among random ones, so the README's first
    command ends in minutes, not the hour a game between competent robots takes."""
    from moderator.testing.mailrobot import COMPETENT, RANDOM, seat_kinds

    assert seat_kinds("competent,random", 3) == [COMPETENT, RANDOM, RANDOM]
    assert "competent,random" in " ".join(CliRunner().invoke(app, ["demo", "--help"]).output.split())
    assert seat_kinds("random", 2) == [RANDOM, RANDOM]
    assert seat_kinds("random,competent", 4) == [RANDOM, COMPETENT, COMPETENT, COMPETENT]
    with pytest.raises(ValueError, match="3 robots named for 2 seats"):
        seat_kinds("random,random,random", 2)
    result = CliRunner().invoke(app, ["demo", "--robot", "competent,clever"])
    assert result.exit_code != 0 and "clever" in result.output


def test_issue_28_the_demos_pictures_choice_is_a_players_and_refused_when_unknown():
    """``--pictures`` takes the choices of a player's ``pictures`` line and nothing else,
    for the one-game demo only; it is refused before anything is set up."""
    help_text = " ".join(CliRunner().invoke(app, ["demo", "--help"]).output.split())
    assert "--pictures" in help_text
    unknown = CliRunner().invoke(app, ["demo", "--pictures", "sometimes"])
    assert unknown.exit_code == 2
    assert "--pictures takes none, changes, always, not 'sometimes'" in unknown.output
    tournament = CliRunner().invoke(app, ["demo", "--tournament", "--pictures", "none"])
    assert tournament.exit_code == 2 and "one-game demo" in tournament.output


#: The game with a silent robot the tests below share: Bob never answers, seed 11.
SILENT_GAME = ("--players", "2", "--seed", "11", "--silent", "Bob")
#: Its two runs are played once, on one xdist worker, for the tests that read them.
SILENT_GAME_GROUP = pytest.mark.xdist_group("demo-silent-game")


@pytest.fixture(scope="module")
def silent_game(tmp_path_factory) -> tuple[Demo, Demo]:
    """``demo SILENT_GAME`` played twice (``run_demo_twice``), each run in a folder of
    its own."""
    return run_demo_twice(
        tmp_path_factory.mktemp("demo-silent-first"),
        tmp_path_factory.mktemp("demo-silent-again"),
        *SILENT_GAME,
    )


@WHOLE_GAME_GROUP
def test_issue_28_a_robots_batch_reaches_the_moderator_as_one_mail_each_line_answered(
    whole_game,
):
    """A player by mail gives a step's orders in one mail; so do the robots, and the
    answer gives each line its result."""
    demo, _again = whole_game
    figures = demo.figures()
    check_batches_are_one_mail_each_line_answered(
        demo.folder, figures["orders"], figures["order mails"]
    )


@SILENT_GAME_GROUP
def test_wolff_21_0_a_silent_robot_is_timed_out_by_mail_and_the_game_ends(silent_game):
    """Bob never answers: the demo clock jumps to his reminders and deadlines, the
    moderator acts for him (20.4) and everyone is told; without him Ann wins."""
    demo, _again = silent_game

    assert demo.finished
    assert demo.state.winner == "Ann"
    for who in ("Ann", "Bob"):
        subjects = [str(m["Subject"]) for m in from_moderator(demo, who)]
        assert any("deadline passed" in s for s in subjects), (who, subjects)
    bob = [str(m["Subject"]) for m in from_moderator(demo, "Bob")]
    assert any("reminder" in s.lower() for s in bob), bob
    bob_orders = [m for m in messages(demo.mailbox("moderator")) if "bob@" in str(m["From"])]
    assert len(bob_orders) == 1  # his sign-on, and no order
    check_every_mail_is_signed_and_threaded(demo)


@WHOLE_GAME_GROUP
def test_the_demo_plays_a_whole_game_by_mail_to_its_end(whole_game):
    """Two robots play a game to its end by mail (the README's first command, smaller)."""
    demo, _again = whole_game
    figures = demo.figures()

    assert demo.finished
    assert figures["orders"] > 20
    # Every order was answered, and each robot read what was mailed to it.
    assert figures["read"] == figures["sent"]
    check_every_mail_is_signed_and_threaded(demo)
    check_the_kept_keys_read_every_mailbox(demo, demo.folder)
    check_reports_carry_the_board_when_it_changed(demo)
    check_the_game_ends_with_its_audit(demo)
    scores = ", ".join(f"{p.name} {p.score}" for p in demo.state.players)
    assert (
        f"Game over after {demo.state.turn} turns: winner {demo.state.winner}; "
        f"scores: {scores}." in demo.output
    )


@SILENT_GAME_GROUP
def test_a_silent_robots_timeouts_come_at_the_same_moments_in_every_run(silent_game):
    """The demo clock jumps to a silent robot's reminders and deadlines only once the
    moderator is idle, so the timeouts (whose dice hang on the deadline's moment) and
    everything after them repeat: the same seed, the same game."""
    runs = list(silent_game)
    first, again = (played(demo.folder) for demo in runs)
    assert all(demo.finished for demo in runs)
    timeouts = [e for e in first.events
                if str(e["payload"].get("trigger", "")).startswith("timeout:")]  # type: ignore[attr-defined]
    assert timeouts
    assert again.events == first.events
    assert again.digests == first.digests


@pytest.mark.long
def test_the_service_plays_by_mail_through_a_real_dovecot(tmp_path, dovecot: TemporaryDovecot):
    """The same service and robot players (``moderator.testing.mailgame``) against
    Dovecot over IMAP (with IDLE) and a delivering SMTP server: sign-on, first reports,
    an order (Ann's, by the competent robot), a timeout and the end of the game."""

    async def play() -> None:
        clock = DemoClock()
        keys = await PlayerKeys.make(["Ann", "Bob"], clock)
        try:
            async with DovecotMailSystem(dovecot) as mail:
                game = MailGame(game_id="demo", names=["Ann", "Bob"], seed=3,
                                silent=["Bob"], timeout=300)
                config = service_config(mail, tmp_path, keys)
                await play_by_mail(game, config, mail, keys, clock, tmp_path)
        finally:
            keys.drop()

    asyncio.run(play())
    played_game = Demo(tmp_path, "", game_state(tmp_path))

    assert played_game.finished
    assert played_game.state.winner == "Ann"
    check_every_mail_is_signed_and_threaded(played_game)
    ann = [str(m["Subject"]) for m in from_moderator(played_game, "Ann")]
    assert any(s.startswith("[titan demo] Re: ") for s in ann), ann  # the answer to her order
