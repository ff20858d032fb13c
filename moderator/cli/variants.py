"""``variant list`` and ``variant check``: the shipped variants, and a group's own checked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from moderator.cli.common import _fail
from moderator.rules.variant import (
    VariantDataError,
    load_variant,
    load_variant_from,
    shipped_variants,
)

app = typer.Typer(help="The game's variants (docs/variants.md).", no_args_is_help=True)


def _describe(name: str) -> str:
    variant = load_variant(name)
    changed = ", ".join(f"{k} = {v!r}" for k, v in variant.options.changed().items())
    return f"{name}: {variant.title} ({variant.source})" + (f"; options: {changed}" if changed else "")


@app.command("list")
def variant_list() -> None:
    """The shipped variants: the names games use, their titles, sources and options."""
    for name in shipped_variants():
        typer.echo(_describe(name))


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
