"""
Issue 28: a shipped variant's files are parsed once and kept between processes
(``runtime.variant_cache``); the kept tables are used only while every file of the
variant's folders is the same, byte for byte, and the variant built from them is the
one its files build.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest

from moderator.rules.variant import shipped_chain, shipped_files, shipped_variants
from moderator.rules.variant_files import Source, read_sources
from moderator.runtime.variant_cache import VariantCache

ROOT = Path(__file__).resolve().parents[2]


def _folder(name: str) -> Traversable:
    return files("moderator.rules") / "data" / name


def _parse(name: str) -> Mapping[str, Source]:
    return read_sources(_folder(name), name, _folder)


def _never() -> Mapping[str, Source]:
    raise AssertionError("kept files were parsed again")


@pytest.mark.parametrize("name", shipped_variants())
def test_a_variants_kept_tables_are_those_its_files_parse_to(tmp_path: Path, name: str) -> None:
    first = VariantCache(tmp_path)
    assert first(name, lambda: _parse(name)) == _parse(name)
    assert first.answers == {name: "parsed"}
    later = VariantCache(tmp_path)  # another process: a new cache on the same folder
    assert later(name, _never) == _parse(name)
    assert later.answers == {name: "kept"}


@pytest.mark.parametrize(
    ("folder", "file", "content"),
    [
        ("standard", "creatures.toml", shipped_files("standard")["creatures.toml"] + b"\n# edited\n"),
        ("standard", "placement.toml", b"[land]\n"),  # a file added to the folder
        ("titanplus", "variant.toml", b'name = "titanplus"\n'),
    ],
)
def test_a_variant_whose_files_changed_is_parsed_again(
    tmp_path: Path, folder: str, file: str, content: bytes
) -> None:
    """TitanPlus is based on the standard game: a change in either folder counts."""
    assert shipped_chain("titanplus") == ("titanplus", "standard")
    VariantCache(tmp_path)("titanplus", lambda: _parse("titanplus"))
    changed = {**shipped_files(folder), file: content}
    later = VariantCache(tmp_path, files=lambda f: changed if f == folder else shipped_files(f))
    assert later("titanplus", lambda: _parse("titanplus")) == _parse("titanplus")
    assert later.answers == {"titanplus": "parsed"}


def test_a_file_removed_from_a_variant_folder_is_noticed(tmp_path: Path) -> None:
    VariantCache(tmp_path)("standard", lambda: _parse("standard"))
    fewer = {k: v for k, v in shipped_files("standard").items() if k != "muster.toml"}
    later = VariantCache(tmp_path, files=lambda f: fewer)
    later("standard", lambda: _parse("standard"))
    assert later.answers == {"standard": "parsed"}


def test_a_damaged_or_unwritable_cache_only_costs_the_parse(tmp_path: Path) -> None:
    (tmp_path / "standard.marshal").write_bytes(b"not a kept variant")
    damaged = VariantCache(tmp_path)
    assert damaged("standard", lambda: _parse("standard")) == _parse("standard")
    assert damaged.answers == {"standard": "parsed"}
    blocked = tmp_path / "a-file"
    blocked.write_text("a file where the folder would be")
    unwritable = VariantCache(blocked / "variants")
    assert unwritable("standard", lambda: _parse("standard")) == _parse("standard")
    assert not (blocked / "variants").exists()


#: Prints every shipped variant as loaded (its repr: every field, sets in their order),
#: through the user's cache when argv[1] is "kept".
LOAD_ALL = """
import sys
from moderator.rules.variant import load_variant, shipped_variants
if sys.argv[1] == "kept":
    from moderator.runtime.variant_cache import keep_shipped_variants
    cache = keep_shipped_variants()
for name in shipped_variants():
    print(repr(load_variant(name)))
if sys.argv[1] == "kept":
    print(sorted(set(cache.answers.values())))
"""


def test_a_variant_built_from_kept_tables_is_the_one_built_from_its_files(tmp_path: Path) -> None:
    """Field for field and in the order of its sets, in processes of their own."""
    # one hash seed for the three: a set of strings is in the order of their hashes
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path), "PYTHONHASHSEED": "28"}
    printed = [
        subprocess.run(
            [sys.executable, "-c", LOAD_ALL, way], env=env, check=True, capture_output=True, text=True
        ).stdout.splitlines()
        for way in ("files", "kept", "kept")
    ]
    assert printed[1][-1] == "['parsed']" and printed[2][-1] == "['kept']"
    assert printed[0] == printed[1][:-1] == printed[2][:-1]


def test_issue_28_a_show_after_the_first_parses_no_variant_file(tmp_path: Path) -> None:
    """The first ``local show`` parses the standard variant's files and keeps them; the
    next imports no TOML parser, and prints the same."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    db = ["--db", f"sqlite:///{tmp_path / 'games.sqlite'}"]
    python = [sys.executable, "-X", "importtime", "-m", "moderator"]
    new = ["local", "new", "g1", "--players", "Ann,Bob", "--dice-seed", "1"]
    subprocess.run([*python, *new, *db], env=env, check=True, capture_output=True)
    shown = []
    for _ in range(2):
        done = subprocess.run(
            [*python, "local", "show", "g1", "--as", "Ann", *db],
            env=env, check=True, capture_output=True, text=True,
        )
        modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if "|" in line}
        shown.append((done.stdout, "tomllib" in modules))
    assert shown[0][0] == shown[1][0]
    assert [parsed_toml for _, parsed_toml in shown] == [True, False]
    assert (tmp_path / "cache" / "titan-moderator" / "variants" / "standard.marshal").is_file()
