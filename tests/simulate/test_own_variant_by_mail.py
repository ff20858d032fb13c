"""
A group's own variant by mail (docs/variants.md, "A group's own variant"): installed as
the composition root installs it, a game of it played by mail to its end on
``simulate``'s path (made as ``game new --variant`` makes it, every robot mail through
the mail runner and handler), and the audit bundles the service attached to its audit
mails verified where the variant is not installed: each carries the variant's data.
"""

from __future__ import annotations

import json
from pathlib import Path

from moderator.audit.verify import verify
from moderator.rules.state import Step
from moderator.rules.variant import forget_own_variant, own_variant, variant_digest
from moderator.simulate import Options, play_in
from moderator.simulate.composer import RANDOM
from moderator.simulate.inprocess import EPOCH, InProcess, simulation_config
from moderator.store import outbox
from moderator.testing.apps import on_test_clock
from moderator.usecases.games.audits import AUDIT
from tests.ownvariant import NAME, installed

#: A seed whose 2-player game between random robots in the own variant ends soon.
SEED = 8


def test_an_own_variant_game_by_mail_ends_and_its_bundles_verify_without_its_files(tmp_path: Path) -> None:
    with installed(tmp_path / "variants"):
        digest = variant_digest(NAME)
        world = InProcess(on_test_clock(EPOCH)(simulation_config(tmp_path)))
        try:
            tally = play_in(world, Options(players=2, seed=SEED, robot=RANDOM, variant=NAME), 0)
            state = world.state(tally.game_id)
            with world.store.reading() as tx:
                mails = outbox.mails(tx)
        finally:
            world.close()
    assert tally.finished and state.step is Step.OVER, tally
    assert state.variant_name == NAME and state.variant_digest == digest
    audits = [m for m in mails if m.kind == AUDIT]
    assert len(audits) == 2
    assert own_variant(NAME) is None  # a player's machine
    try:
        for mail in audits:
            (attached,) = mail.attachments
            bundle = json.loads(attached["text"])
            assert bundle["variant"] == NAME and bundle["variant_digest"] == digest
            verdict = verify(bundle)
            assert verdict.ok, f"{bundle['reader']}'s bundle: {verdict.problem}"
            forget_own_variant(NAME)  # each bundle on its own
    finally:
        forget_own_variant(NAME)
