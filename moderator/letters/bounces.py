"""
The letters to the game master (and a tournament game's director) about a bounce of the
moderator's mail (``service.bounces``): the mail came back undelivered and what became
of the player's deadline; the pause of that deadline is over.  Moments come in worded
for the reader's time zone.
"""

from __future__ import annotations

from dataclasses import asdict

from moderator.letters.templates import letter, render
from moderator.letters.texts import Texts
from moderator.records import record

#: What a believed bounce did to the player's deadline (``service.bounces``'s verdicts).
PAUSED, ALREADY, ONCE, NO_LIMITS = "paused", "paused already", "paused once", "no limits"

_SUBJECTS = {
    PAUSED: "his deadline is paused",
    ALREADY: "his deadline is paused already",
    ONCE: "his deadline was paused once already and runs on",
    NO_LIMITS: "the game has no deadlines",
}


@record
class Undelivered:
    """A believed bounce of a mail to ``seat`` of ``game``, as the game master reads it."""

    game: str
    seat: str
    address: str
    kind: str
    subject: str
    written: str
    message_id: str
    mail_id: int
    failed: str
    status: str
    diagnostic: str
    arrived: str
    how: str  # how the bounce was recognised
    verdict: str  # PAUSED, ALREADY, ONCE or NO_LIMITS
    was_due: str  # his deadline before the bounce ("" if he had none)
    until: str  # when the pause ends at the latest ("" if none)
    tournament: bool
    to_act: bool


@letter("gm.undelivered.txt.j2")
def undelivered(facts: Undelivered) -> Texts:
    """The notice of a believed bounce."""
    subject = (
        f"Undelivered: mail to {facts.seat} in {facts.game} bounced; " + _SUBJECTS[facts.verdict]
    )
    return Texts(subject, render("gm.undelivered.txt.j2", **asdict(facts)))


@letter("gm.bounce_pause_over.txt.j2")
def pause_over(
    game: str,
    seat: str,
    *,
    since: str,
    ended: str,
    by_mail: bool,
    to_act: bool,
    due: str,
    over: bool,
) -> Texts:
    """``seat``'s pause is over (``by_mail``: his mail arrived; else its time was up)."""
    text = render(
        "gm.bounce_pause_over.txt.j2",
        game=game,
        seat=seat,
        since=since,
        ended=ended,
        by_mail=by_mail,
        to_act=to_act,
        due=due,
        over=over,
    )
    why = "his mail arrived" if by_mail else "its time is up"
    return Texts(f"Pause over: {seat}'s deadline in {game} runs again ({why})", text)


__all__ = ["ALREADY", "NO_LIMITS", "ONCE", "PAUSED", "Undelivered", "pause_over", "undelivered"]
