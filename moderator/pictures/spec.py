"""
What a report's pictures show, decided when the report is written and drawn when it is
sent.

Rasterising a picture costs a good part of a second, so it does not belong in the
transaction that carries out a player's orders.  The report instead keeps a
``Picture``: the little the drawing needs (the public view cut down to markers, lands,
heights, the players and the battle, the lands to mark), as JSON in the outbox row.
The sender draws it (``draw``) and rasterises it (``pictures.raster``) just before
signing, so the picture shows the game as the report tells it, however far the game has
gone on since.

The masterboard shows nothing the signed part may not hold (Wolff 4.5: markers, lands
and heights, no contents), so it goes in the signed part.  A battle's picture shows the
characters of both legions, revealed by the rules (Wolff 9.3) but still what legions
hold, so it goes with the private part, which the moderator never signs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Any

from moderator.pictures.battleland import battle_layers, battle_svg
from moderator.pictures.masterboard import masterboard_layers, masterboard_svg
from moderator.records import record

MASTERBOARD, BATTLE = "masterboard", "battle"
_KINDS = (MASTERBOARD, BATTLE)
#: The keys of a ``player_view`` a drawing reads; the rest is left out of the outbox.
_VIEW_KEYS = ("turn", "phase", "step", "active", "to_act", "winner", "variant")
_PLAYER_KEYS = ("name", "color", "score", "eliminated")
_LEGION_KEYS = ("marker", "owner", "land", "height")
_ENGAGEMENT_KEYS = ("land", "attacker", "defender", "attacker_player", "defender_player")


@record
class Picture:
    """One picture of a report: what to draw, for whom, and the file name it goes by."""

    kind: str
    game: str
    viewer: str | None
    view: Mapping[str, Any]
    changed: tuple[int, ...] = field(default=())
    #: A battle's ``reach HEX`` answer to ring: (the hex, the hexes its character may reach).
    reach: tuple[str, tuple[str, ...]] | None = None

    @property
    def private(self) -> bool:
        """Whether it goes with the private part (a battle shows legions' characters)."""
        return self.kind == BATTLE

    @property
    def filename(self) -> str:
        if self.kind == BATTLE:
            land = (self.view.get("battle") or {}).get("land", "")
            return f"battle-{self.game}-turn{self.view.get('turn')}-land{land}.png"
        return f"board-{self.game}-turn{self.view.get('turn')}.png"

    @property
    def description(self) -> str:
        if self.kind == BATTLE and self.reach is not None:
            return f"the battle, with the hexes the character on {self.reach[0]} may reach"
        if self.kind == BATTLE:
            return "the battle, as the moderator sees it now"
        return "the masterboard: legion markers and heights, the numbers of lands where something happened on magenta"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game": self.game,
            "viewer": self.viewer,
            "view": dict(self.view),
            "changed": list(self.changed),
            **(
                {"reach": {"from": self.reach[0], "to": list(self.reach[1])}}
                if self.reach is not None
                else {}
            ),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Picture:
        """The picture ``to_json`` wrote; ValueError for anything else."""
        kind = data.get("kind")
        if kind not in _KINDS or not isinstance(data.get("view"), Mapping):
            raise ValueError(f"not a picture: {dict(data)!r:.80}")
        reach = data.get("reach")
        return cls(
            str(kind),
            str(data.get("game") or ""),
            data.get("viewer"),
            data["view"],
            tuple(int(n) for n in data.get("changed") or ()),
            (str(reach["from"]), tuple(str(h) for h in reach["to"])) if reach else None,
        )


def picture_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a ``player_view`` dict the drawings read: no contents, no proposals."""
    engagement = view.get("engagement")
    return {
        **{key: view.get(key) for key in _VIEW_KEYS},
        "players": [{k: p.get(k) for k in _PLAYER_KEYS} for p in view["players"]],
        "legions": [
            {k: lg.get(k) for k in _LEGION_KEYS}
            for lg in view["legions"]
            if lg.get("land") is not None
        ],
        "engagement": (
            {k: engagement.get(k) for k in _ENGAGEMENT_KEYS if k in engagement}
            if engagement
            else None
        ),
        "battle": view.get("battle"),
    }


def report_pictures(
    view: Mapping[str, Any], viewer: str | None, game: str, changed: Iterable[int] = ()
) -> tuple[Picture, ...]:
    """
    The pictures of a report from the public ``view``: the masterboard, with ``changed``
    lands marked, and while a battle is fought the battleland too.  The board names
    no viewer (no "(you)", no "you to act"): the report's text says who he is, and the
    players shown the same board at once then share one PNG (``pictures.cache`` keys on
    the picture's content).
    """
    kept = picture_view(view)
    board = Picture(MASTERBOARD, game, None, kept, tuple(sorted(set(changed))))
    if kept["battle"] is None:
        return (board,)
    return board, Picture(BATTLE, game, viewer, kept)


def reach_picture(
    view: Mapping[str, Any], viewer: str | None, game: str, start: str, hexes: Iterable[str]
) -> Picture:
    """The battle of the public ``view`` with ``hexes`` ringed: where the character on
    ``start`` may move (the answer to ``reach``)."""
    return Picture(BATTLE, game, viewer, picture_view(view), reach=(start, tuple(hexes)))


def draw(picture: Picture) -> str:
    """The picture as SVG text."""
    if picture.kind == BATTLE:
        return battle_svg(picture.view, picture.viewer, game=picture.game, reach=picture.reach)
    return masterboard_svg(
        picture.view, picture.viewer, game=picture.game, changed=picture.changed
    )


def layers(picture: Picture) -> tuple[str, ...]:
    """
    The picture as SVG documents of one size to draw one over the other, the first the
    same for many pictures (``raster.layers_to_png`` keeps its pixels).
    """
    if picture.kind == BATTLE:
        return battle_layers(picture.view, picture.viewer, game=picture.game, reach=picture.reach)
    return masterboard_layers(
        picture.view, picture.viewer, game=picture.game, changed=picture.changed
    )
