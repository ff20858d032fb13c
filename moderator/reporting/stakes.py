"""
What an engagement's outcomes would score, for the engaged player who must choose.

Whether to flee, concede, propose or fight turns on the points each outcome gives and
on the angel they may bring (an angel each time a score reaches a multiple of 100, an
archangel at a multiple of 500: rule 16).  At a table a player adds the counters up;
by mail he would have to look up every character's value and keep the scores himself.
So the mail that asks him to negotiate says what each legion is worth, what fleeing and
conceding give, and both scores.  Only legions whose contents he knows are valued (in
an engagement both are revealed to both players), and the lines name characters, so
they go in the private part (Wolff 4.5).
"""

from __future__ import annotations

import textwrap
from collections import Counter

from moderator.rules.engagement import may_flee
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Legion, Step

#: The width the lines are filled to (the template indents them).
WIDTH = 72


def _contents(state: GameState, legion: Legion) -> str:
    counts = Counter(legion.contents)
    return ", ".join(
        f"{n} {state.variant.creature(c).plural}" if n > 1 else c for c, n in sorted(counts.items())
    )


def stakes_lines(state: GameState, player: str) -> list[str]:
    """At ``player``'s negotiate step: the engaged legions' values, what flight and
    concession score, and both players' scores; none at any other step."""
    eng = state.engagement
    if state.step is not Step.NEGOTIATE or eng is None or to_act(state) != player:
        return []
    attacker, defender = state.legions[eng.attacker], state.legions[eng.defender]
    if not (attacker.known_by(player) and defender.known_by(player)):
        return []
    value = {lg.marker: state.legion_value(lg.contents, lg.owner) for lg in (attacker, defender)}
    notes = [
        f"{lg.owner}'s {lg.marker} ({_contents(state, lg)}) is worth {value[lg.marker]} points."
        for lg in (attacker, defender)
    ]
    if may_flee(state, eng):
        notes.append(
            f"If {defender.marker} flees, {attacker.owner} scores half of it, "
            f"{value[defender.marker] // 2} (9.2)."
        )
    notes.append(
        "A legion eliminated, by concession, agreement or battle, scores its full "
        "value to the other side (9.4); an agreement that eliminates both scores nothing."
    )
    scores = ", ".join(
        f"{p.name} {p.score}" for p in (state.player(attacker.owner), state.player(defender.owner))
    )
    notes.append(
        f"Scores now: {scores}; each multiple of 100 reached earns the winning legion "
        "an angel, of 500 an archangel (16)."
    )
    return [
        line
        for note in notes
        for line in textwrap.wrap(note, WIDTH, subsequent_indent="  ", break_on_hyphens=False)
    ]


__all__ = ["stakes_lines"]
