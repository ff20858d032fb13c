"""
A sign-on by mail: ``signon NAME`` from an address nobody registered.

The rules of a sign-on (its lines, names, pinned keys) are in
``moderator.usecases.players.signon``; this is the mail around them: which key the mail carries
and whether the mail is signed with it, that the key and the signature count once and
within their time window, the welcome, and the refusals, each with what to do and at
most ``signon.REFUSALS_PER_DAY`` a day, since the sender is nobody yet.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from moderator.letters import answers
from moderator.mail.signatures import Verifier
from moderator.ports import Lookup, NewPlayer, Outcome, Player, Seal
from moderator.ports.players import hash_secret, normal_address
from moderator.usecases.games.notify import SIGNON_REFUSAL, WELCOME
from moderator.usecases.mail import seals
from moderator.usecases.mail.gate import sealed
from moderator.usecases.mail.mail_reading import ReadMail
from moderator.usecases.mail.replies import Replies
from moderator.usecases.players import auth, signon


def sign_on(
    replies: Replies,
    read: ReadMail,
    lookup: Lookup,
    now: datetime,
    lines: list[str],
    secret: str | None,
    seal: Seal | None,
    *,
    keyring: Verifier | None,
    window: timedelta,
) -> Outcome:
    """
    ``signon NAME`` from an address nobody registered (see ``signon``); ``secret``: the
    mail's secret line, ``seal``: what the mail leaves if it counts, ``window``: how old
    its signature may be at ``now``.  Every refusal is answered, with what to do, up to
    ``signon.REFUSALS_PER_DAY`` a day.
    """
    address = normal_address(read.hints.sender or "")
    if not address:
        return Outcome(rejected=True, note="a sign-on without a sender address")
    req = signon.request(lines)
    assert req is not None
    stranger = Player(0, req.name, address, "UTC", None, None)
    why = signon.problem(req)
    how = ["Write 'signon YOUR NAME' (and 'timezone Europe/Berlin' if you like)."]
    key: str | None = None
    blocks = auth.key_blocks(read.msg, read.signature.text or read.extracted.text)
    if why is None and blocks and keyring is not None:
        checked: list[auth.Signature] = []

        def check() -> auth.Signature:
            raw = replies.message.raw
            checked.append(auth.check_signature(raw, keyring, read.extracted.charset))
            return checked[-1]

        key, why = signon.pinned_key(keyring, blocks, check)
        if key is not None and lookup.players_with_key(key):
            key, why = None, f"the key {key} is registered for another address already"
        if key is not None and checked:  # the signature is good now: count it once
            seal = seals.signature_seal(checked[-1], window)
            used = lookup.seal_used(seal.digest)
            late = seals.age_problem(checked[-1].signed_at, now, window)
            why = seals.replay_answer(used, secret=False) if used else late
            key = key if why is None else None
        elif key is None and checked and not checked[-1].valid:
            how = signon.how_to_sign(checked[-1])
    elif why is None and blocks:
        why = "this moderator takes no keys: sign on with a secret line instead"
    if why is None and secret is not None and len(secret) < signon.MIN_SECRET:
        why = f"a secret must have at least {signon.MIN_SECRET} characters"
    if why is None and key is None and secret is None:
        why = (
            "a sign-on needs your PGP public key (attached or inline, and the mail "
            "signed with it) or a line 'secret YOUR-SECRET'"
        )
    if why is not None:
        return replies.refuse(
            lookup, now, stranger, why, how, kind=SIGNON_REFUSAL, per_day=signon.REFUSALS_PER_DAY
        )
    zone = req.time_zone or "UTC"
    hashed = hash_secret(secret) if secret is not None else None
    new = NewPlayer(req.name, address, zone, key, hashed)
    texts = answers.welcome(req.name, address, zone, key, new.secret_hash is not None)
    player = Player(0, req.name, address, zone, key, new.secret_hash)
    mail = replies.answer(player, WELCOME, texts, None)
    done = Outcome(players=(new,), mails=(mail,), note=f"signed on {req.name} <{address}>")
    return sealed(done, seal)
