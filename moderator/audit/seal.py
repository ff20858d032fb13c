"""
What the moderator notes after each order of a game with bound dice: where the order
ends, which mail gave it, what it said and how many dice it rolled, commitments to the
legions whose contents went out of sight and the openings of those whose contents were
shown.  Pure: the shell calls ``seal`` with the state before and after the order's
events and appends what it returns; the verifier calls it too and wants the very same.

A legion is hidden while somebody besides its owner does not know what it holds
(``Legion.known_to`` is not None).  Every hidden legion has a commitment to what it
holds now: one is made when a hidden legion's contents change, when a legion appears
hidden (a split) and when a public legion goes out of sight again.  So when the game's
events widen the knowledge of a legion, its latest commitment is to what it held just
before, and that is what the opening shows.

A show (Wolff 4.5) is not the game's: what its owner showed is kept apart
(``Legion.shown_to``), and the show's own opening goes to its audience only, as the
show does.  So the notes of every other order are the same whether or not a reader of
the log may see the shows, and a player's bundle can leave out the shows of others.

Each seal is chained to the one before by an HMAC of the seed (``seal_mac``): the
reports print it, so once a player holds a signed report the log up to it cannot be
rewritten, and nobody can compute it before the seed is revealed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence

from moderator.audit.commitments import commitment_for, salt_for
from moderator.audit.dice import seed_bytes
from moderator.records import record
from moderator.rules import events as ev
from moderator.rules.policies import POLICIES, WOLFF
from moderator.rules.state import Audience, GameState, Legion

#: What a seal's ``order`` says for the moderator's own steps.
START, TIME_CALLED, DIRECTOR_END = "start", "time-called", "director:end"
#: The trigger of an operator's line on a game (``operator_order``): it rolls no dice.
OPERATOR = "operator"
#: How the start's seal names a lateness policy other than Wolff's (``start_order``).
_LATENESS = f"{START} lateness="


def start_order(lateness: str = WOLFF) -> str:
    """
    What the start's seal says: ``start``, followed by the game's lateness policy when it
    is not Wolff 20.4's (``start lateness=21.2``).  The seal's MAC covers it and every
    seal after chains to that MAC, so the policy a game was started under cannot be
    changed afterwards without every seal the players' reports printed changing too.
    """
    return START if lateness == WOLFF else f"{_LATENESS}{lateness}"


def lateness_of_start(order: str) -> str | None:
    """The lateness policy a start's seal names (None: ``order`` is no start's)."""
    if order == START:
        return WOLFF
    policy = order.removeprefix(_LATENESS)
    return policy if order.startswith(_LATENESS) and policy in POLICIES else None


def operator_order(line: str) -> str:
    """
    What the seal of an operator's line says (``game pause|resume|extend|replace`` on a
    game with no director): ``operator: `` and the line as the players were told it
    (``OperatorActed.line``).  Sealed like an order, it is chained among the game's seals,
    so it cannot be slipped in, taken out or reworded after a report printed a later seal.
    """
    return f"{OPERATOR}: {line}"


def operator_line(order: str) -> str | None:
    """The operator's line a seal names (None: ``order`` is no operator's line)."""
    line = order.removeprefix(f"{OPERATOR}: ")
    return line if order.startswith(f"{OPERATOR}: ") and line.strip() else None


#: The trigger of an order the robot gave for a seat it holds (issue 26): it names the
#: seat and the order's first event, so its dice are bound like a mail's.
ROBOT = "robot:"


def robot_trigger(seat: str, first: int) -> str:
    """The trigger of the robot's order for ``seat`` whose events start at ``first``."""
    return f"{ROBOT}{seat}:{first}"


def robot_seat_of(trigger: str) -> str | None:
    """The seat a robot's order was given for (None: not a robot's order)."""
    if not trigger.startswith(ROBOT):
        return None
    seat, _, first = trigger.removeprefix(ROBOT).rpartition(":")
    return seat if seat and first.isdigit() else None


#: What a message's seal records in place of its words (Wolff 4.5: a player may tell what
#: another wrote, never prove it).  The seal's MAC is in the audit bundle (signed by its
#: digest), every later seal that signed reports print chains to it, and the seed that
#: keys it is published after the game, so a MAC over the words would let anybody
#: holding them check a claimed text; it covers this instead, and the bundle gives the
#: message with these words, from which the rules decide it again.
WORDS_NOT_SEALED = "(the words are not sealed, Wolff 4.5)"


def sealed_line(order: str, events: Sequence[ev.Event]) -> str:
    """
    The line a seal records for an order that said ``order`` and decided ``events``:
    a message passed on (``tell NAMES: TEXT``) without its words, every other order as
    it is.
    """
    if not any(isinstance(e, ev.MessageRelayed) for e in events):
        return order
    return f"{order.partition(':')[0]}: {WORDS_NOT_SEALED}"


def words_sealed(seal: ev.OrderSealed) -> bool:
    """Whether a message's seal covers its words (sealed before ``sealed_line``)."""
    return bool(seal.order) and not seal.order.endswith(f": {WORDS_NOT_SEALED}")


@record
class OrderKey:
    """
    One order as the audit names it: asked for by ``trigger``, its events from ``first``
    on, its ``count`` dice; ``player`` gave it and it said ``order`` (a line as
    ``render_order`` writes it, or one of the moderator's steps: ``START`` ...).
    """

    trigger: str
    first: int
    count: int
    player: str | None = None
    order: str = ""


@record
class Sealed:
    """The notes to append, each legion's latest commitment (marker -> its event) and
    the seal's MAC, which the next seal chains to."""

    events: tuple[ev.Event, ...]
    commitments: dict[str, int]
    mac: str = ""


def seal_mac(seed: int, game: str, last: str, key: OrderKey) -> str:
    """The seal of order ``key``, chained to ``last`` (the seal before it; "" at first)."""
    message = (
        f"titan-seal|{game}|{last}|{key.first}|{key.trigger}|{key.count}|"
        f"{key.player or ''}|{key.order}"
    )
    return hmac.new(seed_bytes(seed), message.encode(), hashlib.sha256).hexdigest()[:32]


def is_aside_order(events: Sequence[ev.Event]) -> bool:
    """Whether an order's events are asides only (shows and messages, Wolff 4.5)."""
    return bool(events) and all(isinstance(e, ev.ASIDE_EVENT_TYPES) for e in events)


def seal_audience(events: Sequence[ev.Event]) -> Audience:
    """Who sees an order's seal: all, but for an aside, which its audience alone sees."""
    if not is_aside_order(events):
        return None
    seen: set[str] = set()
    for event in events:
        if event.visible_to is None:
            return None
        seen |= event.visible_to
    return frozenset(seen)


def seal(
    before: GameState,
    after: GameState,
    *,
    game: str,
    seed: int,
    commitments: Mapping[str, int],
    dice: OrderKey | None = None,
    events: Sequence[ev.Event] = (),
    last: str = "",
) -> Sealed:
    """
    The audit notes for one order: ``before`` and ``after`` its ``events`` (``before``
    is the game after the previous order's notes); ``last`` is the previous seal's MAC.
    """
    seq = after.version
    notes: list[ev.Event] = []
    latest = {m: s for m, s in commitments.items() if m in after.legions}
    mac = ""
    if dice is not None:
        seq += 1
        mac = seal_mac(seed, game, last, dice)
        notes.append(
            ev.OrderSealed(
                trigger=dice.trigger, first=dice.first, count=dice.count,
                player=dice.player, order=dice.order, mac=mac,
                visible_to=seal_audience(events),
            )
        )
    for marker, legion in sorted(after.legions.items()):
        old = before.legions.get(marker)
        if old is None or marker not in latest or not _widened(old, legion):
            continue
        seq += 1
        notes.append(_opening(seed, game, marker, latest[marker], old.contents, _audience(legion)))
    for shown in events:
        if not isinstance(shown, ev.LegionShown) or not shown.whole:
            continue
        held = before.legions.get(shown.marker)
        if held is None or held.known_to is None or shown.marker not in latest:
            continue
        seq += 1
        committed = latest[shown.marker]
        notes.append(
            _opening(seed, game, shown.marker, committed, held.contents, shown.visible_to)
        )
    for marker, legion in sorted(after.legions.items()):
        if legion.known_to is None:
            continue
        old = before.legions.get(marker)
        fresh = old is None or old.known_to is None or marker not in latest
        if not fresh and old is not None and old.contents == legion.contents:
            continue
        seq += 1
        salt = salt_for(seed, game, marker, seq)
        notes.append(
            ev.LegionCommitted(
                marker=marker, commitment=commitment_for(game, marker, seq, salt, legion.contents)
            )
        )
        latest[marker] = seq
    return Sealed(tuple(notes), latest, mac)


def _opening(
    seed: int, game: str, marker: str, committed: int, contents: tuple[str, ...], to: Audience
) -> ev.CommitmentOpened:
    return ev.CommitmentOpened(
        marker=marker,
        seq=committed,
        contents=contents,
        salt=salt_for(seed, game, marker, committed),
        visible_to=to,
    )


def _audience(legion: Legion) -> Audience:
    """Who an opening goes to: all once the legion is public, else those who know it."""
    return None if legion.known_to is None else legion.known_to | {legion.owner}


def _widened(old: Legion, new: Legion) -> bool:
    """Whether more players know what the legion holds than before (it was hidden)."""
    if old.known_to is None:
        return False
    return new.known_to is None or not new.known_to <= old.known_to
