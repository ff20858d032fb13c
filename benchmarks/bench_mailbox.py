"""
Where a demo player's mailbox bytes go: prints figures, asserts nothing.

    python benchmarks/bench_mailbox.py FOLDER [--turns N]

FOLDER is what ``titan-moderator demo --keep FOLDER`` left.  For each robot's mailbox:
its size, its mails by kind (reports asking him to act, reports of another's play,
answers to his orders, the rest) and, summed over each kind, the bytes of each part as
it travels: the headers, the signed text, the board PNG (base64), the signature, the
encrypted private part (ASCII armour), and inside it, decrypted with the robot's kept
GnuPG home, the private text and the battle PNG.  ``--turns N`` counts only the mails up
to the end of turn N (a mail's turn is the last "turn N" its subject named), which
measures the first N turns of a longer game (``demo --turns N`` stops one there).  The
average report is over the mails that carry one (the reports, and the answers: each
carries the player's report after a rule); each kind says how many of its mails carry
the board and a battle's picture.  A last line per mailbox says where its bytes
are: text, pictures, signatures and encryption, headers and MIME.
"""

from __future__ import annotations

import argparse
import email
import mailbox
import re
import subprocess
from collections import Counter, defaultdict
from email.message import Message
from pathlib import Path

import gnupg

_TURN = re.compile(r"\bturn (\d+)", re.IGNORECASE)
PARTS = ("headers", "signed text", "board png", "signature", "encrypted",
         "private text", "battle png", "other")


def kind(subject: str) -> str:
    """The kind of a moderator's mail, from its subject."""
    subject = re.sub(r"^\[[^]]*\]\s*", "", " ".join(subject.split()))
    if subject.startswith("Re:"):
        return "answer"
    if subject.startswith("Your move"):
        return "report, you to act"
    if subject.startswith("Turn "):
        return "report, another's play"
    return "other"


def _parts(message: Message, gpg: gnupg.GPG, sizes: Counter[str]) -> None:
    """Adds the bytes of each part of ``message`` to ``sizes``."""
    if message.get_content_type() == "multipart/encrypted":
        armour = message.get_payload()[1]
        text = armour.get_payload()
        sizes["encrypted"] += len(text)
        inner = gpg.decrypt(text)
        if inner.ok:
            decrypted: Counter[str] = Counter()
            for part in email.message_from_bytes(inner.data).walk():
                if part.get_content_type() == "image/png":
                    decrypted["battle png"] += len(part.get_payload())
                elif part.get_content_type() == "text/plain":
                    decrypted["private text"] += len(part.get_payload())
            sizes.update(decrypted)
        return
    if message.is_multipart():
        for part in message.get_payload():
            _parts(part, gpg, sizes)
        return
    body = len(message.get_payload())
    content = message.get_content_type()
    if content == "image/png":
        sizes["board png"] += body
    elif content == "application/pgp-signature":
        sizes["signature"] += body
    elif content == "text/plain":
        sizes["signed text"] += body


def measure(path: Path, gnupg_home: Path, turns: int | None) -> None:
    gpg = gnupg.GPG(gnupghome=str(gnupg_home))
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    pictured: dict[str, Counter[str]] = defaultdict(Counter)  # mails carrying each picture
    counts: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    turn = last = 0
    for message in mailbox.mbox(str(path)):
        subject = str(message.get("Subject") or "")
        named = _TURN.findall(subject)
        turn = int(named[-1]) if named else turn
        if turns is not None and turn > turns:
            break
        last = turn
        raw = message.as_bytes()
        mail_kind = kind(subject)
        counts[mail_kind] += 1
        totals[mail_kind] += len(raw)
        sizes: Counter[str] = Counter()
        head, _, _ = raw.partition(b"\n\n")
        sizes["headers"] += len(head)
        _parts(message, gpg, sizes)
        counted = sum(v for k, v in sizes.items() if k not in ("private text", "battle png"))
        sizes["other"] += max(0, len(raw) - counted)
        by_kind[mail_kind].update(sizes)
        pictured[mail_kind].update(k for k in ("board png", "battle png") if sizes[k])
    total = sum(totals.values())
    reports = sum(counts.values()) - counts["other"]
    report_bytes = total - totals["other"]
    print(f"{path.name}: {total / 1e6:.2f} MB, {sum(counts.values())} mails to turn {last}; "
          f"average report {report_bytes / max(reports, 1) / 1024:.1f} KB ({reports} mails "
          f"carrying one: reports and answers), average mail {total / max(sum(counts.values()), 1) / 1024:.1f} KB")
    for mail_kind, count in counts.most_common():
        split = ", ".join(
            f"{part} {by_kind[mail_kind][part] / 1e3:.0f}"
            for part in PARTS
            if by_kind[mail_kind][part]
        )
        carry = pictured[mail_kind]
        print(f"  {mail_kind:<24} {count:4} mails {totals[mail_kind] / 1e6:6.2f} MB  (KB: {split}; "
              f"{carry['board png']} with the board, {carry['battle png']} with a battle)")
    boards = sum(c["board png"] for c in pictured.values())
    battles = sum(c["battle png"] for c in pictured.values())
    print(f"  pictures: {boards} mails carry the board, {battles} a battle")
    print("  " + where_the_bytes_are(by_kind, total))


def where_the_bytes_are(by_kind: dict[str, Counter[str]], total: int) -> str:
    """
    The mailbox's bytes in four shares, over every kind of mail: the text (signed, and
    the private text's share of the encrypted part), the pictures (the board's, and the
    battle picture's share of the encrypted part), the cryptography (signatures, and
    what encryption adds to what it holds: armour, session keys) and the mail's own
    frame (headers, MIME).  The encrypted part is split in proportion to what it
    holds, decrypted; GnuPG compresses before it encrypts, so that is an estimate.
    """
    parts: Counter[str] = Counter()
    for sizes in by_kind.values():
        parts.update(sizes)
    inside = parts["private text"] + parts["battle png"]
    held = min(parts["encrypted"], inside)
    private = held * parts["private text"] / inside if inside else 0.0
    battle = held * parts["battle png"] / inside if inside else 0.0
    shares = {
        "text": parts["signed text"] + private,
        "pictures": parts["board png"] + battle,
        "signatures and encryption": parts["signature"] + parts["encrypted"] - held,
        "headers and MIME": parts["headers"] + parts["other"],
    }
    return "where the bytes are: " + ", ".join(
        f"{name} {size / 1e6:.2f} MB ({100 * size / max(total, 1):.0f}%)"
        for name, size in shares.items()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--turns", type=int, default=None)
    args = parser.parse_args()
    for path in sorted((args.folder / "mail").glob("*.mbox")):
        if path.stem == "moderator":
            continue
        home = args.folder / "players" / path.stem / "gnupg"
        try:
            measure(path, home, args.turns)
        finally:  # decrypting started the robot's gpg-agent: end it
            subprocess.run(["gpgconf", "--homedir", str(home), "--kill", "gpg-agent"], check=False)


if __name__ == "__main__":
    main()
