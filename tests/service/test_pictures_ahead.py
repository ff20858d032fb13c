"""
A picture costs once and off the answer's path: the pictures of a queued report are
handed to the picture worker as soon as the report is in the outbox (``PicturePool.prepare``,
``Sender.prepare_due``), the sender then takes the drawn picture instead of drawing it
again, the pictures held ahead stay bounded, and a processed mail brings the send round
forward rather than waiting for the rest of the poll or the send interval (nor does the
poll wait for a send round under way).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

from moderator.pictures.spec import report_pictures
from moderator.ports import OutgoingMail
from moderator.runtime.bootstrap import bootstrap
from moderator.runtime.outgoing import picture_specs
from moderator.runtime.picture_worker import PicturePool, draw_here
from moderator.runtime.sender import Sender
from moderator.runtime.service import Service
from moderator.store import EventStore, migrate, outbox
from moderator.testing.connections import smtp_sink_at
from moderator.testing.hub import MailHub

from ..pictures.positions import board_view
from .conftest import MODERATOR
from .loopback import loopback_config

ANN, BOB = "ann@example.org", "bob@example.org"


class CountingPool(ThreadPoolExecutor):
    """A one-thread executor (a real one) that counts the pictures handed to it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


#: A game of each player's here, so that each one's board is a picture of its own (a
#: board names its game, not its viewer: players of one game share it).
GAMES = {"Ann": "g1", "Bob": "g2", "Cy": "g3"}


def board(viewer: str) -> dict[str, Any]:
    """The masterboard picture of a report to ``viewer`` in his game, as the outbox keeps it."""
    return report_pictures(board_view(viewer), viewer, GAMES[viewer])[0].to_json()


def spec(viewer: str) -> str:
    return picture_specs([board(viewer)])[0]


def test_each_players_game_has_a_picture_of_its_own() -> None:
    assert len({spec(viewer) for viewer in GAMES}) == len(GAMES)


def test_a_picture_drawn_ahead_is_handed_to_the_sender_not_drawn_again() -> None:
    pool = CountingPool()
    pictures = PicturePool(lambda: pool)
    try:
        pictures.prepare(spec("Ann"))
        pictures.prepare(spec("Ann"))  # the same picture queued twice is drawn once
        assert pool.submitted == 1 and pictures.held == 1
        png = pictures.draw_png(spec("Ann"))
        assert png.startswith(b"\x89PNG")
        assert pool.submitted == 1 and pictures.held == 0
        # Its keys in another order are the same picture.
        shuffled = json.dumps(dict(reversed(list(json.loads(spec("Bob")).items()))))
        pictures.prepare(shuffled)
        assert pictures.draw_png(spec("Bob")).startswith(b"\x89PNG")
        assert pool.submitted == 2
    finally:
        pictures.stop()


def test_pictures_held_ahead_are_bounded_and_one_forgotten_is_still_drawn() -> None:
    pool = CountingPool()
    pictures = PicturePool(lambda: pool, ahead=2)
    try:
        for viewer in ("Ann", "Bob", "Cy"):
            pictures.prepare(spec(viewer))
        assert pictures.held == 2  # Ann's, the oldest, was let go
        assert pictures.draw_png(spec("Ann")).startswith(b"\x89PNG")
        assert pool.submitted == 4
        pictures.prepare("not json")  # refused when a mail asks for it, not here
        assert pictures.held == 2
    finally:
        pictures.stop()


def test_the_picture_worker_retires_after_its_share_and_what_it_held_still_arrives() -> None:
    """
    The worker's memory is bounded by a fresh worker every ``retire`` pictures; the
    pictures the retired one was given ahead are still drawn and handed to their mails.
    """
    pools: list[CountingPool] = []

    def make() -> CountingPool:
        pools.append(CountingPool())
        return pools[-1]

    pictures = PicturePool(make, retire=2)
    try:
        for viewer in ("Ann", "Bob", "Cy"):
            pictures.prepare(spec(viewer))
        assert pictures.started == 2 and [p.submitted for p in pools] == [2, 1]
        assert pools[0]._shutdown and not pools[1]._shutdown  # type: ignore[attr-defined]
        for viewer in ("Ann", "Bob", "Cy"):  # Ann's and Bob's from the retired worker
            assert pictures.draw_png(spec(viewer)).startswith(b"\x89PNG")
        assert pictures.started == 2
        pictures.draw_png(spec("Ann"))  # not held any more: drawn, by the second worker
        assert pictures.started == 2 and pools[1].submitted == 2
        pictures.draw_png(spec("Bob"))
        assert pictures.started == 3
    finally:
        pictures.stop()


def test_a_retired_process_worker_ends_and_a_fresh_process_draws() -> None:
    """The composition root's real worker process, retired after one picture."""
    from concurrent.futures import ProcessPoolExecutor

    from moderator.runtime.picture_worker import spawn_context, start_worker

    made: list[ProcessPoolExecutor] = []

    def make() -> ProcessPoolExecutor:
        made.append(ProcessPoolExecutor(1, mp_context=spawn_context(), initializer=start_worker))
        return made[-1]

    pictures = PicturePool(make, retire=1)
    try:
        first = pictures.draw_png(spec("Ann"))
        process = next(iter(made[0]._processes.values()))  # type: ignore[attr-defined]
        assert pictures.draw_png(spec("Ann")) == first  # the same picture from a fresh worker
        assert len(made) == 2
        process.join(timeout=30)
        assert process.exitcode == 0  # the retired worker ended by itself
    finally:
        pictures.stop()


def _queue(store: EventStore, *who: str) -> None:
    mails = [
        OutgoingMail(address, "[titan g1] report", "Turn 2.\n", {"From": MODERATOR},
                     kind="report", pictures=[board(address.split("@")[0].title())])
        for address in who
    ]
    with store.transaction() as tx:
        outbox.add_mails(tx, mails, game_id="g1")


def test_the_sender_hands_each_due_reports_pictures_ahead_once(store: EventStore) -> None:
    handed: list[str] = []
    drawn: list[str] = []

    def draw(picture: str) -> bytes:
        drawn.append(picture)
        return draw_here(picture)

    async def scenario() -> None:
        async with MailHub() as hub:
            for address in (ANN, BOB):
                hub.add_user(address, "pw")
            sink = smtp_sink_at(hub.host, hub.smtp_port, local_hostname="mx.test", timeout=10)
            sender = Sender(store, sink, None, None, MODERATOR, prepare=handed.append, draw=draw)
            _queue(store, ANN)
            assert sender.prepare_due() == 1
            assert handed == [spec("Ann")]
            _queue(store, BOB)
            assert sender.prepare_due() == 1  # Bob's only: Ann's was handed already
            assert handed == [spec("Ann"), spec("Bob")]
            tally = await sender.send_due()
            assert tally.sent == 2
            assert hub.deliveries == {ANN: 1, BOB: 1}
            assert sorted(drawn) == sorted(handed)  # what was handed is what was drawn
            assert sender.prepare_due() == 0  # nothing is due any more

    asyncio.run(scenario())


def test_pictures_are_handed_ahead_without_holding_up_the_poll(store: EventStore) -> None:
    """
    ``prepare_soon`` (after each processed mail, on the poll's serial path) returns while
    the pictures are still being handed; a mail that commits meanwhile is handed too.
    """
    handed: list[str] = []
    gate = threading.Event()

    def prepare(picture: str) -> None:
        handed.append(picture)
        assert gate.wait(30)  # held until the test lets it go

    async def scenario() -> None:
        sink = smtp_sink_at("127.0.0.1", 9, local_hostname="mx.test", timeout=10)
        sender = Sender(store, sink, None, None, MODERATOR, prepare=prepare)
        _queue(store, ANN)
        sender.prepare_soon()  # returns at once: nothing is handed before the loop turns
        assert handed == []
        for _ in range(300):
            if handed:
                break
            await asyncio.sleep(0.01)
        assert handed == [spec("Ann")]  # and the hand-over is held at the gate
        _queue(store, BOB)
        sender.prepare_soon()  # while the first is held: the outbox is read once more
        gate.set()
        await sender.close()
        assert handed == [spec("Ann"), spec("Bob")]

    asyncio.run(scenario())


def test_a_processed_mail_brings_the_send_round_forward(tmp_path: Path) -> None:
    """The send job's interval is an hour: only the processed mail can have sent it."""
    db = f"sqlite:///{tmp_path / 'games.sqlite'}"
    migrate.upgrade(db)

    async def scenario() -> None:
        async with MailHub() as hub:
            for address in (MODERATOR, ANN, BOB):
                hub.add_user(address, "pw")
            service = Service(bootstrap(loopback_config(hub, db, user=MODERATOR)))
            await service.start()
            try:
                async with asyncio.timeout(30):  # the rounds the start runs at once are over
                    while not service.activity.is_set() or service._rounds.running:
                        await asyncio.sleep(0.05)
                _queue(service.store, ANN)
                await hub.deliver(MODERATOR, b"From: bob@example.org\r\nSubject: hello\r\n"
                                  b"Message-ID: <1@example.org>\r\n\r\nhello\r\n")
                result = await service.poller.poll()  # the poll alone, not poll_now
                assert result.processed == 1
                async with asyncio.timeout(30):
                    while hub.deliveries.get(ANN, 0) == 0:
                        await asyncio.sleep(0.05)
            finally:
                await service.stop()

    asyncio.run(scenario())


class _Stall:
    """An aiosmtpd handler that holds every mail at DATA until ``release`` is set."""

    def __init__(self) -> None:
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.holding.set()
        await self.release.wait()
        return "250 OK"


def test_a_poll_does_not_wait_for_the_send_round_under_way(tmp_path: Path) -> None:
    """
    The mail that came while a send round is slow is processed, and the poll ends: the
    poll brings the send job forward rather than waiting for the round (it used to send
    itself, after the round, and held the next poll back as long).
    """
    db = f"sqlite:///{tmp_path / 'games.sqlite'}"
    migrate.upgrade(db)

    async def scenario() -> None:
        async with MailHub() as hub:
            for address in (MODERATOR, ANN, BOB):
                hub.add_user(address, "pw")
            stall = _Stall()
            loop = asyncio.get_running_loop()
            smtp = await loop.create_server(lambda: SMTP(stall, hostname="mx.test"),
                                            "127.0.0.1", 0)
            mail = SimpleNamespace(host=hub.host, imap_port=hub.imap_port,
                                   smtp_port=int(smtp.sockets[0].getsockname()[1]))
            service = Service(bootstrap(loopback_config(mail, db, user=MODERATOR)))
            await service.start()
            try:
                _queue(service.store, ANN)
                rounds = asyncio.create_task(service.send_now())
                async with asyncio.timeout(30):
                    await stall.holding.wait()  # the round is in SMTP, and stays there
                await hub.deliver(MODERATOR, b"From: bob@example.org\r\nSubject: hello\r\n"
                                  b"Message-ID: <2@example.org>\r\n\r\nhello\r\n")
                async with asyncio.timeout(30):
                    result = await service.poll_now()
                assert result.processed == 1
                assert not rounds.done()
            finally:
                stall.release.set()
                await service.stop()
                smtp.close()
                await smtp.wait_closed()

    asyncio.run(scenario())
