"""
A mail's tournament lines on the in-memory store (``moderator.testing``): each line is
decided on what the line before it wrote (``Outcome.then``), as the mail runner applies
them in one transaction; here the recording unit of work goes through the runners' own
loop (``runners.unit.apply_with``), so a use-case test needs no database for them.
"""

from __future__ import annotations

from moderator.ports.mail import PROCESSED
from moderator.ports.players import DIRECTOR as DIRECTOR_ROLE
from moderator.testing.clocks import TestClock as Clock

from ..service.conftest import headers_of, plain_mail
from ..service.memory_table import MemoryDesk, memory_desk
from .conftest import DIRECTOR, address, secret_of


def lines_from(desk: MemoryDesk, name: str, *lines: str) -> str:
    """``name`` mails ``lines`` (with his secret); the answers' text (both parts)."""
    body = "\n".join([f"secret {secret_of(name)}", *lines]) + "\n"
    sent = desk.send(plain_mail(body, headers_of(name, subject="tournament")))
    assert sent.status == PROCESSED, sent.note
    return "\n".join(f"{m.body}\n{m.private_body or ''}" for m in sent.to(address(name)))


def test_each_tournament_line_of_a_mail_sees_what_the_line_before_wrote(clock: Clock) -> None:
    """The director creates a tournament and asks its standings in one mail: the second
    line finds the tournament the first made; a player joins and sees himself waiting."""
    desk = memory_desk(clock)
    desk.memory.add_player(
        DIRECTOR, address(DIRECTOR), secret=secret_of(DIRECTOR), roles=(DIRECTOR_ROLE,)
    )
    desk.memory.add_player("Ann", address("Ann"), secret=secret_of("Ann"))
    answer = lines_from(
        desk, DIRECTOR, "tournament create duel players 2 rounds 1 timing turn=24", "standings duel"
    )
    assert "open for sign-up" in answer and "Standings of the tournament duel" in answer
    answer = lines_from(desk, "Ann", "join tournament duel", "standings duel")
    assert "You are on the waiting list of duel" in answer
    loaded = desk.memory.tournament("duel")
    assert loaded is not None and list(loaded.state.entrants) == [address("Ann")]
    assert loaded.state.entrants[address("Ann")].waiting
