"""
The local play service: games in an event store, played order by order (the CLI's
``local`` commands), and whole robot games in memory (the CLI's ``play``).

Every order goes parse -> decide -> append: a line that cannot be read or is not
legal changes nothing, and the reply says why and what would be legal instead.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from moderator import robot
from moderator.orders import OrderError, Query, help_text, parse_order, render_order, split_lines
from moderator.reporting.narrate import describe, history_lines, is_bookkeeping, may_see
from moderator.reporting.views import (
    battle_text,
    legal_json,
    legal_orders,
    legion_json,
    marker_names,
    player_view,
    view_text,
)
from moderator.rules import battle as battle_rules
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.dice import ScriptedDice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import to_act
from moderator.rules.maneuver import contact_locked
from moderator.rules.positions import position_event
from moderator.rules.state import GameState, Step
from moderator.rules.variant import LABELS
from moderator.store import EventStore
from moderator.store.deadlines import DeadlineChange
from moderator.store.deadlines import apply as apply_deadline

if TYPE_CHECKING:
    from moderator.service.timing import TimeLimits

DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
#: How many order lines of "what is legal now" a rejection lists before cutting short.
LEGAL_HINT_LINES = 30


class GameError(Exception):
    """A local game cannot be created or played as asked (not a rejected order)."""


# -- dice ----------------------------------------------------------------------------------


class CountingDice:
    """
    Dice whose position survives between calls: a seeded ``random.Random`` that is
    fast-forwarded past the dice already rolled, or a fixed script.
    """

    def __init__(
        self, *, seed: int | None = None, script: Sequence[int] | None = None, rolled: int = 0
    ) -> None:
        if (seed is None) == (script is None):
            raise ValueError("give a dice seed or a dice script, not both or neither")
        self.seed = seed
        self.script = list(script) if script is not None else None
        self.rolled = rolled
        if self.script is not None:
            self._scripted: ScriptedDice | None = ScriptedDice(self.script[rolled:])
            self._rng: random.Random | None = None
        else:
            self._scripted = None
            self._rng = random.Random(seed)
            for _ in range(rolled):
                self._rng.randint(1, 6)

    @property
    def scripted(self) -> bool:
        return self.script is not None

    def roll(self, count: int = 1) -> tuple[int, ...]:
        if self._scripted is not None:
            values = self._scripted.roll(count)
        else:
            assert self._rng is not None
            values = tuple(self._rng.randint(1, 6) for _ in range(count))
        self.rolled += count
        return values

    def options(self) -> dict[str, Any]:
        """What the game options record about these dice."""
        if self.script is not None:
            return {"scripted_dice": True, "dice_script": self.script, "dice_rolled": self.rolled}
        return {"scripted_dice": False, "dice_seed": self.seed, "dice_rolled": self.rolled}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CountingDice:
        rolled = int(options.get("dice_rolled", 0))
        if options.get("scripted_dice"):
            return cls(script=[int(v) for v in options["dice_script"]], rolled=rolled)
        return cls(seed=int(options["dice_seed"]), rolled=rolled)


def read_dice_script(text: str) -> list[int]:
    """Whitespace-separated die values 1..6."""
    values: list[int] = []
    for word in text.split():
        if not word.isdigit() or not 1 <= int(word) <= 6:
            raise GameError(f"dice script: {word!r} is not a die value from 1 to 6")
        values.append(int(word))
    return values


# -- games in a store ------------------------------------------------------------------------


def new_game(
    store: EventStore,
    game_id: str,
    players: Sequence[str] | None,
    seed: int | None = None,
    script: Sequence[int] | None = None,
    position: Mapping[str, Any] | None = None,
    *,
    time_limits: TimeLimits | Mapping[str, Any] | None = None,
    ends_at: datetime | None = None,
) -> GameState:
    """
    Create a game: set up with tower rolls for ``players``, or restored from a
    ``position`` (its own players).  Dice: ``seed`` (random if neither is given) or a
    ``script`` of die values (marked in the options as scripted).

    ``time_limits`` (``moderator.service.timing.TimeLimits``, or its options) gives the
    game deadlines (Wolff 21.0): the first, for the player to act, starts now.
    ``ends_at`` is the game's end date (Wolff 21.1).  Without them the game has none.
    """
    if seed is not None and script is not None:
        raise GameError("give a dice seed or a dice script, not both")
    if script is None and seed is None:
        seed = secrets.randbelow(2**31)
    dice = CountingDice(seed=seed, script=script)
    try:
        if position is not None:
            events: list[ev.Event] = [position_event(position, scripted_dice=dice.scripted)]
        else:
            if not players:
                raise GameError("name the players (or give a position to start from)")
            events = setup.start_game(list(players), dice, scripted_dice=dice.scripted)
        events += advance(replay(events))
    except RuleError as exc:
        raise GameError(str(exc)) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"position file: cannot read it ({exc})") from exc
    except IndexError as exc:
        raise GameError(f"the dice script ran out while setting up ({exc})") from exc
    state = replay(events)
    options = {
        "players": [p.name for p in state.players],
        "from_position": position is not None,
        **dice.options(),
    }
    changes: list[DeadlineChange] = []
    if time_limits is not None or ends_at is not None:
        from moderator.service.clockwork import time_limit_options  # the service's clock

        options, changes = time_limit_options(state, options, store.clock(), time_limits, ends_at)
    with store.transaction() as tx:
        tx.create_game(game_id, {**options, "dice_rolled": 0})
        seq = tx.append(game_id, 0, events, options=options, state=state)
        for change in changes:
            apply_deadline(tx, game_id, change, seq)
    return state


def load(store: EventStore, game_id: str) -> tuple[list[ev.Event], GameState]:
    """Every event of the game and the state they lead to."""
    events = store.load(game_id)
    return events, replay(events)


def current_state(store: EventStore, game_id: str) -> GameState:
    """The game's state now (from its newest snapshot and the events after it)."""
    return store.load_state(game_id).state


def show(store: EventStore, game_id: str, viewer: str | None) -> dict[str, Any]:
    """``viewer``'s JSON view of the game."""
    return player_view(current_state(store, game_id), viewer)


def legal(store: EventStore, game_id: str) -> dict[str, Any]:
    return legal_json(current_state(store, game_id))


def history(
    store: EventStore,
    game_id: str,
    viewer: str | None,
    first_turn: int | None = None,
    last_turn: int | None = None,
) -> list[str]:
    return history_lines(store.load(game_id), viewer, first_turn, last_turn)


def waiting_line(state: GameState, player: str | None = None) -> str:
    """Who the game waits for, as one sentence."""
    if state.step is Step.OVER:
        return f"The game is over: {state.winner} wins." if state.winner else "The game is over."
    actor = to_act(state)
    step = f"{state.step.value} step"
    if state.battle is not None:
        step += f": {state.battle.step}"
    if actor is not None and actor == player:
        return f"Your turn ({step}); 'legal' lists your orders."
    return f"It is {actor}'s turn ({step})."


def legal_hint(state: GameState, player: str) -> str:
    """What ``player`` could order now: a compact list, or whose turn it is."""
    if state.step is Step.OVER:
        return "The game is over."
    actor = to_act(state)
    if actor != player:
        return f"It is {actor}'s turn ({state.step.value} step), not yours."
    lines = legal_orders(state, player)
    more = len(lines) - LEGAL_HINT_LINES
    shown = "; ".join(lines[:LEGAL_HINT_LINES])
    if more > 0:
        shown += f"; ... and {more} more ('legal' lists them all)"
    return f"Legal now: {shown}"


def answer_query(query: Query, events: Callable[[], list[ev.Event]], state: GameState) -> list[str]:
    """The reply to a query; ``events()`` gives the game's log (read only for ``history``)."""
    player = query.player
    match query.kind:
        case "status" | "report":
            return view_text(player_view(state, player), player).splitlines()
        case "help":
            return [help_text(query.topic)]
        case "history":
            return history_lines(events(), player, query.from_turn, query.to_turn) or [
                "Nothing has happened yet in those turns."
            ]
        case "legal":
            if to_act(state) != player:
                return [waiting_line(state, player)]
            return legal_orders(state, player)
        case "moves":
            marker = query.marker or ""
            moves = [
                a["order"]
                for a in legal_json(state)["actions"]
                if a["kind"] == "move" and a["legion"] == marker and to_act(state) == player
            ]
            return moves or [f"{marker} has no move to make now."]
        case "legion":
            marker = query.marker or ""
            legion = state.legions.get(marker)
            if legion is None:
                return [f"There is no legion {marker} on the board."]
            info = legion_json(legion, player)
            contents = (
                ", ".join(info["contents"])
                if info["contents"] is not None
                else "contents unknown to you"
            )
            name = marker_names().get(marker, "")
            where = f"{marker} ({name}), {info['owner']}'s, in {info['land']}"
            return [f"{where}, {info['height']} high: {contents}"]
        case "battle":
            text = battle_text(player_view(state, player), player)
            return text.splitlines() if text is not None else [NO_BATTLE]
        case "reach":
            return reach_lines(state, player, query.hex_label or "")
        case "strikes":
            return strike_lines(state, player)
    return [f"The {query.kind!r} query is not answered in local games yet."]


# -- battle queries ---------------------------------------------------------------------------

NO_BATTLE = "No battle is being fought."


def reach_lines(state: GameState, player: str, hex_label: str) -> list[str]:
    """
    The ``reach HEX`` query: where the character on ``hex_label`` may move in the
    maneuver going on now (``battle.destinations``), each with its order line for its
    owner; or why it may not move.
    """
    battle, eng = state.battle, state.engagement
    if battle is None or eng is None:
        return [NO_BATTLE]
    label = hex_label.upper()
    fighter = next((f for f in battle.fighters if f.hex == label and not f.slain), None)
    if fighter is None:
        return [f"There is no living character on {label}."]
    owner = battle_rules.player_of(eng, fighter.side)
    whose = "Your" if owner == player else f"{owner}'s"
    name = f"{whose} {fighter.creature} on {label}"
    if battle.step != "maneuver":
        return [f"{name} cannot move now: the battle is in its {battle.step} step."]
    if fighter.side != battle.phasing:
        mover = battle_rules.player_of(eng, battle.phasing)
        return [f"{name} cannot move now: it is {mover}'s maneuver."]
    if any(fid == fighter.id for fid, _ in battle.moved):
        return [f"{name} has already moved in this maneuver (11.0)."]
    hexes = sorted(battle_rules.destinations(battle, fighter), key=LABELS.index)
    if not hexes:
        land = battle_rules.land_of(battle)
        if contact_locked(land, fighter, battle.fighters):
            return [f"{name} cannot move: it is in contact with an enemy (11.3)."]
        return [f"{name} has nowhere to move."]
    lines = [f"{name} may move to: {', '.join(hexes)}."]
    if owner == player:
        lines += [
            "  " + render_order(cmd.Maneuver(player=player, to_hex=h, from_hex=label))
            for h in hexes
        ]
    return lines


def strike_lines(state: GameState, player: str) -> list[str]:
    """
    The ``strikes`` query: every legal strike and rangestrike of the player to act,
    with its strike number, dice and the hexes excess hits may carry to, one per line
    with its order line (in the carry step: the ways to carry the excess).
    """
    battle, eng = state.battle, state.engagement
    if battle is None or eng is None:
        return [NO_BATTLE]
    actor = to_act(state)
    whose = "Your" if actor == player else f"{actor}'s"
    legal = legal_json(state)["actions"]
    if battle.step == "carry":
        return [f"{whose} strike slew its target with hits to spare; carry them:"] + [
            f"  {a['order']}" for a in legal if a["kind"] == "carry"
        ]
    if battle.step not in ("strike", "counterstrike"):
        return [f"No strikes now: the battle is in its {battle.step} step ({actor} to act)."]
    strikes = [a for a in legal if a["kind"] in ("strike", "rangestrike")]
    phase = "strikes" if battle.step == "strike" else "counterstrikes"
    if not strikes:
        return [f"{whose} characters have no strike to make; 'done' ends the {phase}."]
    by_hex = {f.hex: f for f in battle.fighters if f.hex is not None}
    lines = [f"{whose} {phase}:"]
    for a in strikes:
        striker, target = by_hex[a["striker"]], by_hex[a["target"]]
        verb = "strikes" if a["kind"] == "strike" else "rangestrikes"
        extra = (
            f", carry to {', '.join(a['carry'])}"
            if a.get("carry")
            else f", via {' '.join(a['via'])}"
            if a.get("via")
            else ""
        )
        lines.append(
            f"  {striker.creature} ({a['striker']}) {verb} {target.creature} ({a['target']}): "
            f"needing {a['strike_number']} with {a['dice']} dice{extra} -- {a['order']}"
        )
    return lines


@dataclass
class OrderResult:
    """What a message of orders did: the reply, and the events and dice position to store."""

    reply: str
    ok: bool  # every order was accepted
    events: list[ev.Event]
    options: dict[str, Any]  # the game's options after the accepted orders
    state: GameState  # the state after them


# -- running order lines ---------------------------------------------------------------------

#: ``LineResult.outcome``: a query answered, an order carried out, a line refused.
ANSWERED, DONE, REFUSED = "answered", "done", "refused"

Answerer = Callable[[Query, Callable[[], list[ev.Event]], GameState], list[str]]


@dataclass(frozen=True, slots=True)
class LineResult:
    """
    What became of one order line: ``answered`` (a query; ``lines`` is the answer),
    ``done`` (an order; ``lines`` tells the events the player may see, ``events`` are
    all of them) or ``refused`` (``reason``, its stable ``code``, and ``hint``: what
    would be legal now).
    """

    line: str
    outcome: str
    lines: tuple[str, ...] = ()
    reason: str = ""
    code: str = ""
    hint: str = ""
    events: tuple[ev.Event, ...] = ()


@dataclass
class OrderRun:
    """The order lines of one message, run in turn (see ``run_orders``)."""

    results: list[LineResult]
    unprocessed: list[str]  # lines not run because an earlier one was refused
    events: list[ev.Event]
    options: dict[str, Any]
    state: GameState

    @property
    def ok(self) -> bool:
        return all(r.outcome != REFUSED for r in self.results)

    @property
    def refused(self) -> list[LineResult]:
        return [r for r in self.results if r.outcome == REFUSED]


def run_orders(
    state: GameState,
    options: Mapping[str, Any],
    player: str,
    lines: Sequence[str],
    history: Callable[[], list[ev.Event]],
    *,
    refuse_changes: tuple[str, str] | None = None,
    answer: Answerer | None = None,
) -> OrderRun:
    """
    ``player``'s order ``lines`` run in turn on ``state``, nothing stored: queries are
    answered (by ``answer``, default ``answer_query``), orders decided and applied.  The
    first line that cannot be read or is not legal stops the run; the lines after it are
    ``unprocessed``.  With ``refuse_changes`` = (code, reason) every order that would
    change the game is refused with that reason instead, queries are still answered, and
    nothing stops the run.
    """
    options = dict(options)
    dice = CountingDice.from_options(options)
    answer = answer or answer_query
    new_events: list[ev.Event] = []
    results: list[LineResult] = []
    for index, line in enumerate(lines):
        code = ""
        try:
            parsed = parse_order(line, player, state)
            if isinstance(parsed, Query):
                answered = answer(parsed, lambda: history() + new_events, state)
                results.append(LineResult(line, ANSWERED, tuple(answered)))
                continue
            if refuse_changes is not None:
                code, reason = refuse_changes
                results.append(LineResult(line, REFUSED, reason=reason, code=code))
                continue
            new = decide(state, parsed, dice)
        except (OrderError, RuleError) as exc:
            code, reason = exc.code, str(exc)
        except IndexError as exc:  # scripted dice ran out
            code, reason = "E-DICE", f"the dice script has run out ({exc})"
        else:
            options = {**options, **dice.options()}
            told: list[str] = []
            for event in new:
                if may_see(event, player) and not is_bookkeeping(event):
                    told.append(describe(event, state))
                state = evolve(state, event)
            new_events.extend(new)
            results.append(LineResult(line, DONE, tuple(told), events=tuple(new)))
            continue
        results.append(
            LineResult(line, REFUSED, reason=reason, code=code, hint=legal_hint(state, player))
        )
        if refuse_changes is None:
            return OrderRun(results, list(lines[index + 1 :]), new_events, options, state)
    return OrderRun(results, [], new_events, options, state)


def order(store: EventStore, game_id: str, player: str, text: str) -> tuple[str, bool]:
    """
    Carry out ``player``'s orders (one per line) and return the reply and whether every
    order was accepted.  Orders are carried out in turn; the first one that cannot be
    read or is not legal changes nothing, and the lines after it are not carried out.
    The whole message is one transaction: the events of the orders carried out are
    stored together, or (if anything fails) none of them.
    """
    with store.transaction() as tx:
        loaded = tx.load(game_id, lock=True)
        result = carry_out(
            game_id, loaded.state, loaded.options, player, text, lambda: tx.events(game_id)
        )
        if result.events:
            tx.append(
                game_id, loaded.seq, result.events, options=result.options, state=result.state
            )
    return result.reply, result.ok


def carry_out(
    game_id: str,
    state: GameState,
    options: Mapping[str, Any],
    player: str,
    text: str,
    history: Callable[[], list[ev.Event]],
) -> OrderResult:
    """
    The orders in ``text`` from ``player``, carried out on ``state`` without storing
    anything (``history()`` gives the game's stored events, for the ``history`` query).
    """
    if not state.has_player(player):
        names = ", ".join(p.name for p in state.players)
        reply = f"{player} is not playing in game {game_id} (players: {names})."
        return OrderResult(reply, False, [], dict(options), state)
    lines, ignored = split_lines(text)
    if not lines:
        reply = "There is no order in your message; 'help' lists the orders."
        return OrderResult(reply, False, [], dict(options), state)
    run = run_orders(state, options, player, lines, history)
    out: list[str] = []
    for result in run.results:
        out.append(f"> {result.line}")
        if result.outcome == ANSWERED:
            out.extend(result.lines)
        elif result.outcome == DONE:
            out.extend(f"  {told}" for told in result.lines)
        else:
            out.append(f"Rejected: {result.reason}")
            out.append(result.hint)
    if run.unprocessed:
        out.append(f"The {len(run.unprocessed)} order line(s) after it were not carried out.")
    if ignored:
        out.append(f"({len(ignored)} line(s) after the end of the orders were ignored.)")
    if run.ok:
        out.append(waiting_line(run.state, player))
    return OrderResult("\n".join(out), run.ok, run.events, run.options, run.state)


# -- robot games ------------------------------------------------------------------------------


@dataclass
class RobotGameSummary:
    players: list[str]
    seed: int
    winner: str | None
    turns: int
    actions: int
    scores: dict[str, int]
    eliminated: list[str]  # in the order they left the game
    seconds: float
    finished: bool
    events: list[ev.Event] = field(repr=False)
    state: GameState = field(repr=False)

    def text(self) -> str:
        lines = [
            f"Winner: {self.winner or 'nobody (a draw)'}"
            + ("" if self.finished else " - the game was stopped before its end"),
            f"Turns: {self.turns}, actions: {self.actions}, events: {len(self.events)}",
            "Final scores: "
            + ", ".join(
                f"{name} {score}"
                for name, score in sorted(self.scores.items(), key=lambda kv: -kv[1])
            ),
            "Eliminated, in order: " + (", ".join(self.eliminated) or "nobody"),
            f"Time taken: {self.seconds:.2f} s (dice seed {self.seed})",
        ]
        return "\n".join(lines)


def play_robot_game(
    players: int | Sequence[str] = 6,
    seed: int | None = None,
    progress: Callable[[GameState], None] | None = None,
    max_actions: int = 200_000,
) -> RobotGameSummary:
    """
    A whole game between robots, in memory.  ``progress(state)`` is called at the start
    of every turn (round) and once at the end.
    """
    names = list(DEFAULT_NAMES[:players]) if isinstance(players, int) else list(players)
    if seed is None:
        seed = secrets.randbelow(2**31)
    started = time.perf_counter()
    dice = CountingDice(seed=seed)
    rng = random.Random(f"robots:{seed}")
    events = setup.start_game(names, dice)
    state = replay(events)
    first = advance(state)
    events += first
    state = replay(first, state)
    eliminated: list[str] = []
    actions = 0
    shown_turn = 0
    while to_act(state) is not None and actions < max_actions:
        if progress is not None and state.turn != shown_turn and state.step is not Step.COLOUR:
            shown_turn = state.turn
            progress(state)
        _line, command = robot.choose_order(state, rng)
        new = decide(state, command, dice)
        actions += 1
        for event in new:
            state = evolve(state, event)
            if isinstance(event, ev.PlayerEliminated | ev.PlayerWithdrew):
                eliminated.append(event.player)
        events.extend(new)
    if progress is not None:
        progress(state)
    return RobotGameSummary(
        players=names,
        seed=seed,
        winner=state.winner,
        turns=state.turn,
        actions=actions,
        scores={p.name: p.score for p in state.players},
        eliminated=eliminated,
        seconds=time.perf_counter() - started,
        finished=state.step is Step.OVER,
        events=events,
        state=state,
    )


__all__ = [
    "ANSWERED",
    "DEFAULT_NAMES",
    "DONE",
    "REFUSED",
    "CountingDice",
    "GameError",
    "LineResult",
    "OrderResult",
    "OrderRun",
    "RobotGameSummary",
    "answer_query",
    "carry_out",
    "current_state",
    "history",
    "legal",
    "legal_hint",
    "load",
    "new_game",
    "order",
    "play_robot_game",
    "read_dice_script",
    "run_orders",
    "show",
    "waiting_line",
]
