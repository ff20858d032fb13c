"""
The shipped variants' files kept parsed between processes, in the user's cache folder
(issue 28).

A ``local show`` is a process of its own, and parsing the game's variant (its TOML
files, and those of the variant it is based on) was a good part of its start.  What the
parser makes of the files depends on their bytes and on the parser, nothing else:
``VariantCache`` keeps, per variant, the bytes of every file in those folders, the
Python version (``tomllib`` is the standard library's) and the parsed tables, with
``marshal``.  A later process that finds the same bytes under the same Python takes the
tables; one that finds anything else (an edited file, a file added or removed) parses
the files again and keeps that.  The check compares the bytes themselves, so nothing is
trusted to a date or a digest.  The variant is then built and checked from the tables
by the code of the process, exactly as from freshly parsed files: the cache holds no
object of the moderator's, so a new version of the code never reads an old one's.

The cache is the user's own, next to the compiled templates (``$XDG_CACHE_HOME``, else
``~/.cache``, then ``titan-moderator/variants``); a file that cannot be read, written
or understood only costs the parse.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from moderator.rules.variant import set_shipped_keeper, shipped_chain, shipped_files
from moderator.rules.variant_files import Source

#: The layout of a kept file; another layout is read as no file.
_FORMAT = 1


def cache_dir() -> Path:
    """Where parsed variants are kept: the user's cache folder (XDG), ours within it."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "titan-moderator" / "variants"


class VariantCache:
    """
    A keeper for ``rules.variant.set_shipped_keeper``: the shipped variants' files parsed
    once, kept in ``folder``.  ``files`` (a variant's folder, by file name) is read each
    time a variant is asked for; tests give their own.
    """

    def __init__(
        self,
        folder: Path | None = None,
        files: Callable[[str], dict[str, bytes]] = shipped_files,
    ) -> None:
        self.folder = folder if folder is not None else cache_dir()
        self._files = files
        #: How each variant asked for was answered ("kept" or "parsed"), for the tests.
        self.answers: dict[str, str] = {}

    def __call__(
        self, name: str, parse: Callable[[], Mapping[str, Source]]
    ) -> Mapping[str, Source]:
        """The files of the variant ``name`` parsed: the kept tables if the files are
        those they were parsed from, else ``parse()``'s, which are then kept."""
        kept = self._kept(name)
        if kept is not None:
            self.answers[name] = "kept"
            return kept
        sources = parse()
        self.answers[name] = "parsed"
        self._keep(name, sources)
        return sources

    def _path(self, name: str) -> Path:
        return self.folder / f"{name}.marshal"

    def _kept(self, name: str) -> dict[str, Source] | None:
        try:
            layout, python, folders, tables = marshal.loads(self._path(name).read_bytes())
            if (layout, python) != (_FORMAT, sys.version):
                return None
            if any(self._files(folder) != files for folder, files in folders.items()):
                return None
            return {file: Source(where, table) for file, (where, table) in tables.items()}
        except Exception:  # noqa: BLE001 (a missing, foreign or damaged file: parse again)
            return None

    def _keep(self, name: str, sources: Mapping[str, Source]) -> None:
        # a cache that cannot be written (or tables marshal cannot hold) only costs the parse
        with contextlib.suppress(Exception):
            folders = {folder: self._files(folder) for folder in shipped_chain(name)}
            tables = {file: (s.where, s.tables) for file, s in sources.items()}
            _write(self._path(name), marshal.dumps((_FORMAT, sys.version, folders, tables)))


def _write(path: Path, content: bytes) -> None:
    """``content`` written beside ``path`` and put in its place whole (no reader sees half)."""
    import tempfile  # only when files were parsed: a kept variant writes nothing

    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def keep_shipped_variants(folder: Path | None = None) -> VariantCache:
    """Read this process's shipped variants through the cache in ``folder`` (default: the user's)."""
    cache = VariantCache(folder)
    set_shipped_keeper(cache)
    return cache


__all__ = ["VariantCache", "cache_dir", "keep_shipped_variants"]
