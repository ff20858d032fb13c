"""
The audit bundle: everything a player needs to check a finished game by himself, in
one JSON document (the format is described in docs/audit.md).  It holds every event of
the game, hidden ones too, the secret seed, every salt and the final state the events
must reach; the mail digests that chose the dice are in the ``order-sealed`` events.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from moderator.audit.commitments import salt_for
from moderator.audit.dice import seed_hash
from moderator.rules import events as ev
from moderator.rules.codec import encode
from moderator.rules.evolve import replay
from moderator.rules.state import GameState

#: The bundle's ``format``: bumped when a reader of the old one would misread the new.
FORMAT = "titan-audit-1"


def final_summary(state: GameState) -> dict[str, Any]:
    """What the last report said of the game: turn, step, scores, winners, every legion."""
    return {
        "events": state.version,
        "turn": state.turn,
        "step": state.step.value,
        "winners": list(state.winners),
        "players": [
            {"name": p.name, "score": p.score, "eliminated": p.eliminated}
            for p in state.players
        ],
        "legions": [
            {"marker": m, "owner": lg.owner, "land": lg.land, "contents": list(lg.contents)}
            for m, lg in sorted(state.legions.items())
        ],
    }


def make_bundle(game: str, seed: int, events: Sequence[ev.Event], made: str) -> dict[str, Any]:
    """The bundle of ``game`` after ``events`` (all of them), made at ``made`` (ISO time)."""
    state = replay(events)
    salts = [
        {"event": seq, "marker": e.marker, "salt": salt_for(seed, game, e.marker, seq)}
        for seq, e in enumerate(events, start=1)
        if isinstance(e, ev.LegionCommitted)
    ]
    return {
        "format": FORMAT,
        "game": game,
        "made": made,
        "players": [p.name for p in state.players],
        "seed": f"{seed:064x}",
        "seed_sha256": seed_hash(seed),
        "events": [{"seq": seq, **encode(e)} for seq, e in enumerate(events, start=1)],
        "salts": salts,
        "final": final_summary(state),
    }


def dumps(bundle: dict[str, Any]) -> str:
    """The bundle as the attachment holds it: one event a line, so a diff reads well."""
    head = {k: v for k, v in bundle.items() if k not in ("events", "salts", "final")}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append(f'  "final": {json.dumps(bundle["final"], sort_keys=True)},')
    lines.append('  "salts": [')
    lines.append(",\n".join(f"    {json.dumps(s, sort_keys=True)}" for s in bundle["salts"]))
    lines.append("  ],")
    lines.append('  "events": [')
    lines.append(",\n".join(f"    {json.dumps(e, sort_keys=True)}" for e in bundle["events"]))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def file_name(game: str) -> str:
    """The attachment's name."""
    return f"audit-{game}.json"
