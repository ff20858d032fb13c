"""
A robot game of each shipped variant, played to its end with dice bound as by mail,
then its audit bundle made and verified: the bundle names the variant and ``verify``
replays the game in it (Badlands' battleland dice among those it recomputes).
"""

from __future__ import annotations

import json

import pytest

from moderator.audit.bundle import dumps, make_bundle
from moderator.audit.verify import verify
from moderator.rules import events as ev
from moderator.rules.state import Step
from moderator.rules.variant import shipped_variants
from moderator.usecases.games.robot_games import play_robot_game

from .conftest import MADE, secret_of

GAME = "g-variant"


@pytest.mark.parametrize("variant", shipped_variants())
def test_a_robot_game_of_each_variant_ends_and_its_audit_verifies(variant: str) -> None:
    played = play_robot_game(2, 11, bound=GAME, variant=variant)
    assert played.finished and played.state.step is Step.OVER
    assert played.state.variant_name == variant
    bundle = json.loads(dumps(make_bundle(GAME, secret_of(11), played.events, MADE, None)))
    assert bundle["variant"] == variant
    verdict = verify(bundle)
    assert verdict.ok, verdict.problem
    assert verdict.checked[-1].endswith(f"(variant {variant})")


def test_a_bundle_naming_another_variant_is_refused() -> None:
    played = play_robot_game(2, 11, bound=GAME, variant="titanplus")
    bundle = json.loads(dumps(make_bundle(GAME, secret_of(11), played.events, MADE, None)))
    bundle["variant"] = "standard"
    verdict = verify(bundle)
    assert verdict.problem is not None and "'standard'" in str(verdict.problem)


def test_badlands_a_battleland_die_changed_is_named() -> None:
    """The die rolled for the defender is the seed's, and it chose the battleland."""
    for seed in range(11, 40):
        played = play_robot_game(2, seed, bound=GAME, variant="badlands")
        rolled = [
            i for i, e in enumerate(played.events)
            if isinstance(e, ev.BattleStarted) and e.battleland_roll is not None
        ]  # fmt: skip
        if rolled:
            break
    else:
        pytest.fail("no robot game of Badlands rolled for a battleland")
    bundle = json.loads(dumps(make_bundle(GAME, secret_of(seed), played.events, MADE, None)))
    record = next(r for r in bundle["events"] if r.get("seq") == rolled[0] + 1)
    record["payload"]["battleland_roll"] = 7 - record["payload"]["battleland_roll"]
    verdict = verify(bundle)
    assert verdict.problem is not None and verdict.problem.event == rolled[0] + 1, verdict.problem
