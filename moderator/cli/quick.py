"""
``local show`` and ``local legal`` answered before typer is loaded (issue 28).

A script that plays through the command line starts a process for each look at the
game.  Typer builds a pydantic validator for every option it reads, and the event
store imports SQLAlchemy and the sqlmodel tables: together most of the start.  The
reads need neither: ``answered`` takes the two command lines in their plain forms
(``local show GAME --as NAME [--json] [--db URL]``, ``local legal GAME [--json] [--db
URL]``, options before or after the game, ``--opt=value`` too) and reads the game with
``store.quick``'s reader.  Anything else, and whatever the quick reader cannot answer
(not a SQLite file, a missing game, a group's own variants to install), goes to typer's
``app`` and the store, which answer or say what is wrong; both print with ``printed``,
so the answer is the same whichever path gave it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from moderator.store.quick import QuickReader

T = TypeVar("T")

#: The options each read takes: name -> whether it takes a value.
_OPTIONS = {
    "show": {"--as": True, "--json": False, "--db": True},
    "legal": {"--json": False, "--db": True},
}
#: The options a command line must give.
_REQUIRED = {"show": ("--as",), "legal": ()}
#: Set, it names a group's own variants, which the composition root installs.
_OWN_VARIANTS = "TITAN_VARIANTS_DIRECTORY"


def parsed(argv: Sequence[str]) -> tuple[str, str, dict[str, Any]] | None:
    """
    (command, game, options) of a plain ``local show`` or ``local legal`` command line;
    None for any other (help, a misspelt or repeated option, a missing one, ``--``).
    """
    if len(argv) < 3 or argv[0] != "local" or argv[1] not in _OPTIONS:
        return None
    command, known = argv[1], _OPTIONS[argv[1]]
    games: list[str] = []
    options: dict[str, Any] = {}
    rest = list(argv[2:])
    while rest:
        word = rest.pop(0)
        if not word.startswith("-"):
            games.append(word)
            continue
        name, equals, value = word.partition("=")
        if name not in known or name in options:
            return None
        if not known[name]:
            if equals:
                return None
            options[name] = True
        elif equals:
            options[name] = value
        elif rest:
            options[name] = rest.pop(0)
        else:
            return None
    if len(games) != 1 or any(name not in options for name in _REQUIRED[command]):
        return None
    return command, games[0], options


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
    """Whether ``argv`` was a read answered here (printed); False: typer's to run."""
    found = parsed(argv)
    if found is None:
        return False
    command, game, options = found
    viewer = options.get("--as")
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


__all__ = ["answered", "parsed", "printed", "read_quickly"]
