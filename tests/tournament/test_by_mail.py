"""
A whole small tournament by mail on the embedded mail hub (``demo --tournament``):
robots sign on and join by signed mail, the service's tournament job forms and starts
the games, the robots play them until their end date (Wolff 21.1) ends them, a seat is
handed to the standby robot mid-game, and the standings are mailed to everyone.  The
demo is run by its command line and judged by what it prints and leaves in its folder.
"""

from __future__ import annotations

import mailbox
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.rules import events as ev
from moderator.rules.state import Step
from moderator.store import inbox
from moderator.store import tournaments as stored
from moderator.testing.stores import open_store
from moderator.tournament.scoring import TIME

from ..gpgparties import need_gpg

#: The tournament the demo runs, and the robot on standby.
TOURNAMENT, STANDBY_NAME = "demo", "Gus"


def mails(path: Path) -> list[mailbox.mboxMessage]:
    box = mailbox.mbox(path)
    try:
        return list(box)
    finally:
        box.close()


def subjects(path: Path) -> list[str]:
    return [str(m.get("Subject", "")) for m in mails(path)]


@pytest.mark.long
def test_a_small_tournament_by_mail(tmp_path: Path) -> None:
    need_gpg()
    # A game day in 16 s: the games reach their end date however quickly the machine
    # plays (at 24 s a day, with issue 28's quicker service, a game sometimes ended by
    # play first, and no game had time called).
    result = CliRunner().invoke(
        app,
        ["demo", "--tournament", "--players", "4", "--rounds", "1", "--speed", "5400",
         "--seed", "11", "--keep", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output[-3000:]
    text = result.output
    store = open_store(f"sqlite:///{tmp_path / 'demo.sqlite'}")
    try:
        with store.reading() as tx:
            assert inbox.messages(tx, inbox.SHUNTED) == []  # every line went through
            assert stored.tournament_ids(tx, finished=True) == [TOURNAMENT]
            state = stored.load(tx, TOURNAMENT).state
        games = {g: store.load_state(g).state for g in state.games}
        called = [
            g for g in state.games if any(isinstance(e, ev.TimeCalled) for e in store.load(g))
        ]
    finally:
        store.close()
    # Sign-ups by mail: every robot joined, the standby stood by.
    assert len(state.entrants) == 5
    assert sum(e.standby for e in state.entrants.values()) <= 1
    # The games were formed and started by the service's job: two games of two.
    assert sorted(state.games) == [f"{TOURNAMENT}-1", f"{TOURNAMENT}-2"]
    assert all(len(g.formed) == 2 for g in state.games.values())
    assert not {a for _s, a in state.games["demo-1"].formed} & {
        a for _s, a in state.games["demo-2"].formed
    }
    # Played to their end, by the time limit here, and scored.
    for game_id, game in games.items():
        assert game.step is Step.OVER, game_id
        assert state.games[game_id].result is not None
    # (A game's end date calls time; the last turns may still end it by play.)
    assert called, "no game reached its end date"
    by_time = [g for g, game in state.games.items() if game.result and game.result.ended == TIME]
    assert set(by_time) <= set(called)
    # A replacement mid-game: the standby played the seat on, its old holder heard no more.
    replaced = re.search(
        r"Replacement: (\w+) took the seat (\w+) in ([\w-]+) from (\w+) "
        r"\(mails to \w+ about [\w-]+ afterwards: (\d+)\)",
        text,
    )
    assert replaced, text[-3000:]
    new, seat, game_id, old, after = replaced.groups()
    assert new == STANDBY_NAME
    assert state.games[game_id].replaced[0][0] == seat
    assert after == "0"
    old_mail = subjects(tmp_path / "mail" / f"{old.lower()}.mbox")
    new_mail = subjects(tmp_path / "mail" / f"{new.lower()}.mbox")
    assert any(f"[titan {game_id}]" in s for s in new_mail)
    # Standings were mailed to every player (after each game, and the final ones).
    for name in [e.name for e in state.entrants.values()]:
        box = subjects(tmp_path / "mail" / f"{name.lower()}.mbox")
        assert any("final standings" in s for s in box), name
    assert any("standings" in s for s in old_mail)
    standby_orders = [
        m for m in mails(tmp_path / "mail" / "moderator.mbox")
        if str(m["From"]).startswith(STANDBY_NAME)
        and str(m["Subject"]).startswith(f"[titan {game_id}] ")
        and "replacement" not in str(m["Subject"])
    ]
    assert standby_orders or games[game_id].step is Step.OVER
    assert "Final standings" in text and "Replacement:" in text
