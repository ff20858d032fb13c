"""
Answers that change nothing: the replies to queries, whose turn it is, and the hint
of what would be legal that goes with a refused order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from moderator.letters import reports as report_letters
from moderator.orders import Query, help_text
from moderator.reporting.knowledge import KnownLegion, known_contents
from moderator.reporting.narrate import history_lines
from moderator.reporting.views import (
    legal_lines,
    legal_orders,
    legion_json,
    marker_names,
    player_view,
)
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.usecases.games.battle_queries import NO_BATTLE, reach_lines, strike_lines

#: How many order lines of "what is legal now" a rejection lists before cutting short.
LEGAL_HINT_LINES = 30


def waiting_line(state: GameState, player: str | None = None) -> str:
    """Who the game waits for, as one sentence."""
    if state.step is Step.OVER:
        return f"The game is over: {state.winner} wins." if state.winner else "The game is over."
    actor = to_act(state)
    step = f"{state.step.value} step"
    if state.battle is not None:
        step += f": {state.battle.step}"
    if actor is not None and actor == player:
        return f"Your turn ({step}); 'legal' lists your orders."
    return f"It is {actor}'s turn ({step})."


def legal_hint(state: GameState, player: str) -> str:
    """What ``player`` could order now: a compact list, or whose turn it is."""
    if state.step is Step.OVER:
        return "The game is over."
    actor = to_act(state)
    if actor != player:
        return f"It is {actor}'s turn ({state.step.value} step), not yours."
    lines = legal_orders(state, player)
    more = len(lines) - LEGAL_HINT_LINES
    shown = "; ".join(lines[:LEGAL_HINT_LINES])
    if more > 0:
        shown += f"; ... and {more} more ('legal' lists them all)"
    return f"Legal now: {shown}"


def answer_query(query: Query, events: Callable[[], list[ev.Event]], state: GameState) -> list[str]:
    """The reply to a query; ``events()`` gives the game's log (read only for ``history``)."""
    player = query.player
    match query.kind:
        case "status" | "report":
            return status_lines(state, player, known_contents(events(), player))
        case "help":
            return [help_text(query.topic)]
        case "history":
            return history_lines(events(), player, query.from_turn, query.to_turn) or [
                "Nothing has happened yet in those turns."
            ]
        case "legal":
            if to_act(state) != player:
                return [waiting_line(state, player)]
            return legal_lines(state, player)
        case "moves":
            marker = query.marker or ""
            moves = [
                line
                for line in legal_lines(state, player)
                if line.startswith((f"move {marker} ", f"teleport {marker} "))
            ]
            return moves or [f"{marker} has no move to make now."]
        case "legion":
            return legion_lines(state, player, query.marker or "", known_contents(events(), player))
        case "battle":
            text = report_letters.battle(player_view(state, player), player)
            return text.splitlines() if text is not None else [NO_BATTLE]
        case "reach":
            return reach_lines(state, player, query.hex_label or "")
        case "strikes":
            return strike_lines(state, player)
    return [f"The {query.kind!r} query is not answered in local games yet."]


def known_view(
    view: dict[str, Any], known: Mapping[str, KnownLegion] | None
) -> dict[str, Any]:
    """
    ``view`` (``player_view``) with each legion whose contents the viewer was not shown
    holding what he knows of it for certain (``reporting.knowledge``): musters, battles
    and splits tell him part of a legion he never saw whole.
    """
    if known is None:
        return view
    legions = []
    for legion in view["legions"]:
        found = known.get(legion["marker"])
        if legion["contents"] is None and found is not None and found.known:
            legion = {**legion, "contents": list(found.known)}
        legions.append(legion)
    return {**view, "legions": legions}


def status_lines(
    state: GameState, player: str, known: Mapping[str, KnownLegion] | None = None
) -> list[str]:
    """The ``status`` answer: the game as ``player`` sees it, with what he knows for certain."""
    return report_letters.status(known_view(player_view(state, player), known), player).splitlines()


def legion_lines(
    state: GameState, player: str, marker: str, known: Mapping[str, KnownLegion] | None = None
) -> list[str]:
    """The ``legion MARKER`` answer: where it is and what ``player`` knows it holds."""
    legion = state.legions.get(marker)
    if legion is None:
        return [f"There is no legion {marker} on the board."]
    info = legion_json(legion, player)
    found = (known or {}).get(marker)
    if info["contents"] is not None:
        contents = ", ".join(info["contents"])
    elif found is not None and found.known:
        unknown = [f"{found.unknown} unknown to you"] if found.unknown else []
        contents = ", ".join([*found.known, *unknown])
    else:
        contents = "contents unknown to you"
    name = marker_names(state.variant).get(marker, "")
    where = f"{marker} ({name}), {info['owner']}'s, in {info['land']}"
    return [f"{where}, {info['height']} high: {contents}"]
