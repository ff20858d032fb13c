"""
``verify BUNDLE --report MAIL``: a report a player received, held against the bundle.
The seed's SHA-256, every commitment, opening and order seal in the mail's public part
and every salt in its private part (when the player gives a decrypted copy) must be the
ones the bundle holds, so the moderator cannot have shown one thing in the game and
another in the audit: the seal chains every order before it, so a signed report pins
the whole log up to it.  Pure: the caller reads the mail's bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from email import message_from_bytes, policy
from typing import Any

from moderator.audit.verify import Verdict
from moderator.audit.verify_checks import Discrepancy

SEED = re.compile(r"seed SHA-256: ([0-9a-f]{64})", re.IGNORECASE)
COMMITMENT = re.compile(r"event (\d+): (\S+) commitment ([0-9a-f]{64})")
OPENING = re.compile(
    r"event (\d+): (\S+) opened: commitment of event (\d+), salt ([0-9a-f]{32}), held (.+)"
)
SALT = re.compile(r"event (\d+): (\S+) salt ([0-9a-f]{32})")
SEAL = re.compile(r"event (\d+): order seal ([0-9a-f]{32})")


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
    salts = {int(s["event"]): (s["marker"], s["salt"]) for s in bundle["salts"]}
    verdict = Verdict()
    found = {"seeds": 0, "commitments": 0, "openings": 0, "salts": 0, "seals": 0}
    try:
        for match in SEED.finditer(text):
            if match.group(1) != bundle["seed_sha256"]:
                raise Discrepancy(0, "the mail's seed SHA-256 is not the bundle's")
            found["seeds"] += 1
        for match in COMMITMENT.finditer(text):
            seq, marker, digest = int(match.group(1)), match.group(2), match.group(3)
            payload = _payload(events, seq, "legion-committed")
            if payload.get("marker") != marker or payload.get("commitment") != digest:
                raise Discrepancy(seq, f"the mail's commitment to {marker} is not the bundle's")
            found["commitments"] += 1
        for match in OPENING.finditer(text):
            seq, marker = int(match.group(1)), match.group(2)
            payload = _payload(events, seq, "commitment-opened")
            held = [] if match.group(5).strip() == "nothing" else match.group(5).split(", ")
            wanted = (marker, int(match.group(3)), match.group(4), sorted(h.strip() for h in held))
            shown = (payload.get("marker"), payload.get("seq"), payload.get("salt"),
                     sorted(payload.get("contents", ())))
            if shown != wanted:
                raise Discrepancy(seq, f"the mail's opening of {marker} is not the bundle's")
            found["openings"] += 1
        for match in SEAL.finditer(text):
            seq, mac = int(match.group(1)), match.group(2)
            if _payload(events, seq, "order-sealed").get("mac") != mac:
                raise Discrepancy(seq, "the mail's order seal is not the bundle's")
            found["seals"] += 1
        for match in SALT.finditer(text):
            seq, marker, salt = int(match.group(1)), match.group(2), match.group(3)
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


def _payload(events: Mapping[int, Any], seq: int, kind: str) -> Mapping[str, Any]:
    record = events.get(seq)
    if record is None or record.get("type") != kind:
        raise Discrepancy(seq, f"the bundle has no {kind} event here, the mail names one")
    payload: Mapping[str, Any] = record.get("payload", {})
    return payload
