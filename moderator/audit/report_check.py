"""
``verify BUNDLE --report MAIL``: a report a player received, held against the bundle.
The seed's SHA-256, every commitment, opening and order seal in the mail's public part
and the openings in its private part (when the player gives a decrypted copy) must be
the ones the bundle holds, so the moderator cannot have shown one thing in the game and
another in the audit: the seal chains every order before it, so a signed report pins
the whole log up to it.  Pure: the caller reads the mail's bytes.

A report numbers its notes by the events every player saw (``public event 12``, see
``reporting.audit_notes``); the bundle holds the whole log, hidden events too, and the
events every player saw are in every player's bundle, so counting them maps each such
number to its place in the log, whoever's bundle it is.  Reports sent before numbered
by the log itself (``event 40``) and carried salts in their private part (the openings
every player saw with theirs, and the reader's own legions'): those lines are read as
they were and held to the bundle too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from email import message_from_bytes, policy
from typing import Any

from moderator.audit.verify import Verdict
from moderator.audit.verify_checks import Discrepancy

_AT = r"(?P<public>public )?event (?P<seq>\d+)"
SEED = re.compile(r"seed SHA-256: ([0-9a-f]{64})", re.IGNORECASE)
#: A note names its event by its number among those every player saw (``public event
#: 12``) or, in a report sent before, by its place in the log (``event 40``).
COMMITMENT = re.compile(_AT + r": (?P<marker>\S+) commitment (?P<digest>[0-9a-f]{64})")
#: An opening says what the legion held; before, it also named the commitment it opened
#: and gave its salt.
OPENING = re.compile(
    _AT + r": (?P<marker>\S+) opened: (?:commitment of event (?P<of>\d+), "
    r"salt (?P<salt>[0-9a-f]{32}), )?held (?P<held>.+)"
)
#: Only in the private part of a report sent before salts were kept back to the audit.
SALT = re.compile(r"event (?P<seq>\d+): (?P<marker>\S+) salt (?P<salt>[0-9a-f]{32})")
SEAL = re.compile(_AT + r": order seal (?P<mac>[0-9a-f]{32})")


def mail_text(raw: bytes) -> str:
    """The text of every readable text part of the mail (encrypted parts are skipped)."""
    message = message_from_bytes(raw, policy=policy.default)
    texts = []
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            try:
                texts.append(str(part.get_content()))
            except (LookupError, ValueError):
                continue
    return "\n".join(texts) if texts else raw.decode("utf-8", "replace")


def check_report(bundle: Mapping[str, Any], raw: bytes) -> Verdict:
    """What of the mail ``raw`` was found in ``bundle`` (to be verified on its own too)."""
    text = mail_text(raw)
    events = {int(e["seq"]): e for e in bundle["events"]}
    public = public_numbers(bundle["events"])
    salts = {int(s["event"]): (s["marker"], s["salt"]) for s in bundle["salts"]}
    verdict = Verdict()
    found = {"seeds": 0, "commitments": 0, "openings": 0, "salts": 0, "seals": 0}
    try:
        for match in SEED.finditer(text):
            if match.group(1) != bundle["seed_sha256"]:
                raise Discrepancy(0, "the mail's seed SHA-256 is not the bundle's")
            found["seeds"] += 1
        for match in COMMITMENT.finditer(text):
            seq, said = _place(match, public)
            marker, digest = match["marker"], match["digest"]
            payload = _payload(events, seq, "legion-committed", said)
            if payload.get("marker") != marker or payload.get("commitment") != digest:
                raise Discrepancy(seq, f"the mail's commitment to {marker} is not the bundle's{said}")
            found["commitments"] += 1
        for match in OPENING.finditer(text):
            seq, said = _place(match, public)
            marker = match["marker"]
            payload = _payload(events, seq, "commitment-opened", said)
            held = [] if match["held"].strip() == "nothing" else match["held"].split(", ")
            wanted: tuple[Any, ...] = (marker, sorted(h.strip() for h in held))
            shown: tuple[Any, ...] = (payload.get("marker"), sorted(payload.get("contents", ())))
            if match["salt"] is not None:  # a report sent before salts were kept back
                wanted += (int(match["of"]), match["salt"])
                shown += (payload.get("seq"), payload.get("salt"))
            if shown != wanted:
                raise Discrepancy(seq, f"the mail's opening of {marker} is not the bundle's{said}")
            found["openings"] += 1
        for match in SEAL.finditer(text):
            seq, said = _place(match, public)
            mac = match["mac"]
            if _hidden_seal(bundle["events"], seq) != mac and (
                _payload(events, seq, "order-sealed", said).get("mac") != mac
            ):
                raise Discrepancy(seq, f"the mail's order seal is not the bundle's{said}")
            found["seals"] += 1
        for match in SALT.finditer(text):
            seq, marker, salt = int(match["seq"]), match["marker"], match["salt"]
            if salts.get(seq) != (marker, salt):
                raise Discrepancy(seq, f"the mail's salt for {marker} is not the bundle's")
            found["salts"] += 1
    except Discrepancy as problem:
        verdict.problem = problem
        return verdict
    if not any(found.values()):
        verdict.problem = Discrepancy(
            0, "the mail holds no seed hash, commitment, opening, salt or seal of this game"
        )
        return verdict
    verdict.checked.append(
        "report: "
        + ", ".join(f"{n} {what if n != 1 else what.rstrip('s')}" for what, n in found.items())
        + " in the mail are the bundle's"
    )
    return verdict


def public_numbers(records: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """
    The place in the log of each event every player saw, by its number among them (the
    numbers a report's notes go by).  A stretch a bundle leaves out (another's aside or
    standing order) holds none of them, so every player's bundle gives the same map.
    """
    numbers: dict[int, int] = {}
    for record in records:
        if "hidden" not in record and record.get("payload", {}).get("visible_to") is None:
            numbers[len(numbers) + 1] = int(record["seq"])
    return numbers


def _place(match: re.Match[str], public: Mapping[int, int]) -> tuple[int, str]:
    """(the place in the log of the event a note names, how the mail named it when it
    numbered it among the events every player saw, for a discrepancy to say)."""
    number = int(match["seq"])
    if match["public"] is None:  # a report sent before: numbered by the log
        return number, ""
    if number not in public:
        raise Discrepancy(0, f"the bundle has no public event {number}, the mail names one")
    return public[number], f" (public event {number} in the mail)"


def _hidden_seal(records: Any, seq: int) -> str | None:
    """The seal of the stretch left out that holds event ``seq`` (None: none does): a
    report may print the seal of a message the bundle leaves out, sealed with its words."""
    for record in records:
        start, count = int(record["seq"]), record.get("hidden")
        if isinstance(count, int) and start <= seq < start + count and record.get("seal"):
            return str(record["seal"])
    return None


def _payload(
    events: Mapping[int, Any], seq: int, kind: str, said: str = ""
) -> Mapping[str, Any]:
    record = events.get(seq)
    if record is None or record.get("type") != kind:
        raise Discrepancy(seq, f"the bundle has no {kind} event here, the mail names one{said}")
    payload: Mapping[str, Any] = record.get("payload", {})
    return payload
