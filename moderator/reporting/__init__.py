"""
Reports: what one player (or the public) may see of a game, as JSON views and prose.

The names below are imported when first asked for (PEP 562): ``local legal`` needs the
views and not the narrative of every kind of event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.lazy import lazy_names

if TYPE_CHECKING:
    from moderator.reporting.narrate import describe, history_lines
    from moderator.reporting.views import legal_json, player_view

#: Where each name of the package lives.
_HOMES = {
    "describe": "moderator.reporting.narrate",
    "history_lines": "moderator.reporting.narrate",
    "legal_json": "moderator.reporting.views",
    "player_view": "moderator.reporting.views",
}


__getattr__ = lazy_names(__name__, _HOMES)


__all__ = ["describe", "history_lines", "legal_json", "player_view"]
