"""
Step references: ``ref g7-123`` names game ``g7`` after the 123rd move of play its
player was told of.

A reference counts only what its player may see (``GameState.steps_seen``): the moves
everybody saw and those he was shown, never a move only others saw (a split's detail,
the look two players take at an engagement), nor any show or message (Wolff 4.5: they
leave the game where it was).  Counting every event would tell a bystander, by how far
his reference jumped, that something passed between others.  Two players may thus hold
different references for the same moment; each mail is checked against its sender's.

Every report and reply quotes the game's current reference; a mail with orders that
change the game must quote it back (a line ``ref g7-123`` among its orders, or in the
subject when the mail is not signed).  A mail written against an older state of the
game (a stale report, a delayed mail, a replayed one, even validly signed) then changes
nothing: only queries are answered (house style, idea 4: step tokens).

>>> str(StepRef("g7", 123))
'g7-123'
>>> split_refs(["ref g7-123", "roll", "REF: g-2-5."])
([StepRef(game='g7', version=123), StepRef(game='g-2', version=5)], ['roll'], [])
>>> subject_ref("Re: [titan g7] Your move (ref g7-123)")
StepRef(game='g7', version=123)
"""

from __future__ import annotations

import re

from moderator.records import record
from moderator.rules.state import GameState

#: A game id: what ``moderator.mail.compose`` accepts in headers.
GAME_ID = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"
_REF = rf"({GAME_ID})-(\d{{1,12}})"
_LINE = re.compile(rf"^\s*ref\b\s*[:=]?\s*{_REF}\s*\.?\s*$", re.IGNORECASE)
_LINE_WORD = re.compile(r"^\s*ref\b", re.IGNORECASE)
_IN_SUBJECT = re.compile(rf"\(?\bref\s*[:=]?\s*{_REF}\b\)?", re.IGNORECASE)

#: Why the orders of a mail were not carried out (``LineResult.code``): no reference, an
#: earlier step of the game, a step it has not reached, another game's reference.
E_REF_MISSING, E_REF_STALE, E_REF_GAME = "E-REF-MISSING", "E-REF-STALE", "E-REF-GAME"
E_REF_AHEAD = "E-REF-AHEAD"


@record
class StepRef:
    """A game and the moves of play one player was told of (``GameState.steps_seen``)."""

    game: str
    version: int

    def __str__(self) -> str:
        return f"{self.game}-{self.version}"

    @property
    def line(self) -> str:
        """The order line that quotes it: ``ref g7-123``."""
        return f"ref {self}"


def current(game_id: str, state: GameState, player: str | None) -> StepRef:
    """The reference ``player`` (a seat; None: someone with no seat) is given now."""
    return StepRef(game_id, state.steps_seen(player))


def split_refs(lines: list[str]) -> tuple[list[StepRef], list[str], list[str]]:
    """
    (the references quoted, the other lines, the ``ref`` lines that could not be read)
    of a mail's order lines.
    """
    refs: list[StepRef] = []
    rest: list[str] = []
    unreadable: list[str] = []
    for line in lines:
        found = _LINE.match(line)
        if found:
            refs.append(StepRef(found.group(1), int(found.group(2))))
        elif _LINE_WORD.match(line):
            unreadable.append(line)
        else:
            rest.append(line)
    return refs, rest, unreadable


def subject_ref(subject: str) -> StepRef | None:
    """The first reference in a subject line."""
    found = _IN_SUBJECT.search(subject)
    return StepRef(found.group(1), int(found.group(2))) if found else None


def without_refs(subject: str) -> str:
    """``subject`` with every reference taken out (for the subject of an answer)."""
    return re.sub(r"\s{2,}", " ", _IN_SUBJECT.sub("", subject)).strip()


def check(quoted: StepRef | None, now: StepRef) -> tuple[str, str] | None:
    """
    None when ``quoted`` is the current reference ``now``; else (code, the sentence
    that refuses an order for it, quoting the reference to use instead).  A reference of
    this game that is not ``now`` is either behind it (the game moved on) or ahead of
    it (a step the game never reached: mistyped, or meant for another game).  The
    sentence says what became of the order it refuses, never of the whole mail: its
    shows and messages may still be carried out (Wolff 4.5).
    """
    if quoted is not None and quoted.game.lower() == now.game.lower():
        if quoted.version == now.version:
            return None
        if quoted.version > now.version:
            return (
                E_REF_AHEAD,
                (
                    f"your mail quotes 'ref {quoted}', a step game {now.game} has not "
                    f"reached (it is at 'ref {now}'): not carried out. Check the "
                    f"reference in the latest report, then send this order with the line "
                    f"'{now.line}'"
                ),
            )
        return (
            E_REF_STALE,
            (
                f"your mail quotes 'ref {quoted}', but the game has moved on to 'ref {now}': "
                f"not carried out. Read the latest report, then send this order again with "
                f"the line '{now.line}'"
            ),
        )
    if quoted is not None:
        return (
            E_REF_GAME,
            (
                f"your mail quotes 'ref {quoted}', a reference of another game: not carried "
                f"out. Orders for game {now.game} need the line '{now.line}'"
            ),
        )
    return (
        E_REF_MISSING,
        (
            f"orders that change the game must quote its current step reference: add the "
            f"line '{now.line}' to your orders (it is in every report)"
        ),
    )


def of_this_game(code: str) -> bool:
    """
    Whether a refusal ``code`` is for a reference of the game the mail plays in (behind
    or ahead of it): its shows and messages are carried out all the same (Wolff 4.5:
    they are not tied to the sequence of play).
    """
    return code in (E_REF_STALE, E_REF_AHEAD)
