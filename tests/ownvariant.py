"""
A group's own variant for the tests (docs/variants.md, "Writing a variant"): the
standard game with a changed muster table, written to a temporary directory as a group
would write it, and installed the way the composition root installs one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import files
from pathlib import Path

from moderator.rules.variant import forget_own_variant
from moderator.runtime.variants import install_own_variants

NAME = "plains-lions"
STANDARD_MUSTER = (files("moderator.rules") / "data" / "standard" / "muster.toml").read_text(encoding="utf-8")
#: The change: in the Plains one Centaur (not two) qualifies a Lion.
OLD_LINE = '{ creature = "Centaur", needs = 1 }, { creature = "Lion", needs = 2 },'
NEW_LINE = '{ creature = "Centaur", needs = 1 }, { creature = "Lion", needs = 1 },'


def write_own_variant(root: Path, name: str = NAME) -> Path:
    """``root/name``: variant.toml based on standard and a muster.toml with Lions cheaper in the Plains."""
    directory = root / name
    directory.mkdir(parents=True)
    (directory / "variant.toml").write_text(
        f'name = "{name}"\ntitle = "Plains Lions"\nsource = "our group, 2026"\nbased_on = "standard"\n',
        encoding="utf-8",
    )
    assert OLD_LINE in STANDARD_MUSTER
    (directory / "muster.toml").write_text(STANDARD_MUSTER.replace(OLD_LINE, NEW_LINE), encoding="utf-8")
    return directory


def change_muster(directory: Path) -> None:
    """The group edits its variant after games began: Lions need three Centaurs now."""
    muster = directory / "muster.toml"
    changed = NEW_LINE.replace('"Lion", needs = 1', '"Lion", needs = 3')
    muster.write_text(muster.read_text(encoding="utf-8").replace(NEW_LINE, changed), encoding="utf-8")


@contextmanager
def installed(root: Path, name: str = NAME) -> Iterator[Path]:
    """The own variant written under ``root`` and installed; uninstalled afterwards."""
    directory = write_own_variant(root, name)
    try:
        assert install_own_variants(str(root)) == (name,)
        yield directory
    finally:
        forget_own_variant(name)
