"""
Rulebook 21.2 in the audit: a game's lateness policy is sealed with its start (the start
seal's order says ``start lateness=21.2``, which its MAC covers, so every later seal
chains to it), the audit bundle names it (``"lateness"``), and ``verify`` holds the
bundle, the start's seal and every timeout's trigger to the same policy.  The dice a
21.2 timeout rolls (the roll made for the late mover, the legion and move drawn) are
checked against the seed like any die.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from moderator.audit.bundle import dumps, make_bundle
from moderator.audit.seal import OrderKey, seal_mac
from moderator.audit.verify import verify
from moderator.rules.lateness import RULEBOOK_21_2, WOLFF

from .conftest import Desk
from .test_lateness_21_2 import _board
from .test_timeouts import _time_out

MADE = "2026-11-26T00:00:00+00:00"


def _late_mover(make_desk: Callable[..., Desk], lateness: str) -> Desk:
    """Ann, to roll and move, times out in a game of the given lateness."""
    return _board(make_desk, "split", lateness)


def _bundle(desk: Desk) -> dict[str, Any]:
    """The bundle anybody may have, as the audit mail's attachment holds it."""
    seed = desk.table.record.dice.seed
    assert seed is not None
    events = desk.store.load(desk.game_id)
    return json.loads(dumps(make_bundle(desk.game_id, seed, events, MADE, None)))


def _records(bundle: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [r for r in bundle["events"] if r.get("type") == kind]


def test_21_2_the_bundle_names_the_lateness_and_verify_recomputes_the_drawn_dice(
    make_desk: Callable[..., Desk],
) -> None:
    """21.2: the roll made for the late mover and the dice that drew his legion and move
    are the seed's for the timeout; one changed is named with its event."""
    desk = _late_mover(make_desk, RULEBOOK_21_2)
    _time_out(desk)
    bundle = _bundle(desk)
    assert bundle["lateness"] == RULEBOOK_21_2
    start = _records(bundle, "order-sealed")[0]["payload"]
    assert start["order"] == "start lateness=21.2"
    verdict = verify(bundle)
    assert verdict.ok, verdict.problem
    (line,) = [c for c in verdict.checked if c.startswith("lateness: ")]
    assert line.startswith("lateness: rulebook 21.2's timed moves, sealed at the start; ")

    (drawn,) = _records(bundle, "late-move-drawn")
    drawn["payload"]["rolls"][0] = drawn["payload"]["rolls"][0] % 6 + 1
    verdict = verify(bundle)
    assert verdict.problem is not None and verdict.problem.event == drawn["seq"]
    assert "the seed and the timeout" in verdict.problem.why


@pytest.mark.parametrize(("sealed", "said"), [(RULEBOOK_21_2, WOLFF), (WOLFF, RULEBOOK_21_2)])
def test_21_2_a_bundle_whose_lateness_was_altered_is_refused(
    make_desk: Callable[..., Desk], sealed: str, said: str
) -> None:
    """21.2: the policy the bundle names must be the one the start was sealed with,
    whether or not a deadline ever passed."""
    desk = _late_mover(make_desk, sealed)
    bundle = _bundle(desk)  # no timeout yet: the start's seal alone names the policy
    assert bundle["lateness"] == sealed and verify(bundle).ok
    bundle["lateness"] = said
    verdict = verify(bundle)
    assert verdict.problem is not None
    assert f"the bundle says the game's lateness is {said!r}" in verdict.problem.why


def test_21_2_a_start_seal_rewritten_to_wolff_breaks_the_chain(
    make_desk: Callable[..., Desk],
) -> None:
    """21.2: the start's seal and the bundle both changed to Wolff's: the seal's MAC no
    longer holds, and every seal after it (the ones the reports printed) would change."""
    desk = _late_mover(make_desk, RULEBOOK_21_2)
    _time_out(desk)
    bundle = _bundle(desk)
    start = _records(bundle, "order-sealed")[0]
    start["payload"]["order"] = "start"
    bundle["lateness"] = WOLFF
    verdict = verify(bundle)
    assert verdict.problem is not None and verdict.problem.event == start["seq"]


def _reseal(bundle: dict[str, Any]) -> None:
    """Every seal's MAC computed again from the seed, as a forger holding the bundle could."""
    seed, last = int(bundle["seed"], 16), ""
    for record in _records(bundle, "order-sealed"):
        p = record["payload"]
        key = OrderKey(p["trigger"], p["first"], p["count"], p["player"], p["order"])
        p["mac"] = last = seal_mac(seed, bundle["game"], last, key)


def test_21_2_a_timeout_of_the_other_policy_is_refused(
    make_desk: Callable[..., Desk],
) -> None:
    """21.2: a bundle rewritten to Wolff's policy with every seal made again still holds
    a timeout whose trigger (the key of its dice) names 21.2: refused at its seal."""
    desk = _late_mover(make_desk, RULEBOOK_21_2)
    _time_out(desk)
    bundle = _bundle(desk)
    _records(bundle, "order-sealed")[0]["payload"]["order"] = "start"
    bundle["lateness"] = WOLFF
    _reseal(bundle)
    verdict = verify(bundle)
    timeout = next(
        r for r in _records(bundle, "order-sealed")
        if r["payload"]["trigger"].startswith("timeout-21.2:")
    )  # fmt: skip
    assert verdict.problem is not None and verdict.problem.event == timeout["seq"]
    assert verdict.problem.why == (
        "a timeout gave rulebook 21.2's timed moves, but the game was started under "
        "Wolff 20.4's refusal"
    )
