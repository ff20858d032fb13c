"""
Which pictures a player's reports carry: the ``pictures`` choice, written in a mail like
``notify``.

A report by mail is read on a phone as often as not, and the masterboard is most of its
size; a player who reads the board from the text, or who needs it only when it moved,
says so:

``changes`` (the default)
    the masterboard when the board changed since the last one he was sent (his first
    report always has it), and a battle's picture when a battle step asks him to act and
    a character stands elsewhere than his last showed, or it asks him to maneuver and
    anything on it changed; neither when only his own orders changed it, nor for a
    battle's hits and deaths alone, which the text lists (``usecases.games.shown``);
``always``
    the masterboard in every report, and the battle's in every report of a battle;
``none``
    no pictures at all.

Pure: the choice as a word, no store.
"""

from __future__ import annotations

import re

NONE, CHANGES, ALWAYS = "none", "changes", "always"
MODES = (NONE, CHANGES, ALWAYS)
DEFAULT = CHANGES
_LINE = re.compile(r"^\s*pictures\b\s*(?P<rest>.*?)\s*$", re.IGNORECASE)
USAGE = "write 'pictures changes', 'pictures always' or 'pictures none'"
_SAYS = {
    NONE: "Your reports will carry no pictures.",
    CHANGES: (
        "Your reports will carry the masterboard when the board changed since the last "
        "one you were sent, and a battle's picture when the battle asks you to act and a "
        "character stands elsewhere than your last one showed, or asks you to maneuver; "
        "not when only your own orders, or a strike's hits, changed them (the text tells "
        "what they did)."
    ),
    ALWAYS: "Every report will carry the masterboard, and in a battle its picture.",
}


def is_pictures(line: str) -> bool:
    """Whether ``line`` is a ``pictures`` line (valid or not)."""
    return _LINE.match(line) is not None


def parse(line: str) -> str:
    """
    The mode a ``pictures`` line chooses.

    Raises:
        ValueError: the line names no mode; the message says what to write.
    """
    match = _LINE.match(line)
    word = match.group("rest").lower() if match else ""
    if word not in MODES:
        raise ValueError(f"'{word or line.strip()}' is not a pictures choice: {USAGE}")
    return word


def describe(mode: str) -> str:
    """What the player's reports will carry, in a sentence."""
    return _SAYS.get(mode, _SAYS[DEFAULT])
