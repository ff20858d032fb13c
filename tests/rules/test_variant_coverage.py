"""
What of the rules suite runs under each variant (issue 27), and the facts that decide it.

A rules test that plays through the conftest's factories runs under every variant where
it applies (``applicability.py``).  Applicability is worked out at collection, so a
broken rule for it would quietly drop tests instead of failing them: these tests count
what runs where and fail if a variant runs fewer than half of the rules tests.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from moderator.rules.variant import STANDARD, load_variant

from .applicability import FACTORIES, Needs, applicable, needs_of
from .conftest import SPELLINGS, TOWER_LIONS, VARIANTS

#: The least share of the rules tests a variant must run.
AT_LEAST = 0.5


def _variant_tests() -> Iterator[tuple[str, list[str]]]:
    """Each rules test that plays in a variant, and the variants it runs under."""
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        module = importlib.import_module(f"tests.rules.{path.stem}")
        declared = getattr(module, "pytestmark", [])
        module_marks = declared if isinstance(declared, list) else [declared]
        for name, function in vars(module).items():
            if not (name.startswith("test_") and inspect.isfunction(function)):
                continue
            if function.__module__ != module.__name__:
                continue  # imported from another test module, counted there
            marks = [*getattr(function, "pytestmark", []), *module_marks]
            used = {a for m in marks if m.name == "usefixtures" for a in m.args}
            if not (set(inspect.signature(function).parameters) | used) & FACTORIES:
                continue
            needs = needs_of(function, [m for m in marks if m.name == "needs"], SPELLINGS)
            yield f"{path.name}::{name}", applicable(needs, VARIANTS)


def test_issue_27_every_variant_runs_at_least_half_of_the_rules_tests() -> None:
    """The rules suite under every variant where a rule applies, counted: the standard
    game runs every test, and no variant runs fewer than half, so a fact wrongly missing
    from a variant shows here rather than as tests that silently stopped running."""
    runs = dict(_variant_tests())
    total = len(runs)
    counts = {v: sum(v in names for names in runs.values()) for v in VARIANTS}
    table = "\n".join(f"  {v:<18} {n:>4} of {total}" for v, n in counts.items())
    print(f"\nrules tests (functions) run per variant:\n{table}")
    assert total > 250, f"the walk found only {total} rules tests\n{table}"
    assert counts[STANDARD] == total, f"every rules test applies to the standard game\n{table}"
    short = [v for v, n in counts.items() if n < AT_LEAST * total]
    assert not short, f"{short} run fewer than {AT_LEAST:.0%} of the rules tests:\n{table}"


def test_issue_27_a_test_naming_a_creature_runs_only_where_the_creature_is() -> None:
    """21.3: TitanPlus has no Ogres, so a position naming one is no test of it; the
    other variants have Ogres and run it."""

    def test_an_ogre(game_at) -> None:  # pragma: no cover - read, never run
        game_at([("Rd01", 1, "Titan Ogre")])

    assert applicable(needs_of(test_an_ogre, [], SPELLINGS), VARIANTS) == [
        v for v in VARIANTS if v != "titanplus"
    ]


def test_issue_27_creatures_are_found_in_helpers_and_constants_not_in_docstrings() -> None:
    """The creatures a test names are read from its code, the module constants it reads
    and the test helpers it calls; a docstring or comment naming one does not count."""
    found = needs_of(_calls_a_helper, [], SPELLINGS).creatures
    assert found == {"Titan", "Gargoyle", "Cyclops", "Centaur"}


_CONSTANT = ("Bu01", 300, "Titan Gargoyles")


def _helper() -> str:
    """An Ogre here is prose."""
    return "Cyclopes"


def _calls_a_helper() -> tuple[object, ...]:  # pragma: no cover - read, never run
    """Ogre in a docstring."""
    # Ogre in a comment
    return (_CONSTANT, _helper(), "centaur")


@pytest.mark.parametrize(
    ("needs", "runs_under"),
    [
        (Needs(options={"angel_in_place_of_archangel": True}), "all but later-edition"),
        (Needs(options={"battleland_choice": "fixed"}), "all but badlands"),
        (Needs(fought_on={1: "Plains"}), "all but both badlands"),
        (Needs(fought_on={3: "BrushAlt"}), "badlands-fixed"),
    ],
)
def test_issue_27_a_declared_fact_is_checked_against_the_variants_data(
    needs: Needs, runs_under: str
) -> None:
    """``needs(options=...)`` holds where the variant's option has the value (003 17.3:
    the later edition takes no Angel in place of an Archangel; the original Badlands
    rolls for the battleland); ``needs(fought_on=...)`` where a battle at the land is
    fought on that battleland with no die (Badlands' land 1 is the Fort)."""
    expected = {
        "all but later-edition": [v for v in VARIANTS if v != "later-edition"],
        "all but badlands": [v for v in VARIANTS if v != "badlands"],
        "all but both badlands": [v for v in VARIANTS if not v.startswith("badlands")],
        "badlands-fixed": ["badlands-fixed"],
    }[runs_under]
    assert applicable(needs, VARIANTS) == expected
    lacking = needs.missing(load_variant("badlands"))
    assert all(isinstance(reason, str) and reason for reason in lacking)


def test_issue_27_the_suite_runs_under_every_shipped_variant_and_the_test_variant() -> None:
    """Every shipped variant is one the rules tests run under, and so is the test one."""
    from moderator.rules.variant import shipped_variants

    assert set(VARIANTS) == {*shipped_variants(), TOWER_LIONS.name}
