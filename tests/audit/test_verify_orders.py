"""
``titan-moderator verify`` on the notes after every order and on what the dice decided
(issue 16; Wolff 1.3, 1.3.1, 4.5 and 7.0): every order of a game with bound dice ends
with an ``order-sealed`` note, followed by exactly the openings and commitments the
order calls for, and the verifier re-derives them; a strike's hits, the towers and a
move's land must follow from the dice.  Each tampering is named with the event where
the test works out it is first seen.
"""

from __future__ import annotations

import copy
import dataclasses
from itertools import pairwise
from typing import Any

import pytest

from moderator.audit.commitments import commitment_for, salt_for
from moderator.audit.verify import verify
from moderator.rules import events as ev
from moderator.rules.movement import legion_moves
from moderator.rules.variant import STANDARD, load_variant

from .conftest import (
    AUDIT_TYPES,
    GAME,
    Played,
    dice_in,
    failed,
    named,
    notes_after,
    rebundled,
    records,
    renumbered,
    sample,
    towers_due,
)


def honest_commitment(game: Played, marker: str, seq: int) -> ev.LegionCommitted:
    """A commitment to what ``marker`` holds before event ``seq``, as event ``seq``
    would carry it: right in everything but its place."""
    contents = game.befores[seq - 1].legions[marker].contents
    salt = salt_for(game.secret, GAME, marker, seq)
    return ev.LegionCommitted(
        marker=marker, commitment=commitment_for(GAME, marker, seq, salt, contents)
    )


def hidden_legions(game: Played, seq: int) -> list[str]:
    """The legions hidden from somebody before event ``seq``."""
    return sorted(m for m, lg in game.befores[seq - 1].legions.items() if lg.known_to is not None)


def quiet_notes(bundle: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(note, the next order's note) for each order that rolled no dice and whose
    notes are its order-sealed note alone."""
    notes = records(bundle, "order-sealed")
    return [
        (note, after)
        for note, after in pairwise(notes)
        if note["payload"]["count"] == 0
        and bundle["events"][note["seq"]]["type"] not in AUDIT_TYPES
    ]


# -- an order's notes removed, added, moved (Wolff 1.3, 4.5) ---------------------


def test_wolff_1_3_a_note_removed_from_an_order_without_dice_is_detected(
    all_played: list[Played],
) -> None:
    """
    The order-sealed note of an order that rolled nothing removed (the events numbered
    again).  When the order's notes go on with an opening, that opening is named where
    the note stood: it stands outside any order's notes.  When the note was alone, the
    next note names a first event that is not the one right after the last notes.
    """
    opened = alone = 0
    for game in all_played:
        rng = game.rng("quiet-note")
        bundle = game.bundle()
        with_opening = [
            n
            for n in records(bundle, "order-sealed")
            if n["payload"]["count"] == 0
            and notes_after(bundle, n["seq"])[:1]
            and notes_after(bundle, n["seq"])[0]["type"] == "commitment-opened"
        ]
        for note in sample(rng, with_opening):
            tampered = game.bundle()
            del tampered["events"][note["seq"] - 1]
            renumbered(tampered)
            opening = notes_after(bundle, note["seq"])[0]["payload"]["marker"]
            assert failed(verify(tampered)) == (
                note["seq"],
                f"commitment-opened of {opening} stands outside any order's notes",
            )
            opened += 1
        die_first = [
            (note, after)
            for note, after in quiet_notes(bundle)
            if dice_in(bundle["events"][after["payload"]["first"] - 1])
        ]
        for note, after in sample(rng, die_first):
            tampered = game.bundle()
            del tampered["events"][note["seq"] - 1]
            renumbered(tampered)
            first = after["payload"]["first"]  # no longer right after the last notes
            assert failed(verify(tampered)) == (
                after["seq"] - 1, f"says its order began at event {first}, which it cannot"
            )
            alone += 1
    assert opened >= len(all_played) and alone >= 2 * len(all_played)


def test_wolff_1_3_a_lone_note_removed_from_an_order_without_dice_is_named_at_the_next(
    all_played: list[Played],
) -> None:
    game = all_played[0]
    bundle = game.bundle()
    candidates = [
        (note, after)
        for note, after in quiet_notes(bundle)
        if not dice_in(bundle["events"][after["payload"]["first"] - 1])
    ]
    assert candidates
    for note, after in [*sample(game.rng("lone-note"), candidates), candidates[-1]]:
        tampered = game.bundle()
        del tampered["events"][note["seq"] - 1]
        renumbered(tampered)
        assert failed(verify(tampered))[0] == after["seq"] - 1, (note["seq"], after["seq"])


def test_wolff_4_5_a_commitment_outside_any_orders_notes_is_named(played: Played) -> None:
    """A commitment to a hidden legion, right in its contents, salt and number, put
    between the notes of one order and the events of the next: it is named there."""
    rng = played.rng("outside")
    starts = [
        r["payload"]["first"]
        for r in records(played.bundle(), "order-sealed")
        if r["payload"]["first"] > 1 and hidden_legions(played, r["payload"]["first"])
    ]
    for seq in sample(rng, starts):
        marker = rng.choice(hidden_legions(played, seq))
        events = list(played.events)
        events.insert(seq - 1, honest_commitment(played, marker, seq))
        bundle = rebundled(played, events)
        assert failed(verify(bundle)) == (
            seq,
            f"legion-committed of {marker} stands outside any order's notes",
        )


def test_wolff_4_5_an_extra_commitment_among_an_orders_notes_is_named(played: Played) -> None:
    """A commitment to a hidden legion the order did not change, right in itself, put
    first among the order's notes: the notes the order calls for are named."""
    rng = played.rng("extra")
    bundle = played.bundle()
    tried = 0
    for note in sample(
        rng, [n for n in records(bundle, "order-sealed") if notes_after(bundle, n["seq"])]
    ):
        notes = notes_after(bundle, note["seq"])
        seq = note["seq"] + 1
        others = [
            m
            for m in hidden_legions(played, seq)
            if m not in {n["payload"]["marker"] for n in notes}
        ]
        if not others:
            continue
        marker = rng.choice(others)
        events = list(played.events)
        events.insert(seq - 1, honest_commitment(played, marker, seq))
        why = (
            f"the order's notes call for {named(notes[0])} here, "
            f"the log has legion-committed of {marker}"
        )
        assert failed(verify(rebundled(played, events))) == (seq, why)
        tried += 1
    assert tried


def test_wolff_4_5_commitments_out_of_order_are_named(all_played: list[Played]) -> None:
    """Two commitments of an order's notes swapped, each made right for its new place:
    the notes come in marker order, and the first out of place is named."""
    tried = 0
    for game in all_played:
        bundle = game.bundle()
        pairs = [
            (first, second)
            for note in records(bundle, "order-sealed")
            for first, second in pairwise(notes_after(bundle, note["seq"]))
            if first["type"] == second["type"] == "legion-committed"
        ]
        for first, second in sample(game.rng("swap"), pairs, 2):
            seq = first["seq"]
            one, two = first["payload"]["marker"], second["payload"]["marker"]
            events = list(game.events)
            events[seq - 1] = honest_commitment(game, two, seq)
            events[seq] = honest_commitment(game, one, seq + 1)
            why = (
                f"the order's notes call for legion-committed of {one} here, "
                f"the log has legion-committed of {two}"
            )
            assert failed(verify(rebundled(game, events))) == (seq, why)
            tried += 1
    assert tried >= len(all_played)


@pytest.mark.parametrize("kind", ["legion-committed", "commitment-opened"])
def test_wolff_4_5_a_note_left_out_is_named_where_it_should_stand(
    played: Played, kind: str
) -> None:
    """The last opening or commitment of an order's notes left out (the bundle made
    again without it): the event now in its place is named, with the note called for
    (or the last event, when the game's last note is left out)."""
    rng = played.rng(f"left-out:{kind}")
    bundle = played.bundle()
    last = [
        notes[-1]
        for note in records(bundle, "order-sealed")
        if (notes := notes_after(bundle, note["seq"])) and notes[-1]["type"] == kind
    ]
    assert last, f"{played} has no order whose notes end with a {kind}"
    for record in sample(rng, last):
        seq = record["seq"]
        events = list(played.events)
        del events[seq - 1]
        if seq == len(played.events):  # the game's last order: the log ends too soon
            why = f"the log ends before the notes it calls for ({named(record)})"
            assert failed(verify(rebundled(played, events))) == (seq - 1, why)
            continue
        following = bundle["events"][seq]
        assert following["type"] not in AUDIT_TYPES
        assert failed(verify(rebundled(played, events))) == (
            seq,
            f"the order's notes call for {named(record)} here, the log has {named(following)}",
        )


def test_wolff_1_3_a_second_seed_committed_event_is_named(played: Played) -> None:
    """The seed's SHA-256 published again, right after the first or between two
    orders later, with the same digest or another: named where it stands."""
    rng = played.rng("second-seed")
    bundle = played.bundle()
    (published,) = records(bundle, "seed-committed")
    starts = [r["payload"]["first"] for r in records(bundle, "order-sealed")][1:]
    for seq in [published["seq"] + 1, *sample(rng, starts)]:
        for digest in (published["payload"]["sha256"], "0" * 64):
            tampered = played.bundle()
            again = copy.deepcopy(published)
            again["payload"]["sha256"] = digest
            tampered["events"].insert(seq - 1, again)
            renumbered(tampered)
            assert failed(verify(tampered)) == (
                seq,
                "the seed's SHA-256 is published a second time",
            )


# -- what the dice decided (Wolff 1.3.1, 2.3, 7.0) -------------------------------


def test_wolff_1_3_1_towers_that_do_not_follow_from_their_rolls_are_named(
    played: Played,
) -> None:
    """A tower taken from a player who rolled it, given to one whose roll was not
    unique, or exchanged for another: the rolls are fair, the towers named wrong."""
    tried = 0
    for record in records(played.bundle(), "towers-rolled"):
        seq, payload = record["seq"], record["payload"]
        assigned = [tuple(a) for a in payload["assigned"]]
        values = [value for _, value in payload["rolls"]]
        tamperings = []
        if assigned:
            tamperings.append(assigned[:-1])
            name, tower = assigned[0]
            tamperings.append([(name, tower % 600 + 100), *assigned[1:]])
        tied = [(n, v * 100) for n, v in payload["rolls"] if values.count(v) > 1]
        if tied:
            tamperings.append([*assigned, tied[0]])
        for towers in tamperings:
            bundle = played.bundle()
            bundle["events"][seq - 1]["payload"]["assigned"] = [list(t) for t in towers]
            assert failed(verify(bundle)) == (
                seq,
                f"the towers {towers} do not follow from the rolls",
            )
            tried += 1
    assert tried


def test_wolff_1_3_1_fair_tower_dice_given_to_other_players_are_named(
    all_played: list[Played],
) -> None:
    for game in all_played[:3]:
        seq, rolled = next(
            (seq, e)
            for seq, e in reversed(list(enumerate(game.events, start=1)))
            if isinstance(e, ev.TowersRolled) and len({v for _, v in e.rolls}) > 1
        )
        names = [name for name, _ in rolled.rolls]
        values = [value for _, value in rolled.rolls]
        other = next(i for i, value in enumerate(values) if value != values[0])
        names[0], names[other] = names[other], names[0]
        swapped = tuple(zip(names, values, strict=True))
        events = list(game.events)
        events[seq - 1] = dataclasses.replace(
            rolled,
            rolls=swapped,
            assigned=tuple(towers_due(game.befores[seq - 1], [list(r) for r in swapped])),
        )
        assert failed(verify(rebundled(game, events)))[0] == seq, game


def test_wolff_2_3_a_legion_moved_to_a_land_its_roll_does_not_allow_is_named(
    played: Played,
) -> None:
    rng = played.rng("illegal-move")
    lands = sorted(load_variant(STANDARD).lands)
    for record in sample(rng, records(played.bundle(), "legion-moved")):
        seq, marker = record["seq"], record["payload"]["marker"]
        before = played.befores[seq - 1]
        assert before.roll is not None
        allowed = {o.land for o in legion_moves(before, before.legions[marker])}
        assert record["payload"]["to_land"] in allowed
        land = rng.choice([land for land in lands if land not in allowed])
        bundle = played.bundle()
        bundle["events"][seq - 1]["payload"]["to_land"] = land
        assert failed(verify(bundle)) == (
            seq,
            f"{marker} may not move to {land} on a roll of {before.roll}",
        )


def test_wolff_7_0_a_drawn_entry_side_that_does_not_follow_from_its_roll_is_named(
    drawn: list[Played],
) -> None:
    for game in drawn:
        for record in records(game.bundle(), "legion-moved"):
            if not dice_in(record):
                continue
            seq, payload = record["seq"], record["payload"]
            before = game.befores[seq - 1]
            option = next(
                o
                for o in legion_moves(before, before.legions[payload["marker"]])
                if o.land == payload["to_land"]
            )
            sides = option.entries
            assert payload["entry"] == sides[(payload["entry_roll"] - 1) * len(sides) // 6]
            bundle = game.bundle()
            other = next(side for side in sides if side != payload["entry"])
            bundle["events"][seq - 1]["payload"]["entry"] = other
            assert failed(verify(bundle))[0] == seq, (game, seq)
