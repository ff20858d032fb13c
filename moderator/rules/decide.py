"""
``decide(state, command, dice)``: check a command and return its events.

The command's own events come first, then whatever follows automatically
until a player must act again (the next step of the Complete Sequence of
Play: scoring, eliminations, the next turn, the end of the game).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moderator.rules import battle, exposure, setup, timelimit, turn
from moderator.rules import commands as cmd
from moderator.rules import engagement as eng_rules
from moderator.rules import events as ev
from moderator.rules.battlefield import ATTACKER
from moderator.rules.dice import Dice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve
from moderator.rules.muster import MAX_HEIGHT
from moderator.rules.state import GameState, Step

_Handler = Callable[[GameState, Any, Dice], list[ev.Event]]


def decide(state: GameState, command: cmd.Command, dice: Dice) -> tuple[ev.Event, ...]:
    """
    Check ``command`` against ``state``.

    Raises:
        RuleError: the command is not legal now; the state is untouched.
    """
    if state.step is Step.OVER:
        raise RuleError("E-GAME-OVER", "the game is over; 'history' gives its record")
    if not state.has_player(command.player):
        raise RuleError("E-NOT-PLAYING", f"{command.player} is not playing in this game")
    if state.player(command.player).eliminated:
        raise RuleError("E-ELIMINATED", f"{command.player} is out of this game")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        msg = f"no rule handles {type(command).__name__}"
        raise TypeError(msg)
    events = handler(state, command, dice)
    for e in events:
        state = evolve(state, e)
    return tuple(events) + tuple(advance(state))


def apply(
    state: GameState, command: cmd.Command, dice: Dice
) -> tuple[GameState, tuple[ev.Event, ...]]:
    """``decide`` and fold in one go: the new state and the events that made it."""
    events = decide(state, command, dice)
    for e in events:
        state = evolve(state, e)
    return state, events


def advance(state: GameState) -> list[ev.Event]:
    """The automatic events that follow ``state`` until somebody must act."""
    out: list[ev.Event] = []
    while (step := _next_automatic(state)) is not None:
        for e in step:
            state = evolve(state, e)
        out.extend(step)
    return out


def _next_automatic(state: GameState) -> list[ev.Event] | None:
    if state.step is Step.OVER:
        return None
    eng = state.engagement
    if state.battle is not None:
        if state.battle.step == "ended":
            return [battle.resolve(state)]
        return battle.next_events(state)
    if eng is not None and eng.resolved:
        return _after_engagement(state)
    started = all(p.tower for p in state.players)
    if started and len(state.live_players) <= 1 and state.players:
        return [_game_over(state)]
    if state.step is Step.COLOUR:
        if not started or setup.colour_chooser(state) is not None:
            return None
        return [
            *setup.initial_legions(state),
            ev.TurnStarted(player=setup.first_mover(state), turn=1),
        ]
    if state.active is not None and state.player(state.active).eliminated and eng is None:
        return following_turn(state)
    return None


def _after_engagement(state: GameState) -> list[ev.Event] | None:
    """2.5.6.5-2.5.6.10 for an engagement that has just been resolved."""
    eng = state.engagement
    assert eng is not None
    if state.step in (Step.SUMMON, Step.REINFORCE, Step.ACQUIRE):
        return None
    if not eng.option_done and (what := eng_rules.offer(state, eng)) is not None:
        who = eng.attacker_player if what == "summon" else eng.defender_player
        return [ev.DecisionAwaited(player=who, what=what)]
    if not eng.scored and eng.winner is not None and eng.points > 0:
        winner = state.legions[eng.winner].owner
        before = state.player(winner).score
        multiples = tuple(range(before // 100 + 1, (before + eng.points) // 100 + 1))
        return [ev.PointsScored(player=winner, points=eng.points, multiples=multiples)]
    if state.acquisitions:
        owner = eng.attacker_player if state.acquiring == eng.attacker else eng.defender_player
        if eng_rules.angel_choices(state):
            return [ev.DecisionAwaited(player=owner, what="angel")]
        legion = state.legions.get(state.acquiring or "")
        reason = "none left in the caretaker's stacks"
        if legion is None:
            reason = "the legion that earned it is gone"
        elif legion.height >= MAX_HEIGHT:
            reason = "the legion is seven high (17.1)"
        elif legion.mustered and not state.variant.options.angel_and_muster_below_six:
            reason = "the legion has mustered this turn (17.4: the angel or the creature)"
        return [ev.Declined(player=owner, what="angel", reason=reason)]
    eliminated = eng_rules.eliminations(state, eng)
    if eliminated:
        return eliminated
    return [ev.EngagementEnded(land=eng.land)]


def _game_over(state: GameState) -> ev.GameOver:
    live = state.live_players
    winner = live[0].name if len(live) == 1 else None
    legions = tuple((lg.marker, lg.contents) for lg in state.legions_of(winner)) if winner else ()
    return ev.GameOver(winner=winner, legions=legions)


def following_turn(state: GameState) -> list[ev.Event]:
    """
    What follows the end of the current turn: the next player's turn, or, once the
    last turn a time limit allows is over (Wolff 21.1), the final score (20.5).
    """
    upcoming = next_turn(state)
    if timelimit.time_is_up(state, upcoming):
        return [timelimit.final_scores(state)]
    return [upcoming]


def next_turn(state: GameState) -> ev.TurnStarted:
    """2: turns pass in descending tower order; the round number grows on wrapping."""
    names = [p.name for p in state.players]
    here = names.index(state.active) if state.active in names else -1
    for offset in range(1, len(names) + 1):
        index = (here + offset) % len(names)
        if not state.players[index].eliminated:
            wrapped = index <= here
            return ev.TurnStarted(player=names[index], turn=state.turn + (1 if wrapped else 0))
    msg = "no player is left to take a turn"
    raise RuntimeError(msg)


# -- handlers -------------------------------------------------------------------------


def _colour(state: GameState, c: cmd.ChooseColour, dice: Dice) -> list[ev.Event]:
    _check_chooser(state, c.player)
    return setup.choose_colour(state, c)


def _check_chooser(state: GameState, player: str) -> None:
    if state.step is not Step.COLOUR:
        raise RuleError("E-NOT-NOW", "colours have all been chosen")
    chooser = setup.colour_chooser(state)
    if chooser != player:
        raise RuleError(
            "E-NOT-YOUR-TURN",
            f"{chooser} chooses a colour first (ascending tower order, Wolff 5.0)",
        )


def _withdraw(state: GameState, c: cmd.Withdraw, dice: Dice) -> list[ev.Event]:
    """
    20.4/Wolff 20.4 and 5.0: at colour choice, or in one's own split, move or muster
    step; his legions are set aside with the slain and nobody scores.
    """
    if state.step is Step.COLOUR:
        _check_chooser(state, c.player)
    elif state.step in (Step.SPLIT, Step.MOVE, Step.MUSTER) and state.active == c.player:
        pass
    else:
        raise RuleError(
            "E-WITHDRAW",
            "you may withdraw only when choosing your colour or in your own turn's "
            "split, movement or muster step, never during engagements (Wolff 20.4)",
        )
    legions = tuple((lg.marker, lg.contents) for lg in state.legions_of(c.player))
    # Wolff 20.4: part way through his movement, all of the partial movement is undone
    # first (one undo of the first move undoes every later one, Wolff 7.0).
    undone: list[ev.Event] = []
    if state.step is Step.MOVE and state.moves:
        undone = turn.undo(state, cmd.UndoMove(player=c.player, marker=state.moves[0].marker))
    return [*undone, ev.PlayerWithdrew(player=c.player, legions=legions)]


def _split(state: GameState, c: cmd.Split, dice: Dice) -> list[ev.Event]:
    turn.check_step(state, c.player, Step.SPLIT)
    return turn.split(state, c)


def _roll(state: GameState, c: cmd.Roll, dice: Dice) -> list[ev.Event]:
    turn.check_step(state, c.player, Step.SPLIT)
    turn.check_may_roll(state, c.player)
    return [ev.MovementRolled(player=c.player, roll=dice.roll(1)[0])]


def _mulligan(state: GameState, c: cmd.Mulligan, dice: Dice) -> list[ev.Event]:
    """7.6/Wolff 7.6: once, on the first turn, before any legion moves."""
    turn.check_step(state, c.player, Step.MOVE)
    if not state.variant.options.first_move_mulligan:
        raise RuleError("E-MULLIGAN", "this game has no mulligan (the 1980 rules)")
    if not turn.is_first_turn(state, c.player) or state.mulligan_used:
        raise RuleError(
            "E-MULLIGAN", "the mulligan is only for your very first movement roll, once (7.6)"
        )
    if state.moves:
        raise RuleError("E-MULLIGAN", "undo your moves before you use the mulligan")
    return [ev.MovementRolled(player=c.player, roll=dice.roll(1)[0], mulligan=True)]


def _move(state: GameState, c: cmd.MoveLegion, dice: Dice) -> list[ev.Event]:
    turn.check_step(state, c.player, Step.MOVE)
    return turn.move(state, c, dice)


def _undo(state: GameState, c: cmd.UndoMove, dice: Dice) -> list[ev.Event]:
    turn.check_step(state, c.player, Step.MOVE)
    return turn.undo(state, c)


def _done(state: GameState, c: cmd.Done, dice: Dice) -> list[ev.Event]:
    if c.keep and (_in_battle(state) or state.step is not Step.MOVE):
        raise RuleError(
            "E-RECOMBINE-MARKER",
            "'keeping' names the marker kept when split-offs recombine at the end of your "
            "movement (Wolff 4.7); here write plain 'done'",
        )
    if _in_battle(state):
        return _battle_done(state, c)
    turn.check_step(state, c.player, Step.MOVE, Step.MUSTER)
    if state.step is Step.MOVE:
        return turn.end_movement(state, c)
    ended = turn.end_turn(state, c)
    after = state
    for e in ended:
        after = evolve(after, e)
    return [*ended, *following_turn(after)]


def _engage(state: GameState, c: cmd.Engage, dice: Dice) -> list[ev.Event]:
    turn.check_step(state, c.player, Step.ENGAGE)
    return eng_rules.engage(state, c)


def _in_battle(state: GameState) -> bool:
    return state.battle is not None


def _concede(state: GameState, c: cmd.Concede, dice: Dice) -> list[ev.Event]:
    if _in_battle(state):
        return battle.concede(state, c.player)
    return eng_rules.concede(state, c.player)


def _summon(state: GameState, c: cmd.Summon, dice: Dice) -> list[ev.Event]:
    if not _in_battle(state):
        return eng_rules.summon(state, c)
    _, eng, side = battle.check_actor(state, c.player, "maneuver")
    if not battle.may_summon(state) or side != ATTACKER:
        raise RuleError(
            "E-SUMMON",
            "an angel may be summoned only in your first maneuver after the first "
            "defending character that entered is slain, into a legion of fewer than seven (15.0)",
        )
    target = state.legions[eng.attacker]
    sources = eng_rules.summon_sources(state, target)
    if (c.lord, c.source) not in sources:
        legal = ", ".join(f"{lord.lower()} from {m}" for lord, m in sources) or "nothing"
        raise RuleError(
            "E-SUMMON", f"you cannot summon {c.lord} from {c.source}; you may summon: {legal}"
        )
    return [
        ev.AngelSummoned(lord=c.lord, source=c.source, target=target.marker),
    ]


def _reinforce(state: GameState, c: cmd.Reinforce, dice: Dice) -> list[ev.Event]:
    if _in_battle(state):
        return battle.reinforce(state, c)
    return eng_rules.reinforce(state, c)


def _battle_done(state: GameState, c: cmd.Done) -> list[ev.Event]:
    assert state.battle is not None
    if state.battle.step == "maneuver":
        return battle.end_maneuver(state, c.player)
    return battle.end_strikes(state, c.player)


def _muster(state: GameState, c: cmd.Muster, dice: Dice) -> list[ev.Event]:
    turn.check_step(state, c.player, Step.MUSTER)
    return turn.muster(state, c)


_HANDLERS: dict[type[cmd.Command], _Handler] = {
    cmd.ChooseColour: _colour,
    cmd.Withdraw: _withdraw,
    cmd.Split: _split,
    cmd.Roll: _roll,
    cmd.Mulligan: _mulligan,
    cmd.MoveLegion: _move,
    cmd.UndoMove: _undo,
    cmd.Done: _done,
    cmd.Engage: _engage,
    cmd.Flee: lambda s, c, d: eng_rules.flee(s, c.player),
    cmd.Propose: lambda s, c, d: eng_rules.propose(s, c),
    cmd.Accept: lambda s, c, d: eng_rules.accept(s, c),
    cmd.NoMore: lambda s, c, d: eng_rules.no_more(s, c.player),
    cmd.Concede: _concede,
    cmd.Fight: lambda s, c, d: eng_rules.fight(s, c.player, d),
    cmd.Summon: _summon,
    cmd.Reinforce: _reinforce,
    cmd.TakeAngel: lambda s, c, d: eng_rules.take_angel(s, c),
    cmd.Decline: lambda s, c, d: eng_rules.decline(s, c.player),
    cmd.Muster: _muster,
    cmd.Maneuver: lambda s, c, d: battle.maneuver(s, c),
    cmd.ResetManeuver: lambda s, c, d: battle.reset(s, c.player),
    cmd.Proceed: lambda s, c, d: battle.proceed(s, c.player),
    cmd.AcceptConcession: lambda s, c, d: battle.accept_concession(s, c.player),
    cmd.Strike: lambda s, c, d: battle.strike(s, c, d),
    cmd.Rangestrike: lambda s, c, d: battle.rangestrike(s, c, d),
    cmd.Carry: lambda s, c, d: battle.carry(s, c),
    cmd.ShowLegion: lambda s, c, d: exposure.show(s, c),
    cmd.Tell: lambda s, c, d: exposure.tell(s, c),
}
