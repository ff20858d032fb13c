"""
Issue 23, item 4: a game by mail rolls dice no player can foretell.  It always draws a
256-bit secret seed; ``game new --seed`` is refused unless the operator also says
``--insecure-test-seed``, and then every report of the game says, in the part the
moderator signs, that its dice are not secret.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.audit.commitments import commitment_for, salt_for
from moderator.audit.dice import seed_hash
from moderator.cli import app
from moderator.ports import StoredMail
from moderator.rules.legal import to_act
from moderator.runners.commands import start_game
from moderator.schedule.record import Dice, GameRecord
from moderator.store import EventStore, outbox, players
from moderator.testing.stores import open_store
from moderator.usecases.games.starting import StartError
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, secret_of

runner = CliRunner()
WARNING = "WARNING: the dice of this game are not secret."
_COMMITMENT = re.compile(r"event (\d+): (\w\w\d\d) commitment ([0-9a-f]{64})")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    """A database where Ann and Bob signed on (with secrets)."""
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    with open_store(url) as store, store.transaction() as tx:
        for name in ("Ann", "Bob"):
            players.add_player(tx, name, address(name), secret=secret_of(name))
    yield url


def game_new(db: str, *options: str) -> tuple[int, str]:
    result = runner.invoke(
        app,
        ["game", "new", "g1", "-p", address("Ann"), "-p", address("Bob"), "--allow-secrets",
         *options, "--db", db],
    )
    return result.exit_code, result.output


def mails(store: EventStore) -> list[StoredMail]:
    with store.reading() as tx:
        return outbox.mails(tx)


def play_to_the_first_split(store: EventStore) -> Table:
    """Colours chosen and the first player's first split made, by mail; both players
    hear of every change (``notify all``)."""
    table = Table(store, MailGameHandler(None, MODERATOR))
    table.set_record(notify={"Ann": "all", "Bob": "all"})
    while not any(len(lg.contents) < 8 for lg in table.state.legions.values()):
        actor = to_act(table.state)
        assert actor is not None
        if table.state.step.value == "split":
            line = "split Bu01 into Bu02: angel centaur centaur gargoyle"
            line = line.replace("Bu", next(iter(table.state.legions))[:2])
        else:
            line = "colour blue" if actor == "Ann" else "colour black"
        sent = table.orders(actor, line)
        assert not sent.note, sent.note
    return table


def test_game_new_refuses_a_chosen_seed_for_a_game_by_mail(db: str) -> None:
    code, output = game_new(db, "--seed", "5")
    assert code == 2
    assert "--seed is refused for a game by mail" in output
    assert "open every hidden legion" in output and "--insecure-test-seed" in output
    with open_store(db) as store, store.reading() as tx:
        assert "g1" not in tx.games()
    code, output = game_new(db, "--insecure-test-seed")
    assert code == 2 and "--insecure-test-seed goes with --seed" in output


def test_start_game_refuses_a_seed_unless_told_it_is_insecure(db: str) -> None:
    with open_store(db) as store:
        with pytest.raises(StartError, match="draws its own secret dice seed"):
            start_game(store, "g1", [address("Ann"), address("Bob")], sender=MODERATOR, seed=5)
        with store.reading() as tx:
            assert "g1" not in tx.games() and outbox.mails(tx) == []


def test_a_game_by_mail_without_a_seed_draws_a_secret_256_bit_one(db: str) -> None:
    """Two games, two seeds of full strength (one of 256 random bits is under 2**200
    with odds of 2**-56); no report says it is insecure, each publishes the hash only."""
    code, _output = game_new(db)
    assert code == 0
    with open_store(db) as store:
        start_game(store, "g2", [address("Ann"), address("Bob")], sender=MODERATOR)
        first, second = store.record("g1"), store.record("g2")
        sent = mails(store)
    for record in (first, second):
        assert record.dice.bound and not record.insecure_dice
        assert (record.dice.seed or 0).bit_length() > 200
    assert first.dice.seed != second.dice.seed
    reports = [m for m in sent if m.kind == "report"]
    assert len(reports) == 4
    for mail in reports:
        assert WARNING not in mail.body and "Fair dice" in mail.body
        assert str(first.dice.seed) not in mail.body and str(second.dice.seed) not in mail.body


def test_with_the_insecure_flag_every_report_signs_that_the_dice_are_not_secret(
    db: str,
) -> None:
    code, output = game_new(db, "--seed", "5", "--insecure-test-seed")
    assert code == 0, output
    assert "Warning: the dice of g1 are not secret" in output
    with open_store(db) as store:
        assert store.record("g1").insecure_dice and store.record("g1").dice.seed == 5
        play_to_the_first_split(store)
        sent = mails(store)
        assert store.record("g1").insecure_dice  # the dice moved on, the flag stays
    reports = [m for m in sent if m.kind == "report" or "report for" in m.body]
    assert len(reports) >= 4
    for mail in reports:  # the body is the signed part
        assert WARNING in mail.body, mail.body
    first = [m for m in reports if "Dice seed SHA-256" in m.body]
    assert len(first) == 2 and all("Dice NOT secret" in m.body for m in first)
    assert all("Fair dice" not in m.body for m in reports)


def test_a_chosen_seed_opens_every_hidden_legion_so_only_the_insecure_flag_takes_one(
    db: str,
) -> None:
    """The attack as reported, on the game the flag allows: from the seed's hash and the
    commitments in his signed parts, a player finds the seed, derives the salts and opens
    his opponent's legions exactly.  A game by mail with its own seed resists the same
    search."""
    code, _ = game_new(db, "--seed", "5", "--insecure-test-seed")
    assert code == 0
    with open_store(db) as store:
        table = play_to_the_first_split(store)
        state = table.state
        sent = mails(store)
    splitter = next(lg.owner for lg in state.legions.values() if len(lg.contents) < 8)
    other = "Bob" if splitter == "Ann" else "Ann"
    seen = "\n".join(m.body for m in sent if m.recipient == address(other))
    published = re.search(r"Dice seed SHA-256: ([0-9a-f]{64})", seen)
    assert published is not None
    found = next(s for s in range(2**16) if seed_hash(s) == published.group(1))
    assert found == 5
    starting = ["Titan", "Angel", "Ogre", "Ogre", "Centaur", "Centaur", "Gargoyle", "Gargoyle"]
    opened: dict[str, list[str]] = {}
    for number, marker, commitment in _COMMITMENT.findall(seen):
        # numbered among the public events: the log's number is at least as high
        for seq in range(int(number), int(number) + 64):
            salt = salt_for(found, "g1", marker, seq)
            for held in itertools.combinations(starting, len(state.legions[marker].contents)):
                if commitment_for("g1", marker, seq, salt, held) == commitment:
                    opened[marker] = sorted(held)
                    break
    hidden = {m: sorted(lg.contents) for m, lg in state.legions.items() if lg.owner == splitter}
    assert opened and opened == {m: hidden[m] for m in opened}
    with open_store(db) as store:  # the same search on a game with its own seed
        start_game(store, "g2", [address("Ann"), address("Bob")], sender=MODERATOR)
        commitment = store.record("g2").dice.commitment
    assert all(seed_hash(s) != commitment for s in range(2**16))


def test_a_game_stored_with_a_chosen_seed_before_the_flag_reads_as_not_secret() -> None:
    """A record written before ``insecure_dice`` existed: bound dice with a seed of 64
    bits or fewer can only have been given with --seed, so the reports warn from now."""
    for seed, insecure in ((5, True), (2**255 + 12345, False)):
        stored = GameRecord(dice=Dice(seed=seed, bound=True)).to_json()
        del stored["insecure_dice"]
        assert GameRecord.from_json(stored).insecure_dice is insecure
    unbound = GameRecord(dice=Dice(seed=5)).to_json()
    del unbound["insecure_dice"]
    assert not GameRecord.from_json(unbound).insecure_dice  # a local game's dice
