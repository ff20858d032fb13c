"""
Picture benchmarks: prints figures, asserts nothing.

    python benchmarks/bench_pictures.py [--repeat N]

For the masterboard (six players, mid-game; and that board cut to its first two and three
players, reports only) and a battle on the Tower, and for every bare battleland: the processor time to draw the SVG, to rasterise it to a palette PNG,
and the sizes of both (a bare battleland also as the worker would draw it: the land
kept, its flat shapes in steps of rows).  "masterboard, report" is what the picture worker does for a
report: the picture kept in the outbox drawn in tiles over the land, the land's pixels
and the tiles kept between reports; "next report" the same a turn later (a new title).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from copy import deepcopy
from dataclasses import replace
from pathlib import Path

from moderator.pictures.battleland import battle_svg, battleland_layers, battleland_svg
from moderator.pictures.masterboard import masterboard_svg
from moderator.pictures.raster import layers_to_png, svg_to_png
from moderator.pictures.spec import Picture, layers, report_pictures
from moderator.reporting.views import player_view
from moderator.rules.evolve import replay
from moderator.rules.positions import position_event
from moderator.rules.variant import STANDARD, load_variant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "pictures"))
from positions import BOARD  # the tests' six-player position


def _median_ms(run: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The median processor time of ``run`` in ms (not wall time: the machine is shared,
    and a busy neighbour would count in a wall clock), and its last result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.process_time()
        result = run()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times), result


def _measure(label: str, draw: Callable[[], str], repeat: int) -> None:
    draw_ms, svg_text = _median_ms(draw, repeat)
    assert isinstance(svg_text, str)
    raster_ms, png = _median_ms(lambda: svg_to_png(svg_text), repeat)
    assert isinstance(png, bytes)
    print(
        f"{label:<24} draw {draw_ms:6.1f} ms  rasterise {raster_ms:6.1f} ms  "
        f"SVG {len(svg_text) / 1024:5.1f} KB  PNG {len(png) / 1024:5.1f} KB"
    )


def _next_turn(picture: Picture, turn: int) -> Picture:
    """The same picture a turn later: what changes from one report to the next is the
    title line, whose tile the rasteriser has not seen."""
    view = dict(picture.view)
    view["turn"] = turn
    if view.get("battle"):
        view["battle"] = {**view["battle"], "turn": turn % 7 + 1}
    return replace(picture, view=view)


def _cut_to(players: int) -> dict[str, object]:
    """The six-player position with only its first ``players`` and their legions."""
    position = deepcopy(BOARD)
    position["players"] = position["players"][:players]
    prefixes = {"Gold": "Gd", "Blue": "Bu", "Black": "Bk", "Brown": "Br", "Green": "Gr", "Red": "Rd"}
    kept = {prefixes[p["color"]] for p in position["players"]}
    position["legions"] = [lg for lg in position["legions"] if lg["marker"][:2] in kept]
    position["battle"] = None
    return player_view(replay([position_event(position)]), "Ann")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    view = player_view(replay([position_event(BOARD)]), "Ann")
    svg_to_png(battleland_svg(load_variant(STANDARD), "Plains"))  # load the fonts once, outside the timings
    _measure(
        "masterboard",
        lambda: masterboard_svg(view, "Ann", game="g1", changed=[41, 200]),
        args.repeat,
    )
    for picture in report_pictures(view, "Ann", "g1", [41, 200]):
        layers_to_png(layers(picture))  # the land's pixels and the tiles, kept from here on
        sent_ms, png = _median_ms(lambda p=picture: layers_to_png(layers(p)), args.repeat)
        assert isinstance(png, bytes)
        print(f"{picture.kind + ', report':<24} draw + rasterise {sent_ms:6.1f} ms  "
              f"PNG {len(png) / 1024:5.1f} KB")
        turns = iter(range(100, 100 + args.repeat))
        next_ms, _ = _median_ms(
            lambda p=picture, t=turns: layers_to_png(layers(_next_turn(p, next(t)))), args.repeat
        )
        print(f"{picture.kind + ', next report':<24} draw + rasterise {next_ms:6.1f} ms  "
              "(its title new, the rest kept)")
    for players in (2, 3):
        small = _cut_to(players)
        board = report_pictures(small, "Ann", "g1", [41, 200])[0]
        layers_to_png(layers(board))
        sent_ms, png = _median_ms(lambda b=board: layers_to_png(layers(b)), args.repeat)
        assert isinstance(png, bytes)
        print(f"{f'masterboard {players}p, report':<24} draw + rasterise {sent_ms:6.1f} ms  "
              f"PNG {len(png) / 1024:5.1f} KB")
    _measure("battle (Tower)", lambda: battle_svg(view, "Ann", game="g1"), args.repeat)
    for terrain in sorted(load_variant(STANDARD).battlelands):
        _measure(f"battleland {terrain}", lambda t=terrain: battleland_svg(load_variant(STANDARD), t), args.repeat)
        tiled = layers_to_png(battleland_layers(load_variant(STANDARD), terrain))
        print(f"{'':<24} as the worker draws it (its land kept, in steps of rows): PNG {len(tiled) / 1024:5.1f} KB")


if __name__ == "__main__":
    main()
