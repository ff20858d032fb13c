"""
A whole small tournament by mail on the embedded mail hub (``demo --tournament``):
robots sign on and join by signed mail, the service's tournament job forms and starts
the games, the robots play them until their end date (Wolff 21.1) ends them, a seat is
handed to the standby robot mid-game, and the standings are mailed to everyone.
"""

from __future__ import annotations

import asyncio
import mailbox
from pathlib import Path

from moderator.demo.tournament_demo import run_tournament_demo
from moderator.demo.tournament_run import STANDBY_NAME, TOURNAMENT, TournamentDemoOptions
from moderator.rules import events as ev
from moderator.rules.state import Step
from moderator.store import inbox
from moderator.store import tournaments as stored
from moderator.testing.stores import open_store

from ..gpgparties import need_gpg


def subjects(path: Path) -> list[str]:
    box = mailbox.mbox(path)
    try:
        return [str(m.get("Subject", "")) for m in box]
    finally:
        box.close()


def test_a_small_tournament_by_mail(tmp_path: Path) -> None:
    need_gpg()
    lines: list[str] = []
    options = TournamentDemoOptions(
        players=4, per_game=2, rounds=1, days=1, speed=3600.0, seed=11, folder=tmp_path
    )
    summary = asyncio.run(run_tournament_demo(options, lines.append))
    assert summary.finished, "\n".join(lines)
    state = summary.tournament
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
    for game_id, game in summary.games.items():
        assert game.step is Step.OVER, game_id
        assert state.games[game_id].result is not None
    # (A game's end date calls time; the last turns may still end it by play.)
    assert summary.time_called, "no game reached its end date"
    # A replacement mid-game: the standby played the seat on, its old holder heard no more.
    assert summary.replaced is not None
    game_id, seat, old, new = summary.replaced
    assert new == STANDBY_NAME
    assert state.games[game_id].replaced[0][0] == seat
    assert summary.after_replacement == 0
    old_mail = subjects(tmp_path / "mail" / f"{old.lower()}.mbox")
    new_mail = subjects(tmp_path / "mail" / f"{new.lower()}.mbox")
    assert any(f"[titan {game_id}]" in s for s in new_mail)
    # Standings were mailed to every player (after each game, and the final ones).
    for name in [*(e.name for e in state.entrants.values())]:
        box = subjects(tmp_path / "mail" / f"{name.lower()}.mbox")
        assert any("final standings" in s for s in box), name
    assert any("standings" in s for s in old_mail)
    # Every order and line went by signed mail through the service; none was shunted.
    store = open_store(f"sqlite:///{tmp_path / 'demo.sqlite'}")
    try:
        with store.reading() as tx:
            assert inbox.messages(tx, inbox.SHUNTED) == []
            assert stored.tournament_ids(tx, finished=True) == [TOURNAMENT]
        called = [
            g for g in state.games if any(isinstance(e, ev.TimeCalled) for e in store.load(g))
        ]
        assert called == summary.time_called
        assert set(summary.by_time) <= set(called)
    finally:
        store.close()
    assert summary.orders_by[STANDBY_NAME] > 0 or summary.games[game_id].step is Step.OVER
    text = summary.text()
    assert "Final standings" in text and "Replacement:" in text
