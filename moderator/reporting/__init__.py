"""Reports: what one player (or the public) may see of a game, as JSON views and prose."""

from __future__ import annotations

from moderator.reporting.narrate import describe, history_lines
from moderator.reporting.views import legal_json, player_view

__all__ = ["describe", "history_lines", "legal_json", "player_view"]
