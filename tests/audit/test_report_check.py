"""
``verify BUNDLE --report MAIL`` (``moderator.audit.report_check``): the seed hash,
commitments, openings and seals a report showed, as ``reporting.audit_notes`` writes
them, must be the bundle's (Wolff 4.5: the moderator may be held to what he showed).
The signed part carries the commitments and the seal; the openings every player saw
name what a legion held, so they are in the private part (a decrypted copy checks them).
A report numbers its notes among the events every player saw (``public event N``); the
bundle maps them to its log.  Reports sent before numbered them by the log itself and
carried salts in their private part: the salts of the reader's legions, the openings
shown to him alone and those every player saw, each with its salt (``earlier_notes``);
they still verify.
"""

from __future__ import annotations

import random
import re
from email.message import EmailMessage
from functools import cache
from typing import Any

import pytest

from moderator.audit.dice import seed_hash
from moderator.audit.report_check import check_report, mail_text, public_numbers
from moderator.reporting.audit_notes import audit_notes, audit_openings
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState

from .asides import AsideGame, play_with_asides
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


def notes(game: Played) -> tuple[list[str], list[str]]:
    """(the signed part's notes of a report over the whole game, the private part's: the
    openings every player saw).  The same for every reader."""
    seed = f"  Dice seed SHA-256: {seed_hash(game.secret)}"
    return [seed, *audit_notes(game.timeline)], audit_openings(game.timeline)


def earlier_notes(game: Played, viewer: str) -> tuple[list[str], list[str]]:
    """What ``viewer``'s reports held for the audit before their notes were numbered
    among the public events and salts were kept back: each note numbered by the log, the
    seal of the last order he could see, and in the private part the salts of his
    legions' commitments and the openings shown to him, with their salts."""
    bundle = game.bundle()
    salts = {int(s["event"]): s["salt"] for s in bundle["salts"]}
    public = [f"  Dice seed SHA-256: {seed_hash(game.secret)}"]
    private, seal = [], ""
    for record in bundle["events"]:
        if "hidden" in record:
            continue
        seq, payload = int(record["seq"]), record["payload"]
        seen = payload["visible_to"] is None or viewer in payload["visible_to"]
        if record["type"] == "legion-committed":
            public.append(f"event {seq}: {payload['marker']} commitment {payload['commitment']}")
            legion = game.befores[seq - 1].legions.get(payload["marker"])
            if legion is not None and legion.owner == viewer:
                private.append(f"event {seq}: {payload['marker']} salt {salts[seq]}")
        elif record["type"] == "order-sealed" and payload["mac"] and seen:
            seal = f"event {seq}: order seal {payload['mac']}"
        elif record["type"] == "commitment-opened" and seen:
            private.append(earlier_opening_line(record))
    return [*public, seal], private


def earlier_opening_line(record: dict[str, Any]) -> str:
    """An opening of the bundle as a report listed it before: by the log, with its salt."""
    payload = record["payload"]
    held = ", ".join(payload["contents"]) or "nothing"
    return (
        f"event {record['seq']}: {payload['marker']} opened: commitment of event "
        f"{payload['seq']}, salt {payload['salt']}, held {held}"
    )


def names(game: Played) -> list[str]:
    return [p.name for p in game.befores[-1].players]


def counted(**counts: int) -> str:
    """The line ``check_report`` adds when a mail's notes are the bundle's."""
    return "report: " + ", ".join(
        f"{n} {what if n != 1 else what[:-1]}" for what, n in counts.items()
    ) + " in the mail are the bundle's"


def logged(game: Played, line: str) -> int:
    """The place in the bundle's log of the event a note of ``line`` names."""
    number = int(line.split(":")[0].strip().removeprefix("public event "))
    return public_numbers(game.bundle()["events"])[number]


def test_wolff_4_5_the_notes_of_a_report_are_the_bundles(all_played: list[Played]) -> None:
    """Every reader's bundle, and the one anybody may have, finds each note of a report:
    the events every player saw are in all of them."""
    for game in all_played[:4]:
        public, private = notes(game)
        assert not [line for line in public if " opened: " in line]  # Wolff 4.5
        counts = counted(
            seeds=1, commitments=len(public) - 2, openings=len(private), salts=0, seals=1
        )
        for reader in [*names(game), None]:
            bundle = game.bundle_of(reader)
            for split in (False, True):
                verdict = check_report(bundle, report(public, private, split=split))
                assert verdict.ok, (game, reader, verdict.problem)
                assert verdict.checked == [counts]


def test_a_report_numbered_by_the_log_as_reports_were_before_still_verifies(
    all_played: list[Played],
) -> None:
    """A report sent before its notes were numbered among the public events, with the
    salts it then carried, is held to the bundle as it was written."""
    tried = 0
    for game in all_played[:4]:
        bundle = game.bundle()
        for viewer in names(game):
            public, private = earlier_notes(game, viewer)
            openings = len([line for line in private if " opened: " in line])
            verdict = check_report(bundle, report(public, private, split=True))
            assert verdict.ok, (game, viewer, verdict.problem)
            assert verdict.checked == [
                counted(
                    seeds=1, commitments=len(public) - 2, openings=openings,
                    salts=len(private) - openings, seals=1,
                )
            ]
            tried += len(private)
    assert tried


def test_wolff_4_5_the_notes_say_what_the_bundle_holds(played: Played) -> None:
    """Every commitment of the game is in the signed part, with the last seal every
    player saw, numbered among the events every player saw; no opening, for an opening
    names what a legion held (the moderator signs no contents, even those every player
    saw).  The openings every player saw are the private part's notes, without their
    salts; those shown to a few only wait for the audit.  No note holds a salt."""
    bundle = played.bundle()
    number = {seq: n for n, seq in public_numbers(bundle["events"]).items()}
    committed = [r for r in bundle["events"] if r.get("type") == "legion-committed"]
    openings = [r for r in bundle["events"] if r.get("type") == "commitment-opened"]
    assert any(r["payload"]["visible_to"] is not None for r in openings)  # kept back
    sealed = [
        r for r in bundle["events"]
        if r.get("type") == "order-sealed" and r["payload"]["visible_to"] is None
    ]
    last = sealed[-1]
    public, private = audit_notes(played.timeline), audit_openings(played.timeline)
    assert public == [
        *(
            f"public event {number[r['seq']]}: {r['payload']['marker']} commitment "
            f"{r['payload']['commitment']}"
            for r in committed
        ),
        f"public event {number[last['seq']]}: order seal {last['payload']['mac']}",  # the chain
    ]
    everyone = [r for r in openings if r["payload"]["visible_to"] is None]
    assert private == [
        f"public event {number[r['seq']]}: {r['payload']['marker']} opened: held "
        + (", ".join(r["payload"]["contents"]) or "nothing")
        for r in everyone
    ]
    salts = {s["salt"] for s in bundle["salts"]} | {r["payload"]["salt"] for r in openings}
    assert not [line for line in public + private if any(s in line for s in salts)]


def changed_line(lines: list[str], rng: random.Random, pattern: str) -> tuple[list[str], str]:
    """``lines`` with one hex digit changed in the first group of ``pattern`` in a random
    line it matches; and that line."""
    matching = [i for i, line in enumerate(lines) if re.search(pattern, line)]
    assert matching, pattern
    index = rng.choice(matching)
    match = re.search(pattern, lines[index])
    assert match is not None
    start, end = match.span(1)
    lines = list(lines)
    lines[index] = lines[index][:start] + other_hex(match.group(1), rng) + lines[index][end:]
    return lines, lines[index]


def test_wolff_4_5_a_commitment_changed_in_the_mail_is_named(played: Played) -> None:
    """Named by its place in the bundle's log, and by its number in the mail."""
    rng = played.rng("mail-commitment")
    public, private = notes(played)
    for _ in range(3):
        lines, line = changed_line(public, rng, r"commitment ([0-9a-f]{64})$")
        verdict = check_report(played.bundle(), report(lines, private))
        assert verdict.problem is not None and verdict.problem.event == logged(played, line)
        assert "commitment to" in verdict.problem.why and not verdict.checked
        assert f"({line.split(':')[0].strip()} in the mail)" in verdict.problem.why


def test_wolff_4_5_a_seal_changed_in_the_mail_is_named(played: Played) -> None:
    rng = played.rng("mail-seal")
    public, private = notes(played)
    lines, line = changed_line(public, rng, r"order seal ([0-9a-f]{32})$")
    verdict = check_report(played.bundle(), report(lines, private))
    assert verdict.problem is not None and verdict.problem.event == logged(played, line)
    assert "order seal is not the bundle's" in verdict.problem.why


def test_wolff_4_5_a_salt_changed_in_a_report_sent_before_is_named(played: Played) -> None:
    rng = played.rng("mail-salt")
    tried = 0
    for viewer in names(played):
        public, private = earlier_notes(played, viewer)
        if not any(" salt " in line and " opened: " not in line for line in private):
            continue
        lines, line = changed_line(private, rng, r"^event \d+: \S+ salt ([0-9a-f]{32})$")
        verdict = check_report(played.bundle(), report(public, lines))
        assert verdict.problem is not None
        assert verdict.problem.event == int(line.split(":")[0].removeprefix("event "))
        assert "salt for" in verdict.problem.why
        tried += 1
    assert tried


def test_wolff_4_5_an_opening_with_another_salt_in_a_report_sent_before_is_named(
    all_played: list[Played],
) -> None:
    tried = 0
    for game in all_played:
        rng = game.rng("mail-opening")
        for viewer in names(game):
            public, private = earlier_notes(game, viewer)
            if not any(" opened: " in line for line in private):
                continue
            lines, line = changed_line(private, rng, r" opened: .*, salt ([0-9a-f]{32}),")
            verdict = check_report(game.bundle(), report(public, lines))
            assert verdict.problem is not None
            assert verdict.problem.event == int(line.split(":")[0].removeprefix("event "))
            assert "opening of" in verdict.problem.why
            tried += 1
    assert tried


def test_wolff_1_3_a_mail_with_another_seed_hash_fails(played: Played) -> None:
    public, private = notes(played)
    public[0] = f"  Dice seed SHA-256: {other_hex(seed_hash(played.secret), played.rng('h'))}"
    verdict = check_report(played.bundle(), report(public, private))
    assert verdict.problem is not None and verdict.problem.event == 0


def test_wolff_4_5_a_commitment_at_an_event_that_commits_to_nothing_is_named(
    played: Played,
) -> None:
    bundle = played.bundle()
    seq = next(r["seq"] for r in bundle["events"] if r.get("type") == "movement-rolled")
    number = {s: n for n, s in public_numbers(bundle["events"]).items()}[seq]
    for line in (
        f"event {seq}: Rd01 commitment {'ab' * 32}",
        f"public event {number}: Rd01 commitment {'ab' * 32}",
    ):
        verdict = check_report(bundle, report([line], []))
        assert verdict.problem is not None and verdict.problem.event == seq
        assert "has no legion-committed event here" in verdict.problem.why


def test_wolff_4_5_a_public_event_the_bundle_has_not_is_named(played: Played) -> None:
    bundle = played.bundle()
    beyond = len(public_numbers(bundle["events"])) + 1
    verdict = check_report(bundle, report([f"public event {beyond}: order seal {'0' * 32}"], []))
    assert verdict.problem is not None and verdict.problem.event == 0
    assert f"the bundle has no public event {beyond}" in verdict.problem.why


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
        public, private = notes(game)
        if not private:
            continue
        index = rng.randrange(len(private))
        head, held = private[index].split(" held ")
        shuffled = list(private)
        shuffled[index] = f"{head} held {', '.join(reversed(held.split(', ')))}"
        assert check_report(game.bundle(), report(public, shuffled)).ok
        shown = [] if held == "nothing" else held.split(", ")
        marker = head.split()[3]
        for other in ([*shown, "Angel"], shown[1:]):
            if other == shown:
                continue
            lines = list(private)
            lines[index] = f"{head} held {', '.join(other) or 'nothing'}"
            verdict = check_report(game.bundle(), report(public, lines))
            assert verdict.problem is not None, (game, lines[index])
            assert verdict.problem.event == logged(game, head) and not verdict.checked
            number = head.split(":")[0].strip()
            assert verdict.problem.why == (
                f"the mail's opening of {marker} is not the bundle's ({number} in the mail)"
            )
            tried += 1
    assert tried


@cache
def _aside_game() -> AsideGame:
    return play_with_asides(2, 3)


def test_wolff_4_5_the_notes_are_found_in_every_bundle_whatever_asides_it_leaves_out() -> None:
    """In a game with messages, shows and standing orders, which each player's bundle
    leaves out where others kept them between themselves, every bundle still finds each
    note of a report: a stretch left out holds no event every player saw."""
    played = _aside_game()
    assert {"message-relayed", "legion-shown"} <= {e.TYPE for e in played.events}
    timeline, state = [], GameState()
    for event in played.events:
        timeline.append((event, state))
        state = evolve(state, event)
    public = [f"  Dice seed SHA-256: {seed_hash(played.secret)}", *audit_notes(timeline)]
    private = audit_openings(timeline)
    for reader in (*played.players, None):
        bundle = played.bundle(reader)
        assert any("hidden" in r for r in bundle["events"])  # asides of others left out
        verdict = check_report(bundle, report(public, private, split=True))
        assert verdict.ok, (played, reader, verdict.problem)
        assert verdict.checked == [
            counted(seeds=1, commitments=len(public) - 2, openings=len(private), salts=0, seals=1)
        ]
