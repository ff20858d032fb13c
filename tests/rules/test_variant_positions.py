"""A position file (rulebook 20.5, docs/positions.md) of each shipped variant names it and
round-trips: restored, exported and restored again, it is the same file and position."""

from __future__ import annotations

import json

import pytest

from moderator.rules.evolve import replay
from moderator.rules.positions import export_position, position_event
from moderator.rules.variant import STANDARD, load_variant, shipped_variants
from tests.rules.conftest import build_position


@pytest.mark.parametrize("variant", shipped_variants())
def test_20_5_a_position_of_each_variant_names_it_and_round_trips(variant: str) -> None:
    lion, troll = "Lion", "Troll"  # characters every shipped variant has
    data = build_position(
        [
            ("Rd01", 600, f"Titan Angel {lion} {lion}"),
            ("Rd02", 3, f"{troll} {troll}", True),
            ("Bu01", 300, f"Titan Angel {troll}"),
            ("Gr01", 100, f"Titan {lion}"),
        ],
        players=("Ann", "Bob", "Cy"),
        variant=variant,
    )
    state = replay([position_event(data)])
    exported = json.loads(json.dumps(export_position(state)))
    assert exported.get("variant", STANDARD) == variant
    again = replay([position_event(exported)])
    assert again.variant_name == variant and export_position(again) == exported
    per_player = load_variant(variant).options.markers_per_player
    assert [len(p.markers) for p in again.players] == [per_player] * 3
