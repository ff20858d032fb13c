"""
Random robot games played through the mail handler: every order a robot gives goes in
a mail, authenticated by a secret line, a clearsigned text or a PGP/MIME signature,
with queries mixed in (and from the other players too).  After each mail, every mail it
caused is checked: **no mail holds anything its recipient may not see**
(``privacy.leaks``), and the game moved on exactly as the robot's order says.

Each game starts from a random point of a robot game played in memory (so that battles,
engagements and negotiations are reached quickly), then ``MAILS`` mails are sent.
Players also show legions and pass messages to each other (Wolff 4.5), some of the
time and at least once a game each: those go only to the players named, never in the
signed part, and each game counts them.
``TITAN_SOAK=N`` plays N games of longer runs instead of the default 20.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from moderator import robot
from moderator.mail.intake import ReplyBudget
from moderator.rules import events as ev
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.setup import start_game
from moderator.rules.state import GameState, Step
from moderator.schedule.record import Dice, GameRecord
from moderator.store import EventStore, inbox
from moderator.testing.stores import open_store
from moderator.usecases.games.dice import CountingDice
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, NAMES, Table, World, carries_report, seat_players
from .privacy import Knowledge, leaks

SOAK = int(os.environ.get("TITAN_SOAK", "0"))
GAMES = SOAK or 20
MAILS = 120 if SOAK else 30
QUERIES = ("status", "history", "legal", "battle", "strikes", "report", "help")


def robot_prefix(names: list[str], seed: int, actions: int) -> tuple[list, GameState, Dice]:
    """A robot game played ``actions`` actions in memory: events, state, where the dice are."""
    dice = CountingDice(seed=seed)
    rng = random.Random(f"prefix:{seed}")
    events = start_game(names, dice)
    state = replay(events)
    first = advance(state)
    events += first
    state = replay(first, state)
    for _ in range(actions):
        if to_act(state) is None:
            break
        _line, command = robot.choose_order(state, rng)
        new = decide(state, command, dice)
        events.extend(new)
        state = replay(new, state)
    return events, state, dice.record()


def queries_for(state: GameState, player: str, rng: random.Random) -> list[str]:
    """A few random queries, some about other players' legions."""
    picks = [q for q in QUERIES if rng.random() < 0.12]
    markers = sorted(state.legions)
    if markers and rng.random() < 0.5:
        picks.append(f"legion {rng.choice(markers)}")
    if markers and rng.random() < 0.2:
        picks.append(f"moves {rng.choice(markers)}")
    if state.battle is not None and rng.random() < 0.3:
        hexes = [f.hex for f in state.battle.fighters if f.hex and not f.slain]
        if hexes:
            picks.append(f"reach {rng.choice(hexes)}")
    return picks


def exposure_lines(state: GameState, rng: random.Random, force: bool) -> tuple[str, list[str]]:
    """A player's ``show`` and ``tell`` lines to some others (Wolff 4.5), or none."""
    live = [p.name for p in state.live_players]
    owners = sorted({lg.owner for lg in state.legions.values()} & set(live))
    if len(live) < 2 or not owners or not (force or rng.random() < 0.1):
        return "", []
    who = rng.choice(owners)
    others = [n for n in live if n != who]
    to = rng.sample(others, rng.randint(1, len(others)))
    names = "all" if len(to) == len(others) and rng.random() < 0.5 else ", ".join(to)
    legion = rng.choice([lg for lg in state.legions.values() if lg.owner == who])
    part = rng.sample(legion.contents, rng.randint(1, legion.height))
    shown = f": {' '.join(c.lower() for c in part)}" if rng.random() < 0.5 else ""
    secret = f"meet me at {rng.randint(1, 999)} #{rng.randint(1000, 9999)}"
    return who, [f"show {legion.marker} to {names}{shown}", f"tell {names}: {secret}"]


def play_by_mail(store: EventStore, world: World, number: int) -> int:
    """One game; returns the number of mails checked."""
    rng = random.Random(f"soak:{number}")
    names = list(NAMES[: rng.choice((2, 3, 4, 5, 6))])
    how = ("secret", "secret", "clearsigned", "pgp-mime")[number % 4]
    actions = rng.randrange(0, 400)
    events, state, dice_record = robot_prefix(names, number, actions)
    while to_act(state) is None:  # the robots finished the game: start from earlier on
        actions //= 2
        events, state, dice_record = robot_prefix(names, number, actions)
    dice = CountingDice.from_record(dice_record)
    game_id = f"s{number}"
    with store.transaction() as tx:
        record = GameRecord(
            players=tuple(names),
            dice=dice_record,
            allow_secrets=how == "secret",
            reported=dict.fromkeys(names, state.version),
        )
        tx.create_game(game_id, record)
        tx.append(game_id, 0, events, record=record, state=state)
    seat_players(store, game_id, names, world.players)
    table = Table(store, handler_for(world, signed=how != "secret"))
    table.game_id = game_id
    knowledge = Knowledge()
    knowledge.follow(events)
    play_rng = random.Random(f"orders:{number}")
    checked = exposures = relays = shown_at = 0
    for _ in range(MAILS):
        actor = to_act(state)
        if actor is None or state.step is Step.OVER:
            break
        if play_rng.random() < 0.15:  # somebody else asks questions meanwhile
            other = play_rng.choice(names)
            body = "\n".join(queries_for(state, other, play_rng) or ["status"])
            sent = table.orders(
                other,
                body,
                how=how,
                party=world.players[other],
                ref=f"ref {game_id}-{state.steps_seen(other)}",
            )
            assert sent.status == inbox.PROCESSED, sent.note
            checked += check(sent.mails, knowledge)
        who, shows = exposure_lines(state, play_rng, force=not (exposures and relays))
        if shows:
            sent = table.orders(
                who, "\n".join(shows), how=how, party=world.players[who],
                ref=f"ref {game_id}-{state.steps_seen(who)}",
            )
            assert sent.status == inbox.PROCESSED and sent.note in (None, ""), sent.note
            with store.reading() as tx:
                new = tx.events(game_id, after=len(events))
            exposures += sum(isinstance(e, ev.LegionShown) for e in new)
            relays += sum(isinstance(e, ev.MessageRelayed) for e in new)
            assert {type(e) for e in new} == {ev.LegionShown, ev.MessageRelayed}, new
            events.extend(new)
            knowledge.follow(new)
            state = knowledge.state
            checked += check(sent.mails, knowledge)
            shown_at = len(events)
            assert all(m.recipient != f"{p.lower()}@example.org" for m in sent.mails
                       for p in names if p != who and p not in _audience(new)), "told a stranger"
        line, command = robot.choose_order(state, play_rng)
        body = "\n".join([line, *queries_for(state, actor, play_rng)])
        sent = table.orders(
            actor, body, how=how, party=world.players[actor], ref=f"ref {game_id}-{state.steps_seen(actor)}"
        )
        assert sent.status == inbox.PROCESSED, sent.note
        assert sent.note in (None, ""), f"{line!r}: {sent.note}"
        with store.reading() as tx:
            new = tx.events(game_id, after=len(events))
        expected = decide(state, command, dice)
        assert new == list(expected), f"{line!r}: not what the robot ordered"
        events.extend(new)
        knowledge.follow(new)
        state = knowledge.state
        if shown_at:  # Wolff 4.5: what a show taught stays true through splits and musters
            assert_known_is_true(knowledge, names)
        assert any(carries_report(m) for m in sent.mails)
        checked += check(sent.mails, knowledge)
    assert state == store.load_state(game_id).state
    assert exposures >= 1 and relays >= 1, (exposures, relays)
    return checked


def assert_known_is_true(knowledge: Knowledge, names: list[str]) -> None:
    """What every player knows for certain of every legion is part of what it holds."""
    for viewer in names:
        for marker, legion in knowledge.state.legions.items():
            known = Counter(knowledge.certain.legion(viewer, marker).known)
            assert not known - Counter(legion.contents), (viewer, marker, known)


def _audience(new: list) -> set[str]:
    return {name for e in new for name in (e.visible_to or ())}


_HANDLERS: dict[bool, MailGameHandler] = {}


def handler_for(world: World, *, signed: bool) -> MailGameHandler:
    """
    One handler for all games (it remembers checked secrets, as a running service
    does).  The games share one store and the players' addresses: no daily budget.
    """
    if signed not in _HANDLERS:
        keyring = world.moderator.keyring if signed else None
        _HANDLERS[signed] = MailGameHandler(
            (lambda: keyring) if keyring else None, MODERATOR, budget=ReplyBudget(10**9)
        )
    return _HANDLERS[signed]


def check(mails: list, knowledge: Knowledge) -> int:
    readers = {f"{name.lower()}@example.org": name for name in NAMES}
    for mail in mails:
        reader = readers[mail.recipient]
        found = leaks(mail, reader, knowledge)
        assert found == [], f"mail {mail.kind} to {reader}: {found}"
    return len(mails)


@pytest.fixture(scope="module")
def soak_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EventStore]:
    path = tmp_path_factory.mktemp("soak") / "soak.sqlite"
    with open_store(f"sqlite:///{path}", snapshot_every=50) as store:
        yield store


@pytest.mark.parametrize("number", range(GAMES))
def test_no_mail_holds_what_its_reader_may_not_see(
    soak_store: EventStore, world: World, number: int
) -> None:
    assert play_by_mail(soak_store, world, number) > 0


def test_the_checker_catches_a_leak(world: World) -> None:
    """The check itself: a report with another player's hidden legion is caught."""
    from moderator.ports import StoredMail

    events, _state, _ = robot_prefix(["Ann", "Bob"], 3, 12)
    knowledge = Knowledge()
    knowledge.follow(events)
    hidden = next(lg for lg in knowledge.state.legions.values() if not lg.known_by(None))
    other = "Bob" if hidden.owner == "Ann" else "Ann"
    line = f"{hidden.marker} (X) in {hidden.land}, {hidden.height} high: " + ", ".join(
        hidden.contents
    )
    mail = StoredMail(1, "<x>", "x", "s", "public", {}, "pending", 0, None, "g", line)
    assert leaks(mail, hidden.owner, knowledge) == []
    assert leaks(mail, other, knowledge) != []
    public = StoredMail(1, "<x>", "x", "s", line, {}, "pending", 0, None, "g", None)
    assert leaks(public, hidden.owner, knowledge) != []
    secret, audience = next((t, a) for t, a in knowledge.hidden if a and other not in a)
    told = StoredMail(1, "<x>", "x", "s", "public", {}, "pending", 0, None, "g", f"  {secret}")
    owner = next(iter(audience))
    assert leaks(told, owner, knowledge) == []
    assert leaks(told, other, knowledge) != []
    in_public = StoredMail(1, "<x>", "x", "s", f"  {secret}", {}, "pending", 0, None, "g", None)
    assert leaks(in_public, owner, knowledge) != []
