"""
The audit bundle: everything a player needs to check a finished game by himself, in
one JSON document (the format is described in docs/audit.md).  It holds the events of
the game, hidden ones too (what every legion held, so that the commitments can be
checked), the secret seed, every salt and the final state the events must reach; the
mail digests that chose the dice and the orders' lines are in the ``order-sealed``
events.  Each player gets his own: what others only said or showed to each other
(Wolff 4.5) and their standing orders' notes (Wolff 9.4) are left out, each stretch a
placeholder with its length (``hidden``) and, for an aside, its ``seal``.  No bundle
holds the words of a message passed on (Wolff 4.5: a player may tell what another
wrote, never prove it, and the bundle is the moderator's word): a message keeps its
sender and audience, its words replaced as its seal replaced them
(``seal.WORDS_NOT_SEALED``), and one sealed with its words is left out whole.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from moderator.audit.commitments import salt_for
from moderator.audit.dice import seed_hash
from moderator.audit.seal import (
    WORDS_NOT_SEALED,
    is_aside_order,
    lateness_of_start,
    words_sealed,
)
from moderator.rules import events as ev
from moderator.rules.codec import encode
from moderator.rules.evolve import replay
from moderator.rules.lateness import WOLFF
from moderator.rules.state import GameState
from moderator.rules.variant import check_digest, own_variant

#: The bundle's ``format``: bumped when a reader of the old one would misread the new.
FORMAT = "titan-audit-2"
#: The formats ``verify`` reads (1: one bundle for all, before orders were recorded).
FORMATS = ("titan-audit-1", FORMAT)


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


def sealed_lateness(events: Sequence[ev.Event]) -> str:
    """The lateness policy the game's start was sealed with (Wolff's in a log whose
    start names none)."""
    for event in events:
        if isinstance(event, ev.OrderSealed):
            return lateness_of_start(event.order) or WOLFF
    return WOLFF


def make_bundle(
    game: str, seed: int, events: Sequence[ev.Event], made: str, reader: str | None
) -> dict[str, Any]:
    """
    ``reader``'s bundle of ``game`` after ``events`` (all of them), made at ``made`` (ISO
    time); ``reader`` None: the bundle anybody may have, every aside and standing
    order's note left out.
    """
    state = replay(events)
    hidden = hidden_stretches(events, reader)
    records: list[dict[str, Any]] = []
    salts: list[dict[str, Any]] = []
    seq = 1
    while seq <= len(events):
        if seq in hidden:
            count, sealed = hidden[seq]
            place: dict[str, Any] = {"seq": seq, "hidden": count}
            if sealed is not None:
                place["seal"] = sealed
            records.append(place)
            seq += count
            continue
        event = events[seq - 1]
        if isinstance(event, ev.MessageRelayed):  # its seal does not cover the words either
            event = replace(event, text=WORDS_NOT_SEALED)
        records.append({"seq": seq, **encode(event)})
        if isinstance(event, ev.LegionCommitted):
            salts.append(
                {"event": seq, "marker": event.marker, "salt": salt_for(seed, game, event.marker, seq)}
            )
        seq += 1
    return {
        "format": FORMAT,
        "game": game,
        "made": made,
        "reader": reader,
        "players": [p.name for p in state.players],
        "variant": state.variant_name,
        **_own_variant(state),
        "lateness": sealed_lateness(events),
        "seed": f"{seed:064x}",
        "seed_sha256": seed_hash(seed),
        "events": records,
        "salts": salts,
        "final": final_summary(state),
    }


def _own_variant(state: GameState) -> dict[str, Any]:
    """
    A group's own variant goes with its game: its data (every file's tables, its base's
    too) and their digest, so that a player can replay the game without the operator's
    files (docs/audit.md).  A shipped variant is named only: every copy of the
    moderator has it.
    """
    if not state.variant_digest:
        return {}
    check_digest(state.variant_name, state.variant_digest)  # the files changed: refused
    own = own_variant(state.variant_name)
    assert own is not None  # check_digest found its digest
    return {"variant_digest": own.digest, "variant_data": dict(own.data)}


def _sees(event: ev.Event, reader: str | None) -> bool:
    return event.visible_to is None or (reader is not None and reader in event.visible_to)


def hidden_stretches(
    events: Sequence[ev.Event], reader: str | None
) -> dict[int, tuple[int, str | None]]:
    """
    What ``reader``'s bundle leaves out, by the number of its first event: (how many
    events, the aside's seal or None for a standing order's note).  An aside he is not
    in goes whole, with its seal and openings, and so does a message whose seal covers
    its words (sealed before ``seal.sealed_line``: with the seed, its MAC would prove
    them), even his own; nothing else of an order ever does.
    """
    out: dict[int, tuple[int, str | None]] = {}
    for index, event in enumerate(events):
        if isinstance(event, ev.StandingOrderUsed) and not _sees(event, reader):
            out[index + 1] = (1, None)
        if not isinstance(event, ev.OrderSealed):
            continue
        order = events[event.first - 1 : index]
        if not is_aside_order(order):
            continue
        words = words_sealed(event) and any(isinstance(e, ev.MessageRelayed) for e in order)
        if not words and any(_sees(e, reader) for e in order):
            continue
        end = index + 1
        while end < len(events) and isinstance(events[end], ev.CommitmentOpened):
            end += 1
        out[event.first] = (end - event.first + 1, event.mac)
    return out


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
