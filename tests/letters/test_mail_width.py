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


def test_an_answers_counts_fit_the_mail_width_even_with_on_roll_lines() -> None:
    """The counts were one line of ~96 characters, which the shell broke mid-phrase."""
    from .test_letters import LineResult

    results = [
        *([LineResult("split Bu01 into Bu03: Angel", "done")] * 12),
        *([LineResult("on roll 1, 2: legal", "answered", ("ok",))] * 12),
        *([LineResult("status", "answered", ("Turn 4",))] * 12),
        *([LineResult("move Bu01 to 2", "refused", reason="no", code="E-X", hint="x")] * 12),
    ]
    text = answers.counts(results, 120, 120)
    assert "'on roll' line(s) read" in text and "120 ignored" in text
    reply = answers.reply(
        "g1", "g1-7", "Ann", MAIL, results, [], [], actor="Ann", over=False, step="move",
        deadline="no deadline set", legal=["legal"], brief=True,
    )
    private = (reply.private or "").splitlines()
    shown = [line for line in private if "carried out" in line or "not processed" in line]
    assert len(shown) == 2 and all(len(line) <= WIDTH for line in shown)
    assert all(line.startswith("  ") for line in shown)
