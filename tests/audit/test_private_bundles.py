"""
Each player's audit bundle (issue 23, items 2 and 3; Wolff 4.5 and 9.4): it holds what
he may know when the game is over, never the messages, shows or standing orders that
others kept between themselves, and it still verifies; and ``verify`` decides every
order again, so an edit of any field of any event, a reveal, a muster, a strike, a
score, a message, is refused and named.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from moderator.audit.verify import verify
from moderator.rules import events as ev

from .asides import AsideGame, play_with_asides
from .conftest import failed, other_hex

#: Aside games: (seed, players).  Chosen so that between them every kind of event the
#: targeted edits need happens (engagements, battles, musters, eliminations).
GAMES = ((2, 3), (5, 2), (7, 4))
PRIVATE_TYPES = ("message-relayed", "legion-shown", "standing-order-used")


@cache
def game(seed: int, players: int) -> AsideGame:
    return play_with_asides(seed, players)


@cache
def _bundle_text(seed: int, players: int, reader: str | None) -> str:
    return json.dumps(game(seed, players).bundle(reader))


@cache
def _shared_bundle(seed: int, players: int, reader: str | None) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(_bundle_text(seed, players, reader))
    return result


def shared_bundle(played: AsideGame, reader: str | None) -> dict[str, Any]:
    """``reader``'s bundle of ``played``, one copy for every test: to read, never to edit
    (``one_event_apart`` makes a copy to edit)."""
    return _shared_bundle(played.seed, len(played.players), reader)


def bundle_of(played: AsideGame, reader: str | None) -> dict[str, Any]:
    """A fresh copy of ``reader``'s bundle of ``played`` (made once per test run)."""
    result: dict[str, Any] = json.loads(_bundle_text(played.seed, len(played.players), reader))
    return result


def one_event_apart(bundle: dict[str, Any], index: int) -> dict[str, Any]:
    """
    A copy of ``bundle`` to edit event ``index`` of: that event is a deep copy of its own,
    the rest is shared (``verify`` reads a bundle and never changes it; the tests check
    that the shared one is unchanged at their end).  A whole copy per edit, for some
    two hundred edits of 2,000-event bundles, was seconds of the suite's time.
    """
    copied = dict(bundle)
    copied["events"] = events = list(bundle["events"])
    events[index] = copy.deepcopy(events[index])
    return copied


def seen_by(record: dict[str, Any], reader: str | None) -> bool:
    visible = record["payload"].get("visible_to")
    return visible is None or (reader is not None and reader in visible)


def events_of(bundle: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in bundle["events"] if "hidden" not in r]


# -- what a player's bundle holds ------------------------------------------------------


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_wolff_4_5_a_players_bundle_holds_no_aside_or_standing_order_of_others(
    seed: int, players: int
) -> None:
    played = game(seed, players)
    kinds = {e.TYPE for e in played.events}
    assert {"message-relayed", "legion-shown", "standing-order-used"} <= kinds, played
    for reader in (*played.players, None):
        bundle = played.bundle(reader)
        verdict = verify(bundle)
        assert verdict.ok, (played, reader, verdict.problem)
        held = events_of(bundle)
        for record in held:
            if record["type"] in PRIVATE_TYPES:
                assert seen_by(record, reader), (reader, record)
            if record["type"] == "order-sealed":  # an aside's seal is its audience's
                assert seen_by(record, reader), (reader, record)
        mine = [
            e for e in played.events
            if e.TYPE in PRIVATE_TYPES and reader is not None
            and e.visible_to is not None and reader in e.visible_to
        ]
        assert len([r for r in held if r["type"] in PRIVATE_TYPES]) == len(mine)
        text = str(held)
        for event in played.events:
            if event.TYPE == "message-relayed" and not (reader and reader in event.visible_to):
                assert event.text not in text, (reader, event)


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_wolff_4_5_the_bundles_of_two_players_agree_on_everything_public(
    seed: int, players: int
) -> None:
    played = game(seed, players)
    public = [
        [r for r in events_of(played.bundle(reader)) if r["payload"].get("visible_to") is None]
        for reader in (*played.players, None)
    ]
    assert all(p == public[0] for p in public[1:])
    bundles = [played.bundle(reader) for reader in played.players]
    for key in ("seed", "seed_sha256", "final", "salts", "players", "game"):
        assert all(b[key] == bundles[0][key] for b in bundles)


def test_wolff_4_5_bobs_message_to_cy_and_cys_show_to_bob_are_not_in_anns_bundle() -> None:
    """The finding: Ann's bundle held Bob's words to Cy, Cy's show to Bob and Bob's
    standing orders.  Hers holds none of them, not even in an order's line; Bob's and
    Cy's hold theirs."""
    played = game(*GAMES[0])
    pair = frozenset({"Bob", "Cy"})
    bob_to_cy = [
        e for e in played.events
        if isinstance(e, ev.MessageRelayed) and e.sender == "Bob" and e.visible_to == pair
    ]
    cy_to_bob = [
        e for e in played.events
        if isinstance(e, ev.LegionShown) and e.owner == "Cy" and e.visible_to == pair
    ]
    standing = [e for e in played.events if isinstance(e, ev.StandingOrderUsed) and e.player == "Bob"]
    assert bob_to_cy and cy_to_bob and standing, "pick another game"
    ann = json.dumps(played.bundle("Ann"))
    for message in bob_to_cy:
        assert message.text not in ann
    anns = events_of(played.bundle("Ann"))
    assert not [r for r in anns if r["type"] == "legion-shown" and r["payload"]["owner"] == "Cy"
                and set(r["payload"]["visible_to"]) == pair]
    assert not [r for r in anns if r["type"] == "standing-order-used"
                and r["payload"]["player"] == "Bob"]
    for name, kind, who, key in (("Bob", "message-relayed", "Bob", "sender"),
                                 ("Cy", "legion-shown", "Cy", "owner"),
                                 ("Bob", "standing-order-used", "Bob", "player")):
        held = [r for r in events_of(played.bundle(name))
                if r["type"] == kind and r["payload"][key] == who]
        assert held, (name, kind)


# -- every single-field edit is refused --------------------------------------------------


def edited(value: Any, rng: random.Random, players: tuple[str, ...], key: str) -> Any:
    """``value`` changed in one place, keeping its JSON shape where it can."""
    if key == "visible_to":
        if value is None:
            return [players[0]]
        if len(value) > 1 and rng.random() < 0.5:
            return value[:-1]
        extra = [p for p in players if p not in value]
        return sorted([*value, extra[0]]) if extra else None
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, 2)) if value < 2 or rng.random() < 0.5 else value - 1
    if isinstance(value, str):
        if len(value) in (32, 64) and all(c in "0123456789abcdef" for c in value):
            return other_hex(value, rng)
        return value + rng.choice(("x", " ", "1")) if value else "Ogre"
    if value is None:
        return rng.choice((1, "Ogre"))
    if isinstance(value, list):
        if not value:
            return ["Ogre"]
        if rng.random() < 0.3:
            return value[:-1]
        index = rng.randrange(len(value))
        return [*value[:index], edited(value[index], rng, players, key), *value[index + 1 :]]
    raise AssertionError(f"cannot edit {value!r}")


def edits(bundle: dict[str, Any], played: AsideGame, rng: random.Random, count: int) -> list[Any]:
    """``count`` copies of ``bundle``, each with one field of one event edited: (the
    bundle, the event's number, its type, the field)."""
    places = [
        (index, key)
        for index, record in enumerate(bundle["events"])
        for key in (record.get("payload", ("hidden", "seal")))
        if "payload" in record or key in record
    ]
    out = []
    for index, key in rng.sample(places, min(count, len(places))):
        copied = one_event_apart(bundle, index)
        record = copied["events"][index]
        where = record.get("payload", record)
        before = where[key]
        where[key] = edited(before, rng, played.players, key)
        if where[key] == before:
            continue
        out.append((copied, record["seq"], record.get("type", "hidden"), key))
    return out


@pytest.mark.long
@settings(
    max_examples=3,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # shrinking a whole game takes minutes
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 3))
def test_wolff_1_3_and_4_5_every_single_field_edit_of_any_event_is_refused(
    seed: int, players: int
) -> None:
    """Random finished games with messages, shows and standing orders: every player's
    bundle verifies, and any one field of any event changed is refused."""
    played = play_with_asides(seed, players)
    rng = random.Random(seed)
    for reader in played.players:
        bundle = played.bundle(reader)
        assert verify(bundle).ok
        for copied, seq, kind, key in edits(bundle, played, rng, 15):
            verdict = verify(copied)
            assert not verdict.ok, f"{played}, {reader}: {kind} {key} of event {seq} passed"
        assert bundle == played.bundle(reader)  # the edits shared it and left it as it was


@pytest.mark.long
def test_wolff_1_3_and_4_5_an_edit_of_every_kind_of_field_is_refused() -> None:
    """Every (event type, field) that the games' bundles hold, edited at the first of
    its events in the bundle of a player who sees it (the property test above edits
    fields anywhere in the log)."""
    tried: dict[tuple[str, str], int] = {}
    for seed, players in GAMES:
        played = game(seed, players)
        rng = random.Random(f"every-field:{seed}")
        for reader in played.players:
            bundle = bundle_of(played, reader)
            by_kind: dict[tuple[str, str], list[int]] = {}
            for index, record in enumerate(bundle["events"]):
                keys = record["payload"] if "payload" in record else [
                    k for k in ("hidden", "seal") if k in record
                ]
                for key in keys:
                    by_kind.setdefault((record.get("type", "hidden"), key), []).append(index)
            for kind, indexes in by_kind.items():
                if tried.get(kind, 0) >= 1:
                    continue
                for index in indexes[:1]:
                    copied = one_event_apart(bundle, index)
                    record = copied["events"][index]
                    where = record.get("payload", record)
                    where[kind[1]] = edited(where[kind[1]], rng, played.players, kind[1])
                    verdict = verify(copied)
                    assert not verdict.ok, f"{played}, {reader}: {kind} at {record['seq']} passed"
                    tried[kind] = tried.get(kind, 0) + 1
            assert bundle == bundle_of(played, reader)  # shared by the edits, left as it was
    assert len(tried) > 100, sorted(tried)


# -- the finding's targeted edits ---------------------------------------------------------

#: The finding's 20 edits of an honest bundle: (what, event type, field, how to edit it).
TARGETED = (
    ("the contents revealed at an engagement", "legion-revealed", "contents", "swap"),
    ("a muster's shown recruiters", "creature-mustered", "shown", "swap"),
    ("the characters of a show", "legion-shown", "characters", "swap"),
    ("a battle fighter's creature", "battle-started", "fighters", "creature"),
    ("a strike's target", "strike-rolled", "target", "other-fighter"),
    ("a strike's striker", "strike-rolled", "striker", "other-fighter"),
    ("an engagement's points", "engagement-resolved", "points", "more"),
    ("an engagement's winner", "engagement-resolved", "winner", "other-legion"),
    ("an eliminated player's legions", "player-eliminated", "legions", "drop"),
    ("who got the eliminated player's markers", "player-eliminated", "markers_to", "other-player"),
    ("which fighter was removed as slain", "slain-removed", "fighters", "other-fighter"),
    ("a message's text", "message-relayed", "text", "text"),
    ("a message's audience", "message-relayed", "visible_to", "audience"),
    ("a standing order's text", "standing-order-used", "standing", "other-standing"),
    ("a standing order's order", "standing-order-used", "order", "text"),
    ("the points actually scored", "points-scored", "points", "more"),
    ("a strike number", "strike-rolled", "strike_number", "more"),
    ("the hits of a strike", "strike-rolled", "hits", "more"),
    ("the defender's losses", "engagement-resolved", "defender_losses", "drop"),
    ("the contents of a split", "split-contents", "moved", "swap"),
)


def _targeted(value: Any, how: str, record: dict[str, Any], played: AsideGame) -> Any:
    creatures = ("Ogre", "Troll", "Centaur", "Gargoyle", "Lion", "Cyclops")
    if how == "swap":
        other = next(c for c in creatures if c not in value)
        return [other, *value[1:]] if value else [other]
    if how == "creature":
        fighters = copy.deepcopy(value)
        for entry in fighters:
            if isinstance(entry, list) and any(isinstance(x, str) and x in creatures for x in entry):
                at = next(i for i, x in enumerate(entry) if isinstance(x, str) and x in creatures)
                entry[at] = next(c for c in creatures if c != entry[at])
                return fighters
        return [*fighters[:-1]]
    if how == "more":
        return value + 1
    if how == "drop":
        return value[:-1] if value else ["Ogre"]
    if how == "other-player":
        if isinstance(value, str):
            return next(p for p in played.players if p != value)
        return next(p for p in played.players)
    if how == "other-legion":
        return "Bk99" if value else "Rd01"
    if how == "other-fighter":  # another fighter of the same battle (they are numbered)
        if isinstance(value, int):
            return value + 1 if value > 1 else 2
        return [value[0] + 1 if value[0] > 1 else 2, *value[1:]]
    if how == "text":
        return value + " and more"
    if how == "audience":
        return list(value[:-1]) or list(played.players)
    if how == "other-standing":
        return "standing muster best" if value != "standing muster best" else "standing no concede"
    raise AssertionError(how)


def test_the_findings_twenty_targeted_edits_are_all_refused() -> None:
    refused = []
    edited_in: set[tuple[int, int, str]] = set()
    for what, kind, key, how in TARGETED:
        found = None
        for seed, players in GAMES:
            played = game(seed, players)
            for reader in played.players:
                bundle = shared_bundle(played, reader)
                at = [
                    i for i, r in enumerate(bundle["events"])
                    if r.get("type") == kind and r["payload"].get(key) not in (None, [], 0)
                ]
                if at:
                    found = (played, reader, bundle, at[len(at) // 2])
                    break
            if found:
                break
        assert found is not None, f"no {kind} with a {key} in the games: {what}"
        played, reader, bundle, index = found
        copied = one_event_apart(bundle, index)
        record = copied["events"][index]
        record["payload"][key] = _targeted(record["payload"][key], how, record, played)
        event, why = failed(verify(copied))
        assert event >= record["seq"] or why, (what, event, why)
        refused.append((what, event, why))
        edited_in.add((played.seed, len(played.players), reader))
    for key in edited_in:  # copies were edited, the shared bundles left alone
        assert _shared_bundle(*key) == json.loads(_bundle_text(*key))
    assert len(refused) == 20
    print(f"\n{len(refused)} of {len(TARGETED)} targeted edits refused:")
    for what, event, why in refused:
        print(f"  {what}: event {event}: {why[:110]}")
