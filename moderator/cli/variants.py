"""``variant list`` and ``variant check``: the shipped variants and a group's own, and a directory checked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from moderator.cli.common import ConfigOption, _config, _fail, own_variants
from moderator.rules.variant import (
    VariantDataError,
    load_variant,
    load_variant_from,
    own_variant,
    shipped_variants,
)

app = typer.Typer(help="The game's variants (docs/variants.md).", no_args_is_help=True)


def _describe(name: str) -> str:
    variant = load_variant(name)
    changed = ", ".join(f"{k} = {v!r}" for k, v in variant.options.changed().items())
    return f"{name}: {variant.title} ({variant.source})" + (f"; options: {changed}" if changed else "")


@app.command("list")
def variant_list(config: ConfigOption = None) -> None:
    """
    The variants games may use: the shipped ones, then your group's own (from
    [variants] directory or $TITAN_VARIANTS_DIRECTORY), with titles, sources and options.
    """
    for name in shipped_variants():
        typer.echo(_describe(name))
    for name in own_variants(_config(config) if config is not None else None):
        own = own_variant(name)
        assert own is not None
        typer.echo(f"{_describe(name)}; own variant in {own.directory}, digest {own.digest[:16]}")


@app.command("check")
def variant_check(
    path: Annotated[Path, typer.Argument(help="A variant's directory (with its variant.toml).")],
) -> None:
    """Check a variant directory as the moderator would load it; name the file at fault."""
    try:
        variant = load_variant_from(path)
    except VariantDataError as exc:
        raise _fail(f"error: {exc}", 1) from None
    typer.echo(
        f"{variant.name}: {variant.title}: {len(variant.lands)} lands, "
        f"{len(variant.creatures)} characters, {len(variant.battlelands)} battlelands: the data hold together."
    )
