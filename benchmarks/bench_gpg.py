"""
GnuPG benchmarks: prints what signing a report costs, asserts nothing.

    python benchmarks/bench_gpg.py [--reports N]

Uses throw-away GnuPG homes under /tmp (a moderator key and one player key,
ed25519/cv25519 where gpg has them) and times, per report:

- a bare detached signature (one gpg process);
- a PGP/MIME signed message (``signed_mime``);
- the per-player report without a player key (signed public part only);
- the per-player report with a player key (signed public part, plus the
  private part encrypted to the player: two gpg processes).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from contextlib import ExitStack

from moderator.clock import SystemClock
from moderator.mail.compose import mail_headers, new_token, report_mail, signed_mime
from moderator.testing.gnupg import gnupg_home as temporary_gnupg_home
from moderator.testing.gnupg import keyring

PUBLIC = "Turn 12, Ann (Red) to move.\n" + "Bob (Blue): 4 legions, 212 points.\n" * 20
PRIVATE = "Rd01 (133): Titan, Angel, Ogre, Ogre, Centaur\n" * 6




def timed(label: str, count: int, action: Callable[[], object]) -> None:
    action()  # warm up: starts gpg-agent, loads the key
    timings = []
    for _ in range(count):
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    timings.sort()
    print(f"{label}: median {statistics.median(timings) * 1e3:.1f} ms, "
          f"mean {statistics.fmean(timings) * 1e3:.1f} ms, "
          f"max {timings[-1] * 1e3:.1f} ms ({count} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--reports", type=int, default=40)
    args = parser.parse_args()

    with ExitStack() as stack:
        moderator = keyring(stack.enter_context(temporary_gnupg_home("m")))
        player = keyring(stack.enter_context(temporary_gnupg_home("p")))
        started = time.perf_counter()
        mod_fpr = moderator.generate_key("Titan Moderator", "moderator@titan.example")
        print(f"key generation: {(time.perf_counter() - started) * 1e3:.1f} ms")
        ann_fpr = player.generate_key("Ann", "ann@example.org")
        moderator.import_key(player.export_public(ann_fpr))
        headers = mail_headers(game="g7", sender="Titan Moderator <moderator@titan.example>",
                               to="Ann <ann@example.org>", subject="turn 12",
                               date=SystemClock().now())
        data = PUBLIC.replace("\n", "\r\n").encode()

        print(f"gpg {moderator.gpg_version}, {args.reports} reports each:")
        timed("detached signature", args.reports,
              lambda: moderator.sign_detached(data, mod_fpr))
        timed("signed_mime", args.reports,
              lambda: signed_mime([PUBLIC], moderator, mod_fpr).as_bytes())
        timed("report, no player key (sign)", args.reports,
              lambda: report_mail(PUBLIC, PRIVATE, new_token(), moderator, mod_fpr, None,
                                  headers).as_bytes())
        timed("report, player key (sign + encrypt)", args.reports,
              lambda: report_mail(PUBLIC, PRIVATE, new_token(), moderator, mod_fpr, ann_fpr,
                                  headers).as_bytes())


if __name__ == "__main__":
    main()
