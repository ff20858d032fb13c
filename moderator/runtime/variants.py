"""
A group's own variants, read from the directory the operator configured and handed to
the rules as their registry of variants (``rules.variant.install_own_variant``).

The rules core reads no file at run time but through ``rules.variant_files``, and never
on its own initiative: the composition root (``bootstrap``), the picture worker and the
command line's commands that open no configuration (``local``, ``play``, ``variant
list``) call ``install_own_variants`` with ``[variants] directory`` or
``$TITAN_VARIANTS_DIRECTORY``.  Each sub-directory with a ``variant.toml`` is a variant
(a directory that has one itself is a single variant); a fault names the file.
"""

from __future__ import annotations

import os
from pathlib import Path

from moderator.rules.variant import VariantDataError, install_own_variant, read_own_variant
from moderator.runtime.config import Config, ConfigError

#: The environment variable naming the own variants' directory (``[variants] directory``).
ENV_VAR = "TITAN_VARIANTS_DIRECTORY"


def variants_directory(config: Config | None = None) -> str:
    """The configured directory, else the environment's ("" when neither names one)."""
    named = config.variants.directory if config is not None else ""
    return named or os.environ.get(ENV_VAR, "")


def install_own_variants(directory: str) -> tuple[str, ...]:
    """
    Read, check and install every variant under ``directory``; their names.

    Raises:
        ConfigError: the directory is not one, or a variant's data are wrong (naming the
            file and the fault) or take a shipped variant's name.
    """
    if not directory:
        return ()
    root = Path(directory).expanduser()
    if not root.is_dir():
        raise ConfigError(f"[variants] directory {directory!r} is not a directory")
    found = [root] if (root / "variant.toml").is_file() else sorted(
        d for d in root.iterdir() if d.is_dir() and (d / "variant.toml").is_file()
    )
    names: list[str] = []
    for path in found:
        try:
            own = install_own_variant(read_own_variant(path))
        except VariantDataError as exc:
            raise ConfigError(f"[variants] {exc}") from None
        names.append(own.variant.name)
    return tuple(names)


def install_configured(config: Config | None = None) -> tuple[str, ...]:
    """``install_own_variants`` on ``variants_directory(config)``."""
    return install_own_variants(variants_directory(config))


__all__ = ["ENV_VAR", "install_configured", "install_own_variants", "variants_directory"]
