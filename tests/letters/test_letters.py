"""
Every mail text comes from one package, over the templates: each template in
``templates/`` is rendered by a letter of ``moderator.letters`` (no orphan template),
each letter's templates exist (no letter without its template), and each letter renders
from a minimal input of plain values, reading no store and no clock.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import moderator.letters
from moderator.letters import (
    address,
    answers,
    audits,
    bounces,
    notices,
    reports,
    seats,
    tournaments,
)
from moderator.letters.templates import LETTERS, TEMPLATES, Templates, template_dirs
from moderator.letters.texts import MailInfo, Texts
from moderator.reporting.views import player_view, status_model
from moderator.rules import events as ev
from moderator.rules.evolve import replay
from moderator.rules.positions import position_event
from moderator.tournament.state import Result, TournamentGame, TournamentState
from moderator.usecases.games.run import LineResult

NOW = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)

#: Ann's cyclops against Bob's troll on a plains battleland (a battle is public).
POSITION: dict[str, Any] = {
    "players": [
        {"name": "Ann", "color": "Blue", "tower": 600},
        {"name": "Bob", "color": "Red", "tower": 300},
    ],
    "turn": 4,
    "active": "Ann",
    "phase": "engage",
    "roll": 3,
    "legions": [
        {"marker": "Bu01", "land": 1, "contents": ["Cyclops"]},
        {"marker": "Rd01", "land": 1, "contents": ["Troll"]},
        {"marker": "Bu02", "land": 600, "contents": ["Titan", "Angel"]},
        {"marker": "Rd02", "land": 300, "contents": ["Titan"]},
    ],
    "battle": {
        "land": 1,
        "attacker": "Bu01",
        "defender": "Rd01",
        "entry": "bottom",
        "turn": 2,
        "phasing": "attacker",
        "step": "strike",
        "characters": [
            {"legion": "Bu01", "type": "cyclops", "hex": "D4"},
            {"legion": "Rd01", "type": "troll", "hex": "D3"},
        ],
    },
}


def _view() -> dict[str, Any]:
    return player_view(replay([position_event(POSITION)]), None)


def _tournament() -> tuple[TournamentState, TournamentGame]:
    seats = (("Ann", "ann@example.org"), ("Bob", "bob@example.org"))
    game = TournamentGame(
        game="cup-1",
        formed=seats,
        seats=seats,
        formed_at=NOW.isoformat(),
        everyone=("ann@example.org", "bob@example.org"),
        result=Result(
            ranking=(("Ann",), ("Bob",)),
            totals=(("Ann", 120), ("Bob", 80)),
            ended="play",
            winner="Ann",
            holders=seats,
        ),
    )
    return TournamentState(name="cup", director="dir@example.org", games={"cup-1": game}), game


MAIL = MailInfo("ann@example.org", "orders", "Mon, 3 Mar 2025 09:00:00 +0000", "<m1@example.org>")
RESULTS = (
    LineResult("split Bu01 into Bu03: Angel", "refused", reason="no such legion", code="E-X", hint="x"),
    LineResult("status", "answered", ("Turn 4",)),
)
TOURNAMENT_RESULTS = (LineResult("join tournament cup", "done", ("You are on the waiting list.",)),)

#: A minimal call of every letter, by its name in ``LETTERS``.
EXAMPLES: dict[str, Callable[[], Texts | str | None]] = {
    "moderator.letters.reports.status": lambda: reports.status(_view(), "Ann"),
    "moderator.letters.reports.battle": lambda: reports.battle(_view(), "Ann"),
    "moderator.letters.reports.report": lambda: reports.report(
        reports.Report(
            game="g1", viewer="Ann", ref="g1-7", since="g1-0", public_view=_view(),
            deadline="no deadline set", actor="Ann", your_move=True,
            caretaker=["Angel 18, Archangel 6, Behemoth 18,", "Centaur 25"],
            sharing=["Rd01 and Rd02 share 100 (Tower): 'done' is refused while one of"],
            stakes=["Ann's Rd01 (Angel, Titan) is worth 48 points."],
        ),
        "Your move: turn 4, engage step",
    ),
    "moderator.letters.reports.history": lambda: reports.history(
        "g1", "g1-7", "Ann", ["Turn 1: Ann splits."], 1, None
    ),
    "moderator.letters.answers.reply": lambda: answers.reply(
        "g1", "g1-7", "Ann", MAIL, RESULTS, [], [], actor="Ann", over=False, step="engage",
        deadline="no deadline set", legal=["engage 1"],
    ),
    "moderator.letters.answers.refusal": lambda: answers.refusal(MAIL, "no game", ["Name one."]),
    "moderator.letters.answers.welcome": lambda: answers.welcome(
        "Ann", "ann@example.org", "UTC", None, True
    ),
    "moderator.letters.notices.reminder": lambda: notices.reminder(
        "g1", "g1-7", "Ann", "turn", NOW + timedelta(hours=5), NOW, "UTC", None
    ),
    "moderator.letters.notices.timeout": lambda: notices.timeout(
        "g1", "g1-7", "Ann", "Ann", "turn", NOW, ["split Rd01 into Rd02: ogre ogre", "roll"],
        actor="Bob", over=False, next_deadline="no deadline set", time_zone="UTC", robot=True,
    ),
    "moderator.letters.seats.robot_took": lambda: seats.robot_took(
        "g1", "g1-7", "Bob", "Ann", missed=2, standby=False
    ),
    "moderator.letters.seats.robot_gave_back": lambda: seats.robot_gave_back(
        "g1", "g1-7", "Bob", "Ann", standby="Ed"
    ),
    "moderator.letters.notices.absence": lambda: notices.absence(
        "g1", "Ann", "declared", "4 March", "6 March", NOW, NOW + timedelta(days=3),
        actor="Bob", deadline="no deadline set", time_zone="UTC",
    ),
    "moderator.letters.notices.outage": lambda: notices.outage(
        "g1", NOW - timedelta(hours=3), NOW, actor="Ann", deadline="none", time_zone="UTC"
    ),
    "moderator.letters.notices.outage_summary": lambda: notices.outage_summary(
        NOW - timedelta(hours=3), NOW, timedelta(hours=1), ["g1: Ann to act"]
    ),
    "moderator.letters.notices.time_called": lambda: notices.time_called(
        "g1", "g1-7", NOW, ev.TimeCalled(last_player="Bob", last_turn=9), "UTC"
    ),
    "moderator.letters.notices.result": lambda: notices.result(
        "g1",
        "g1-9",
        ev.GameScored(
            scores=(("Ann", 100, 20, 120), ("Bob", 60, 20, 80)),
            legions=(("Bu01", "Ann", ("Titan",), 20),),
            winners=("Ann",),
        ),
    ),
    "moderator.letters.notices.shunted": lambda: notices.shunted(7, "ValueError: bad"),
    "moderator.letters.address.request": lambda: address.request(
        "ann@example.org", "ann@example.net", "0a1b", key=False, until="soon", others=0
    ),
    "moderator.letters.address.asked": lambda: address.asked(
        "ann@example.org", "ann@example.net", until="soon", others=1
    ),
    "moderator.letters.address.moved": lambda: address.moved(
        "ann@example.org", "ann@example.net", "none", here=True, others=0
    ),
    "moderator.letters.address.cancelled": lambda: address.cancelled(
        "ann@example.org", "ann@example.net", others=0
    ),
    "moderator.letters.audits.audit": lambda: audits.audit(
        audits.AuditFacts(
            game="g1", reader="Ann", filename="g1.audit.json", sha256="00", seed_sha256="11",
            dice=3, orders=2, commitments=1, hidden=0, ref="g1-9",
        )
    ),
    "moderator.letters.bounces.undelivered": lambda: bounces.undelivered(
        bounces.Undelivered(
            game="g1", seat="Ann", address="ann@example.org", kind="report", subject="Turn 4",
            written="then", message_id="<r1@example.org>", mail_id=1, failed="ann@example.org",
            status="5.1.1", diagnostic="", arrived="now", how="by its return path",
            verdict=bounces.PAUSED, was_due="", until="later", tournament=False, to_act=True,
        )
    ),
    "moderator.letters.bounces.pause_over": lambda: bounces.pause_over(
        "g1", "Ann", since="then", ended="now", by_mail=True, to_act=True, due="", over=False
    ),
    "moderator.letters.tournaments.standings": lambda: tournaments.standings(*_tournament()),
    "moderator.letters.tournaments.notice": lambda: tournaments.notice("Game cup-1 paused", []),
    "moderator.letters.tournaments.game_start": lambda: tournaments.game_start(
        "cup", "cup-1", "Ann", [{"seat": "Ann", "name": "Ann"}], ["Turn: 72 hours."], ""
    ),
    "moderator.letters.tournaments.reply": lambda: tournaments.reply(
        "your mail read now", "<m1@example.org>", TOURNAMENT_RESULTS
    ),
}


def _all_letters() -> dict[str, tuple[str, ...]]:
    """``LETTERS`` once every module of the package is imported."""
    for found in pkgutil.iter_modules(moderator.letters.__path__):
        importlib.import_module(f"moderator.letters.{found.name}")
    return dict(LETTERS)


def _templates() -> set[str]:
    return {path.name for folder in template_dirs() for path in folder.glob("*.j2")}


def test_no_template_is_left_without_a_letter() -> None:
    rendered = {name for names in _all_letters().values() for name in names}
    assert _templates() - rendered == set()


def test_no_letter_names_a_template_that_is_missing() -> None:
    for function, names in _all_letters().items():
        assert names, f"{function} names no template"
        assert set(names) <= _templates(), function


def test_every_letter_has_a_minimal_example_here() -> None:
    assert set(_all_letters()) == set(EXAMPLES)


@pytest.mark.parametrize("function", sorted(EXAMPLES))
def test_each_letter_renders_its_templates_from_plain_values(function: str) -> None:
    names = _all_letters()[function]
    cache = TEMPLATES.environment.cache
    assert cache is not None
    cache.clear()  # what Jinja2 loads now is what this letter renders
    out = EXAMPLES[function]()
    loaded = {key[1] for key in cache}  # Jinja2 keys its cache by (loader, name)
    assert set(names) <= loaded
    texts = [out] if isinstance(out, str) else [out.public, out.private or ""] if out else []
    assert any(text.strip() for text in texts)


def test_the_environment_is_built_when_a_letter_first_renders_and_kept(tmp_path: Any) -> None:
    assert Templates([]) is not None  # nothing read yet: no folder is no error until used
    with pytest.raises(FileNotFoundError):
        _ = Templates([]).environment
    (tmp_path / "hello.txt.j2").write_text("Hello, {{ name }}.\n\n")
    templates = Templates([tmp_path])
    assert templates.render("hello.txt.j2", name="Ann") == "Hello, Ann."
    assert templates.environment is templates.environment


def test_an_undefined_name_in_a_template_is_an_error(tmp_path: Any) -> None:
    (tmp_path / "strict.txt.j2").write_text("{{ missing }}")
    with pytest.raises(Exception, match="missing"):
        Templates([tmp_path]).render("strict.txt.j2")


def _compiles(templates: Templates) -> list[str]:
    """The names ``templates``' environment compiles from now on (what its cache lacked)."""
    environment = templates.environment
    compiled: list[str] = []
    compile_source = environment.compile

    def counted(source: Any, name: Any = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(name)
        return compile_source(source, name, *args, **kwargs)

    environment.compile = counted  # type: ignore[method-assign]
    return compiled


def test_issue_28_a_template_compiled_once_is_kept_between_processes_and_renders_the_same(
    tmp_path: Any,
) -> None:
    """A command line renders one status per process: the second compiles nothing."""
    view = _view()  # a battle on: status.txt.j2 includes battle.txt.j2
    model = {**status_model(view, None), "contents": True, "viewer": None}
    first = Templates(cache=tmp_path / "cache")
    first_compiles = _compiles(first)
    text = first.render("status.txt.j2", **model)
    second = Templates(cache=tmp_path / "cache")  # a new process's environment
    second_compiles = _compiles(second)
    assert second.render("status.txt.j2", **model) == text == reports.status(view)
    assert {"status.txt.j2", "battle.txt.j2"} <= set(first_compiles) and second_compiles == []
    assert list((tmp_path / "cache").iterdir())


def test_issue_28_an_edited_template_is_compiled_again(tmp_path: Any) -> None:
    folder, cache = tmp_path / "templates", tmp_path / "cache"
    folder.mkdir()
    (folder / "hello.txt.j2").write_text("Hello, {{ name }}.")
    assert Templates([folder], cache=cache).render("hello.txt.j2", name="Ann") == "Hello, Ann."
    (folder / "hello.txt.j2").write_text("Goodbye, {{ name }}.")
    assert Templates([folder], cache=cache).render("hello.txt.j2", name="Ann") == "Goodbye, Ann."


def test_issue_28_a_cache_folder_that_cannot_be_written_only_costs_the_compile(
    tmp_path: Any,
) -> None:
    (tmp_path / "hello.txt.j2").write_text("Hello, {{ name }}.")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    for _ in range(2):
        templates = Templates([tmp_path], cache=blocked / "cache")
        assert templates.render("hello.txt.j2", name="Ann") == "Hello, Ann."
