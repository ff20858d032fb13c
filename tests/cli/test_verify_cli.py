"""
``titan-moderator verify``: a player's check of a finished game's audit (issue 16), from
files alone; the exit status is 0 only when everything holds.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from typer.testing import CliRunner

from moderator.audit.bundle import dumps, make_bundle
from moderator.cli import app
from moderator.reporting.audit_notes import audit_notes
from moderator.rules.codec import decode
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.usecases.games.robot_games import play_robot_game

runner = CliRunner()


def bundle_file(folder: Path, seed: int = 3) -> tuple[Path, dict]:
    summary = play_robot_game(2, seed=seed, bound="cli")
    secret = int.from_bytes(hashlib.sha256(f"robot-seed:{seed}".encode()).digest(), "big")
    bundle = make_bundle("cli", secret, summary.events, "2026-11-24T00:00:00Z", "Ann")
    path = folder / "audit-cli.json"
    path.write_text(dumps(bundle))
    return path, bundle


def report_file(folder: Path, bundle: dict, viewer: str) -> Path:
    """A mail holding every audit line ``viewer``'s reports carried over the game."""
    state, timeline = GameState(), []
    for record in bundle["events"]:
        event = decode(record)
        timeline.append((event, state))
        state = evolve(state, event)
    public = audit_notes(timeline)
    mail = EmailMessage()
    mail["Subject"] = "[titan cli] report"
    mail.set_content("\n".join(["  " + line for line in public]) + "\n")
    path = folder / f"{viewer}.eml"
    path.write_bytes(mail.as_bytes())
    return path


def test_issue_16_an_honest_bundle_and_a_report_verify_with_exit_0(tmp_path: Path) -> None:
    path, bundle = bundle_file(tmp_path)
    mail = report_file(tmp_path, bundle, "Ann")
    result = runner.invoke(app, ["verify", str(path), "--report", str(mail)])
    assert result.exit_code == 0, result.output
    assert "ok  seed:" in result.output and "ok  Ann.eml: report:" in result.output
    assert "All checks hold for game cli." in result.output


def test_wolff_1_3_a_die_changed_fails_with_exit_1_naming_the_event(tmp_path: Path) -> None:
    path, bundle = bundle_file(tmp_path)
    rolled = next(e for e in bundle["events"] if e["type"] == "movement-rolled")
    rolled["payload"]["roll"] = rolled["payload"]["roll"] % 6 + 1
    path.write_text(json.dumps(bundle))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert f"FAILED  event {rolled['seq']}:" in result.output


def test_a_report_from_another_game_fails_with_exit_1(tmp_path: Path) -> None:
    path, _ = bundle_file(tmp_path, seed=3)
    other = tmp_path / "other"
    other.mkdir()
    _, bundle = bundle_file(other, seed=4)
    mail = report_file(tmp_path, bundle, "Ann")
    result = runner.invoke(app, ["verify", str(path), "--report", str(mail)])
    assert result.exit_code == 1
    assert "FAILED  Ann.eml:" in result.output


def test_a_file_that_is_no_bundle_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "audit.json"
    path.write_text("not json")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_a_mail_that_holds_no_audit_line_is_named_nothing_to_check_not_failed(
    tmp_path: Path,
) -> None:
    """Issue 24, item 9: every report of a game by mail now holds its seal, but a
    sign-on's welcome holds no audit line at all; verify says so, and does not fail."""
    path, bundle = bundle_file(tmp_path)
    welcome = EmailMessage()
    welcome["Subject"] = "Welcome, Ann"
    welcome.set_content("You are signed on as Ann.\n")
    (tmp_path / "welcome.eml").write_bytes(welcome.as_bytes())
    report = report_file(tmp_path, bundle, "Ann")
    result = runner.invoke(
        app, ["verify", str(path), "--report", str(tmp_path / "welcome.eml"), "--report",
              str(report)],
    )
    assert result.exit_code == 0, result.output
    assert "--  welcome.eml: nothing to check: it holds no line of an audit" in result.output
    assert "FAILED" not in result.output and "ok  Ann.eml: report:" in result.output


def test_issue_28_verify_in_a_process_of_its_own_answers_as_typer_does(tmp_path: Path) -> None:
    """The plain ``verify`` line is answered without typer (``cli.quick``): the same
    lines and the same exit code as typer's command, whatever the check finds."""
    path, bundle = bundle_file(tmp_path)
    report = report_file(tmp_path, bundle, "Ann")
    other = tmp_path / "other"
    other.mkdir()
    _, other_bundle = bundle_file(other, seed=4)
    foreign = report_file(other, other_bundle, "Ann")
    (tmp_path / "welcome.eml").write_bytes(b"Subject: Welcome\n\nYou are signed on.\n")
    broken = tmp_path / "broken.json"
    broken.write_text("not json")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    seen = []
    for argv in (
        ["verify", str(path), "--report", str(tmp_path / "welcome.eml"), f"--report={report}"],
        ["verify", "--report", str(foreign), str(path)],
        ["verify", str(path), "--report", str(tmp_path / "missing.eml")],
        ["verify", str(broken)],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "moderator", *argv], capture_output=True, text=True,
            env=env, check=False,
        )
        typed = runner.invoke(app, argv)
        assert (done.returncode, done.stdout) == (typed.exit_code, typed.output)
        seen.append(done.returncode)
    assert seen == [0, 1, 2, 2]
