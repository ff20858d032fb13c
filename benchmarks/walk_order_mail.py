"""
The walk of one order mail, measured: which of the moderator's modules it passes and
how often the calls cross from one package to another, from the IMAP fetch to the
report handed to SMTP; prints figures, asserts nothing.

    python benchmarks/walk_order_mail.py

Sets up the embedded mail hub (aiosmtpd and pymap on 127.0.0.1), a SQLite database in
a temporary folder, two players authenticated by secret lines (no GnuPG: signing is
the same in every walk and would only add ``mail.gpg``), a game started for them and
its first reports sent.  Then the player to act mails one legal order by SMTP and
one round of the real service (``poll_now``: fetch, process, send) runs under
``sys.setprofile``.  Counted:

- modules: every ``moderator`` module a called function belongs to;
- package hops: calls whose caller and callee are ``moderator`` functions in
  different packages (``moderator.service`` -> ``moderator.store``...), and of them
  the back-and-forth ones between the shell's use cases and the store (a call from
  ``store`` up into the use cases);
- the package sequence with repeats folded: the walk as it reads.

The same script runs on older checkouts (``PYTHONPATH=... python walk_order_mail.py``)
for a before-and-after comparison; where module paths moved, it tries both.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import tempfile
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from pathlib import Path
from types import FrameType
from typing import Any

import aiosmtplib

MODERATOR = "moderator@titan.example"
PEOPLE = (("Ann", "ann@example.org", "ann-secret-1"), ("Bob", "bob@example.org", "bob-secret-2"))
#: Packages that hold the shell's use cases (a call from the store up into them is a
#: back-and-forth hop).
USE_CASES = ("moderator.service", "moderator.app", "moderator.play", "moderator.game")


#: The embedded mail hub's modules: the mail server's side, not the moderator's walk.
HUB = ("moderator.testing.hub", "moderator.demo.hub")


def _first(*names: str) -> Any:
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(names)


def package(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


class Walk:
    """What ``sys.setprofile`` saw: modules entered and calls between packages."""

    def __init__(self) -> None:
        self.modules: set[str] = set()
        self.hops: Counter[tuple[str, str]] = Counter()
        self.sequence: list[str] = []

    def __call__(self, frame: FrameType, event: str, _arg: object) -> None:
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        if not callee.startswith("moderator") or callee in HUB:
            return
        self.modules.add(callee)
        caller_frame = frame.f_back
        caller = caller_frame.f_globals.get("__name__", "") if caller_frame else ""
        if caller.startswith("moderator") and package(caller) != package(callee):
            self.hops[(package(caller), package(callee))] += 1
        pkg = package(callee)
        if not self.sequence or self.sequence[-1] != pkg:
            self.sequence.append(pkg)


async def main() -> None:
    config_mod = _first("moderator.runtime.config", "moderator.runtime.config")
    runtime = _first("moderator.runtime.service", "moderator.runtime.service")
    hub_mod = _first("moderator.testing.hub", "moderator.demo.hub")
    games = _first("moderator.usecases.games.starting")
    players = _first("moderator.store.players")
    views = _first("moderator.reporting.views")
    legal = _first("moderator.rules.legal")
    folder = Path(tempfile.mkdtemp(prefix="titan-walk-"))
    async with hub_mod.MailHub() as hub:
        for _name, address, _secret in PEOPLE:
            hub.add_user(address, "pw")
        hub.add_user(MODERATOR, "pw")
        c = config_mod
        config = c.Config(
            moderator=c.ModeratorSettings(address=MODERATOR, name="Titan moderator"),
            database=c.DatabaseSettings(url=f"sqlite:///{folder / 'walk.sqlite'}"),
            imap=c.ImapSettings(host=hub.host, port=hub.imap_port, tls="none", user=MODERATOR,
                                password="pw", poll_seconds=3600, idle=False),
            smtp=c.SmtpSettings(host=hub.host, port=hub.smtp_port, tls="none",
                                send_seconds=3600),
            gnupg=c.GnupgSettings(),
            service=c.ServiceSettings(deadline_seconds=3600, tournament_seconds=3600),
            source="walk",
        )
        boot = _first("moderator.runtime.bootstrap")
        # the Service takes the composition root's App; an older checkout, its config
        service = runtime.Service(boot.bootstrap(config) if hasattr(boot, "App") else config)
        with service.store.transaction() as tx:
            for name, address, secret in PEOPLE:
                players.add_player(tx, name, address, secret=secret)
        state = games.start_game(service.store, "g1", [a for _, a, _ in PEOPLE],
                                 sender=MODERATOR, seed=5, insecure_seed=True,
                                 allow_secrets=True)
        await service.send_now()
        actor = legal.to_act(state)
        person = next(p for p in PEOPLE if p[0] == actor)
        line = views.legal_orders(state, actor)[0]
        message = EmailMessage()
        message["From"], message["To"] = person[1], MODERATOR
        message["Subject"] = "[titan g1] orders"
        message["Message-ID"] = "<walk-1@example.org>"
        message.set_content(
            f"game g1\nref g1-{state.version}\nsecret {person[2]}\n{line}\n"
        )
        await aiosmtplib.send(message, hostname=hub.host, port=hub.smtp_port)
        walk = Walk()
        # The service hands the store's work to threads: a fresh pool, made while the
        # profiler is set for new threads, so that those threads are walked too.
        threading.setprofile(walk)
        pool = ThreadPoolExecutor(max_workers=4)
        asyncio.get_running_loop().set_default_executor(pool)
        sys.setprofile(walk)
        try:
            await service.poll_now()
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
        await service.stop()
    back = sum(n for (a, b), n in walk.hops.items() if a == "moderator.store" and b in USE_CASES)
    print(f"order: {actor}: {line}")
    print(f"modules passed: {len(walk.modules)}")
    print(f"package hops (calls across packages): {sum(walk.hops.values())} "
          f"in {len(walk.hops)} distinct directions")
    print(f"calls from store up into the use cases: {back}")
    print(f"package sequence ({len(walk.sequence)} stretches, repeats folded):")
    print("  " + " > ".join(p.removeprefix("moderator.") for p in walk.sequence[:80]))
    for (a, b), n in sorted(walk.hops.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {n:6d}  {a} -> {b}")
    print("modules:")
    for module in sorted(walk.modules):
        print(f"  {module}")


if __name__ == "__main__":
    asyncio.run(main())
