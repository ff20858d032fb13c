"""
Plain text as lines: line ends unified, ``>`` quote marks written, ``format=flowed`` joined.

The smallest text helpers, shared by the body reader (``body_text``), the HTML renderer
(``html_text``), the quote trimmer (``quoted_replies``) and ``intake.order_lines``, so
that they all split and quote lines the same way.
"""

from __future__ import annotations

__all__ = ["lines", "quoted", "unflow"]


def lines(text: str) -> list[str]:
    """The lines of ``text``, whatever its line ends (CRLF, CR or LF)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def quoted(depth: int, body: str) -> str:
    """``body`` behind ``depth`` quote marks (``>> body``), or as it is at depth 0."""
    return f"{'>' * depth} {body}" if depth else body


def unflow(text: str, *, delsp: bool) -> str:
    """RFC 3676: join soft-broken lines (ending in a space) of the same quote depth."""
    out: list[str] = []
    carry: tuple[int, str] | None = None
    for line in lines(text):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        body = body.removeprefix(" ")
        if carry is not None and carry[0] == depth:
            body = carry[1] + body
        elif carry is not None:
            out.append(quoted(*carry))
        carry = None
        if body.endswith(" ") and body != "-- ":
            carry = (depth, body[:-1] if delsp else body)
        else:
            out.append(quoted(depth, body))
    if carry is not None:
        out.append(quoted(*carry))
    return "\n".join(out)
