"""
Wolff 4.5 by mail (issue 17): a legion shown and a message passed on reach exactly the
players named, at once, in the private part next to the one-time token and never in
the signed part; the sender sees them echoed; the step reference stays good across
them; messages have a daily allowance and the game master may turn them off.  On the
in-memory store (``memory_table``).
"""

from __future__ import annotations

from moderator.ports import Outcome
from moderator.ports.mail import PROCESSED
from moderator.rules import events as ev
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.games import starting
from moderator.usecases.mail import play_mail

from .conftest import address
from .memory_table import engaged_in_memory


def test_wolff_4_5_a_show_and_a_message_reach_only_those_named_never_signed(
    clock: Clock,
) -> None:
    table = engaged_in_memory(clock)
    legion = next(lg for lg in table.state.legions.values() if lg.owner == "Cy")
    sent = table.orders(
        "Cy", f"show {legion.marker} to Bob\ntell Bob: my {legion.marker} is no bluff"
    )
    assert sent.status == PROCESSED, sent.note
    (bob,) = sent.to(address("Bob"))
    private = bob.private_body or ""
    assert f"Cy shows {legion.marker} to Bob (all it holds, Wolff 4.5)" in private
    assert f'"my {legion.marker} is no bluff"' in private
    assert bob.token  # the one-time token the sender puts beside it (Wolff 4.5)
    assert "Cy shows" not in bob.body and "no bluff" not in bob.body  # never signed
    assert sent.to(address("Ann")) == []  # not named: told nothing, not even a report
    (echo,) = sent.to(address("Cy"))
    assert "no bluff" in (echo.private_body or "") and "no bluff" not in echo.body
    assert table.state.legions[legion.marker].known_by("Bob")


def test_wolff_4_5_the_step_reference_stays_good_across_shows_and_messages(
    clock: Clock,
) -> None:
    table = engaged_in_memory(clock)
    ref = table.ref
    actor = "Ann"
    logged = len(table.events())
    told = table.orders("Bob", "tell all: good luck", ref=ref)
    assert told.status == PROCESSED
    assert len(table.events()) > logged and table.ref == ref  # the log moved on, not the step
    sent = table.orders(actor, "engage 1", ref=ref)  # so her reference still holds
    assert sent.status == PROCESSED, sent.note
    assert any(isinstance(e, ev.EngagementStarted) for e in table.events())


def test_wolff_4_5_messages_have_a_daily_allowance_and_the_game_master_may_stop_them(
    clock: Clock,
) -> None:
    table = engaged_in_memory(clock)
    table.set_record(relayed={"Bob": f"{table.now().date().isoformat()} "
                                        f"{play_mail.RELAYS_A_DAY}"})
    sent = table.orders("Bob", "tell Cy: one more")
    (answer,) = sent.to(address("Bob"))
    assert f"at most {play_mail.RELAYS_A_DAY} messages a day" in (
        f"{answer.body}{answer.private_body}"
    )
    assert sent.to(address("Cy")) == []
    table.set_record(relay=False, relayed={})
    sent = table.orders("Cy", "tell Bob: hello")
    (answer,) = sent.to(address("Cy"))
    assert "turned off passing messages" in f"{answer.body}{answer.private_body}"
    assert not any(isinstance(e, ev.MessageRelayed) for e in table.events())


def test_wolff_4_5_the_game_master_turns_passing_messages_off_and_on(clock: Clock) -> None:
    """``game relay g1 off``: the use case writes the game's record once (asking again
    changes nothing), and a message asked for is refused until it is on again."""
    table = engaged_in_memory(clock)
    off = starting.set_relay(starting.Relay("g1", False), table.memory, table.now())
    assert off.games and off.games[0].record is not None and not off.games[0].record.relay
    table.unit.apply(off)
    assert not table.record.relay
    assert starting.set_relay(starting.Relay("g1", False), table.memory, table.now()) == Outcome()
    refused = table.orders("Cy", "tell Bob: hello")
    assert "turned off passing messages" in "".join(
        f"{m.body}{m.private_body}" for m in refused.to(address("Cy"))
    )
    table.unit.apply(starting.set_relay(starting.Relay("g1", True), table.memory, table.now()))
    assert table.orders("Cy", "tell Bob: hello again").to(address("Bob"))
