"""Parsers for the orders around an engagement: engage, propose, accept, no, and the
summons, reinforcements and angels an engagement brings.

``propose`` is the one order the parser cannot read by form alone: its clauses are sorted
into the attacker's and the defender's losses against the engagement in the game state,
so its checks live here with it.
"""

from __future__ import annotations

from collections import Counter

from moderator.orders.errors import E_PROPOSAL, AmbiguousOrderError
from moderator.orders.help import USAGE
from moderator.orders.reader import Reader, Result
from moderator.rules import commands as cmd
from moderator.rules.state import Engagement, GameState, Proposal

_PROPOSAL_SEPARATORS = ("or", "|")


def parse_engage(r: Reader) -> Result:
    if r.at_end() and r.state is not None:
        lands = r.state.engagement_lands()
        if len(lands) == 1:
            return cmd.Engage(player=r.player, land=lands[0])
        if lands:
            raise AmbiguousOrderError(
                f"cannot read {r.line.strip()!r}: there are engagements in lands "
                f"{', '.join(map(str, lands))}; write 'engage {lands[0]}' for one of them",
                r.line,
            )
    land = r.land()
    r.end()
    return cmd.Engage(player=r.player, land=land)


def parse_no(r: Reader) -> Result:
    """``no carry``, ``no more [proposals]`` or a bare ``no`` (decline)."""
    if r.accept("carry", "carries", "carrying"):
        r.usage = USAGE["carry"]
        r.end()
        return cmd.Carry(player=r.player)
    if r.accept("more"):
        r.usage = USAGE["no more"]
        r.accept("proposals", "proposal", "offers", "offer")
        r.end()
        return cmd.NoMore(player=r.player)
    r.usage = USAGE["decline"]
    r.end()
    return cmd.Decline(player=r.player)


def parse_accept(r: Reader) -> Result:
    r.accept("the")
    if r.accept("concession"):
        r.end()
        return cmd.AcceptConcession(player=r.player)
    r.accept("proposal", "offer", "number", "no", "nr")
    number = r.number("proposal")
    r.end()
    return cmd.Accept(player=r.player, number=number)


def parse_summon(r: Reader) -> Result:
    lord = r.creature()
    r.expect("from")
    source = r.marker()
    r.end()
    return cmd.Summon(player=r.player, lord=lord, source=source)


def parse_reinforce(r: Reader) -> Result:
    creature = r.creature()
    return cmd.Reinforce(player=r.player, creature=creature, showing=r.showing())


def parse_take(r: Reader) -> Result:
    lord = r.creature()
    r.end()
    return cmd.TakeAngel(player=r.player, lord=lord)


def parse_propose(r: Reader) -> Result:
    state = r.state
    eng = state.engagement if state is not None else None
    if state is None or eng is None:
        r.error(E_PROPOSAL, "there is no engagement to make a proposal about")
    proposals: list[Proposal] = []
    while True:
        proposals.append(_proposal(r, state, eng))
        if r.at_end():
            break
        r.expect(*_PROPOSAL_SEPARATORS)
    return cmd.Propose(player=r.player, proposals=tuple(proposals))


def _proposal(r: Reader, state: GameState, eng: Engagement) -> Proposal:
    losses: dict[str, tuple[str, ...]] = {}
    while True:
        marker = r.marker()
        if marker not in (eng.attacker, eng.defender):
            r.error(
                E_PROPOSAL,
                f"{marker} is not part of this engagement ({eng.attacker} attacks "
                f"{eng.defender} in land {eng.land})",
            )
        if marker in losses:
            r.error(E_PROPOSAL, f"{marker} is named twice in one proposal")
        losses[marker] = _clause(r, state, marker)
        while r.accept(";"):
            pass
        if r.at_end() or r.peek() in _PROPOSAL_SEPARATORS:
            break
    return losses.get(eng.attacker, ()), losses.get(eng.defender, ())


def _clause(r: Reader, state: GameState, marker: str) -> tuple[str, ...]:
    legion = state.legions.get(marker)
    stop = (";", *_PROPOSAL_SEPARATORS)
    r.accept("is")
    if r.accept("eliminated", "dies", "destroyed"):
        eliminated = True
    elif r.accept("loses", "lose", "lost"):
        if r.accept("nothing", "none"):
            return ()
        eliminated = r.accept("all", "everything")
        if eliminated:
            r.accept("characters")
    else:
        r.fail(
            "each clause is 'MARKER loses CHARACTERS', 'MARKER loses nothing' or "
            "'MARKER eliminated'"
        )
    if eliminated:
        if legion is None:
            r.error(
                E_PROPOSAL,
                f"the contents of {marker} are not known here; list its losses instead: "
                f"'{marker} loses ...'",
            )
        return tuple(sorted(legion.contents))
    lost = r.creatures(stop=stop, stop_at_marker=True)
    if not lost:
        r.fail(f"name what {marker} loses, or write '{marker} loses nothing'")
    if legion is not None:
        missing = Counter(lost) - Counter(legion.contents)
        if missing:
            what = ", ".join(f"{n} {c}" if n > 1 else c for c, n in sorted(missing.items()))
            r.error(E_PROPOSAL, f"{marker} cannot lose {what}: it does not hold that many")
    return tuple(sorted(lost))
