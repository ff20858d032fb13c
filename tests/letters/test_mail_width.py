"""
A paragraph reads whole only if the shell leaves it alone: ``outgoing.wrapped`` breaks
any line longer than ``WIDTH``, and a break inside a template's own prose leaves a
fragment ("it is") on a line of its own.  So the templates' prose is filled short of
that width, and a letter's lines run past it only next to a value it puts in.
"""

from __future__ import annotations

import re

import pytest

from moderator.letters import answers
from moderator.letters.templates import template_dirs
from moderator.letters.texts import Texts
from moderator.runtime.outgoing import WIDTH
from tests.linebreaks import marked, prose_breaks, unmarked

from .test_letters import EXAMPLES, MAIL, RESULTS

#: A comment, which no letter shows.
_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)


def _static_lines() -> list[tuple[str, int, str]]:
    """Each line of a template that is its own text only (no value, no statement)."""
    found = []
    for folder in template_dirs():
        for path in sorted(folder.glob("*.j2")):
            text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text())
            for number, line in enumerate(text.split("\n"), 1):
                if "{{" not in line and "{%" not in line:
                    found.append((path.name, number, line))
    return found


def test_template_prose_fits_the_mail_width_so_paragraphs_read_whole() -> None:
    lines = _static_lines()
    assert len(lines) > 300  # the templates were read
    too_long = [
        f"{name}:{number}: {len(line)}" for name, number, line in lines if len(line) > WIDTH - 2
    ]
    assert too_long == []


def _brief_reply() -> Texts:
    """The answer that says the game follows (the line that read 'it is' / 'now follows.')."""
    return answers.reply(
        "g1", "g1-7", "Ann", MAIL, RESULTS, [], [], actor="Ann", over=False, step="engage",
        deadline="no deadline set", legal=["engage 1"], brief=True,
    )


LETTERS = {**EXAMPLES, "brief reply": _brief_reply}


@pytest.mark.parametrize("name", sorted(LETTERS))
def test_the_shell_never_breaks_a_letters_own_prose_only_next_to_a_value(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = LETTERS[name]()
    with marked(monkeypatch):
        out = LETTERS[name]()
    texts = [out] if isinstance(out, str) else [out.public, out.private or ""] if out else []
    plain_texts = (
        [plain] if isinstance(plain, str) else [plain.public, plain.private or ""] if plain else []
    )
    # the words a player gets (a padded column counts the brackets: its spaces differ)
    assert [unmarked(text).split() for text in texts] == [text.split() for text in plain_texts]
    assert [b for text in texts for b in prose_breaks(text)] == []
