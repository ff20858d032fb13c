"""
A group's own variant (docs/variants.md, "A group's own variant"): written in a
directory, checked, installed as the composition root installs it, a robot game of it
played to its end with dice bound as by mail, and its audit bundle verified on a
machine that has none of the operator's files (the bundle carries the variant's data
and their digest).  A game begun on the old files is refused once they change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.audit.bundle import dumps, make_bundle
from moderator.audit.verify import verify
from moderator.rules import events as ev
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.setup import start_game
from moderator.rules.state import Step
from moderator.rules.variant import (
    VariantChangedError,
    forget_own_variant,
    load_variant,
    own_variant,
    read_own_variant,
)
from moderator.rules.variant_files import data_digest
from moderator.runtime.variants import install_own_variants
from moderator.usecases.games.robot_games import play_robot_game
from tests.ownvariant import NAME, change_muster, installed

from .conftest import MADE, secret_of

GAME = "g-own"


@pytest.fixture(scope="module")
def own_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, ev.GameCreated, str, Step]:
    """One robot game of the own variant to its end, and its bundle; the variant uninstalled after."""
    root = tmp_path_factory.mktemp("own")
    with installed(root) as directory:
        variant = load_variant(NAME)
        assert dict(variant.muster_chains["Plains"])["Lion"] == 1  # the group's change
        assert dict(load_variant("standard").muster_chains["Plains"])["Lion"] == 2
        played = play_robot_game(2, 11, bound=GAME, variant=NAME)
        assert played.finished
        created = played.events[0]
        assert isinstance(created, ev.GameCreated)
        bundle = json.loads(dumps(make_bundle(GAME, secret_of(11), played.events, MADE, None)))
        return bundle, created, read_own_variant(directory).digest, played.state.step


def test_an_own_variant_is_played_to_its_end_and_verified_without_its_files(own_game) -> None:
    """A group's own variant: a robot game of it ends, and its bundle verifies where the variant is not installed."""
    bundle, created, digest, step = own_game
    assert step is Step.OVER
    assert created.variant == NAME and created.variant_digest == digest
    assert own_variant(NAME) is None  # a player's machine: none of the operator's files
    assert bundle["variant"] == NAME and bundle["variant_digest"] == digest
    assert set(bundle["variant_data"]) >= {"variant.toml", "muster.toml", "masterboard.toml"}
    try:
        verdict = verify(json.loads(json.dumps(bundle)))
        assert verdict.ok, verdict.problem
        assert verdict.checked[-1].endswith(f"(variant {NAME})")
    finally:
        forget_own_variant(NAME)


def test_a_bundle_whose_variant_data_were_altered_is_refused(own_game) -> None:
    """The variant's data in a bundle must hash to its digest, and that digest must be the one the game began with."""
    bundle = own_game[0]
    try:
        altered = json.loads(json.dumps(bundle))
        altered["variant_data"]["muster.toml"]["tower"]["guardian_needs"] = 2
        verdict = verify(altered)
        assert verdict.problem is not None and "variant_digest" in str(verdict.problem)
        relabelled = json.loads(json.dumps(bundle))
        relabelled["variant_data"]["variant.toml"]["title"] = "Another"
        relabelled["variant_digest"] = data_digest(relabelled["variant_data"])
        verdict = verify(relabelled)  # consistent in itself, but not the data the game began on
        assert verdict.problem is not None and "changed since the game began" in str(verdict.problem)
    finally:
        forget_own_variant(NAME)


def test_a_game_of_an_own_variant_is_refused_once_its_files_changed(tmp_path: Path) -> None:
    """The game names its variant and the digest of its data: changed files would replay another game, so it is refused."""
    with installed(tmp_path) as directory:
        events = start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant=NAME)
        assert replay(events).variant.name == NAME
        change_muster(directory)
        assert install_own_variants(str(tmp_path)) == (NAME,)  # the service started again
        with pytest.raises(VariantChangedError, match=f"variant '{NAME}'.*changed since the game began"):
            replay(events)
        state_before = replay(events[:0])
        assert state_before.variant_name == "standard"
        # a new game takes the new files
        assert replay(start_game(["Ann", "Bob"], ScriptedDice([6, 3]), variant=NAME)).variant.name == NAME
