"""
HTML mail bodies turned into plain text lines, for mail that has no ``text/plain`` part.

Blocks and ``<br>`` break lines, table cells of one row share a line, ``<style>`` and
``<script>`` are dropped, and quotes and signature blocks (by tag, class or id) become
``>`` lines and a ``-- `` line, so that ``quoted_replies`` can leave them out as it does
for plain text.  Standard library ``html.parser`` only; never raises.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from moderator.mail.checks.base import MAIL_ERRORS
from moderator.mail.plain_text import quoted

__all__ = ["html_to_text"]

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
    """HTML to text lines: blocks and ``<br>`` break lines, quotes become ``>`` lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._words: list[str] = []
        self._stack: list[tuple[str, int]] = []
        self._depth = 0

    def _flags(self) -> int:
        flags = 0
        for _, each in self._stack:
            flags |= each
        return flags

    def _quote_depth(self) -> int:
        return sum(1 for _, flags in self._stack if flags & _QUOTE)

    def flush(self) -> None:
        line = "".join(self._words).strip()
        self._words = []
        if line:
            self.lines.append(quoted(self._depth, line))
        elif self.lines and self.lines[-1]:
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
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
        self._stack.append((tag, flags))
        if flags & _SIG and not self._flags() & _HIDE:
            self._depth = self._quote_depth()
            self.lines.append(quoted(self._depth, "-- "))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "p") and not any(open_tag == tag for open_tag, _ in self._stack):
            self.flush()  # a stray </br> or </p> still breaks the line
            return
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index][0] == tag:
                if tag in _BLOCK or self._stack[index][1] & (_QUOTE | _SIG):
                    self.flush()
                del self._stack[index:]
                return

    def handle_data(self, data: str) -> None:
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


def html_to_text(html: str) -> str:
    """The text lines of ``html``; tags stripped crudely should the parser ever give up."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except MAIL_ERRORS:  # HTMLParser is lenient; if it ever gives up, strip the tags crudely
        return re.sub(r"<[^>]*>", " ", html)
    parser.flush()
    return "\n".join(parser.lines).strip("\n")
