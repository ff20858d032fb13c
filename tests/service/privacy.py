"""
The privacy check of the soak test: no mail may hold anything its recipient may not see.

``Knowledge`` follows a game's events.  ``leaks(mail, recipient, state)`` lists what a
mail tells that it must not, by three rules:

1. **Events.**  The line ``describe`` gives for an event the recipient may not see
   never appears in the mail; the line of an event not everybody may see never
   appears in the public (signed) part.
2. **Legion lines.**  Every line naming a legion's contents ("Bu01 ... 4 high:
   Angel, ...") names a legion the reader knows (in the public part: one everybody
   knows) with exactly those contents.
3. **Contents.**  The contents of a legion (three or more characters) the reader does
   not know never appear, written as a report writes them, unless they are also the
   contents of something the reader does know.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from moderator.ports import StoredMail
from moderator.reporting.knowledge import Knowledge as Certain
from moderator.reporting.knowledge import knowledge_of, sorted_characters
from moderator.reporting.narrate import describe, is_bookkeeping
from moderator.reporting.wording import _chars
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState, Legion
from moderator.rules.variant import STANDARD, load_variant

_LEGION_LINE = re.compile(
    r"\b(?P<marker>(?:Bk|Bu|Br|Gd|Gr|Rd)\d\d)\b[^\n:]*?\b(?P<height>\d+) high: (?P<contents>[^\n]*)"
)


@dataclass
class Knowledge:
    """The events of one game so far, with the lines their readers see."""

    state: GameState = field(default_factory=GameState)
    hidden: list[tuple[str, frozenset[str] | None]] = field(default_factory=list)
    seen_lines: list[tuple[str, frozenset[str] | None]] = field(default_factory=list)
    #: What each reader knows for certain, folded independently of the mail service
    #: (``reporting.knowledge``, property-tested against the true contents): a legion
    #: may be known in full by deduction where ``Legion.known_to`` does not say so.
    certain: Certain = field(default_factory=Certain)

    def follow(self, events: list[ev.Event]) -> None:
        self.certain = knowledge_of(events, self.certain)
        for event in events:
            line = describe(event, self.state)
            audience = None if event.visible_to is None else frozenset(event.visible_to)
            if not is_bookkeeping(event):
                (self.seen_lines if audience is None else self.hidden).append((line, audience))
                if audience is not None:
                    self.seen_lines.append((line, audience))
            self.state = evolve(self.state, event)


def _contents_texts(contents: tuple[str, ...]) -> set[str]:
    game = load_variant(STANDARD)  # the games these tests play
    return {", ".join(contents), ", ".join(sorted_characters(game, contents)), _chars(game, contents)}


def leaks(mail: StoredMail, reader: str, knowledge: Knowledge) -> list[str]:
    """What ``mail`` tells ``reader`` (a seat name) that he may not know."""
    state = knowledge.state
    public = mail.body
    whole = f"{mail.body}\n{mail.private_body or ''}"
    found: list[str] = []
    visible = {
        line for line, audience in knowledge.seen_lines if not audience or reader in audience
    }
    public_lines = {line for line, audience in knowledge.seen_lines if audience is None}
    # Events are told one to a line.
    lines_in_whole = {line.strip() for line in whole.splitlines()}
    lines_in_public = {line.strip() for line in public.splitlines()}
    for line, audience in knowledge.hidden:
        # The same words may tell another event that the reader did see.
        if audience is not None and reader not in audience and line not in visible:
            if line in lines_in_whole:
                found.append(f"an event hidden from {reader}: {line!r}")
        elif line in lines_in_public and line not in public_lines:
            found.append(f"an event not everybody may see, in the public part: {line!r}")
    for text, who in ((public, None), (whole, reader)):
        for match in _LEGION_LINE.finditer(text):
            contents = match["contents"].split(" (moved)")[0].strip()
            if "unknown" in contents:
                continue
            legion = state.legions.get(match["marker"])
            if legion is None:
                found.append(f"contents of a legion not on the board: {match[0]!r}")
            elif not (
                legion.known_by(who) or knowledge.certain.legion(who, legion.marker).complete
            ):
                found.append(f"contents of {legion.marker} unknown to {who}: {match[0]!r}")
            elif sorted(contents.split(", ")) != sorted(legion.contents):
                found.append(f"wrong contents for {legion.marker}: {match[0]!r}")
    known: set[str] = set()
    def knows(legion: Legion) -> bool:
        return legion.known_by(reader) or knowledge.certain.legion(reader, legion.marker).complete

    for legion in state.legions.values():
        if knows(legion):
            known |= _contents_texts(legion.contents)
    seen = "\n".join(visible)
    for legion in state.legions.values():
        if legion.height < 3 or knows(legion):
            continue
        for text in _contents_texts(legion.contents) - known:
            listed = re.search(rf"(?<!, )(?<!\d ){re.escape(text)}(?!,)", whole)
            if listed and text not in seen:
                at = listed.start()
                context = whole[max(0, at - 120) : at + len(text) + 40]
                found.append(
                    f"the contents of {legion.marker} ({text!r}) unknown to {reader}: "
                    f"...{context}..."
                )
    return found
