"""
Every signed mail counts once, end to end: signed mails of each kind that needs no step
reference (an absence, its cancellation, a tournament line, a director line, a change
of address and its confirmation, a sign-on, a query) delivered into a real Dovecot, read
by the service's poller over IMAP, carried out once; the same signed text sent again
under a new Message-ID and re-aimed by its subject changes nothing, and its refusal
leaves by SMTP.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from moderator.ports.players import DIRECTOR as DIRECTOR_ROLE
from moderator.runners.commands import new_game
from moderator.runtime.bootstrap import bootstrap
from moderator.runtime.config import Config, GnupgSettings
from moderator.runtime.service import Service
from moderator.schedule.timing import TimeLimits
from moderator.store import inbox, migrate, outbox, players
from moderator.testing.stores import open_store

from ..mail.dovecot import DovecotMailSystem, TemporaryDovecot
from .conftest import MODERATOR, World, address, headers_of, pgp_mime_mail, plain_mail
from .loopback import loopback_config
from .test_replay import DIRECTOR, rewrapped, table_rows

NAMES = ("Ann", "Bob", "Cy", "Di", DIRECTOR)


def config(mail: DovecotMailSystem, db: str, world: World) -> Config:
    home = str(world.moderator.keyring.home)
    keys = GnupgSettings(home=home, key=world.moderator.fingerprint)
    return loopback_config(mail, db, user=MODERATOR, gnupg=keys)


def prepare(db: str, world: World) -> None:
    """Ann..Flo with their keys (not Di: she signs on by mail); g1 and g2 with limits."""
    migrate.upgrade(db)
    with open_store(db) as store:
        with store.transaction() as tx:
            for name in NAMES:
                if name != "Di":
                    players.add_player(tx, name, address(name),
                                       key_fingerprint=world.players[name].fingerprint)
            players.set_roles(tx, address(DIRECTOR), (DIRECTOR_ROLE,))
        for game_id, seated in (("g1", ["Ann", "Bob"]), ("g2", ["Ann", "Cy"])):
            new_game(store, game_id, seated, seed=5, time_limits=TimeLimits())
            with store.transaction() as tx:
                for name in seated:
                    players.seat_player(tx, game_id, name, address(name))


@pytest.mark.long
def test_each_kind_of_signed_line_counts_once_through_a_real_imap_server(
    dovecot: TemporaryDovecot, world: World, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'replay.sqlite'}"
    prepare(db, world)
    ann_key = world.players["Di"].keyring.export_public(world.players["Di"].fingerprint)
    signon = world.players["Di"].keyring.clearsign(f"signon Di\n\n{ann_key}",
                                                   world.players["Di"].fingerprint)

    def signed(name: str, body: str, sender: str | None = None) -> bytes:
        return pgp_mime_mail(world.players[name], body, headers_of(name, sender=sender))

    async def run() -> dict[str, tuple[str, str]]:
        results: dict[str, tuple[str, str]] = {}
        async with DovecotMailSystem(dovecot) as mail:
            mail.add_user(MODERATOR, "pw")
            for name in NAMES:
                mail.add_user(address(name), "pw")
            mail.add_user("ann.new@example.org", "pw")
            service = Service(bootstrap(config(mail, db, world)))
            try:
                async def once(kind: str, name: str, raw: bytes) -> None:
                    await asyncio.to_thread(dovecot.deliver, MODERATOR, raw)
                    await service.poll_now()
                    before = await asyncio.to_thread(table_rows, service.store)
                    copies = (rewrapped(raw), rewrapped(raw, subject="[titan g2] orders"))
                    for copy in copies:
                        await asyncio.to_thread(dovecot.deliver, MODERATOR, copy)
                        await service.poll_now()
                        after = await asyncio.to_thread(table_rows, service.store)
                        assert after == before, kind
                    results[kind] = (name, "")

                await once("sign-on", "Di", plain_mail(signon.decode(), headers_of("Di")))
                await once("absence", "Ann", signed("Ann", "game g1\nabsent from 2024-08-01 to 2024-08-10"))
                await once("absence cancel", "Ann", signed("Ann", "game g1\nabsent cancel"))
                await once("director line", DIRECTOR,
                           signed(DIRECTOR, "tournament create duel players 2 rounds 1"))
                await once("tournament line", "Bob", signed("Bob", "join tournament duel"))
                await once("query", "Bob", signed("Bob", "game g1\nstatus"))
                await once("address change", "Ann",
                           signed("Ann", "change address from ann@example.org",
                                  sender="ann.new@example.org"))
                with service.store.reading() as tx:
                    asked = [m for m in outbox.mails(tx) if m.recipient == address("Ann")
                             and "confirm address" in (m.private_body or "")]
                token = re.search(r"confirm address (\S+)", asked[-1].private_body or "")
                assert token is not None
                await once("address confirm", "Ann", signed("Ann", f"confirm address {token[1]}"))
                await service.send_now()
            finally:
                await service.stop()
        return results

    done = asyncio.run(run())
    assert set(done) == {"sign-on", "absence", "absence cancel", "director line",
                         "tournament line", "query", "address change", "address confirm"}
    with open_store(db) as store, store.reading() as tx:
        statuses = [m.status for m in inbox.messages(tx)]
        notes = [m.error or "" for m in inbox.messages(tx)]
        assert players.player_by_address(tx, "ann.new@example.org") is not None
        assert players.player_by_address(tx, address("Di")) is not None
        sent = [m for m in outbox.mails(tx) if m.kind == "refusal"]
    # Each kind: one carried out, two copies refused as replays (answered once a day).
    assert statuses.count(inbox.PROCESSED) == 8, notes
    assert sum("replayed" in n for n in notes) == 16, notes
    assert sent and all(m.status == "sent" for m in sent)
