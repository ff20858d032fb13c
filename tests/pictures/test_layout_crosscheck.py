"""
Cross-check our masterboard layout with the Colossus reference board.

``moderator/rules/data/masterboard_layout.toml`` is our own transcription of where each
land lies; the Colossus default board (``DefaultMap.xml``, see
``colossus-data-format.md``) gives each land's cell (``xpos``, ``ypos``) and, through the
board's parity, whether it points up or down.  The reference lives outside the
repository (``/work/shared`` or ``../shared``): the module is skipped where there is no
shared folder, and fails under ``CI=true`` when the folder is there but the reference is
not.  The project never reads it at run time.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from moderator.pictures.layout import board_layout

REPO = Path(__file__).resolve().parents[2]
SHARED = [p for p in (REPO.parent / "shared", Path("/work/shared")) if p.is_dir()]
if not SHARED:
    pytest.skip("no shared folder with the reference data", allow_module_level=True)
BOARD_XML = SHARED[0] / "reference" / "colossus-default" / "DefaultMap.xml"
if not BOARD_XML.is_file():
    message = f"the shared folder {SHARED[0]} has no {BOARD_XML.name}"
    if os.environ.get("CI") == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)

ROOT = ET.parse(BOARD_XML).getroot()
CELLS = {
    int(h.attrib["label"]): (int(h.attrib["xpos"]), int(h.attrib["ypos"])) for h in ROOT.iter("hex")
}
LAYOUT = board_layout()


def _parity() -> int:
    """As Colossus finds it: from the first vertically adjacent pair of lands."""
    taken = set(CELLS.values())
    for x in range(int(ROOT.attrib["width"])):
        for y in range(int(ROOT.attrib["height"])):
            if (x, y) in taken and (x, y + 1) in taken:
                return 1 - (x + y) % 2
    raise AssertionError("no vertically adjacent lands")


def test_the_same_lands() -> None:
    assert set(LAYOUT) == set(CELLS)
    assert (int(ROOT.attrib["width"]), int(ROOT.attrib["height"])) == (15, 8)


@pytest.mark.parametrize("number", sorted(CELLS))
def test_each_land_lies_where_colossus_puts_it(number: int) -> None:
    cell = LAYOUT[number]
    assert (cell.column, cell.row) == CELLS[number]
    inverted = (cell.column + cell.row) % 2 == _parity()  # Colossus: shaped like a V
    assert cell.up is not inverted
