"""
``moderator.audit.seal`` on hand-built states (Wolff 4.5: the moderator may be held to
what a hidden legion holds): a hidden legion whose contents change, appear or go out
of sight is committed to; a legion whose knowledge widens has its latest commitment
opened with the contents before; public legions get nothing.  The notes are numbered
after the order's events: the first note is event ``after.version + 1``.
"""

from __future__ import annotations

import pytest

from moderator.audit.commitments import commitment_for, salt_for
from moderator.audit.seal import OrderKey, Sealed, seal, seal_mac
from moderator.rules import events as ev
from moderator.rules.state import Audience, GameState, Legion

SEED = 0xC0FFEE
HIDDEN: Audience = frozenset()


def legion(
    marker: str, contents: tuple[str, ...], known_to: Audience = HIDDEN, owner: str = "Ann"
) -> Legion:
    return Legion(
        marker=marker, owner=owner, land=100, contents=tuple(sorted(contents)), known_to=known_to
    )


def state(version: int, *legions: Legion) -> GameState:
    return GameState(legions={lg.marker: lg for lg in legions}, version=version)


def sealed(
    before: GameState,
    after: GameState,
    commitments: dict[str, int] | None = None,
    dice: OrderKey | None = None,
) -> Sealed:
    return seal(before, after, game="g1", seed=SEED, commitments=commitments or {}, dice=dice)


def committed(marker: str, seq: int, contents: tuple[str, ...]) -> ev.LegionCommitted:
    salt = salt_for(SEED, "g1", marker, seq)
    return ev.LegionCommitted(
        marker=marker, commitment=commitment_for("g1", marker, seq, salt, contents)
    )


ROD = ("Gargoyle", "Ogre", "Titan")


def test_wolff_4_5_a_hidden_legion_whose_contents_change_is_committed_to() -> None:
    before = state(10, legion("Rd01", ROD))
    after = state(12, legion("Rd01", (*ROD, "Ogre")))
    result = sealed(before, after, {"Rd01": 4})
    assert result.events == (committed("Rd01", 13, (*ROD, "Ogre")),)
    assert result.commitments == {"Rd01": 13}
    # the commitment is to the contents, whatever their order, with the seed's salt
    assert result.events[0] == committed("Rd01", 13, ("Titan", "Ogre", "Ogre", "Gargoyle"))
    assert result.events[0] != committed("Rd01", 13, ROD)


def test_wolff_4_5_a_hidden_legion_that_does_not_change_gets_nothing() -> None:
    before = state(10, legion("Rd01", ROD))
    after = state(12, legion("Rd01", ROD))
    assert sealed(before, after, {"Rd01": 4}) == Sealed((), {"Rd01": 4})


def test_wolff_4_5_a_public_legion_gets_no_commitment() -> None:
    before = state(10, legion("Rd01", ROD, known_to=None))
    after = state(12, legion("Rd01", (*ROD, "Ogre"), known_to=None))
    assert sealed(before, after) == Sealed((), {})
    assert sealed(before, after, {"Rd01": 4}) == Sealed((), {"Rd01": 4})


@pytest.mark.parametrize(
    ("known_after", "visible_to"),
    [(None, None), (frozenset({"Bob"}), frozenset({"Ann", "Bob"}))],
    ids=["to-everybody", "to-bob"],
)
def test_wolff_4_5_a_legion_whose_knowledge_widens_has_its_commitment_opened(
    known_after: Audience, visible_to: Audience
) -> None:
    """Opened with the salt ``salt_for`` gives the commitment's event and the contents
    it held before, to the owner and those who now know it."""
    before = state(20, legion("Rd01", ROD))
    after = state(21, legion("Rd01", ROD, known_to=known_after))
    result = sealed(before, after, {"Rd01": 7})
    assert result.events == (
        ev.CommitmentOpened(
            marker="Rd01",
            seq=7,
            contents=ROD,
            salt=salt_for(SEED, "g1", "Rd01", 7),
            visible_to=visible_to,
        ),
    )
    assert result.commitments == {"Rd01": 7}  # still its latest: it holds the same


def test_wolff_4_5_an_opening_shows_the_contents_before_the_order() -> None:
    """Shown to Bob and changed in the same order: the opening shows what the opened
    commitment was to, and a new commitment follows, numbered after it."""
    before = state(20, legion("Rd01", ROD, known_to=frozenset({"Cy"})))
    after = state(23, legion("Rd01", ("Ogre", "Titan"), known_to=frozenset({"Bob", "Cy"})))
    result = sealed(before, after, {"Rd01": 7})
    assert result.events == (
        ev.CommitmentOpened(
            marker="Rd01",
            seq=7,
            contents=ROD,
            salt=salt_for(SEED, "g1", "Rd01", 7),
            visible_to=frozenset({"Ann", "Bob", "Cy"}),
        ),
        committed("Rd01", 25, ("Ogre", "Titan")),
    )
    assert result.commitments == {"Rd01": 25}


def test_wolff_4_5_knowledge_that_narrows_or_stays_opens_nothing() -> None:
    before = state(20, legion("Rd01", ROD, known_to=frozenset({"Bob", "Cy"})))
    for known in (frozenset({"Bob"}), frozenset({"Bob", "Cy"}), HIDDEN):
        after = state(21, legion("Rd01", ROD, known_to=known))
        assert sealed(before, after, {"Rd01": 7}) == Sealed((), {"Rd01": 7})


def test_wolff_4_5_a_legion_widening_with_no_commitment_has_nothing_to_open() -> None:
    before = state(20, legion("Rd01", ROD))
    after = state(21, legion("Rd01", ROD, known_to=None))
    assert sealed(before, after, {}) == Sealed((), {})


def test_wolff_4_5_a_split_commits_to_the_parent_and_the_new_hidden_child() -> None:
    before = state(30, legion("Rd01", (*ROD, "Centaur", "Centaur"), known_to=None))
    after = state(
        32,
        legion("Rd01", ("Gargoyle", "Titan")),
        legion("Rd02", ("Centaur", "Centaur", "Ogre")),
    )
    result = sealed(before, after, {"Rd01": 3})
    assert result.events == (
        committed("Rd01", 33, ("Gargoyle", "Titan")),
        committed("Rd02", 34, ("Centaur", "Centaur", "Ogre")),
    )
    assert result.commitments == {"Rd01": 33, "Rd02": 34}


def test_wolff_4_5_a_public_legion_going_out_of_sight_is_committed_to_again() -> None:
    """Even with the same contents and an old commitment on the record."""
    before = state(40, legion("Rd01", ROD, known_to=None))
    after = state(41, legion("Rd01", ROD))
    assert sealed(before, after, {"Rd01": 9}) == Sealed((committed("Rd01", 42, ROD),), {"Rd01": 42})


def test_wolff_4_5_a_hidden_legion_with_no_commitment_on_record_gets_one() -> None:
    before = state(40, legion("Rd01", ROD))
    after = state(41, legion("Rd01", ROD))
    assert sealed(before, after, {}) == Sealed((committed("Rd01", 42, ROD),), {"Rd01": 42})


def test_wolff_4_5_the_commitments_drop_legions_no_longer_on_the_board() -> None:
    before = state(50, legion("Rd01", ROD), legion("Rd02", ("Ogre",)), legion("Bu01", ROD))
    after = state(53, legion("Rd01", ROD))
    result = sealed(before, after, {"Rd01": 5, "Rd02": 6, "Bu01": 8})
    assert result == Sealed((), {"Rd01": 5})


def test_wolff_1_3_an_order_is_sealed_whether_it_rolled_or_not() -> None:
    """With a OrderKey the first note is the order-sealed one, even for no dice (count
    0): the commitments after it are numbered after it."""
    before = state(60, legion("Rd01", ROD))
    after = state(62, legion("Rd01", (*ROD, "Ogre")))
    for count in (0, 3):
        key = OrderKey("mail", 61, count, "Ann", "split Rd01")
        result = sealed(before, after, {"Rd01": 5}, key)
        assert result.events == (
            ev.OrderSealed(
                trigger="mail", first=61, count=count, player="Ann", order="split Rd01",
                mac=seal_mac(SEED, "g1", "", key),
            ),
            committed("Rd01", 64, (*ROD, "Ogre")),  # numbered after the order-sealed note
        )
        assert result.commitments == {"Rd01": 64}
    key = OrderKey("mail", 63, 0)
    mac = seal_mac(SEED, "g1", "", key)
    quiet = sealed(after, after, {"Rd01": 5}, key)
    assert quiet == Sealed(
        (ev.OrderSealed(trigger="mail", first=63, count=0, mac=mac),), {"Rd01": 5}, mac
    )


def test_wolff_4_5_without_a_dice_key_no_order_is_sealed() -> None:
    """Unbound dice give no OrderKey: the notes are the commitments alone, numbered
    from the event after the order's."""
    before = state(60, legion("Rd01", ROD))
    after = state(62, legion("Rd01", (*ROD, "Ogre")))
    result = sealed(before, after, {"Rd01": 5})
    assert result.events == (committed("Rd01", 63, (*ROD, "Ogre")),)
    assert result.commitments == {"Rd01": 63}


def test_wolff_4_5_notes_are_opening_first_then_commitments_in_marker_order() -> None:
    before = state(
        70,
        legion("Rd02", ROD, known_to=None),
        legion("Rd01", ROD),
        legion("Bu01", ("Ogre", "Titan"), owner="Bob"),
    )
    after = state(
        72,
        legion("Rd02", ROD),
        legion("Rd01", (*ROD, "Ogre")),
        legion("Bu01", ("Ogre", "Titan"), known_to=frozenset({"Ann"}), owner="Bob"),
    )
    result = sealed(before, after, {"Rd01": 3, "Bu01": 4}, OrderKey("m", 71, 1))
    assert [type(e) for e in result.events] == [
        ev.OrderSealed,
        ev.CommitmentOpened,
        ev.LegionCommitted,
        ev.LegionCommitted,
    ]
    opened = result.events[1]
    assert isinstance(opened, ev.CommitmentOpened)
    assert (opened.marker, opened.seq, opened.visible_to) == ("Bu01", 4, frozenset({"Ann", "Bob"}))
    assert result.events[2:] == (
        committed("Rd01", 75, (*ROD, "Ogre")),
        committed("Rd02", 76, ROD),
    )
    assert result.commitments == {"Rd01": 75, "Rd02": 76, "Bu01": 4}


def test_wolff_4_5_a_show_opens_the_commitment_to_its_audience_only() -> None:
    """A whole show opens its legion's latest commitment to those shown (and the owner),
    never to the others; a show of a part opens nothing, since the opening would tell
    more than was shown."""
    before = state(80, legion("Rd01", ROD))
    shown = ev.LegionShown(
        owner="Ann", marker="Rd01", characters=ROD, whole=True, visible_to=frozenset({"Ann", "Bob"})
    )
    after = state(81, replace_shown(legion("Rd01", ROD), {"Ann", "Bob"}))
    key = OrderKey("mail", 81, 0, "Ann", "show Rd01 to Bob")
    result = seal(
        before, after, game="g1", seed=SEED, commitments={"Rd01": 12}, dice=key, events=[shown]
    )
    seal_note, opening = result.events
    assert isinstance(seal_note, ev.OrderSealed) and seal_note.visible_to == {"Ann", "Bob"}
    assert opening == ev.CommitmentOpened(
        marker="Rd01", seq=12, contents=ROD, salt=salt_for(SEED, "g1", "Rd01", 12),
        visible_to=frozenset({"Ann", "Bob"}),
    )
    part = ev.LegionShown(
        owner="Ann", marker="Rd01", characters=("Ogre",), whole=False,
        visible_to=frozenset({"Ann", "Bob"}),
    )
    result = seal(
        before, before, game="g1", seed=SEED, commitments={"Rd01": 12}, dice=key, events=[part]
    )
    assert [type(e) for e in result.events] == [ev.OrderSealed]


def test_wolff_4_5_what_was_shown_is_kept_apart_from_what_the_game_revealed() -> None:
    """A show widens ``shown_to``, never ``known_to``: the audit's notes of every later
    order are the same whether or not a reader of the log may see the show."""
    from moderator.rules.evolve import evolve

    base = state(80, legion("Rd01", ROD))
    shown = ev.LegionShown(
        owner="Ann", marker="Rd01", characters=ROD, whole=True, visible_to=frozenset({"Ann", "Bob"})
    )
    after = evolve(base, shown)
    legion_after = after.legions["Rd01"]
    assert legion_after.known_to == frozenset() and legion_after.shown_to == {"Ann", "Bob"}
    assert legion_after.known_by("Bob") and not legion_after.known_by("Cy")


def test_wolff_1_3_each_seal_is_chained_to_the_one_before() -> None:
    first = OrderKey("mail-a", 10, 1, "Ann", "roll")
    second = OrderKey("mail-b", 12, 0, "Ann", "done")
    one = seal_mac(SEED, "g1", "", first)
    assert seal_mac(SEED, "g1", one, second) != seal_mac(SEED, "g1", "", second)
    assert seal_mac(SEED, "g1", one, second) != seal_mac(SEED + 1, "g1", one, second)
    changed = OrderKey("mail-c", 12, 0, "Ann", "done")  # another mail, no dice
    assert seal_mac(SEED, "g1", one, changed) != seal_mac(SEED, "g1", one, second)


def replace_shown(lg: Legion, to: set[str]) -> Legion:
    from dataclasses import replace

    return replace(lg, shown_to=frozenset(to))
