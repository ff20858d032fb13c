"""
Running ``titan-moderator demo`` as a process and reading what it leaves: its printed
summary, the mailboxes, the kept keys, the database; and the checks the demo tests make
of them (every mail signed and threaded, the keys read every mailbox, boards when they
changed, the audit at the end).  Kept apart from the tests so each module stays small.
"""

from __future__ import annotations

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

from typer.testing import CliRunner

from moderator.audit.report_check import check_report, mail_text
from moderator.audit.verify import verify
from moderator.cli import app
from moderator.mail import compose
from moderator.rules.codec import encode
from moderator.rules.state import GameState, Step
from moderator.store import inbox
from moderator.testing.gnupg import keyring
from moderator.testing.stores import open_store


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
