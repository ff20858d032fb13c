"""
Wolff 4.5: a player may tell what another wrote, never prove it.  The audit bundle is
the moderator's word (its signed part names it by its SHA-256), and its seed keys every
order's seal, whose MACs chain into the seals the players' signed reports print.  So neither may carry or
cover a relayed message's words: a seal records the message's line without them
(``audit.seal.sealed_line``), the bundle gives the message with the same stand-in words,
and ``verify`` still decides every order again from the seal, the message's included.
A game sealed before this (each message's seal covering its words) has every message
left out of every bundle, the sender's and the addressee's too, its seal kept for the
chain; such a seal cannot be made unprovable after the fact (docs/audit.md says so).
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache

from moderator.audit.bundle import dumps, make_bundle
from moderator.audit.report_check import check_report
from moderator.audit.seal import WORDS_NOT_SEALED, OrderKey, seal_mac
from moderator.audit.verify import verify
from moderator.rules import events as ev

from .asides import AsideGame, play_with_asides
from .conftest import GAME, MADE

#: A game with messages between three players (tests/audit/test_private_bundles.py).
SEED, PLAYERS = 2, 3


@cache
def _game() -> AsideGame:
    return play_with_asides(SEED, PLAYERS)


def _messages(events: list[ev.Event]) -> list[tuple[ev.MessageRelayed, ev.OrderSealed]]:
    """Each message passed on, with the seal of its order."""
    found = []
    for index, event in enumerate(events):
        if isinstance(event, ev.MessageRelayed):
            sealed = events[index + 1]
            assert isinstance(sealed, ev.OrderSealed)
            found.append((event, sealed))
    return found


def _line(message: ev.MessageRelayed, sealed: ev.OrderSealed) -> str:
    """The message's order line as its sender wrote it, words and all."""
    return f"{sealed.order.partition(':')[0]}: {message.text}"


def _chain_with_words(events: list[ev.Event], seed: int) -> list[ev.Event]:
    """The same log as the moderator sealed it before: each message's seal recording
    and covering its words, every seal after it chained to that."""
    out: list[ev.Event] = []
    last = ""
    for index, event in enumerate(events):
        if isinstance(event, ev.OrderSealed):
            before = events[index - 1]
            order = event.order
            if isinstance(before, ev.MessageRelayed):
                order = _line(before, event)
            key = OrderKey(event.trigger, event.first, event.count, event.player, order)
            last = seal_mac(seed, GAME, last, key)
            event = dataclasses.replace(event, order=order, mac=last)
        out.append(event)
    return out


def _bundle(events: list[ev.Event], seed: int, reader: str | None) -> dict[str, object]:
    result: dict[str, object] = json.loads(dumps(make_bundle(GAME, seed, events, MADE, reader)))
    return result


def test_wolff_4_5_relayed_messages_are_never_provable_from_the_audit() -> None:
    played = _game()
    messages = _messages(played.events)
    assert len(messages) >= 3, "pick another game"
    for reader in (*played.players, None):
        bundle = _bundle(played.events, played.secret, reader)
        verdict = verify(bundle)
        assert verdict.ok, (reader, verdict.problem)
        text = json.dumps(bundle)
        for message, sealed in messages:
            assert message.text not in text, (reader, message)
            if reader is not None and reader in (message.visible_to or ()):
                held = [r for r in bundle["events"]  # type: ignore[union-attr]
                        if r.get("seq") == sealed.first]
                assert held and held[0]["payload"]["text"] == WORDS_NOT_SEALED
                assert held[0]["payload"]["sender"] == message.sender
    for message, sealed in messages:
        # the seal neither records the words nor covers them: with the seed, which the
        # bundle publishes, nobody can check a claimed text against the signed MAC
        assert message.text not in sealed.order
        key = OrderKey(sealed.trigger, sealed.first, sealed.count, sealed.player,
                       _line(message, sealed))
        last = _last_seal_before(played.events, sealed)
        assert seal_mac(played.secret, GAME, last, key) != sealed.mac
        assert seal_mac(played.secret, GAME, last, dataclasses.replace(key, order=sealed.order)) == sealed.mac


def _last_seal_before(events: list[ev.Event], sealed: ev.OrderSealed) -> str:
    last = ""
    for event in events:
        if event is sealed:
            return last
        if isinstance(event, ev.OrderSealed):
            last = event.mac
    raise AssertionError("the seal is not in the log")


def test_wolff_4_5_messages_sealed_with_their_words_are_left_out_of_every_bundle() -> None:
    """A game sealed before: its bundles, even the sender's and the addressee's, leave
    each message out whole with its seal, and still verify; a report that printed such
    a seal is still found in the bundle."""
    played = _game()
    old = _chain_with_words(played.events, played.secret)
    messages = _messages(old)
    assert all(message.text in sealed.order for message, sealed in messages)
    for reader in (*played.players, None):
        bundle = _bundle(old, played.secret, reader)
        verdict = verify(bundle)
        assert verdict.ok, (reader, verdict.problem)
        text = json.dumps(bundle)
        assert all(message.text not in text for message, _ in messages), reader
        hidden = {r["seq"]: r.get("seal") for r in bundle["events"] if "hidden" in r}  # type: ignore[union-attr]
        assert all(hidden.get(sealed.first) == sealed.mac for _, sealed in messages)
    message, sealed = messages[0]
    reader = message.sender
    seq = old.index(sealed) + 1
    report = f"Subject: report\n\n  event {seq}: order seal {sealed.mac}\n".encode()
    verdict = check_report(_bundle(old, played.secret, reader), report)
    assert verdict.ok, verdict.problem
