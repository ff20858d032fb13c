"""
HTML mail bodies turned into plain text lines, for mail that has no ``text/plain`` part.

Blocks and ``<br>`` break lines, table cells of one row share a line, ``<style>`` and
``<script>`` are dropped, and quotes and signature blocks (by tag, class or id) become
``>`` lines and a ``-- `` line, so that ``quoted_replies`` can leave them out as it does
for plain text.  Standard library ``html.parser`` only; never raises.

Bounded time, whatever the HTML: ``html.parser`` costs some microseconds per tag or
attribute, so only the first ``MAX_CHARS`` characters and in them the first
``MAX_EVENTS`` tags and texts are read (the words a player writes come first).  And it
reads each unfinished tag, comment or section to the end of the input again from every
``<`` after it when the input is closed, quadratic time (100 KB of ``x<x`` took five
seconds), so what is left unfinished after ``feed`` is stripped of tags crudely instead.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

from moderator.mail.checks.base import MAIL_ERRORS
from moderator.mail.plain_text import quoted

__all__ = ["MAX_CHARS", "MAX_EVENTS", "html_to_text"]

#: Characters of one HTML part read (attributes cost ~0.6 us a character).
MAX_CHARS = 40_000
#: Tags, texts, comments and declarations read from one HTML part (~3 us each).
MAX_EVENTS = 5_000
#: A tag for the crude stripping (never across another ``<``: linear time).
_TAG = re.compile(r"<[^<>]*>")

_VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
_SKIP = frozenset({"style", "script", "title", "template", "noscript"})
_BLOCK = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tr",
        "ul",
    }
)
_QUOTE, _SIG, _HIDE, _PRE, _UNQUOTED = 1, 2, 4, 8, 16


class _HtmlText(HTMLParser):
    """
    HTML to text lines: blocks and ``<br>`` break lines, quotes become ``>`` lines.

    Each open tag on the stack carries the flags and the quote depth of all open tags up
    to it, and ``_open`` counts the open tags by name, so that no tag or text walks the
    stack: HTML that never closes its tags would make that quadratic.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._words: list[str] = []
        self._stack: list[tuple[str, int, int, int]] = []  # tag, its flags, all flags, quotes
        self._open: dict[str, int] = {}
        self._depth = 0
        self.events = 0

    def _count(self) -> None:
        self.events += 1
        if self.events > MAX_EVENTS:
            raise _Enough

    def handle_comment(self, data: str) -> None:
        self._count()

    def handle_decl(self, decl: str) -> None:
        self._count()

    def handle_pi(self, data: str) -> None:
        self._count()

    def unknown_decl(self, data: str) -> None:
        self._count()

    def _flags(self) -> int:
        return self._stack[-1][2] if self._stack else 0

    @property
    def hidden(self) -> bool:
        """Whether text here is not shown (inside ``<script>``, ``<style>`` …)."""
        return bool(self._flags() & _HIDE)

    def _quote_depth(self) -> int:
        return self._stack[-1][3] if self._stack else 0

    def _push(self, tag: str, flags: int) -> None:
        quotes = self._quote_depth() + bool(flags & _QUOTE)
        self._stack.append((tag, flags, self._flags() | flags, quotes))
        self._open[tag] = self._open.get(tag, 0) + 1

    def _pop_to(self, index: int) -> None:
        for tag, *_ in self._stack[index:]:
            self._open[tag] -= 1
        del self._stack[index:]

    def flush(self) -> None:
        line = "".join(self._words).strip()
        self._words = []
        if line:
            self.lines.append(quoted(self._depth, line))
        elif self.lines and self.lines[-1]:
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._count()
        if tag in _VOID:
            if tag in ("br", "hr"):
                self.flush()
            return
        marks = " ".join(value or "" for key, value in attrs if key in ("class", "id", "name"))
        flags = (_HIDE if tag in _SKIP else 0) | (_PRE if tag == "pre" else 0)
        marks = marks.lower()
        quote = tag == "blockquote" or "quote" in marks
        # Apple Mail wraps shared content in an unstyled blockquote that is no quote.
        flags |= _QUOTE if quote and not self._flags() & _UNQUOTED else 0
        flags |= _SIG if "signature" in marks else 0
        flags |= _UNQUOTED if "urlsharewrapper" in marks else 0
        if tag in _BLOCK or flags & (_QUOTE | _SIG):
            self.flush()
        elif tag in ("td", "th"):
            self._words.append(" ")  # cells of one row stay on one line, apart
        self._push(tag, flags)
        if flags & _SIG and not self._flags() & _HIDE:
            self._depth = self._quote_depth()
            self.lines.append(quoted(self._depth, "-- "))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        self._count()
        if not self._open.get(tag):
            if tag in ("br", "p"):
                self.flush()  # a stray </br> or </p> still breaks the line
            return
        for index in range(len(self._stack) - 1, -1, -1):  # what is passed is closed too
            if self._stack[index][0] == tag:
                if tag in _BLOCK or self._stack[index][1] & (_QUOTE | _SIG):
                    self.flush()
                self._pop_to(index)
                return

    def handle_data(self, data: str) -> None:
        self._count()
        flags = self._flags()
        if flags & _HIDE:
            return
        if not self._words:
            self._depth = self._quote_depth()
        if flags & _PRE:
            pieces = data.replace("\r\n", "\n").split("\n")
            for index, piece in enumerate(pieces):
                if index:
                    self.flush()
                    self._depth = self._quote_depth()
                self._words.append(piece.replace("\xa0", " "))
        else:
            self._words.append(re.sub(r"\s+", " ", data.replace("\xa0", " ")))


class _Enough(Exception):
    """``MAX_EVENTS`` are read."""


def html_to_text(html: str, notes: list[str] | None = None) -> str:
    """
    The text lines of ``html``; tags stripped crudely should the parser ever give up.
    What was left unread (``MAX_CHARS``, ``MAX_EVENTS``) is noted in ``notes``.
    """
    if len(html) > MAX_CHARS and notes is not None:
        notes.append(f"html-truncated: read {MAX_CHARS} of {len(html)} characters")
    parser = _HtmlText()
    try:
        parser.feed(html[:MAX_CHARS])
        rest, parser.rawdata = parser.rawdata, ""  # an unfinished tag, comment or section
        if rest and not parser.hidden:
            parser.handle_data(unescape(_TAG.sub(" ", rest)))
        parser.close()
    except _Enough:
        if notes is not None:
            notes.append(f"html-truncated: read the first {MAX_EVENTS} tags and texts")
    except MAIL_ERRORS:  # HTMLParser is lenient; if it ever gives up, strip the tags crudely
        return _TAG.sub(" ", html)
    parser.flush()
    return "\n".join(parser.lines).strip("\n")
