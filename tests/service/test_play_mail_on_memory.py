"""
A mail's orders (``usecases.mail.play_mail``, through the handler) on the in-memory store,
decided at a ``now`` the test hands in while the store's own clock stands still: the
use case reads the time from its caller, never from the store (issue 25), and the
recording unit of work applies its outcome as the mail runner does.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import Outcome
from moderator.ports.mail import PROCESSED
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.schedule import timing
from moderator.testing.clocks import TestClock as Clock

from ..deadlines.conftest import LIMITS, hours, position
from .conftest import address, headers_of, plain_mail, secret_of
from .memory_table import MemoryTable, memory_table


def decided_at(table: MemoryTable, name: str, body: str, now: datetime) -> Outcome:
    """``name``'s mail of orders ``body`` decided at ``now`` and applied (a mail runner's
    unit of work), on the memory whatever its clock says."""
    text = f"game {table.game_id}\n{table.ref}\nsecret {secret_of(name)}\n{body}\n"
    raw = plain_mail(text, headers_of(name, message_id=table.next_id()))
    message = table.memory.receive(raw)
    game = table.memory.game(table.game_id)
    outcome = table.handler.handle(message, game, table.memory, now)
    return table.unit.apply(outcome, game, message, now=now, about=table.game_id)


def test_wolff_21_0_orders_by_mail_start_the_next_deadline_from_the_moment_decided(
    clock: Clock,
) -> None:
    """Wolff 21.0: the deadline follows the player to act from when his step began, which
    is when the mail that began it was decided: the runner's ``now``."""
    start = position([("Rd01", 600, "Titan Ogre Ogre Troll"), ("Bu01", 300, "Titan")], roll=1)
    table = memory_table(clock, None, position=start, seated=("Ann", "Bob"), limits=LIMITS)
    stored_clock = table.memory.now()
    later = stored_clock + hours(10)
    move = next(line for line in legal_orders(table.state, "Ann") if line.startswith("move"))
    done = decided_at(table, "Ann", f"{move}\ndone", later)
    assert not done.rejected, done.note
    assert table.memory.inbound(1).status == PROCESSED
    assert any(isinstance(e, ev.LegionMoved) for e in table.events())
    (muster,) = [row for row in table.memory.open_deadlines() if row.acting]
    assert (muster.player, muster.kind) == ("Ann", timing.MUSTER)
    assert muster.due_at == later + hours(48)
    assert table.memory.now() == stored_clock  # the store's clock never moved
    (reply,) = [m for m in done.mails if m.recipient == address("Ann")]
    assert "Deadline:" in reply.body
