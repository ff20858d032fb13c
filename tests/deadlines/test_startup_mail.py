"""
A restart reads the mailbox before it looks at the clock: an order that came in time
while the service was down is played, not timed out (Wolff 21.0, 20.4).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from moderator import robot
from moderator.rules.legal import to_act
from moderator.runtime.bootstrap import Overrides, bootstrap
from moderator.runtime.config import Config
from moderator.runtime.service import Service
from moderator.store import deadlines
from moderator.testing.hub import MailHub
from moderator.testing.stores import open_store

from ..service.conftest import MODERATOR, address, headers_of, plain_mail, secret_of
from ..service.loopback import loopback_config
from .conftest import Desk, hours


def config(hub: MailHub, db: str) -> Config:
    # A gap shorter than this is no outage: deadlines that passed in it time out.
    return loopback_config(hub, db, user=MODERATOR, max_outage_hours=1000)


def test_wolff_21_0_an_order_that_came_during_a_restart_is_played_before_its_deadline(
    make_desk: Callable[..., Desk], tmp_path: Path
) -> None:
    desk = make_desk(("Ann", "Bob"))
    desk.check()  # the service ran: a heartbeat
    row = desk.acting()
    assert row is not None
    state = desk.table.state
    actor = to_act(state)
    assert actor is not None
    line, _command = robot.choose_order(state, random.Random(1))
    body = f"game {desk.game_id}\n{desk.table.ref}\nsecret {secret_of(actor)}\n{line}\n"
    order = plain_mail(body, headers_of(actor))
    desk.clock.set(row.due_at + hours(2))  # the service comes back after the deadline
    desk.store.close()

    async def restart() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            for name in ("Ann", "Bob"):
                hub.add_user(address(name), "pw")
            await hub.deliver(MODERATOR, order)  # it came while the service was down
            service = Service(bootstrap(config(hub, desk.store.url), Overrides(clock=desk.clock)))
            await service.start()
            await service.stop()

    asyncio.run(restart())

    with open_store(desk.store.url, clock=desk.clock) as again:
        after = again.load_state(desk.game_id).state
        with again.reading() as tx:
            rows = [d for d in deadlines.open_deadlines(tx, desk.game_id) if d.acting]
    assert after.version > state.version
    assert actor in [p.name for p in after.live_players]  # not withdrawn by a timeout
    assert all(r.id != row.id for r in rows)  # the old deadline was met, not extended
