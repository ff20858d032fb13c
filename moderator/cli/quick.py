"""
``local show``, ``local legal``, ``local order`` and ``verify`` answered before typer is
loaded (issue 28).

A script that plays through the command line starts a process for each look at the
game.  Typer builds a pydantic validator for every option it reads, and the event
store imports SQLAlchemy and the sqlmodel tables: together most of the start.  The
reads need neither: ``answered`` takes the two command lines in their plain forms
(``local show GAME --as NAME [--json] [--db URL]``, ``local legal GAME [--json] [--db
URL]``, options before or after the game, ``--opt=value`` too) and reads the game with
``store.quick``'s reader.  Anything else, and whatever the quick reader cannot answer
(not a SQLite file, a missing game, a group's own variants to install), goes to typer's
``app`` and the store, which answer or say what is wrong; both print with ``printed``,
so the answer is the same whichever path gave it.  ``verify BUNDLE [--report MAIL
...]`` reads files only: its plain command line runs ``verify_files.verified``, which
typer's ``verify`` runs too; the plain ``local order GAME ORDERS --as NAME [--db URL]
[--config FILE]`` runs ``plain.ordered``, as typer's ``local order`` does.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from moderator.store.quick import QuickReader

T = TypeVar("T")

#: The commands answered here (the words that name them) and the options each takes:
#: name -> whether it takes a value.
_OPTIONS = {
    ("local", "show"): {"--as": True, "--json": False, "--db": True},
    ("local", "legal"): {"--json": False, "--db": True},
    ("local", "order"): {"--as": True, "--db": True, "--config": True},
    ("verify",): {"--report": True},
}
#: The options a command line must give.
_REQUIRED = {"show": ("--as",), "order": ("--as",)}
#: How many arguments a command takes (one: the game, or the bundle).
_ARGUMENTS = {"order": 2}  # the game and the orders
#: Set, these stand for an option not given: typer reads them, so it runs the command.
_ENVIRONMENT = {"order": ("TITAN_MODERATOR_CONFIG",)}
#: The options that may be given more than once (their values in a list).
_REPEATED = frozenset({"--report"})
#: Set, it names a group's own variants, which the composition root installs.
_OWN_VARIANTS = "TITAN_VARIANTS_DIRECTORY"


def parsed(argv: Sequence[str]) -> tuple[str, tuple[str, ...], dict[str, Any]] | None:
    """
    (command, arguments, options) of a plain ``local show GAME``, ``local legal GAME``,
    ``local order GAME ORDERS`` or ``verify BUNDLE`` command line; None for any other
    (help, a misspelt or repeated option, a missing one, ``--``, an option typer would
    read from the environment).
    """
    words = next((w for w in _OPTIONS if tuple(argv[: len(w)]) == w), None)
    if words is None:
        return None
    command, known = words[-1], _OPTIONS[words]
    arguments: list[str] = []
    options: dict[str, Any] = {name: [] for name in known if name in _REPEATED}
    rest = list(argv[len(words):])
    while rest:
        word = rest.pop(0)
        if not word.startswith("-"):
            arguments.append(word)
            continue
        name, equals, value = word.partition("=")
        if name not in known or (name in options and name not in _REPEATED):
            return None
        if not known[name]:
            if equals:
                return None
            options[name] = True
            continue
        if not equals:
            if not rest:
                return None
            value = rest.pop(0)
        if name in _REPEATED:
            options[name].append(value)
        else:
            options[name] = value
    if len(arguments) != _ARGUMENTS.get(command, 1):
        return None
    if any(name not in options for name in _REQUIRED.get(command, ())):
        return None
    if any(name in os.environ for name in _ENVIRONMENT.get(command, ())):
        return None
    return command, tuple(arguments), options


def read_quickly(db: str | None, look: Callable[[QuickReader], T]) -> T | None:
    """
    What ``look`` reads with the quick reader of the database ``db`` names; None when the
    quick reader cannot answer (the caller then asks the store).
    """
    if os.environ.get(_OWN_VARIANTS):
        return None
    from moderator.ports.errors import GameNotFoundError
    from moderator.rules.variant import UnknownVariantError
    from moderator.store.quick import quick_reader

    with quick_reader(db) as reader:
        if reader is None:
            return None
        try:
            return look(reader)
        except (GameNotFoundError, UnknownVariantError):
            return None  # the store's answer names the fault


def printed(command: str, answer: dict[str, Any], viewer: str | None, as_json: bool) -> None:
    """Print ``command``'s answer (a view for ``show``, the legal orders for ``legal``)."""
    if as_json:
        print(json.dumps(answer, indent=2, ensure_ascii=False))
    elif command == "show":
        from moderator.letters.reports import status

        print(status(answer, viewer))
    elif answer["player"] is None:
        print("Nobody is to act: the game is over.")
    else:
        print(f"{answer['player']} is to act and may order:")
        for action in answer["actions"]:
            print(f"  {action['order']}")


def answered(argv: Sequence[str]) -> bool:
    """Whether ``argv`` was answered here (printed); False: typer's to run.  A ``verify``
    or an order that fails exits here with its code."""
    found = parsed(argv)
    if found is None:
        return False
    command, arguments, options = found
    from moderator.runtime.variant_cache import keep_shipped_variants

    keep_shipped_variants()
    if command in ("verify", "order"):
        code = _ran(command, arguments, options)
        if code:
            sys.exit(code)
        return True
    game, viewer = arguments[0], options.get("--as")
    from moderator.usecases.games.reads import legal, show

    answer = read_quickly(
        options.get("--db"),
        (lambda reader: show(reader, game, viewer)) if command == "show" else
        (lambda reader: legal(reader, game)),
    )
    if answer is None:
        return False
    printed(command, answer, viewer, bool(options.get("--json")))
    return True


def _ran(command: str, arguments: tuple[str, ...], options: dict[str, Any]) -> int:
    """Run ``verify`` or ``local order`` as typer's commands do; their exit code."""
    from pathlib import Path

    if command == "verify":
        from moderator.cli.verify_files import verified

        return verified(Path(arguments[0]), [Path(p) for p in options["--report"]])
    from moderator.cli.plain import Failed, ordered

    config = options.get("--config")
    try:
        game, orders = arguments
        return ordered(game, orders, options["--as"], options.get("--db"),
                       Path(config) if config is not None else None)
    except Failed as failed:
        print(failed.message, file=sys.stderr)
        return failed.code


__all__ = ["answered", "parsed", "printed", "read_quickly"]
