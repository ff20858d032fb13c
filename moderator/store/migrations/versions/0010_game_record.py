"""The game's untyped ``options`` become its typed, versioned ``record``
(``moderator.schedule.record``): each row is upcast from schema 0 to schema 1.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

from moderator.schedule.record import upcast_0

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _json(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    return dict(json.loads(value) if isinstance(value, str | bytes) else value)


def upgrade() -> None:
    # Plain ALTERs, not a batch: SQLite would copy the game table, which the event and
    # seat tables refer to by foreign key.
    op.add_column("game", sa.Column("record", sa.JSON(), nullable=False, server_default="{}"))
    game = sa.table(
        "game", sa.column("id", sa.String()), sa.column("options", sa.JSON()),
        sa.column("record", sa.JSON()),
    )
    connection = op.get_bind()
    for game_id, options in connection.execute(sa.select(game.c.id, game.c.options)).all():
        connection.execute(
            game.update().where(game.c.id == game_id).values(record=upcast_0(_json(options)))
        )
    op.drop_column("game", "options")


def _downcast(record: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 as the options of schema 0 (the inverse of ``upcast_0``)."""
    dice = record.get("dice") or {}
    deadline = record.get("deadline")
    absences: dict[str, list[dict[str, Any]]] = {}
    for entry in record.get("absences") or []:
        absences.setdefault(entry["player"], []).append(
            {k: entry[k] for k in ("from", "to", "first", "last")}
        )
    bag: dict[str, Any] = {
        k: record[k]
        for k in ("players", "from_position", "time_limits", "ends_at", "paused", "tournament",
                  "allow_secrets", "reported", "report_from")
        if record.get(k) is not None
    }
    bag.update(
        scripted_dice=dice.get("script") is not None,
        dice_rolled=dice.get("rolled", 0),
        absences=absences,
    )
    bag["dice_script" if dice.get("script") is not None else "dice_seed"] = (
        dice.get("script") if dice.get("script") is not None else dice.get("seed")
    )
    if deadline:
        bag["deadline"] = deadline["due"]
        if deadline.get("key"):
            bag["deadline_step"] = {
                k: deadline[k] for k in ("key", "player", "kind", "started")
            }
    return bag


def downgrade() -> None:
    op.add_column("game", sa.Column("options", sa.JSON(), nullable=False, server_default="{}"))
    game = sa.table(
        "game", sa.column("id", sa.String()), sa.column("options", sa.JSON()),
        sa.column("record", sa.JSON()),
    )
    connection = op.get_bind()
    for game_id, record in connection.execute(sa.select(game.c.id, game.c.record)).all():
        connection.execute(
            game.update().where(game.c.id == game_id).values(options=_downcast(_json(record)))
        )
    op.drop_column("game", "record")
