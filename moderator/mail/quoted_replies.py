"""
The sender's own lines of a mail's text, apart from what he quoted or appended.

Players answer a report by replying to it, so their orders stand above (or between)
``>`` quotes, "On … wrote:" attributions in many languages, forwarded or original
messages, Outlook ``From:/Sent:/To:`` blocks, signatures (``-- ``), mobile footers
("Sent from my iPhone") and rule lines.  ``own_lines`` tells those apart, so that
neither the orders nor the hints are read from someone else's words.
"""

from __future__ import annotations

import re

from moderator.mail import plain_text

__all__ = ["own_lines"]

_OPENER = r"(?:on|am|le|el|il|op|em|den|på|w dniu|\d{1,4}[./-]\d{1,2}[./-]\d{1,4})"
_VERB = (
    r"(?:wrote|writes|schrieb|a écrit|escribió|ha scritto|scrisse|schreef|escreveu"
    r"|napisał\w*|skrev|kirjoitti|написал\w*)"
)
_ATTRIBUTION = re.compile(rf"^(?:-+\s*)?{_OPENER}\b.*{_VERB}\s*:$", re.IGNORECASE | re.DOTALL)
_VERB_ONLY = re.compile(_VERB, re.IGNORECASE)
_SEPARATOR = re.compile(
    r"^-{2,}\s*(?:original message|forwarded message|ursprüngliche nachricht|"
    r"weitergeleitete nachricht|message d'origine|message transféré|mensaje original|"
    r"messaggio originale|oorspronkelijk bericht)\s*-{2,}$"
    r"|^(?:begin forwarded message|anfang der weitergeleiteten nachricht)\s*:$",
    re.IGNORECASE,
)
_SIGNATURE = re.compile(r"^--\s*$")
_RULE = re.compile(r"^[-_=*~]{10,}$")
_FOOTER = re.compile(
    r"^(?:--\s*)?(?:(?:sent|envoy[ée]|enviado|inviato|gesendet|verzonden|skickat|sendt"
    r"|wys[lł]ane|отправлено)\s+(?:from|via|with|using|by|de|desde|da|von|vom|mit|vanaf|met"
    r"|från|fra|z|ze|с|из)\b.*|von meine[mr]? .{1,40} gesendet\.?|get outlook for \w+.*)$",
    re.IGNORECASE,
)
# ``\s*(?:\*\s*)?``, not ``\s*\*?\s*``: neighbouring blanks quantifiers are quadratic.
_HEADER_KEY = re.compile(r"^\*?\s*([^\W\d_][\w-]*(?: [^\W\d_]+)?)\s*(?:\*\s*)?:")
_FROM_KEYS = frozenset({"from", "von", "de", "da", "van", "od", "от", "från", "fra"})
_DATE_KEYS = frozenset(
    {
        "sent",
        "date",
        "gesendet",
        "datum",
        "envoyé",
        "enviado",
        "fecha",
        "data",
        "verzonden",
        "skickat",
        "sendt",
        "дата",
        "отправлено",
        "inviato",
    }
)
_OTHER_KEYS = frozenset(
    {
        "to",
        "cc",
        "subject",
        "an",
        "betreff",
        "à",
        "objet",
        "para",
        "asunto",
        "aan",
        "onderwerp",
        "a",
        "oggetto",
        "till",
        "ämne",
        "do",
        "temat",
        "тема",
        "кому",
        "kopie",
        "reply-to",
    }
)
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)


def own_lines(text: str) -> tuple[list[str], list[str]]:
    """The sender's own lines (quotes and attributions left out) and the lines after a stop."""
    lines = plain_text.lines(_BR.sub("\n", text.replace("\xa0", " ")))
    quoted_next = [False] * len(lines)  # whether the next non-blank line is a quoted one
    for index in range(len(lines) - 2, -1, -1):
        after = lines[index + 1].strip()
        quoted_next[index] = after.startswith(">") if after else quoted_next[index + 1]
    kept: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">"):
            continue
        attribution = _attribution(lines, index, kept, quoted_next=quoted_next[index])
        if attribution is not None:
            span, quoted = attribution
            del kept[len(kept) - span + 1 :]
            if quoted:
                continue
            return kept, lines[index - span + 1 :]
        content = any(k.strip() for k in kept)
        if _SIGNATURE.match(stripped):  # like split_lines: the mark itself is in neither list
            return kept, lines[index + 1 :]
        if _SEPARATOR.match(stripped) or _header_block(lines, index):
            return kept, lines[index:]
        if len(stripped) <= 100 and _FOOTER.match(stripped):
            return kept, lines[index:]
        if _RULE.match(stripped):
            if content:
                return kept, lines[index:]
            continue
        kept.append(line)
    return kept, []


def _attribution(
    lines: list[str], index: int, kept: list[str], *, quoted_next: bool
) -> tuple[int, bool] | None:
    """
    (lines in it, whether quoted lines follow) if ``lines[index]`` ends an attribution.

    An attribution ends with ``:``.  It may start up to two lines earlier (the lines just
    kept) when the joined lines read "On … wrote:".  Without that phrase, one line ending
    with ``:`` that holds an address, a date or a "wrote" word counts only when ``>``
    lines follow it.
    """
    last = lines[index].strip()
    if not last.endswith(":"):
        return None
    for span in (1, 2, 3):
        earlier = kept[len(kept) - span + 1 :] if span > 1 else []
        if earlier != lines[max(0, index - span + 1) : index] or not all(map(str.strip, earlier)):
            continue
        joined = " ".join(line.strip() for line in [*earlier, last])
        if len(joined) <= 400 and _ATTRIBUTION.match(joined):
            return span, quoted_next
    if quoted_next and (re.search(r"[@\d]", last) or _VERB_ONLY.search(last)):
        return 1, True
    return None


def _header_block(lines: list[str], index: int) -> bool:
    """Whether an Outlook-style ``From:/Sent:/To:/Subject:`` block of a quoted mail starts here."""
    keys: list[str] = []
    for line in lines[index : index + 6]:
        match = _HEADER_KEY.match(line.strip())
        if not line.strip() or match is None:
            break
        keys.append(match.group(1).lower())
    if not keys or keys[0] not in _FROM_KEYS | _DATE_KEYS:
        return False
    known = [key for key in keys if key in _FROM_KEYS | _DATE_KEYS | _OTHER_KEYS]
    return (
        len(known) >= 3
        and any(key in _FROM_KEYS for key in known)
        and any(key in _DATE_KEYS for key in known)
    )
