"""
A service stops without an error: the rounds running when it is told to stop end first
(what they do is committed, not cut off midway), one that outlasts the grace is cut off
with a warning, and apscheduler logs no cancelled job at ERROR.  ``serve`` stopped with
SIGTERM exits 0 and writes no traceback.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from moderator.clock import SystemClock
from moderator.runtime.bootstrap import bootstrap
from moderator.runtime.service import Service
from moderator.store import inbox
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store, sqlite_url

from ..service.loopback import loopback_config
from . import crashloop

MODERATOR = "moderator@titan.example"
#: Mails from strangers: each is read, archived and processed (rejected: not answered).
MAILS = 40


def stranger_mail(number: int) -> bytes:
    message = EmailMessage()
    message["From"] = f"Stranger {number} <stranger{number}@example.net>"
    message["To"] = MODERATOR
    message["Subject"] = f"hello {number}"
    message["Message-ID"] = make_msgid(domain="example.net")
    message.set_content("Is this the Titan moderator?\n")
    return message.as_bytes()


def statuses(url: str) -> list[str]:
    with open_store(url) as store, store.reading() as tx:
        return [m.status for m in inbox.messages(tx)]


def waiting(url: str) -> int:
    """Mails archived and not processed yet."""
    return statuses(url).count(inbox.RECEIVED)


def errors_and_warnings(caplog: pytest.LogCaptureFixture) -> tuple[list[str], list[str]]:
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    return errors, warnings


async def busy_service(hub: MailHub, url: str, grace: timedelta) -> Service:
    """A running service whose poll round is busy with ``MAILS`` new mails."""
    hub.add_user(MODERATOR, "pw")
    service = Service(bootstrap(loopback_config(hub, url, user=MODERATOR)))
    service.stop_grace = grace
    await service.start()  # reads the empty mailbox, then starts every job's first round
    await asyncio.wait_for(service.activity.wait(), 10)  # the first rounds are done
    for number in range(MAILS):
        await hub.deliver(MODERATOR, stranger_mail(number))
    assert service.scheduler is not None
    service.scheduler.modify_job("poll", next_run_time=SystemClock().now())
    async with asyncio.timeout(10):  # until its round has archived them and processes them
        while set(await asyncio.to_thread(statuses, url)) <= {inbox.RECEIVED}:
            await asyncio.sleep(0.005)
    return service


@pytest.fixture
def url(tmp_path: Path) -> str:
    return sqlite_url(tmp_path, "games.sqlite")


def test_a_stop_lets_the_running_round_end_and_logs_no_error(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        async with MailHub() as hub:
            service = await busy_service(hub, url, grace=timedelta(seconds=30))
            await service.stop()

    asyncio.run(scenario())
    assert len(statuses(url)) == MAILS and waiting(url) == 0  # the round ended its work
    errors, warnings = errors_and_warnings(caplog)
    assert errors == []
    assert not any("cut off" in w for w in warnings), warnings


def test_a_round_that_outlasts_the_grace_is_cut_off_with_a_warning_not_an_error(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        async with MailHub() as hub:
            service = await busy_service(hub, url, grace=timedelta(0))
            await service.stop()
            assert waiting(url) > 0, "the round had ended before the stop: nothing was cut off"
            # Nothing is lost: the next start processes what the cut round left.
            again = Service(bootstrap(loopback_config(hub, url, user=MODERATOR)))
            await again.start()
            await again.stop()

    asyncio.run(scenario())
    assert len(statuses(url)) == MAILS and waiting(url) == 0
    errors, warnings = errors_and_warnings(caplog)
    assert errors == []
    assert "stopping: the poll_now round was cut off" in warnings


def test_serve_stopped_with_sigterm_while_busy_exits_0_and_writes_no_traceback(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path, "games.sqlite")

    async def scenario() -> tuple[int | None, str]:
        async with MailHub() as hub:
            with open_store(url) as store:
                crashloop.seat_games(store, hub, 2)
                config = tmp_path / "config.toml"
                crashloop.write_config(config, hub, url)
                serve = await crashloop.start_serve(config, tmp_path / "serve.log")
                await crashloop.until_serving(serve)
                # An order answered (the picture worker runs), then one in flight:
                order = await crashloop.send_order(hub, store, crashloop.game_id(0))
                await crashloop.until_answered(store, [order], within=30)
                await crashloop.send_order(hub, store, crashloop.game_id(1))
                await asyncio.sleep(0.1)
                serve.process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(serve.process.wait(), 60)
                return serve.process.returncode, serve.output

    code, output = asyncio.run(scenario())
    assert code == 0, output
    assert "Traceback" not in output, output
    assert "CancelledError" not in output, output
    assert " ERROR " not in output, output
    assert "stopped serving moderator@titan.example after " in output, output
