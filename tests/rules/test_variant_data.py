"""
Variants as data: every shipped variant passes the schema check, and a broken copy of
one is refused with a message that names the file at fault and says what is wrong.

The broken copies are made in a temporary directory from the shipped files and loaded
from that path (``load_variant_from``), as a group's own variant would be.
"""

from __future__ import annotations

import re
import shutil
from importlib.resources import as_file, files
from pathlib import Path

import pytest

from moderator.rules.variant import (
    VariantDataError,
    load_variant,
    load_variant_from,
    shipped_variants,
)
from moderator.rules.variant_check import check_variant

DATA = files("moderator.rules") / "data"


def test_the_shipped_variants_are_standard_titanplus_and_badlands() -> None:
    assert {"standard", "titanplus", "badlands"} <= set(shipped_variants())


@pytest.mark.parametrize("name", shipped_variants())
def test_every_shipped_variant_passes_the_schema_check(name: str) -> None:
    """Signs pair (7.3), terrains have battlelands, counts are positive, chains reachable."""
    variant = load_variant(name)
    check_variant(variant)
    assert variant.title and variant.source


@pytest.mark.parametrize("name", shipped_variants())
def test_a_shipped_variant_loads_the_same_from_a_path(name: str, tmp_path: Path) -> None:
    with as_file(DATA / name) as source:
        copy = shutil.copytree(source, tmp_path / name)
    loaded = load_variant_from(copy)
    shipped = load_variant(name)
    assert loaded.name == shipped.name
    assert loaded.lands == shipped.lands and loaded.creatures == shipped.creatures
    assert loaded.muster_chains == shipped.muster_chains


def _broken(tmp_path: Path, name: str, file: str, old: str, new: str, count: int = 1) -> Path:
    """A copy of the shipped ``name`` with ``old`` replaced by ``new`` in ``file``."""
    with as_file(DATA / name) as source:
        copy = Path(shutil.copytree(source, tmp_path / name))
    target = copy / file
    if not target.exists():  # a file the variant takes from its base: copy it in
        with as_file(DATA / "standard" / file) as base:
            shutil.copy(base, target)
    text = target.read_text(encoding="utf-8")
    assert old in text, (file, old)
    target.write_text(text.replace(old, new, count), encoding="utf-8")
    return copy


def _refused(directory: Path, file: str, fault: str) -> None:
    with pytest.raises(VariantDataError) as caught:
        load_variant_from(directory)
    assert caught.value.file.endswith(file), str(caught.value)
    assert re.search(fault, str(caught.value)), str(caught.value)


def test_7_3_a_triple_arrow_facing_a_sign_is_refused(tmp_path: Path) -> None:
    """Land 1's triple arrow to 2 would face an arch on 2: 7.3 says it points one way."""
    copy = _broken(
        tmp_path, "standard", "masterboard.toml",
        'exits = [{ sign = "arch", to = 7 }, { sign = "arrows", to = 3 }]',
        'exits = [{ sign = "arch", to = 7 }, { sign = "arrows", to = 3 }, { sign = "arch", to = 1 }]',
    )  # fmt: skip
    _refused(copy, "masterboard.toml", r"land 1: entered_from lacks 2|triple arrow")


def test_7_3_a_sign_facing_no_sign_is_refused(tmp_path: Path) -> None:
    """Land 2's arch to 7 loses its partner on 7: a two-way border needs a sign each side."""
    copy = _broken(
        tmp_path, "standard", "masterboard.toml",
        'exits = [{ sign = "arrows", to = 8 }, { sign = "arch", to = 2 }]',
        'exits = [{ sign = "arrows", to = 8 }]',
    )  # fmt: skip
    _refused(copy, "masterboard.toml", r"the border of 2 and 7: a arch on 2 faces no sign")


def test_an_entry_side_without_an_exit_into_the_land_is_refused(tmp_path: Path) -> None:
    copy = _broken(
        tmp_path, "standard", "masterboard.toml",
        'entered_from = { "42" = "right", "1000" = "bottom" }',
        'entered_from = { "42" = "right", "1000" = "bottom", "3" = "left" }',
    )  # fmt: skip
    _refused(copy, "masterboard.toml", r"land 1: entered_from names \[3\]")


def test_a_terrain_without_a_battleland_is_refused(tmp_path: Path) -> None:
    copy = _broken(
        tmp_path, "standard", "battlelands.toml", "battleland.Brush", "battleland.Scrub", count=-1
    )
    _refused(copy, "battlelands.toml", r"'Brush' \(land \d+\) has no battleland")


def test_a_count_that_is_not_positive_is_refused(tmp_path: Path) -> None:
    copy = _broken(tmp_path, "titanplus", "creatures.toml", "count = 28", "count = 0")
    _refused(copy, "titanplus/creatures.toml", r"count 0, power \d+ and skill \d+ must be positive")


def test_18_3_a_muster_chain_nobody_can_climb_is_refused(tmp_path: Path) -> None:
    """With Lions alone in the towers and to start, nothing ever qualifies a Cyclops."""
    copy = _broken(
        tmp_path, "titanplus", "muster.toml", 'creatures = ["Lion", "Troll", "Cyclops"]',
        'creatures = ["Lion"]',
    )  # fmt: skip
    muster = copy / "muster.toml"
    text = muster.read_text(encoding="utf-8")
    muster.write_text(text.replace("Cyclops = 2\nLion = 2\nTroll = 2", "Lion = 6"), "utf-8")
    _refused(copy, "titanplus/muster.toml", r"chain Brush: no legion can ever muster a Cyclops")


def test_a_character_missing_from_creatures_is_refused(tmp_path: Path) -> None:
    copy = _broken(tmp_path, "titanplus", "muster.toml", 'creatures = ["Lion"', 'creatures = ["Ogre"')
    _refused(copy, "titanplus/muster.toml", r"Ogre: no such character in creatures.toml")


def test_a_marker_code_given_twice_is_refused(tmp_path: Path) -> None:
    copy = _broken(tmp_path, "standard", "markers.toml", "Bu02 = ", "Bk01 = ")
    _refused(copy, "markers.toml", r"colour Blue: every marker code must start with 'Bu'")


def test_a_missing_field_names_its_file(tmp_path: Path) -> None:
    copy = _broken(tmp_path, "titanplus", "muster.toml", "guardian_needs = 3", "")
    _refused(copy, "titanplus/muster.toml", r"lacks the field 'guardian_needs'")


def test_a_base_that_is_not_shipped_is_refused(tmp_path: Path) -> None:
    copy = _broken(tmp_path, "titanplus", "variant.toml", 'based_on = "standard"', 'based_on = "nowhere"')
    _refused(copy, "titanplus/variant.toml", r"based_on names 'nowhere'")


def test_a_directory_without_variant_toml_is_refused(tmp_path: Path) -> None:
    _refused(tmp_path, "variant.toml", r"the file is missing")


def test_an_option_value_the_rules_do_not_know_is_refused(tmp_path: Path) -> None:
    copy = _broken(tmp_path, "badlands", "variant.toml", '"defender-roll"', '"coin"')
    _refused(copy, "badlands/variant.toml", r"battleland_choice must be 'fixed' or 'defender-roll'")


def test_an_option_the_rules_do_not_have_is_refused(tmp_path: Path) -> None:
    copy = _broken(tmp_path, "titanplus", "variant.toml", "markers_per_player = 8", "markers = 8")
    _refused(copy, "titanplus/variant.toml", r"there is no rule option 'markers'")


def test_the_options_of_each_variant() -> None:
    """21.3: TITANplus's markers; Badlands: the defender's roll, or Colossus's placement."""
    assert load_variant("standard").options.changed() == {}
    assert load_variant("titanplus").options.changed() == {
        "markers_per_player": 8, "markers_per_titan_eliminated": 8,
    }  # fmt: skip
    assert load_variant("badlands").options.battleland_choice == "defender-roll"
    assert load_variant("badlands-fixed").options.battleland_choice == "fixed"
