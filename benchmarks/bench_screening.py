"""
Screening benchmark: what a stranger's mail costs before authentication; prints figures,
asserts nothing.

    python benchmarks/bench_screening.py [--runs N] [--only NAME] [--full-contrast]

For each worst-case shape within the default caps (``moderator.mail.limits.RawLimits``:
the most bytes, lines, parts, nesting, header fields, the longest lines and header
fields, base64 blobs, many boundaries, salvaged parts, PGP signatures), it times the
whole path a mail takes before its sender is known, as the handler runs it:
``over_limit``, ``parse``, ``screen``, ``extract_text``, ``order_lines``,
``game_and_player_hints`` and ``check_signature`` with a real GnuPG keyring (a throw-away
home under /tmp holding the player key that signs the signed shapes).  It prints the
median of N runs (7 by default) per shape and per step, the worst shape, and for
contrast a 3 MB mail of 20,000 MIME parts, where ``over_limit`` alone runs (its whole
path too with ``--full-contrast``; that takes many seconds).  The goal: the worst mail
within the caps costs at most 100 ms.
"""

from __future__ import annotations

import argparse
import base64
import os
import platform
import statistics
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from email.message import Message

from moderator.mail.gpg import Keyring
from moderator.mail.intake import (
    Extracted,
    extract_text,
    game_and_player_hints,
    order_lines,
    parse,
    screen,
)
from moderator.mail.limits import DEFAULT_LIMITS, over_limit
from moderator.testing.gnupg import gnupg_home as temporary_gnupg_home
from moderator.testing.gnupg import keyring
from moderator.usecases.players.auth import check_signature

OWN = {"titan@moderator.example"}
CAPS = DEFAULT_LIMITS
HEAD = (b"From: Ann <ann@example.org>\nTo: titan@moderator.example\n"
        b"Subject: [titan g7] orders\nMessage-ID: <1@example.org>\n"
        b"Date: Mon, 1 Jan 2024 10:00:00 +0000\nMIME-Version: 1.0\n")
ORDERS = b"game g7\nsplit Rd01 into Rd03: ogre ogre\nroll\n"


def lines_of(count: int, width: int, text: bytes = b"move Rd01 to 101 ") -> bytes:
    """``count`` lines of ``width`` bytes (an order-like text repeated)."""
    line = (text * (width // len(text) + 1))[:width]
    return (line + b"\n") * max(0, count)


def fit(head: bytes, tail: bytes, width: int, text: bytes = b"move Rd01 to 101 ") -> bytes:
    """``head`` + filler lines + ``tail``, as many lines of ``width`` as the caps leave."""
    return fill(lambda filler: head + filler + tail, width, text)


def fill(build: Callable[[bytes], bytes], width: int, text: bytes = b"move Rd01 to 101 ") -> bytes:
    """``build(filler)`` with as many filler lines of ``width`` as the caps leave."""
    empty = build(b"")
    room = min(CAPS.max_lines - empty.count(b"\n") - 1,
               (CAPS.max_bytes - len(empty)) // (width + 1))
    return build(lines_of(room, width, text))


def multipart(boundary: bytes, parts: list[bytes], kind: bytes = b"mixed") -> bytes:
    """A multipart entity (headers and body) of ``parts`` (each: headers, blank, body)."""
    body = b"".join(b"--" + boundary + b"\n" + part for part in parts)
    return (b"Content-Type: multipart/" + kind + b"; boundary=\"" + boundary + b"\"\n\n"
            + body + b"--" + boundary + b"--\n")


def text_part(body: bytes, kind: bytes = b"text/plain") -> bytes:
    return b"Content-Type: " + kind + b"; charset=utf-8\n\n" + body


def folded(name: bytes, item: bytes, size: int, per_line: int = 8) -> bytes:
    """A header field of about ``size`` bytes: ``item`` repeated, ``per_line`` to a line."""
    count = max(1, (size - len(name) - 2) // (len(item) + 3))
    lines = [b", ".join([item] * per_line) for _ in range(count // per_line)]
    return name + b": " + b",\n ".join(lines) + b"\n"


def nest(depth: int, inner: list[bytes]) -> bytes:
    """``inner`` parts in ``depth`` multiparts nested in one another (headers included)."""
    entity = multipart(b"b%d" % depth, inner)
    for level in range(depth - 1, 0, -1):
        entity = multipart(b"b%d" % level, [entity])
    return entity


def shapes(ann: Keyring, ann_fpr: str) -> dict[str, bytes]:
    """The worst mails within the default caps, by name."""
    out: dict[str, bytes] = {"order mail (baseline)": HEAD + b"\n" + ORDERS}
    out["most lines, one text part"] = fit(HEAD + b"\n" + ORDERS, b"", 51)
    out["most blank lines"] = HEAD + b"\n" + ORDERS + b"\n" * (CAPS.max_lines - 12)
    out["deepest nesting, most lines inside"] = fill(
        lambda filler: HEAD + nest(CAPS.max_depth, [text_part(ORDERS + filler)]), 51)
    per = (CAPS.max_lines - 20) // CAPS.max_parts - 4
    width = min(CAPS.max_line, CAPS.max_bytes // (CAPS.max_parts * (per + 4)) - 2)
    out["most parts, most lines"] = HEAD + multipart(
        b"p", [text_part(ORDERS + lines_of(per - 3, width))] * CAPS.max_parts)
    out["most parts as attached mails"] = HEAD + multipart(
        b"p", [b"Content-Type: message/rfc822\n\n" + HEAD + b"\n" + lines_of(2 * per - 12, width)]
        * (CAPS.max_parts // 2))
    top = b"".join(b"X-Field-%d: %s\n" % (n, b"v" * 40) for n in range(CAPS.max_headers - 7))
    fields = b"".join(b"X-Field-%d: %s\n" % (n, b"v" * 40) for n in range(CAPS.max_headers - 1))
    room = (CAPS.max_lines - CAPS.max_headers) // (CAPS.max_headers + 6) - 1
    out["most header fields in every part"] = HEAD + top + multipart(
        b"h", [fields + text_part(ORDERS)] * min(CAPS.max_parts - 1, room))
    big = CAPS.max_header_bytes - 100
    to = folded(b"To", b'"Ann B" <ann.b@example.org>', big)
    out["longest To fields, filling the mail"] = (
        HEAD + to * (CAPS.max_bytes // len(to) - 1) + b"\n" + ORDERS)
    sender = folded(b"From", b'"A B" <a.b@example.org>', big)
    out["longest From fields, filling the mail"] = (
        sender * (CAPS.max_bytes // len(sender) - 1) + b"\n" + ORDERS)
    loop = b"X-Loop: " + b"x" * big + b"\n"
    subject = folded(b"Subject", b"=?utf-8?q?=C3=A9t=C3=A9?=", big, per_line=30)
    out["longest X-Loop and Subject fields"] = (
        HEAD + (loop + subject) * (CAPS.max_bytes // (len(loop + subject)) - 1) + b"\n" + ORDERS)
    quoted = b'a="' + b";" * (CAPS.max_params - 2) + b"x" * (big - CAPS.max_params - 60) + b'"'
    params = b"Content-Type: multipart/mixed; boundary=c; " + quoted + b"\n"
    chain = b"".join(b"--c\n" + params + b"\n" for _ in range(CAPS.max_parts))
    out["longest Content-Type parameters on every part"] = HEAD + params + b"\n" + chain
    html = b"Content-Type: text/html; charset=utf-8\n\n"
    out["longest lines: HTML tag soup"] = fit(HEAD + html, b"", CAPS.max_line, b"<b><i><font>x")
    out["longest lines: HTML attributes"] = fit(HEAD + html, b"", CAPS.max_line, b" b=c")
    out["longest lines: HTML unfinished tags"] = fit(HEAD + html, b"", CAPS.max_line, b"x<x")
    out["longest lines: blanks that fail at the end"] = fit(
        HEAD + b"\n" + ORDERS, b"", CAPS.max_line,
        b"game" + b" " * (CAPS.max_line - 10) + b"!" + b"secret" + b" " * 9999 + b"x y")
    blob = base64.encodebytes(os.urandom(CAPS.max_bytes * 3 // 4 - 30_000))
    out["base64 attachment filling the mail"] = HEAD + multipart(b"a", [
        text_part(ORDERS),
        b"Content-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=key.asc\n\n" + blob])
    text64 = base64.encodebytes((ORDERS + lines_of(15_000, 40)) * 2)[: CAPS.max_bytes - 400]
    out["base64 text part filling the mail"] = (
        HEAD + b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + text64)
    runs = (CAPS.max_lines - 400) // CAPS.max_parts - 24
    repeated = b"".join(b"--r\n" * runs + text_part(b"--rx\n--r-\n" * 10)
                        for _ in range(CAPS.max_parts))
    out["many boundary lines"] = (HEAD + b"Content-Type: multipart/mixed; boundary=r\n\n"
                                  + repeated + b"--r--\n")
    salvaged = multipart(b"s", [text_part(ORDERS + lines_of(per - 6, width))] * CAPS.max_parts)
    out["salvaged parts (declared boundary never used)"] = (
        HEAD + b"Content-Type: multipart/mixed; boundary=never\n\n"
        + salvaged.split(b"\n\n", 1)[1])
    blocks = b"".join(b"Status: 5.0.0\nAction: failed\n" * 100 + b"\n"
                      for _ in range(CAPS.max_parts - 3))
    out["delivery-status blocks"] = HEAD + multipart(b"d", [
        text_part(ORDERS), b"Content-Type: message/delivery-status\n\n" + blocks], b"report")
    signed_body = text_part(ORDERS + lines_of(CAPS.max_lines // 2, 100)).replace(b"\n", b"\r\n")
    signature = ann.sign_detached(signed_body, ann_fpr)
    out["PGP/MIME signed, good signature over ~1 MB"] = (
        HEAD.replace(b"\n", b"\r\n")
        + b'Content-Type: multipart/signed; boundary="sig"; micalg=pgp-sha256;\r\n'
        b' protocol="application/pgp-signature"\r\n\r\n--sig\r\n' + signed_body
        + b"\r\n--sig\r\nContent-Type: application/pgp-signature\r\n\r\n" + signature
        + b"\r\n--sig--\r\n")
    clear = ann.clearsign(ORDERS + lines_of(1_500, 60), ann_fpr)
    out["clearsigned text, good signature"] = fit(HEAD + b"\n" + clear, b"", 50)
    out["clearsigned begin lines without an end"] = HEAD + b"\n" + (
        b"-----BEGIN PGP SIGNED MESSAGE-----\n" * (CAPS.max_lines - 10))
    reply = b"On Mon, 1 Jan 2024 at 10:00, Titan <titan@moderator.example> wrote:\n> x\n"
    out["quoted reply, many attributions"] = fit(HEAD + b"\n" + ORDERS, b"", 60, reply)
    soup = lines_of(4, CAPS.max_line, b"<a b=c d=e>")
    headers = HEAD + sender + to + loop + subject
    out["all at once: deepest, HTML, long fields, most lines"] = fill(
        lambda filler: headers + nest(CAPS.max_depth, [
            text_part(soup, b"text/html"), text_part(ORDERS + filler)]), 51)
    return out


@dataclass
class Reading:
    """What the steps of one run hand on: the parsed mail and its text."""

    msg: Message | None = None
    extracted: Extracted | None = None


Step = tuple[str, Callable[[bytes, Reading], object]]


def steps(keyring: Keyring) -> list[Step]:
    """The handler's path before authentication, step by step."""

    def read(raw: bytes, state: Reading) -> None:
        state.msg = parse(raw)

    def extract(raw: bytes, state: Reading) -> None:
        assert state.msg is not None
        state.extracted = extract_text(state.msg, raw=raw)

    def hints(raw: bytes, state: Reading) -> object:
        assert state.msg is not None and state.extracted is not None
        return game_and_player_hints(state.msg, state.extracted.text)

    return [
        ("over_limit", lambda raw, state: over_limit(raw)),
        ("parse", read),
        ("screen", lambda raw, state: screen(state.msg or Message(), own_addresses=OWN)),
        ("extract_text", extract),
        ("order_lines", lambda raw, state: order_lines(state.extracted.text if state.extracted
                                                       else "")),
        ("hints", hints),
        ("check_signature", lambda raw, state: check_signature(raw, keyring)),
    ]


def measure(raw: bytes, path: list[Step], runs: int) -> dict[str, float]:
    """Median milliseconds per step and in all (``total``) over ``runs`` runs."""
    times: dict[str, list[float]] = {name: [] for name, _ in path}
    totals = []
    for _ in range(runs):
        state = Reading()
        started = time.perf_counter()
        for name, step in path:
            begun = time.perf_counter()
            step(raw, state)
            times[name].append(time.perf_counter() - begun)
        totals.append(time.perf_counter() - started)
    medians = {name: 1e3 * statistics.median(values) for name, values in times.items()}
    medians["total"] = 1e3 * statistics.median(totals)
    return medians


def contrast() -> bytes:
    """The mail of issue 12: 3 MB, 20,000 MIME parts, from a stranger."""
    part = b"--z\nContent-Type: text/plain\n\n" + b"x" * 90 + b"\n"
    return (b"From: stranger@example.net\nTo: titan@moderator.example\nSubject: hi\n"
            b"Content-Type: multipart/mixed; boundary=z\n\n" + part * 20_000 + b"--z--\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--runs", type=int, default=7, help="runs per shape (the median counts)")
    parser.add_argument("--only", default="", help="only the shapes whose name holds this")
    parser.add_argument("--full-contrast", action="store_true",
                        help="also run the whole path on the 3 MB mail (many seconds)")
    args = parser.parse_args()

    with ExitStack() as stack:
        moderator = keyring(stack.enter_context(temporary_gnupg_home("m")))
        ann = keyring(stack.enter_context(temporary_gnupg_home("a")))
        moderator.generate_key("Titan Moderator", "titan@moderator.example")
        ann_fpr = ann.generate_key("Ann", "ann@example.org")
        moderator.import_key(ann.export_public(ann_fpr))
        path = steps(moderator)
        print(f"{os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.2f}), Python "
              f"{platform.python_version()}, gpg {moderator.gpg_version}; caps: {CAPS}")
        print(f"median of {args.runs} runs, milliseconds:")
        names = [name for name, _ in path]
        print(f"{'shape':<48} {'bytes':>8} {'lines':>6} " + " ".join(
            f"{name[:8]:>8}" for name in names) + f" {'TOTAL':>8}")
        worst = ("", 0.0)
        for name, raw in shapes(ann, ann_fpr).items():
            if args.only not in name:
                continue
            refused = over_limit(raw)
            figures = measure(raw, path, args.runs)
            lines = raw.count(b"\n")
            print(f"{name:<48} {len(raw):8d} {lines:6d} " + " ".join(
                f"{figures[step]:8.1f}" for step in names) + f" {figures['total']:8.1f}"
                  + (f"  REFUSED: {refused}" if refused else ""))
            if not refused and figures["total"] > worst[1]:
                worst = (name, figures["total"])
        print(f"\nworst mail within the caps: {worst[0]!r}: {worst[1]:.1f} ms "
              f"(goal: at most 100 ms)")
        big = contrast()
        started = time.perf_counter()
        reason = over_limit(big)
        spent = 1e3 * (time.perf_counter() - started)
        print(f"\n3 MB mail of 20,000 parts ({len(big)} bytes): over_limit {spent:.2f} ms:"
              f" {reason}")
        if args.full_contrast:
            figures = measure(big, path[1:], 1)
            print(f"  without the caps, its whole path: {figures['total']:.0f} ms ("
                  + ", ".join(f"{step} {figures[step]:.0f}" for step, _ in path[1:]) + ")")


if __name__ == "__main__":
    main()
