"""
``verify BUNDLE --report MAIL`` (``moderator.audit.report_check``): the seed hash,
commitments, openings and seals a report showed, as ``reporting.audit_notes`` writes
them, must be the bundle's (Wolff 4.5: the moderator may be held to what he showed).
The signed part carries the commitments and the seal; the openings every player saw
name what a legion held, so they are in the private part (a decrypted copy checks them).
Reports sent before salts were kept back until the game's end also carried, in their
private part, the salts of the reader's legions and the openings shown to him alone
(``earlier_private_notes``): a decrypted copy of one is held to the bundle too.
"""

from __future__ import annotations

import random
import re
from email.message import EmailMessage
from typing import Any

import pytest

from moderator.audit.dice import seed_hash
from moderator.audit.report_check import check_report, mail_text
from moderator.reporting.audit_notes import audit_notes, audit_openings

from .conftest import GAME, Played, other_hex


def report(public: list[str], private: list[str], *, split: bool = False) -> bytes:
    """A report mail: its signed part and private part in one text, or in two parts."""
    message = EmailMessage()
    message["From"] = "moderator@titan.example"
    message["To"] = "ann@example.org"
    message["Subject"] = f"Titan {GAME}: report"
    signed = "\n".join(["Game g1.", *public, ""])
    secret = "\n".join(["For the audit:", *private, ""])
    if split:
        message.set_content(signed)
        message.add_attachment(secret, subtype="plain", disposition="inline")
    else:
        message.set_content(signed + "\n" + secret)
    return message.as_bytes()


def notes(game: Played, viewer: str) -> tuple[list[str], list[str]]:
    """(the signed part's notes of ``viewer``'s reports over the game, the private part's:
    the openings every player saw, with the notes reports carried before salts were
    kept back)."""
    public = audit_notes(game.timeline, viewer)
    seed = f"  Dice seed SHA-256: {seed_hash(game.secret)}"
    return [seed, *public], [*audit_openings(game.timeline), *earlier_private_notes(game, viewer)]


def earlier_private_notes(game: Played, viewer: str) -> list[str]:
    """What the private part of ``viewer``'s reports once held for the audit: the salts
    of his legions' commitments and the openings shown to him and a few only."""
    bundle = game.bundle()
    salts = {int(s["event"]): s["salt"] for s in bundle["salts"]}
    lines = []
    for record in bundle["events"]:
        seq, payload = int(record["seq"]), record["payload"]
        if record["type"] == "legion-committed":
            legion = game.befores[seq - 1].legions.get(payload["marker"])
            if legion is not None and legion.owner == viewer:
                lines.append(f"event {seq}: {payload['marker']} salt {salts[seq]}")
        elif record["type"] == "commitment-opened" and viewer in (payload["visible_to"] or ()):
            lines.append(opening_line(record))
    return lines


def names(game: Played) -> list[str]:
    return [p.name for p in game.befores[-1].players]


def test_wolff_4_5_the_notes_of_a_report_are_the_bundles(all_played: list[Played]) -> None:
    for game in all_played[:4]:
        bundle = game.bundle()
        for viewer in names(game):
            public, private = notes(game, viewer)
            openings = [line for line in private if " opened: " in line]
            assert not [line for line in public if " opened: " in line]  # Wolff 4.5
            salts = len(private) - len(openings)
            for split in (False, True):
                verdict = check_report(bundle, report(public, private, split=split))
                assert verdict.ok, (game, viewer, verdict.problem)
                counts = {
                    "seeds": 1, "commitments": len(public) - 2,
                    "openings": len(openings), "salts": salts, "seals": 1,
                }
                line = "report: " + ", ".join(
                    f"{n} {what if n != 1 else what[:-1]}" for what, n in counts.items()
                ) + " in the mail are the bundle's"
                assert verdict.checked == [line]


def test_wolff_4_5_the_notes_say_what_the_bundle_holds(played: Played) -> None:
    """Every commitment of the game is in the signed part, with the last seal; no salt
    and no opening, for an opening names what a legion held (the moderator signs no
    contents, even those every player saw).  The openings every player saw are the
    private part's notes; those shown to a few only wait for the audit."""
    bundle = played.bundle()
    committed = [r for r in bundle["events"] if r["type"] == "legion-committed"]
    openings = [r for r in bundle["events"] if r["type"] == "commitment-opened"]
    assert any(r["payload"]["visible_to"] is not None for r in openings)  # kept back
    for viewer in names(played):
        sealed = [r for r in bundle["events"] if r["type"] == "order-sealed"]
        last = sealed[-1]
        assert audit_notes(played.timeline, viewer) == [
            *(
                f"event {r['seq']}: {r['payload']['marker']} commitment {r['payload']['commitment']}"
                for r in committed
            ),
            f"event {last['seq']}: order seal {last['payload']['mac']}",  # it chains the rest
        ]
    assert audit_openings(played.timeline) == [
        opening_line(r) for r in openings if r["payload"]["visible_to"] is None
    ]


def opening_line(record: dict[str, Any]) -> str:
    """An opening of the bundle as a report lists it."""
    payload = record["payload"]
    held = ", ".join(payload["contents"]) or "nothing"
    return (
        f"event {record['seq']}: {payload['marker']} opened: commitment of event "
        f"{payload['seq']}, salt {payload['salt']}, held {held}"
    )


def changed_line(lines: list[str], rng: random.Random, pattern: str) -> tuple[list[str], int]:
    """``lines`` with one hex digit changed in the first group of ``pattern`` in a random
    line it matches; and that line's event."""
    matching = [i for i, line in enumerate(lines) if re.search(pattern, line)]
    assert matching, pattern
    index = rng.choice(matching)
    match = re.search(pattern, lines[index])
    assert match is not None
    start, end = match.span(1)
    lines = list(lines)
    lines[index] = lines[index][:start] + other_hex(match.group(1), rng) + lines[index][end:]
    return lines, int(lines[index].split(":")[0].removeprefix("event ").strip())


def test_wolff_4_5_a_commitment_changed_in_the_mail_is_named(played: Played) -> None:
    rng = played.rng("mail-commitment")
    viewer = names(played)[0]
    public, private = notes(played, viewer)
    for _ in range(3):
        lines, seq = changed_line(public, rng, r"commitment ([0-9a-f]{64})$")
        verdict = check_report(played.bundle(), report(lines, private))
        assert verdict.problem is not None and verdict.problem.event == seq
        assert "commitment to" in verdict.problem.why and not verdict.checked


def test_wolff_4_5_a_salt_changed_in_the_mail_is_named(played: Played) -> None:
    rng = played.rng("mail-salt")
    for viewer in names(played):
        public, private = notes(played, viewer)
        if not any(" salt " in line and " opened: " not in line for line in private):
            continue
        lines, seq = changed_line(private, rng, r"^event \d+: \S+ salt ([0-9a-f]{32})$")
        verdict = check_report(played.bundle(), report(public, lines))
        assert verdict.problem is not None and verdict.problem.event == seq
        assert "salt for" in verdict.problem.why


def test_wolff_4_5_an_opening_with_another_salt_in_the_mail_is_named(
    all_played: list[Played],
) -> None:
    tried = 0
    for game in all_played:
        rng = game.rng("mail-opening")
        for viewer in names(game):
            public, private = notes(game, viewer)
            if not any(" opened: " in line for line in private):
                continue
            lines, seq = changed_line(private, rng, r" opened: .*, salt ([0-9a-f]{32}),")
            verdict = check_report(game.bundle(), report(public, lines))
            assert verdict.problem is not None and verdict.problem.event == seq
            assert "opening of" in verdict.problem.why
            tried += 1
    assert tried


def test_wolff_1_3_a_mail_with_another_seed_hash_fails(played: Played) -> None:
    public, private = notes(played, names(played)[0])
    public[0] = f"  Dice seed SHA-256: {other_hex(seed_hash(played.secret), played.rng('h'))}"
    verdict = check_report(played.bundle(), report(public, private))
    assert verdict.problem is not None and verdict.problem.event == 0


def test_wolff_4_5_a_commitment_at_an_event_that_commits_to_nothing_is_named(
    played: Played,
) -> None:
    bundle = played.bundle()
    seq = next(r["seq"] for r in bundle["events"] if r["type"] == "movement-rolled")
    line = f"event {seq}: Rd01 commitment {'ab' * 32}"
    verdict = check_report(bundle, report([line], []))
    assert verdict.problem is not None and verdict.problem.event == seq
    assert "has no legion-committed event here" in verdict.problem.why


@pytest.mark.parametrize(
    "text",
    ["Game g1, turn 3. Ann moves Rd01 to 37.", "", "event 12: Rd01 moved to 37"],
    ids=["a-report", "empty", "event-lines"],
)
def test_wolff_4_5_a_mail_with_none_of_the_notes_fails(played: Played, text: str) -> None:
    verdict = check_report(played.bundle(), report([text], []))
    assert verdict.problem is not None and verdict.problem.event == 0
    assert "holds no seed hash, commitment, opening, salt or seal" in verdict.problem.why


def test_the_text_of_a_mail_is_its_plain_parts() -> None:
    raw = report(
        ["event 1: Rd01 commitment " + "0" * 64], ["event 1: Rd01 salt " + "1" * 32], split=True
    )
    text = mail_text(raw)
    assert "commitment " + "0" * 64 in text and "salt " + "1" * 32 in text
    assert mail_text(b"not a mail at all") == "not a mail at all"


def test_wolff_4_5_an_opening_that_held_other_contents_in_the_mail_is_named(
    all_played: list[Played],
) -> None:
    """What an opening says the legion held is what the bundle's opening holds (the
    order of the names does not matter): a character added or left out is named."""
    tried = 0
    for game in all_played:
        rng = game.rng("mail-held")
        for viewer in names(game):
            public, private = notes(game, viewer)
            opened = [i for i, line in enumerate(private) if " opened: " in line]
            if not opened:
                continue
            index = rng.choice(opened)
            head, held = private[index].split(", held ")
            shuffled = list(private)
            shuffled[index] = f"{head}, held {', '.join(reversed(held.split(', ')))}"
            assert check_report(game.bundle(), report(public, shuffled)).ok
            shown = [] if held == "nothing" else held.split(", ")
            seq = int(head.split(":")[0].removeprefix("event ").strip())
            marker = head.split()[2]
            for other in ([*shown, "Angel"], shown[1:]):
                if other == shown:
                    continue
                lines = list(private)
                lines[index] = f"{head}, held {', '.join(other) or 'nothing'}"
                verdict = check_report(game.bundle(), report(public, lines))
                assert verdict.problem is not None, (game, viewer, lines[index])
                assert verdict.problem.event == seq and not verdict.checked
                assert verdict.problem.why == f"the mail's opening of {marker} is not the bundle's"
                tried += 1
    assert tried
