"""
The embedded mail hub's CPU per order, alone: prints figures, asserts nothing.

    python benchmarks/bench_hub.py [--players N] [--rounds R]

``bench_mail`` measures the hub among the moderator and the robots, where its CPU per
order moves with the rate the others reach (its fixed costs, the IDLE waits timing out,
are shared by fewer orders on a busy machine).  This drives the hub (in a child process
of its own, as ``bench_mail`` runs it) with the mail traffic of one order, repeated:
each of N players mails an order over his kept SMTP connection; the moderator fetches
its new mail and marks it done over IMAP, as its poller does; it mails each player a
report of about a real one's size (the first of every four carries a board picture);
each player, waiting in IDLE on his own connection, wakes and fetches it.  The same
clients as the product's (``ImapSource``, ``SmtpSession``), real sockets on loopback.
It prints the hub's CPU seconds per order (its process's user + system time, which
other work on the machine does not change much) and the clients' (this process: the
moderator's and the players' IMAP and SMTP side), and the wall time for the record.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import time
from multiprocessing.connection import Connection

from moderator.testing.connections import imap_source_at, smtp_sink_at
from moderator.testing.hub import MailHub

MODERATOR = "moderator@titan.invalid"
ORDER = (b"From: p <%s>\r\nTo: " + MODERATOR.encode() + b"\r\nSubject: [titan g1] move\r\n"
         b"Message-ID: <%d@robots.invalid>\r\nContent-Type: text/plain\r\n\r\n"
         + b"-----BEGIN PGP SIGNED MESSAGE-----\r\nHash: SHA256\r\n\r\ngame g1\r\nref g1-3\r\n"
           b"move Rd01 to 5 by 3\r\n-----BEGIN PGP SIGNATURE-----\r\n\r\n"
         + ((b"iQEzBAEBCAAdFiEE" * 5)[:64] + b"\r\n") * 8 + b"-----END PGP SIGNATURE-----\r\n")
REPORT = (b"From: " + MODERATOR.encode() + b"\r\nTo: %s\r\nSubject: [titan g1-%d] report\r\n"
          b"Message-ID: <r%d@titan.invalid>\r\nContent-Type: text/plain\r\n\r\n"
          + b"Ann moved Rd01 from 3 to 5 (by 3).  Legions: Rd02 at 12, 7 high.\r\n" * 60)
PICTURE = (b"iVBORw0KGgoAAAANSUhEUgAAA" * 4)[:76] + b"\r\n"  # base64 lines of a picture
PICTURE *= 800  # about 60 KB, a board picture


def cpu() -> float:
    t = os.times()
    return t.user + t.system


def hub_process(conn: Connection, players: list[str]) -> None:
    async def serve() -> None:
        async with MailHub() as hub:
            hub.add_user(MODERATOR, "pw")
            for player in players:
                hub.add_user(player, "pw")
            conn.send((hub.smtp_port, hub.imap_port))
            while await asyncio.to_thread(conn.recv) == "cpu":
                conn.send(cpu())
    asyncio.run(serve())


async def drive(args: argparse.Namespace, smtp_port: int, imap_port: int) -> int:
    host = "127.0.0.1"
    players = [f"p{i}@robots.invalid" for i in range(args.players)]
    inboxes = {p: imap_source_at(host, imap_port, p, "pw", tls=False) for p in players}
    moderator = imap_source_at(host, imap_port, MODERATOR, "pw", tls=False)
    sink = smtp_sink_at(host, smtp_port)
    sessions = {p: sink.session() for p in [*players, MODERATOR]}
    read: dict[str, int | None] = dict.fromkeys(players)
    mod_uid: int | None = None
    sending = asyncio.Lock()  # one SMTP session is one conversation at a time
    orders = 0
    for p in players:  # connect and select first, as robots signed on do
        await inboxes[p].fetch_new(None, None)
    for r in range(args.rounds):
        await asyncio.gather(*(
            sessions[p].send(ORDER % (p.encode(), r * 1000 + i), p, [MODERATOR])
            for i, p in enumerate(players)))
        got = 0
        while got < len(players):
            found = await moderator.fetch_new(mod_uid, None, limit=50)
            if found.messages:
                mod_uid = found.last_uid
                got += len(found.messages)
                await moderator.mark_done([uid for uid, _ in found.messages])

        async def report(i: int, p: str, r: int) -> None:
            body = REPORT % (p.encode(), r, r * 1000 + i)
            if (r + i) % 4 == 0:
                body += PICTURE
            waiting = asyncio.create_task(inboxes[p].idle_wait(10))
            await asyncio.sleep(0.01)  # in IDLE when the report comes, as a robot is
            async with sending:
                await sessions[MODERATOR].send(body, MODERATOR, [p])
            await waiting
            found = await inboxes[p].fetch_new(read[p], None)
            read[p] = found.last_uid or read[p]

        await asyncio.gather(*(report(i, p, r) for i, p in enumerate(players)))
        orders += len(players)
    for source in [*inboxes.values(), moderator]:
        await source.close()
    for session in sessions.values():
        await session.close()
    return orders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--players", type=int, default=16, help="players mailing at once")
    parser.add_argument("--rounds", type=int, default=40, help="orders each player mails")
    args = parser.parse_args()
    players = [f"p{i}@robots.invalid" for i in range(args.players)]
    fork = multiprocessing.get_context("fork")
    conn, end = fork.Pipe()
    hub = fork.Process(target=hub_process, args=(end, players), daemon=True)
    hub.start()
    smtp_port, imap_port = conn.recv()
    conn.send("cpu")
    hub_before, mine, started = conn.recv(), cpu(), time.monotonic()
    orders = asyncio.run(drive(args, smtp_port, imap_port))
    wall, mine = time.monotonic() - started, cpu() - mine
    conn.send("cpu")
    hub_used = conn.recv() - hub_before
    conn.send("stop")
    hub.join(10)
    print(f"{orders} orders ({args.players} players x {args.rounds}), load average "
          f"{os.getloadavg()[0]:.2f} (others' work skews the wall time, less the CPU)")
    print(f"  mail hub (its process)             {hub_used:6.2f} s CPU, "
          f"{1e3 * hub_used / orders:5.1f} ms per order")
    print(f"  clients (moderator's and players') {mine:6.2f} s CPU, "
          f"{1e3 * mine / orders:5.1f} ms per order")
    print(f"  wall {wall:.1f} s, {60 * orders / wall:.0f} orders a minute through the hub")


if __name__ == "__main__":
    main()
