"""
Where the shell breaks a letter's lines, and whether a break falls inside the
templates' own prose.

``moderator.runtime.outgoing.wrapped`` breaks every line longer than ``WIDTH``.  A break
between two words of a template's fixed text leaves a fragment ("it is") on a line of
its own in the middle of a paragraph: the template should have been filled shorter.
A break next to a value the letter puts in (a name, a date, a line the rules wrote)
is expected, for a value may be of any length.  ``marked`` renders the letters with
every value bracketed, so that ``prose_breaks`` can tell the two apart.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from jinja2 import Environment

from moderator.letters import templates
from moderator.runtime.outgoing import WIDTH, wrapped

#: Brackets round each rendered value (private-use characters: no template writes them).
OPEN, CLOSE = "\ue000", "\ue001"


def _bracket(value: Any) -> str:
    return f"{OPEN}{value}{CLOSE}"


class _Bracketed(templates.Templates):
    """The package's templates, compiled afresh with every ``{{ value }}`` bracketed."""

    def __init__(self, plain: Environment) -> None:
        super().__init__()
        # a cache of its own and no compiled files: those were compiled without brackets
        self._bracketed = plain.overlay(finalize=_bracket, cache_size=400, bytecode_cache=None)

    @property
    def environment(self) -> Environment:
        return self._bracketed


@contextlib.contextmanager
def marked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Within it, every letter renders with its values bracketed."""
    with monkeypatch.context() as patch:
        patch.setattr(templates, "TEMPLATES", _Bracketed(templates.TEMPLATES.environment))
        yield


def unmarked(text: str) -> str:
    """``text`` without the brackets."""
    return text.replace(OPEN, "").replace(CLOSE, "")


def _flags(text: str) -> tuple[str, list[bool]]:
    """The text without brackets, and for each of its characters whether a value wrote it."""
    plain: list[str] = []
    flags: list[bool] = []
    depth = 0
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE:
            depth -= 1
        else:
            plain.append(char)
            flags.append(depth > 0)
    return "".join(plain), flags


def prose_breaks(text: str, width: int = WIDTH) -> list[str]:
    """
    Each place where ``wrapped`` breaks a line of the bracketed ``text`` between two
    words that are both the template's own, described for a failing test.
    """
    plain, flags = _flags(text)
    found: list[str] = []
    start = 0
    for line in plain.split("\n"):
        line_flags, start = flags[start : start + len(line)], start + len(line) + 1
        pieces = wrapped(line, width).split("\n")
        if len(pieces) == 1:
            continue
        words = [
            (m.group(0), any(line_flags[m.start() : m.end()])) for m in re.finditer(r"\S+", line)
        ]
        at = 0
        for piece in pieces[:-1]:
            at += len(piece.split())
            (before, by_value), (after, by_value_too) = words[at - 1], words[at]
            if not (by_value or by_value_too):
                found.append(f"{line!r} is broken between {before!r} and {after!r}")
    return found
