"""
A position file of a group's own variant (docs/positions.md, docs/variants.md): the
restored game records the variant's digest like a new one, and is refused once the
variant's files change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.rules.evolve import replay
from moderator.rules.positions import position_event
from moderator.rules.variant import VariantChangedError, read_own_variant
from moderator.runtime.variants import install_own_variants
from tests.ownvariant import NAME, change_muster, installed
from tests.rules.conftest import build_position


def _position() -> dict:
    return build_position(
        [("Rd01", 600, "Titan Angel Centaur"), ("Bu01", 300, "Titan Centaur")], phase="split", variant=NAME
    )


def test_a_position_of_an_own_variant_records_its_digest_and_is_refused_once_it_changed(tmp_path: Path) -> None:
    with installed(tmp_path) as directory:
        event = position_event(_position())
        assert event.variant == NAME and event.variant_digest == read_own_variant(directory).digest
        state = replay([event])
        assert state.variant_digest == event.variant_digest
        assert dict(state.variant.muster_chains["Plains"])["Lion"] == 1
        change_muster(directory)
        install_own_variants(str(tmp_path))
        with pytest.raises(VariantChangedError, match="changed since the game began"):
            replay([event])
