"""
Who hears of a change, and the outbox rows of the service's mails.

After a mail changed the game, every seated player who may see one of the new events,
and the player to act, gets a report of what he may see since his last one; a player
who may see none of them gets nothing, and his last reported version moves on all the
same (there was nothing to tell him).  The game's options keep, per player, the
version he was last reported (``reported``) and where that report began
(``report_from``, for the ``report`` query).

``settle`` is what every change to a game calls (a mail's orders, a timeout, the end
date): the deadline that follows the player to act (``timing.follow``), the reports
showing it, and the result of a game ended by its time limit (rulebook 20.5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moderator.mail import compose
from moderator.reporting.narrate import is_bookkeeping, may_see
from moderator.rules import events as ev
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.schedule import reference, timing
from moderator.service import auth, notices, reports
from moderator.store.deadlines import DeadlineChange, deadline_change
from moderator.store.inbox import GameContext, Lookup
from moderator.store.outbox import OutgoingMail
from moderator.store.players import Player, normal_address

#: Mail kinds (the outbox's ``kind``).
REPORT, REPLY, REFUSAL, HISTORY, WELCOME = "report", "reply", "refusal", "history", "welcome"
#: A refused sign-on (its own daily budget: the sender is nobody yet).
SIGNON_REFUSAL = "signon-refusal"
#: The kinds that answer a mail: what the daily reply budget counts.
ANSWER_KINDS = (REPLY, REFUSAL, HISTORY, WELCOME, SIGNON_REFUSAL)
#: Game options the service keeps: the version each player was last reported, and
#: where that report began (a ``report`` query sends it again from there).
REPORTED, REPORT_FROM = "reported", "report_from"


def mail_to(
    sender: str,
    player: Player,
    kind: str,
    texts: reports.Texts,
    game_id: str | None,
    headers: Mapping[str, str],
) -> OutgoingMail:
    """
    An outbox row to ``player``'s registered address: the public text, the private text
    with a fresh one-time token (Wolff 4.5), and his key to encrypt to.
    """
    subject = compose.tagged_subject(game_id, texts.subject) if game_id else texts.subject
    return OutgoingMail(
        normal_address(player.address),
        subject,
        texts.public,
        {"From": sender, **headers},
        private_body=texts.private,
        token=compose.new_token() if texts.private is not None else None,
        recipient_key=player.key_fingerprint,
        kind=kind,
    )


def report_round(
    sender: str,
    game: GameContext,
    lookup: Lookup,
    new: Sequence[ev.Event],
    state: GameState,
    options: Mapping[str, Any],
    resend: set[str],
) -> tuple[dict[str, Any], list[OutgoingMail]]:
    """
    The reports ``new`` events (after ``game``'s state, leading to ``state``) call for,
    and those ``resend`` asks for again; and the game's ``options`` with each player's
    reported version brought up to date.
    """
    options = dict(options)
    reported = {k: int(v) for k, v in dict(options.get(REPORTED) or {}).items()}
    began = {k: int(v) for k, v in dict(options.get(REPORT_FROM) or {}).items()}
    actor = to_act(state)
    due: list[tuple[str, Player, int, bool]] = []
    for seat, player in sorted(lookup.seated_players(game.game_id).items()):
        if not state.has_player(seat):
            continue
        last = reported.get(seat, 0)
        sees = any(may_see(e, seat) and not is_bookkeeping(e) for e in new)
        if new and (sees or seat == actor):
            due.append((seat, player, last, False))
        elif seat in resend:
            due.append((seat, player, began.get(seat, last), True))
        elif new and last >= game.seq:  # nothing he may see happened: he is up to date
            reported[seat] = state.version
    if not due:
        if new:
            options[REPORTED] = reported
        return options, []
    timeline = _timeline(game, lookup, new, min(since for _, _, since, _ in due))
    allowed = bool(options.get(auth.ALLOW_SECRETS))
    ref = reference.current(game.game_id, state)
    mails: list[OutgoingMail] = []
    for seat, player, since, again in due:
        texts = reports.report(
            ref,
            state,
            seat,
            [(event, before) for number, event, before in timeline if number > since],
            since,
            options=options,
            time_zone=player.time_zone,
            how=auth.how_to_authenticate(player, allowed),
            resend=again,
        )
        mails.append(mail_to(sender, player, REPORT, texts, game.game_id, {}))
        reported[seat] = state.version
        began[seat] = since
    options[REPORTED] = reported
    options[REPORT_FROM] = began
    return options, mails


@dataclass(frozen=True, slots=True)
class Settled:
    """What a change to a game calls for: its new options, the mails, the deadline."""

    options: dict[str, Any]
    mails: list[OutgoingMail]
    deadlines: tuple[DeadlineChange, ...]


def settle(
    sender: str,
    game: GameContext,
    lookup: Lookup,
    new: Sequence[ev.Event],
    state: GameState,
    options: Mapping[str, Any],
    now: datetime,
    resend: set[str] | None = None,
) -> Settled:
    """
    After ``new`` events led from ``game``'s state to ``state``: the deadline that
    follows the player to act (a new one when he or the kind of step changed), the
    reports (``report_round``, showing that deadline) and, when the game ended by its
    time limit, the result (rulebook 20.5) to every player.
    """
    options, change = timing.follow(state, options, now)
    options, mails = report_round(sender, game, lookup, new, state, options, resend or set())
    scored = [e for e in new if isinstance(e, ev.GameScored)]
    if scored:
        ref = str(reference.current(game.game_id, state))
        texts = notices.result(game.game_id, ref, scored[-1])
        for seat, player in sorted(lookup.seated_players(game.game_id).items()):
            if state.has_player(seat):
                mails.append(mail_to(sender, player, notices.NOTICE, texts, game.game_id, {}))
    return Settled(options, mails, deadline_change(change))


def _timeline(
    game: GameContext, lookup: Lookup, new: Sequence[ev.Event], since: int
) -> list[tuple[int, ev.Event, GameState]]:
    """
    (number, event, the game before it) for every event after ``since``: the stored
    ones (replayed from the start: only when a player is behind, i.e. events were added
    outside the mail service) and the ``new`` ones.
    """
    if since < game.seq:
        stored = lookup.events(game.game_id)
        state = replay(stored[:since])
        events = [*stored[since:], *new]
    else:
        state, events, since = game.state, list(new), game.seq
    timeline: list[tuple[int, ev.Event, GameState]] = []
    for number, event in enumerate(events, since + 1):
        timeline.append((number, event, state))
        state = evolve(state, event)
    return timeline
