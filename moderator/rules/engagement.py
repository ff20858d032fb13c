"""
Engagements resolved without a battle: the look, flight, negotiation
(Wolff 9.3), concession, and the after-engagement steps 2.5.6.5-2.5.6.10
(reinforcement or summons, points, angels, Titan elimination, regeneration).
"""

from __future__ import annotations

from collections import Counter

from moderator.rules import battle
from moderator.rules import events as ev
from moderator.rules.commands import Accept, Engage, Propose, Reinforce, Summon, TakeAngel
from moderator.rules.dice import Dice
from moderator.rules.errors import RuleError
from moderator.rules.movement import LORDS
from moderator.rules.muster import MAX_HEIGHT, muster_options
from moderator.rules.state import Engagement, GameState, Legion, Proposal, Step

SUMMONABLE = ("Angel", "Archangel")


def current(state: GameState) -> Engagement:
    if state.engagement is None:
        raise RuleError("E-NO-ENGAGEMENT", "no engagement is being resolved now")
    return state.engagement


def engage(state: GameState, cmd: Engage) -> list[ev.Event]:
    """2.5/Wolff 9.1: the mover picks the next engagement; both sides look (2.5.1, 2.5.2)."""
    lands = state.engagement_lands()
    if cmd.land not in lands:
        raise RuleError(
            "E-ENGAGE",
            f"there is no engagement at {cmd.land}; engagements: {', '.join(map(str, lands))}",
        )
    here = state.legions_at(cmd.land)
    attacker = next(lg for lg in here if lg.owner == cmd.player)
    defender = next(lg for lg in here if lg.owner != cmd.player)
    both = frozenset({attacker.owner, defender.owner})
    return [
        ev.EngagementStarted(land=cmd.land, attacker=attacker.marker, defender=defender.marker),
        ev.LegionRevealed(
            marker=defender.marker, contents=defender.contents, reason="engagement", visible_to=both
        ),
        ev.LegionRevealed(
            marker=attacker.marker, contents=attacker.contents, reason="engagement", visible_to=both
        ),
    ]


def check_turn(state: GameState, player: str) -> Engagement:
    if state.step is not Step.NEGOTIATE:
        raise RuleError(
            "E-NOT-NOW", f"no negotiation is going on; the game is in the {state.step.value} step"
        )
    eng = current(state)
    if eng.awaiting != player:
        raise RuleError(
            "E-NOT-YOUR-TURN", f"it is {eng.awaiting}'s turn to act in the engagement at {eng.land}"
        )
    return eng


def may_flee(state: GameState, eng: Engagement) -> bool:
    """9.2: only as the defender's first action, and not with a lord."""
    defender = state.legions[eng.defender]
    return not eng.opened and not any(c in LORDS for c in defender.contents)


def flee(state: GameState, player: str) -> list[ev.Event]:
    eng = check_turn(state, player)
    if player != eng.defender_player:
        raise RuleError("E-FLEE", "only the defender may flee (9.2)")
    if eng.opened:
        raise RuleError("E-FLEE", "you may flee only before negotiating (9.2)")
    defender = state.legions[eng.defender]
    if not may_flee(state, eng):
        raise RuleError("E-FLEE", f"{eng.defender} holds a lord and cannot flee (9.2)")
    points = state.legion_value(defender.contents, defender.owner) // 2
    return [_resolved(eng, "flight", (), defender.contents, eng.attacker, points)]


def _resolved(
    eng: Engagement,
    how: str,
    a_loss: tuple[str, ...],
    d_loss: tuple[str, ...],
    winner: str | None,
    points: int,
) -> ev.EngagementResolved:
    return ev.EngagementResolved(
        land=eng.land,
        how=how,
        attacker_losses=tuple(sorted(a_loss)),
        defender_losses=tuple(sorted(d_loss)),
        winner=winner,
        points=points,
    )


def concede(state: GameState, player: str) -> list[ev.Event]:
    """9.4: the conceding legion is eliminated; the winner scores it in full."""
    eng = check_turn(state, player)
    loser = state.legions[eng.attacker if player == eng.attacker_player else eng.defender]
    winner = eng.defender if loser.marker == eng.attacker else eng.attacker
    points = state.legion_value(loser.contents, loser.owner)
    a_loss = loser.contents if loser.marker == eng.attacker else ()
    d_loss = loser.contents if loser.marker == eng.defender else ()
    return [_resolved(eng, "concession", a_loss, d_loss, winner, points)]


def check_proposal(state: GameState, eng: Engagement, proposal: Proposal) -> None:
    """Wolff 9.3: only present characters; one side eliminated; a lost Titan takes its legion."""
    for marker, losses in ((eng.attacker, proposal[0]), (eng.defender, proposal[1])):
        contents = state.legions[marker].contents
        if Counter(losses) - Counter(contents):
            raise RuleError("E-PROPOSAL", f"{marker} does not hold {' '.join(losses)}")
        if "Titan" in losses and len(losses) != len(contents):
            raise RuleError(
                "E-PROPOSAL",
                f"a proposal that loses the Titan of {marker} loses its whole legion (Wolff 9.3)",
            )
    eliminated = [
        len(losses) == state.legions[m].height
        for m, losses in ((eng.attacker, proposal[0]), (eng.defender, proposal[1]))
    ]
    if not any(eliminated):
        raise RuleError("E-PROPOSAL", "every proposal must eliminate at least one legion (9.3)")


def propose(state: GameState, cmd: Propose) -> list[ev.Event]:
    eng = check_turn(state, cmd.player)
    if eng.no_more is not None:
        raise RuleError(
            "E-PROPOSAL",
            f"{eng.no_more} has declared no more proposals: accept one, concede or fight",
        )
    mine = {p for who, p in eng.proposals if who == cmd.player}
    theirs = {p for who, p in eng.proposals if who != cmd.player}
    proposals = tuple(dict.fromkeys((tuple(sorted(a)), tuple(sorted(d))) for a, d in cmd.proposals))
    if not proposals:
        raise RuleError("E-PROPOSAL", "propose at least one outcome")
    for p in proposals:
        check_proposal(state, eng, p)
        if p in theirs:
            number = next(
                i for i, (w, q) in enumerate(eng.proposals, 1) if q == p and w != cmd.player
            )
            raise RuleError(
                "E-PROPOSAL-REPEAT",
                f"your opponent already proposed that (number {number}); "
                f"'accept {number}' to agree to it (Wolff 9.3)",
            )
    if all(p in mine for p in proposals):
        raise RuleError(
            "E-PROPOSAL-REPEAT", "a set of proposals must include a new one (Wolff 9.3)"
        )
    both = frozenset({eng.attacker_player, eng.defender_player})
    return [
        ev.ProposalsMade(
            player=cmd.player,
            proposals=proposals,
            first_number=len(eng.proposals) + 1,
            visible_to=both,
        )
    ]


def accept(state: GameState, cmd: Accept) -> list[ev.Event]:
    eng = check_turn(state, cmd.player)
    if not 1 <= cmd.number <= len(eng.proposals):
        raise RuleError(
            "E-ACCEPT", f"there is no proposal {cmd.number}; {_theirs_hint(eng, cmd.player)}"
        )
    proposer, (a_loss, d_loss) = eng.proposals[cmd.number - 1]
    if proposer == cmd.player:
        raise RuleError(
            "E-ACCEPT", f"proposal {cmd.number} is yours; {_theirs_hint(eng, cmd.player)}"
        )
    attacker, defender = state.legions[eng.attacker], state.legions[eng.defender]
    a_out = len(a_loss) == attacker.height
    d_out = len(d_loss) == defender.height
    if a_out and d_out:
        winner, points = None, 0
    elif a_out:
        winner, points = eng.defender, state.legion_value(attacker.contents, attacker.owner)
    else:
        winner, points = eng.attacker, state.legion_value(defender.contents, defender.owner)
    return [_resolved(eng, "agreement", a_loss, d_loss, winner, points)]


def _theirs_hint(eng: Engagement, player: str) -> str:
    numbers = [str(i) for i, (w, _) in enumerate(eng.proposals, 1) if w != player]
    return (
        f"you may accept: {', '.join(numbers)}" if numbers else "your opponent has proposed nothing"
    )


def no_more(state: GameState, player: str) -> list[ev.Event]:
    eng = check_turn(state, player)
    if eng.no_more is not None:
        raise RuleError(
            "E-NO-MORE",
            f"{eng.no_more} has already declared no more proposals: accept one, concede or fight",
        )
    both = frozenset({eng.attacker_player, eng.defender_player})
    return [ev.NoMoreProposals(player=player, visible_to=both)]


def fight(state: GameState, player: str, dice: Dice) -> list[ev.Event]:
    """2.5.5/2.5.6: after the opponent's "no more proposals", choose battle."""
    eng = check_turn(state, player)
    if eng.no_more is None or eng.no_more == player:
        raise RuleError(
            "E-FIGHT",
            "you may choose to fight only after your opponent declares no more proposals "
            "(Complete Sequence 2.5.5)",
        )
    return battle.start(state, eng, dice)


# -- 2.5.6.5: reinforcement and summons after winning ------------------------------------


def summon_sources(state: GameState, target: Legion) -> list[tuple[str, str]]:
    """15.0/15.2: (lord, legion) pairs that may be summoned into ``target``."""
    if state.summoned_this_phase or target.height >= MAX_HEIGHT:
        return []
    busy = set(state.engagement_lands())
    return [
        (lord, lg.marker)
        for lg in state.legions_of(target.owner)
        if lg.marker != target.marker and lg.land not in busy
        for lord in SUMMONABLE
        if lord in lg.contents
    ]


def offer(state: GameState, eng: Engagement) -> str | None:
    """What the winner may add at 2.5.6.5, if anything."""
    if eng.winner is None or eng.winner not in state.legions:
        return None
    winner = state.legions[eng.winner]
    if winner.marker == eng.attacker and eng.how != "flight":
        return "summon" if summon_sources(state, winner) else None
    if winner.marker == eng.defender and (eng.how == "agreement" or eng.reinforce_right):
        # 14.2: by agreement, or after a battle the attacker entered; not when he
        # conceded before entering.
        return "reinforce" if muster_options(state, winner) else None
    return None


def summon(state: GameState, cmd: Summon) -> list[ev.Event]:
    eng = _deciding(state, cmd.player, Step.SUMMON)
    target = state.legions[eng.attacker]
    sources = summon_sources(state, target)
    if (cmd.lord, cmd.source) not in sources:
        legal = ", ".join(f"{lord.lower()} from {m}" for lord, m in sources)
        raise RuleError(
            "E-SUMMON", f"you cannot summon {cmd.lord} from {cmd.source}; you may summon: {legal}"
        )
    return [ev.AngelSummoned(lord=cmd.lord, source=cmd.source, target=target.marker)]


def reinforce(state: GameState, cmd: Reinforce) -> list[ev.Event]:
    eng = _deciding(state, cmd.player, Step.REINFORCE)
    legion = state.legions[eng.defender]
    options = muster_options(state, legion)
    ways = [shown for c, shown in options if c == cmd.creature]
    if Counter(cmd.showing) - Counter(legion.contents):
        raise RuleError("E-REINFORCE", f"{legion.marker} does not hold {' '.join(cmd.showing)}")
    shown = (
        next((w for w in ways if not Counter(w) - Counter(cmd.showing)), None)
        if cmd.showing
        else (ways[0] if ways else None)
    )
    if shown is None:
        legal = ", ".join(sorted({c for c, _ in options}))
        raise RuleError(
            "E-REINFORCE",
            f"{legion.marker} cannot muster a {cmd.creature} here; it may muster: {legal}",
        )
    return [
        ev.CreatureMustered(
            marker=legion.marker,
            creature=cmd.creature,
            shown=cmd.showing or shown,
            reinforcement=True,
        )
    ]


def _deciding(state: GameState, player: str, step: Step) -> Engagement:
    if state.step is not step:
        raise RuleError(
            "E-NOT-NOW",
            f"no {step.value} decision is waiting; the game is in the {state.step.value} step",
        )
    eng = current(state)
    deciding = (
        eng.attacker_player
        if step is Step.SUMMON
        else (
            eng.defender_player
            if step is Step.REINFORCE
            else state.legions[state.acquiring or ""].owner
        )
    )
    if player != deciding:
        raise RuleError("E-NOT-YOUR-TURN", f"it is {deciding}'s decision")
    return eng


# -- 2.5.6.8: angels for points ----------------------------------------------------------


def angel_choices(state: GameState) -> list[str]:
    """
    17.0-17.3: an Angel, or an Archangel at a multiple of 500, if any are left.  Wolff
    17.0 lets the player take an Angel in place of the Archangel; without that option
    (1982 and 003 as written) the Angel is only for when no Archangel is left.  Under
    1982 17.4 read literally (``angel_and_muster_below_six`` off) a legion that has
    mustered this turn, a defender's reinforcement included, takes no angel.
    """
    legion = state.legions.get(state.acquiring or "")
    if not state.acquisitions or legion is None or legion.height >= MAX_HEIGHT:
        return []
    options = state.variant.options
    if legion.mustered and not options.angel_and_muster_below_six:
        return []
    multiple = state.acquisitions[0]
    kinds = ["Archangel", "Angel"] if multiple % 5 == 0 else ["Angel"]
    left = [k for k in kinds if state.caretaker.get(k, 0) > 0]
    if "Archangel" in left and not options.angel_in_place_of_archangel:
        return ["Archangel"]
    return left


def take_angel(state: GameState, cmd: TakeAngel) -> list[ev.Event]:
    _deciding(state, cmd.player, Step.ACQUIRE)
    choices = angel_choices(state)
    if cmd.lord not in choices:
        raise RuleError(
            "E-ANGEL", f"you may take: {', '.join(c.lower() for c in choices)}, or decline"
        )
    return [ev.AngelAcquired(marker=state.acquiring or "", lord=cmd.lord)]


def decline(state: GameState, player: str) -> list[ev.Event]:
    what = {Step.SUMMON: "summon", Step.REINFORCE: "reinforce", Step.ACQUIRE: "angel"}.get(
        state.step
    )
    if what is None:
        raise RuleError("E-DECLINE", "there is no reinforcement, summons or angel to decline now")
    _deciding(state, player, state.step)
    return [ev.Declined(player=player, what=what)]


# -- 2.5.6.9: Titan elimination ------------------------------------------------------------


def eliminations(state: GameState, eng: Engagement) -> list[ev.Event]:
    """
    19.3/19.4 and Wolff: remove the legions of players whose Titan died here.
    Half points go to the player each legion is engaged with, else to the
    slayer; rounding is once per player.  Two Titans slain: no slayer scores
    and no one takes markers.
    """
    dead = [p for p in eng.titans_slain if not state.player(p).eliminated]
    if not dead:
        return []
    owners_at: dict[int, set[str]] = {}
    for lg in state.legions.values():
        owners_at.setdefault(lg.land, set()).add(lg.owner)
    totals: dict[str, int] = {}
    out: list[ev.Event] = []
    for player in dead:
        opponent = eng.other(player)
        slayer = None if opponent in dead else opponent
        removed = state.legions_of(player)
        for lg in removed:
            others = owners_at[lg.land] - {player}
            to = next(iter(others)) if others else slayer
            if to is not None and to not in dead:
                totals[to] = totals.get(to, 0) + state.legion_value(lg.contents, player)
        out.append(
            ev.PlayerEliminated(
                player=player,
                slayer=slayer,
                legions=tuple((lg.marker, lg.contents) for lg in removed),
                half_points=(),
                markers_to=slayer,
            )
        )
    half = tuple(sorted((p, v // 2) for p, v in totals.items() if v // 2))
    last = out[-1]
    assert isinstance(last, ev.PlayerEliminated)
    out[-1] = ev.PlayerEliminated(
        player=last.player,
        slayer=last.slayer,
        legions=last.legions,
        half_points=half,
        markers_to=last.markers_to,
    )
    return out
