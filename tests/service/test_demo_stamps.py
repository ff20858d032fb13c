"""
What makes ``demo --seed N`` replay, part by part: the robots' shipped keys sign the same
text at the demo clock's moment to the same bytes, a robot mail's stamps come from the
seed and a count, and the clock jumps to a silent robot's deadlines one moment at a time.
"""

from __future__ import annotations

import time
from datetime import timedelta

from moderator.ports import Deadline
from moderator.ports.deadlines import DUE
from moderator.schedule.limits import TimeLimits
from moderator.testing.clocks import DEMO_START, MAIL_STEP, DemoClock
from moderator.testing.gnupg import drop_gnupg_home, keyring, new_gnupg_home
from moderator.testing.player_keys import shipped_key
from moderator.testing.stamps import MailStamps, boundary_for, next_deadline_time
from moderator.usecases.games.robot_games import DEFAULT_NAMES


def test_every_default_robot_has_a_shipped_key_made_before_the_demo_clock_starts():
    for name in DEFAULT_NAMES:
        armored = shipped_key(name)
        assert armored is not None, name
        assert armored.startswith("-----BEGIN PGP PRIVATE KEY BLOCK-----"), name
    assert shipped_key("Tess") is None  # the tournament's director gets a new key


def test_a_robots_signature_is_the_same_bytes_in_every_run():
    """The same shipped Ed25519 key, in two GnuPG homes, signs the same text at the same
    demo moment to the same bytes, however long gpg takes (its faked time is frozen)."""
    homes = [new_gnupg_home("stm"), new_gnupg_home("stm")]
    try:
        signatures = []
        for home in homes:
            ring = keyring(home, clock=DemoClock().now, frozen=True)
            (fingerprint,) = ring.import_key(shipped_key("Ann") or "")
            signatures.append(ring.sign_detached(b"game demo\r\nref demo-7\r\ndone\r\n",
                                                 fingerprint))
            time.sleep(1.1)  # a running faked clock would have moved on a second
        assert signatures[0] == signatures[1]
        verified = keyring(homes[0]).verify_detached(b"game demo\r\nref demo-7\r\ndone\r\n",
                                                     signatures[0])
        assert verified.valid and verified.signed_at == DEMO_START
    finally:
        for home in homes:
            drop_gnupg_home(home)


def test_a_robot_mails_stamps_come_from_the_seed_and_a_count():
    """Each mail moves the shared demo clock one step; its Message-ID names the seed, the
    count and the robot, and its MIME boundary follows from the Message-ID."""
    clock = DemoClock()
    stamps = MailStamps(77, clock)
    first, second = stamps.next("Ann"), stamps.next("Bob")
    assert first == ("<demo-77-1-ann@robots.titan.invalid>", DEMO_START + MAIL_STEP)
    assert second == ("<demo-77-2-bob@robots.titan.invalid>", DEMO_START + 2 * MAIL_STEP)
    assert clock.now() == DEMO_START + 2 * MAIL_STEP
    assert MailStamps(77, DemoClock()).next("Ann") == first
    assert boundary_for(first[0]) == boundary_for(first[0]) != boundary_for(second[0])


def _deadline(due: timedelta, *, reminded: int = 0, kind: str = "turn") -> Deadline:
    return Deadline(1, "demo", "Bob", kind, DEMO_START + due, DUE, "step", 1, reminded)


def test_a_silent_robots_clock_jumps_to_each_reminder_then_to_the_deadline():
    """With the default reminders (a day and four hours before), a 72-hour deadline is
    reached in three jumps, each only once the moderator has done what was due."""
    limits = TimeLimits()
    now = DEMO_START
    row = _deadline(timedelta(hours=72))
    assert next_deadline_time([row], limits, now) == DEMO_START + timedelta(hours=48)
    # At 48 hours the first reminder is due: no jump until it is sent.
    now = DEMO_START + timedelta(hours=48)
    assert next_deadline_time([row], limits, now) is None
    row = _deadline(timedelta(hours=72), reminded=1)
    assert next_deadline_time([row], limits, now) == DEMO_START + timedelta(hours=68)
    now = DEMO_START + timedelta(hours=68)
    row = _deadline(timedelta(hours=72), reminded=2)
    assert next_deadline_time([row], limits, now) == DEMO_START + timedelta(hours=72)
    # At the deadline the timeout is due: the clock waits until it is dealt with.
    now = DEMO_START + timedelta(hours=72)
    assert next_deadline_time([row], limits, now) is None
    assert next_deadline_time([], limits, now) is None
