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
import hashlib
import json
import mailbox
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.audit.report_check import check_report, mail_text
from moderator.audit.verify import verify
from moderator.cli import app
from moderator.mail import compose
from moderator.rules.codec import encode
from moderator.rules.state import GameState, Step
from moderator.store import inbox
from moderator.testing.clocks import DemoClock
from moderator.testing.gnupg import keyring
from moderator.testing.mailgame import MailGame, play_by_mail, service_config
from moderator.testing.player_keys import PlayerKeys
from moderator.testing.stores import open_store

from ..mail.dovecot import DovecotMailSystem, TemporaryDovecot
from .demo_batches import check_batches_are_one_mail_each_line_answered


@dataclass(frozen=True)
class Demo:
    """A demo as its user sees it: what it printed, and its folder."""

    folder: Path
    output: str
    #: The game as the folder's database keeps it.
    state: GameState

    @property
    def finished(self) -> bool:
        return self.state.step is Step.OVER

    def mailbox(self, who: str) -> Path:
        return self.folder / "mail" / f"{who.lower()}.mbox"

    def figures(self) -> dict[str, int]:
        """The counts of the summary's second line: orders, the robots' mails that
        carried them, mails sent and read."""
        found = re.search(
            r"(\d+) orders by mail \(in (\d+) mails\), (\d+) mails from the moderator "
            r"\(all signed\), (\d+) read by the robots",
            self.output,
        )
        assert found, self.output[-2000:]
        orders, order_mails, sent, read = map(int, found.groups())
        return {"orders": orders, "order mails": order_mails, "sent": sent, "read": read}


def game_state(folder: Path) -> GameState:
    store = open_store(f"sqlite:///{folder / 'demo.sqlite'}")
    try:
        return store.load_state("demo").state
    finally:
        store.close()


def run_demo(folder: Path, *args: str) -> Demo:
    """``titan-moderator demo ARGS --keep FOLDER``, which must succeed."""
    result = CliRunner().invoke(app, ["demo", *args, "--keep", str(folder)])
    assert result.exit_code == 0, result.output[-3000:]
    return Demo(folder, result.output, game_state(folder))


#: What the second run of ``run_demo_twice`` adds: its robots' reports carry no
#: pictures.  The pictures are drawn from the game and never change it, so the replay
#: still gives the same events and robot mails, and shows that it does; the run costs
#: no drawing.
REPLAY_PICTURES = ("--pictures", "none")


def run_demo_twice(first: Path, again: Path, *args: str) -> tuple[Demo, Demo]:
    """
    ``demo ARGS`` played twice at the same time: in this process (``run_demo``) and,
    beside it, as a user runs it, ``python -m moderator demo ARGS --pictures none`` in a
    process of its own (``REPLAY_PICTURES``).  A demo's robots and moderator take turns
    by mail, each waiting on the other, so one run leaves much of a core idle; the
    second run fills it, and a replay costs the suite's wall time little more than one
    game.
    """
    output = again.parent / f"{again.name}.out"
    with output.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "moderator", "demo", *args, *REPLAY_PICTURES,
             "--keep", str(again)],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        try:
            demo = run_demo(first, *args)
        finally:
            code = process.wait()
    text = output.read_text()
    assert code == 0, text[-3000:]
    return demo, Demo(again, text, game_state(again))


def messages(path: Path) -> list[EmailMessage]:
    box = mailbox.mbox(path)
    try:
        return [
            message_from_bytes(m.as_bytes(), policy=policy.default)  # type: ignore[misc]
            for m in box
        ]
    finally:
        box.close()


def from_moderator(demo: Demo, who: str) -> list[EmailMessage]:
    return [m for m in messages(demo.mailbox(who)) if "moderator@" in str(m["From"])]


def check_every_mail_is_signed_and_threaded(summary: Demo) -> None:
    for who in summary.state.players:
        mails = from_moderator(summary, who.name)
        assert mails, f"{who.name} got no mail"
        for mail in mails:
            # Signed (RFC 3156); a private part goes beside it, encrypted to its reader.
            signed, *private = mail.iter_parts() if mail.get_content_type() == (
                "multipart/mixed"
            ) else [mail]
            assert signed.get_content_type() == "multipart/signed", mail["Subject"]
            assert signed.get_param("protocol") == "application/pgp-signature"
            assert all(p.get_content_type() == "multipart/encrypted" for p in private)
            assert str(mail["Auto-Submitted"]).startswith("auto-")
            assert mail["Message-ID"]


def check_the_kept_keys_read_every_mailbox(summary: Demo, folder: Path) -> None:
    """What the demo keeps lets a person read its mail: LF mailboxes, each robot's
    GnuPG home verifying the moderator's signatures and decrypting his private parts
    (every fifth mail and the last, to keep the test short), the key and a README."""
    assert (folder / "moderator.asc").read_text().startswith("-----BEGIN PGP PUBLIC KEY")
    assert "mutt" in (folder / "README.txt").read_text()
    for who in summary.state.players:
        name = who.name
        assert b"\r\n" not in summary.mailbox(name).read_bytes()
        ring = keyring(folder / "players" / name.lower() / "gnupg")
        mails = from_moderator(summary, name)
        for mail in [*mails[::5], mails[-1]]:
            raw = mail.as_bytes()
            assert compose.verify_incoming(raw, ring, raw=raw).valid, mail["Subject"]
            parts = list(mail.iter_parts())[1:] if mail.get_content_type() == (
                "multipart/mixed"
            ) else []
            for part in parts:
                private = compose.decrypt_mime(part, ring)
                text = next(p for p in private.walk() if p.get_content_maintype() == "text")
                assert "Report token:" in text.get_content(), mail["Subject"]
                assert name in text.get_content(), mail["Subject"]
                pictures = [p.get_filename() for p in private.walk()
                            if p.get_content_type() == "image/png"]
                assert all(str(f).startswith("battle-") for f in pictures), pictures


def check_reports_carry_the_board_when_it_changed(summary: Demo) -> None:
    """Issues 14 and 28: a report has the masterboard as a PNG in its signed part when
    the board changed since the player's last (the default ``pictures changes``), so his
    first report has it, and no report has two."""
    for who in summary.state.players:
        reports = [m for m in from_moderator(summary, who.name)
                   if str(m["Auto-Submitted"]) == "auto-generated"
                   and "deadline" not in str(m["Subject"])]
        assert reports, who.name
        carried = []
        for mail in reports:
            signed = next(p for p in mail.walk() if p.get_content_type() == "multipart/signed")
            boards = [p.get_filename() for p in signed.walk()
                      if p.get_content_type() == "image/png"]
            assert len(boards) <= 1, mail["Subject"]
            assert all(str(b).startswith("board-") for b in boards), mail["Subject"]
            carried.append(bool(boards))
        assert carried[0], who.name


def check_the_game_ends_with_its_audit(summary: Demo) -> None:
    """Issues 16 and 23: every player's mail ends with his own audit bundle, attached as
    application/json to the encrypted private part (it holds his asides, text he chose)
    and named by its SHA-256 in the signed part; ``verify`` passes on it, and on his
    first report held against it."""
    for who in summary.state.players:
        mails = from_moderator(summary, who.name)
        audits = [m for m in mails if str(m["Subject"]).endswith("The audit of game demo")]
        assert len(audits) == 1, [str(m["Subject"]) for m in mails[-3:]]
        signed, *private = audits[0].iter_parts()
        assert not [p for p in signed.walk() if p.get_content_type() == "application/json"]
        ring = keyring(summary.folder / "players" / who.name.lower() / "gnupg")
        opened = compose.decrypt_mime(private[0], ring)
        attached = [p for p in opened.walk() if p.get_content_type() == "application/json"]
        assert [p.get_filename() for p in attached] == ["audit-demo.json"]
        text = attached[0].get_content()
        text = text if isinstance(text, str) else text.decode()
        assert hashlib.sha256(text.encode()).hexdigest() in mail_text(audits[0].as_bytes())
        bundle = json.loads(text)
        assert bundle["reader"] == who.name
        verdict = verify(bundle)
        assert verdict.ok, verdict.problem
        first_report = next(
            m for m in mails if bundle["seed_sha256"] in mail_text(m.as_bytes())
        )
        held = check_report(bundle, first_report.as_bytes())
        assert held.ok, held.problem


@dataclass(frozen=True)
class Played:
    """A demo game as its database keeps it."""

    folder: Path
    state: GameState
    events: list[dict[str, object]]
    #: The SHA-256 of every mail the moderator received, in the order it came.
    digests: list[str]


def played(folder: Path) -> Played:
    store = open_store(f"sqlite:///{folder / 'demo.sqlite'}")
    try:
        with store.reading() as tx:
            digests = [hashlib.sha256(m.raw).hexdigest() for m in inbox.messages(tx)]
        return Played(folder, store.load_state("demo").state,
                      [encode(e) for e in store.load("demo")], digests)
    finally:
        store.close()


def pictures_in(folder: Path) -> list[str]:
    """The names of the PNGs in the moderator's mails of the demo kept in ``folder``,
    as far as they are readable without a key (the signed parts)."""
    return [
        str(part.get_filename())
        for box in sorted((folder / "mail").glob("*.mbox"))
        if box.name != "moderator.mbox"
        for mail in messages(box)
        if "moderator@" in str(mail["From"])
        for part in mail.walk()
        if part.get_content_type() == "image/png"
    ]


def printed_commands(text: str) -> list[list[str]]:
    """The ``titan-moderator ...`` commands in ``text``, continued lines joined, as words."""
    commands, joined = [], text.replace("\\\n", " ")
    for line in joined.splitlines():
        if line.strip().startswith("titan-moderator "):
            commands.append(shlex.split(line)[1:])
    return commands


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
