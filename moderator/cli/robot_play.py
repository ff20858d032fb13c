"""``play``: whole games between robots of chosen kinds, in memory, with where each placed."""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING, Annotated

import typer

from moderator.cli.common import VariantOption, _fail, checked_variant
from moderator.rules.variant import STANDARD
from moderator.usecases.games.robot_kinds import KINDS

if TYPE_CHECKING:
    from moderator.usecases.games.robot_match import MatchResult


def _game_text(number: int, result: MatchResult) -> str:
    seats = ", ".join(f"{s} ({result.kinds[s]})" for s in result.seats)
    lines = [f"Game {number} (seed {result.seed}): {seats}"]
    if result.variant != STANDARD:
        lines[0] += f"; variant {result.variant}"
    if result.draw and result.finished:
        lines.append("  A draw: the last Titans died together, nobody wins.")
    elif not result.finished:
        lines.append("  Stopped before its end (too many orders); placed by score.")
    for place, group in enumerate(result.placement, 1):
        who = ", ".join(f"{p} ({result.kinds[p]})" for p in group)
        tied = " (tied)" if len(group) > 1 else ""
        lines.append(f"  {place}. {who}{tied}")
    lines.append(
        f"  {result.turns} turns, {result.actions} orders, {result.seconds:.1f} s "
        f"({result.cpu_seconds:.1f} s of processor time)"
    )
    return "\n".join(lines)


def play(
    players: Annotated[int, typer.Option("--players", min=2, max=6, help="2 to 6 seats.")] = 2,
    robots: Annotated[
        str,
        typer.Option(
            "--robots",
            help=f"Robot kinds by seat, comma-separated; one kind plays every seat. "
            f"Kinds: {', '.join(KINDS)} (competent decides from what its seat may see; "
            f"random gives random legal orders).",
        ),
    ] = "competent",
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 1,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the first game (then +1 a game).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the games as JSON.")] = False,
    variant: VariantOption = STANDARD,
) -> None:
    """
    Play whole games between robots in memory and print, per game, each seat's robot
    kind, its placement (winner first, then by elimination order), the turns and the
    time taken.
    """
    from moderator.usecases.games.robot_match import play_match, seat_kinds

    try:
        kinds = seat_kinds(players, [k.strip() for k in robots.split(",") if k.strip()])
    except ValueError as exc:
        raise _fail(f"error: {exc}") from None
    checked_variant(variant)
    if seed is None:
        seed = secrets.randbelow(2**31)
    results = []
    for number in range(1, games + 1):
        result = play_match(kinds, seed + number - 1, variant=variant)
        results.append(result)
        if not as_json:
            typer.echo(_game_text(number, result))
    if as_json:
        typer.echo(json.dumps([r.to_json() for r in results], indent=2))
