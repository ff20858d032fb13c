"""
Flat memory (issue 28): what the service keeps between mails is bounded by a count,
and a game that ends leaves nothing of itself behind, so a service that runs for
months holds about as much after its hundredth game as after its first.  Sizes and
counts only: no test here times anything or reads the process's RSS.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import gc
from collections.abc import Callable
from pathlib import Path

from moderator.mail import compose
from moderator.ports import GameContext
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.runtime.bootstrap import bootstrap
from moderator.runtime.service import COLLECT_EVERY, Service
from moderator.store import inbox, migrate, players
from moderator.store.handling import SqlLookup
from moderator.testing.connections import imap_source_at
from moderator.testing.hub import MailHub
from moderator.testing.mailgame import PROCESSED_FLAGS
from moderator.usecases.games.caches import Caches
from moderator.usecases.games.knowledge_cache import KnowledgeCache
from moderator.usecases.games.state_cache import StateCache

from .conftest import Table
from .loopback import loopback_config


def _one_order(table: Table) -> None:
    actor = to_act(table.state)
    assert actor is not None
    line = next(
        o for o in legal_orders(table.state, actor) if o not in ("withdraw", "undo")
    )
    assert table.orders(actor, line).status == inbox.PROCESSED


def test_the_state_cache_holds_at_most_its_games_and_states_a_game() -> None:
    cache = StateCache(games=3, states=4)
    for game in range(10):
        for seq in range(1, 20):
            cache.remember(("db", f"g{game}"), seq, GameState())
    assert len(cache) == 3
    assert [cache.states_of(("db", f"g{game}")) for game in range(10)] == [0] * 7 + [4] * 3
    assert cache.nearest(("db", "g9"), 100) is not None
    assert cache.nearest(("db", "g0"), 100) is None  # the least recently used went first


def test_a_finished_games_state_is_not_kept() -> None:
    cache = StateCache()
    cache.remember(("db", "g1"), 5, GameState())
    cache.remember(("db", "g1"), 9, GameState(step=Step.OVER))
    assert len(cache) == 0
    assert cache.nearest(("db", "g1"), 9) is None


def test_the_knowledge_cache_holds_at_most_its_games(make_table: Callable[..., Table]) -> None:
    tables = [make_table(game_id=f"g{n}") for n in range(4)]
    cache = KnowledgeCache(games=2)
    store = tables[0].store
    for table in tables:
        with store.reading() as tx:
            loaded = tx.load(table.game_id)
            game = GameContext(table.game_id, loaded.state, loaded.seq, loaded.record,
                               players.seats(tx, table.game_id))
            cache.knowledge_after(game, SqlLookup(tx), ())
    assert len(cache) == 2


def test_a_game_that_ends_leaves_nothing_in_the_service_caches(
    make_table: Callable[..., Table],
) -> None:
    """The report round before the end keeps the game's states and knowledge; the mail
    that ends it (a withdrawal: the other player wins) sends the last reports (and the
    audits, where the dice are bound) and drops both, so the caches do not hold every game the service ever ended."""
    table = make_table(notify="all")
    other = make_table(game_id="g2", notify="all")
    caches = table.store.memo
    assert isinstance(caches, Caches)
    for _ in range(4):
        _one_order(table)
        _one_order(other)
    key = (_database(table), table.game_id)
    assert caches.states.states_of(key) > 0
    assert len(caches.knowledge) == 2
    actor = to_act(table.state)
    assert actor is not None
    ended = table.orders(actor, "withdraw")
    assert ended.status == inbox.PROCESSED
    assert table.state.step is Step.OVER
    assert [m for m in ended.mails if m.kind == "report"]  # the last reports were made
    assert caches.states.states_of(key) == 0
    assert len(caches.knowledge) == 1  # the game still played is kept
    assert caches.states.states_of((key[0], "g2")) > 0


def _database(table: Table) -> str:
    with table.store.reading() as tx:
        return SqlLookup(tx).database


def test_the_hub_forgets_mail_a_player_filed_and_mail_the_moderator_processed() -> None:
    """The embedded hub keeps every message in memory; a long demo or soak drops what
    the robots have read (up to a UID) and what the moderator marked done, and the mail
    still to be read stays."""

    def mail(n: int) -> bytes:
        return f"From: a@b.example\r\nSubject: {n}\r\n\r\nbody {n}\r\n".encode()

    async def scenario() -> None:
        async with MailHub() as hub:
            hub.add_user("ann@players.example", "pw")
            hub.add_user("moderator@titan.example", "pw")
            for n in range(5):
                await hub.deliver("ann@players.example", mail(n))
                await hub.deliver("moderator@titan.example", mail(n))
            ann = imap_source_at(hub.host, hub.imap_port, "ann@players.example", "pw", tls=False)
            moderator = imap_source_at(
                hub.host, hub.imap_port, "moderator@titan.example", "pw", tls=False
            )
            try:
                read = await ann.fetch_new(None, None)
                await hub.deliver("ann@players.example", mail(5))
                assert await hub.discard("ann@players.example", upto=read.last_uid) == 5
                left = await ann.fetch_new(None, None)
                assert [raw for _, raw in left.messages] == [mail(5)]
                found = await moderator.fetch_new(None, None)
                await moderator.mark_done([uid for uid, _ in found.messages[:3]])
                assert await hub.discard("moderator@titan.example", flagged=PROCESSED_FLAGS) == 3
                assert await hub.held("moderator@titan.example") == 2
            finally:
                await ann.close()
                await moderator.close()

    asyncio.run(scenario())


def test_serve_collects_the_cycles_every_mail_leaves_behind(tmp_path: Path) -> None:
    """Mail handling leaves cycles (a mail parsed with the standard library's policy
    makes a header class per header), which Python's oldest generation would hold until
    long after; the service runs a full collection as a job of its own, every
    ``COLLECT_EVERY``.  (The mails we compose no longer leave such classes:
    ``compose.POLICY`` makes each once.)"""

    def compose_mails(count: int) -> None:
        for n in range(count):
            part = compose.text_part(f"report {n}\n", description="your legions")
            email.message_from_bytes(part.as_bytes(), policy=email.policy.default)["Content-Type"]

    gc.collect()
    compose_mails(50)
    assert gc.collect() > 0  # what the mails left was garbage in cycles

    async def scenario() -> None:
        url = f"sqlite:///{tmp_path / 'collect.sqlite'}"
        migrate.upgrade(url)
        async with MailHub() as hub:
            hub.add_user("moderator@titan.example", "pw")
            service = Service(bootstrap(loopback_config(hub, url, user="moderator@titan.example")))
            await service.start()
            try:
                assert service.scheduler is not None
                job = service.scheduler.get_job("collect")
                assert job is not None
                assert job.trigger.interval == COLLECT_EVERY
                compose_mails(50)
                assert await service.collect_now() > 0
            finally:
                await service.stop()

    asyncio.run(scenario())
