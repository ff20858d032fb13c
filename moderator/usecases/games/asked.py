"""
What a report round (``notify.report_round``) is asked beyond the players' own
notification choices, as one value rather than a row of keyword arguments.
"""

from __future__ import annotations

from moderator.records import record


@record
class AsideCap:
    """At most ``per_day`` mails caused by one player's asides to another on ``day``."""

    per_day: int
    day: str  # ISO date, UTC


@record
class Asked:
    """
    What a report round is asked beyond the players' notification choices:
    ``resend``, the seats whose last report goes again; ``answering``, the seat whose
    mail is being answered (his report goes in the answer: one mail per mail);
    ``catch_up``, seats reported all they may see since their last report, if anything,
    whatever their choice (a daily digest, a player the moderator just acted for), and
    as their daily digests with ``digest``; ``aside_cap``, how many reports one
    player's shows and messages may cause another to get at once today.
    """

    resend: frozenset[str] = frozenset()
    answering: str | None = None
    catch_up: frozenset[str] = frozenset()
    aside_cap: AsideCap | None = None
    digest: bool = False


#: A round asked nothing beyond the players' choices.
NOTHING = Asked()
