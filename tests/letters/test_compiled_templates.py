"""
Issue 28: the status (and the battle it includes) rendered from the code Jinja2
compiled it to, over ``letters.compiled``'s runtime, without importing Jinja2, is the
text Jinja2 renders, byte for byte; whatever that runtime lacks, or a template changed
since its code was kept, goes to Jinja2.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from moderator.letters.compiled import QUICK, keep, kept_now, python_for, rendered
from moderator.letters.templates import _MADE_WITH, TEMPLATES, template_dirs
from moderator.reporting.views import player_view, status_model
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
from moderator.usecases.games.robot_games import play_robot_game


def _kept_in(folder: Path, dirs: list[Path]) -> None:
    """Keep the ``QUICK`` templates of ``dirs`` in ``folder``, as a first render does."""
    environment = TEMPLATES.environment
    for name in sorted(QUICK):
        source = (next(d for d in dirs if (d / name).is_file()) / name).read_text(encoding="utf-8")
        filename = str(next(d for d in dirs if (d / name).is_file()) / name)
        python = environment.compile(source, name, filename, raw=True)
        keep(name, source, filename, python, dirs, folder, _MADE_WITH)
        assert kept_now(name, dirs, folder, _MADE_WITH)


def _jinja2(name: str, context: dict[str, Any]) -> str:
    return TEMPLATES.environment.get_template(name).render(**context)


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    """A three-player robot game's states: every one with an engagement or a battle on,
    and every tenth of the others."""
    summary = play_robot_game(3, seed=5, max_actions=1500)
    state, kept = GameState(), []
    for number, event in enumerate(summary.events):
        state = evolve(state, event)
        if state.players and (number % 10 == 0 or player_view(state, None)["engagement"] or state.battle):
            kept.append(state)
    assert any(s.battle for s in kept) and any(player_view(s, None)["engagement"] for s in kept)
    return kept


def test_issue_28_every_status_of_a_played_game_renders_as_jinja2_renders_it(
    tmp_path: Path, states: list[GameState]
) -> None:
    dirs = template_dirs()
    _kept_in(tmp_path, dirs)
    compared = 0
    for state in states:
        for viewer in [None, *(p.name for p in state.players)]:
            view = player_view(state, viewer)
            for contents in (True, False):
                context = {**status_model(view, viewer), "contents": contents, "viewer": viewer}
                if not contents and viewer is not None and state.version % 2:
                    context["legions_as_of"] = f"g1-{state.version - 1}"  # unchanged since
                assert rendered("status.txt.j2", context, dirs, tmp_path, _MADE_WITH) == _jinja2(
                    "status.txt.j2", context
                )
                compared += 1
        if state.battle:
            context = {"battle": status_model(player_view(state, None), None)["battle"]}
            assert rendered("battle.txt.j2", context, dirs, tmp_path, _MADE_WITH) == _jinja2(
                "battle.txt.j2", context
            )
    assert compared > 100


def test_what_the_quick_runtime_lacks_goes_to_jinja2(tmp_path: Path, states: list[GameState]) -> None:
    """A name missing from the context (Jinja2's strict undefined names it) or a filter
    the runtime has not: no text, so the caller renders through Jinja2."""
    dirs = template_dirs()
    _kept_in(tmp_path, dirs)
    context = {**status_model(player_view(states[-1], None), None), "contents": True, "viewer": None}
    del context["players"]
    assert rendered("status.txt.j2", context, dirs, tmp_path, _MADE_WITH) is None
    assert rendered("player.reply.txt.j2", {}, dirs, tmp_path, _MADE_WITH) is None  # not QUICK
    python = "from jinja2.runtime import missing, Context\nname = 'x'\n"
    assert python_for(python) is None  # a runtime name this one lacks
    assert python_for("from jinja2.runtime import missing\nimport os\n") is None


def test_a_changed_template_or_other_options_are_not_run_from_kept_code(
    tmp_path: Path, states: list[GameState]
) -> None:
    own = tmp_path / "templates"
    own.mkdir()
    for name in QUICK:
        shutil.copy(template_dirs()[0] / name, own / name)
    folder = tmp_path / "kept"
    _kept_in(folder, [own])
    battle = next(s for s in states if s.battle)
    viewer = battle.players[0].name
    context = {**status_model(player_view(battle, viewer), viewer), "contents": True, "viewer": viewer}
    assert rendered("status.txt.j2", context, [own], folder, _MADE_WITH) == _jinja2("status.txt.j2", context)
    assert rendered("status.txt.j2", context, [own], folder, "other options") is None
    edited = own / "status.txt.j2"
    edited.write_text(edited.read_text(encoding="utf-8") + "An added line.\n", encoding="utf-8")
    assert not kept_now("status.txt.j2", [own], folder, _MADE_WITH)
    assert rendered("status.txt.j2", context, [own], folder, _MADE_WITH) is None
    (own / "battle.txt.j2").unlink()  # the included template gone: not run either
    _kept_in(folder, [own, *template_dirs()])
    assert rendered("status.txt.j2", context, [own], folder, _MADE_WITH) is None


def test_two_installations_sharing_a_cache_keep_their_code_apart(tmp_path: Path) -> None:
    """A checkout and a wheel of the moderator for one user: each finds its own kept
    code, rather than overwriting the other's at every render."""
    folders = []
    for install in ("checkout", "wheel"):
        own = tmp_path / install
        own.mkdir()
        for name in QUICK:
            shutil.copy(template_dirs()[0] / name, own / name)
        folders.append([own])
    kept = tmp_path / "kept"
    for dirs in folders:
        _kept_in(kept, dirs)
    assert all(kept_now(name, dirs, kept, _MADE_WITH) for dirs in folders for name in QUICK)
