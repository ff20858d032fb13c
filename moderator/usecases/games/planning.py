"""
Games planned (set up with tower rolls, or from a position) for a runner to create.
A game is read back (a player's view, legal orders, history) by ``reads``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from moderator.ports import DeadlineChange, GameWrite
from moderator.ports.deadlines import with_time_limits
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance
from moderator.rules.errors import RuleError
from moderator.rules.evolve import replay
from moderator.rules.lateness import WOLFF
from moderator.rules.positions import position_event
from moderator.rules.state import GameState
from moderator.rules.variant import STANDARD
from moderator.schedule.record import GameRecord
from moderator.usecases.games.dice import BoundDice, CountingDice, new_seed, sealed_start
from moderator.usecases.games.errors import GameError

if TYPE_CHECKING:
    from moderator.schedule.timing import TimeLimits



def plan_game(
    game_id: str,
    players: Sequence[str] | None,
    seed: int | None,
    script: Sequence[int] | None,
    position: Mapping[str, Any] | None,
    now: datetime,
    time_limits: TimeLimits | None = None,
    ends_at: datetime | None = None,
    seats: Sequence[tuple[str, str]] = (),
    bound: bool = False,
    *,
    insecure_seed: bool = False,
    variant: str = STANDARD,
) -> tuple[GameWrite, GameState]:
    """
    A new game, decided and not yet written: set up with tower rolls for ``players``,
    or restored from a ``position`` (its own players, colours and towers; ``players``,
    if given too, must name the same players), with ``seats`` ((seat, address) pairs)
    taken; ``bound``: its dice are bound to the mails that ask for them (``play.dice``,
    a game by mail).  Dice: ``seed`` (random if neither is given) or a ``script`` of die
    values (marked in the game's record as scripted).

    A game by mail draws a secret 256-bit seed: a seed somebody chose can be guessed
    from the hash and the commitments every player is sent, and then every hidden
    legion opened and every die foretold.  It takes a ``seed`` only with
    ``insecure_seed`` (tests and demos that must replay), and its record then says its
    dice are not secret, which every report repeats.

    ``time_limits`` gives the game deadlines (Wolff 21.0): the first, for the player to
    act, starts ``now``.  ``ends_at`` is the game's end date (Wolff 21.1).  Without them
    the game has none.  ``variant`` names the game set up (a position names its own).

    Raises:
        GameError: the players, the position or the dice script cannot make a game.
    """
    if seed is not None and script is not None:
        raise GameError("give a dice seed or a dice script, not both")
    if bound and seed is not None and not insecure_seed:
        raise GameError(
            "a game by mail draws its own secret dice seed: from a seed that was chosen, "
            "the hash and commitments in the reports let any player find it, open every "
            "hidden legion and foretell the dice.  Leave the seed out, or, for a test game "
            "only, ask for an insecure seed explicitly (the reports then say so)"
        )
    insecure = bound and seed is not None  # checked above: asked for explicitly
    if script is None and seed is None:
        seed = new_seed() if bound else secrets.randbelow(2**31)
    dice: CountingDice = CountingDice(seed=seed, script=script)
    if bound and script is None:  # a game by mail: its dice bound to what asks for them
        dice = BoundDice(seed=seed or 0, game=game_id, trigger="start")
        dice.at(1)
    try:
        if position is not None:
            loaded = position_event(position, scripted_dice=dice.scripted)
            if variant not in (STANDARD, loaded.variant):
                raise GameError(f"the position file is of the {loaded.variant} game, not {variant}")
            _check_same_players(players, loaded)
            events: list[ev.Event] = [loaded]
        else:
            if not players:
                raise GameError("name the players (or give a position to start from)")
            events = setup.start_game(
                list(players), dice, scripted_dice=dice.scripted, variant=variant
            )
        events += advance(replay(events))
    except RuleError as exc:
        raise GameError(str(exc)) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"position file: cannot read it ({exc})") from exc
    except IndexError as exc:
        raise GameError(f"the dice script ran out while setting up ({exc})") from exc
    record = GameRecord(
        players=tuple(p.name for p in replay(events).players),
        from_position=position is not None,
        dice=dice.record(),
        insecure_dice=insecure,
        variant=replay(events).variant_name,
    )
    lateness = time_limits.lateness if time_limits is not None else WOLFF
    events, record = sealed_start(events, dice, record, lateness)
    state = replay(events)
    changes: list[DeadlineChange] = []
    if time_limits is not None or ends_at is not None:
        record, changes = with_time_limits(state, record, now, time_limits, ends_at)
    planned = GameWrite(
        game_id,
        0,
        tuple(events),
        record=record,
        state=state,
        deadlines=tuple(changes),
        create=True,
        seats=tuple(seats),
    )
    return planned, state


def _check_same_players(players: Sequence[str] | None, loaded: ev.PositionLoaded) -> None:
    """
    A position file says who plays, with colours and towers; names given beside it may
    only repeat them (in any order), so a caller never believes other players are seated.
    """
    if not players:
        return
    named = sorted(players)
    listed = sorted(p[0] for p in loaded.players)
    if named != listed:
        raise GameError(
            f"the players named ({', '.join(named)}) are not the position file's "
            f"({', '.join(listed)}): a restored game is played by the players, colours and "
            "towers its file gives, so leave the names out or name the same players"
        )
