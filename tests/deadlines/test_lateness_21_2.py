"""
Rulebook 21.2 as a game's lateness policy (``TimeLimits(lateness="21.2")``), through the
clock: at a movement deadline the dice draw one of the late player's legions and one of
its legal moves, the draw is an event with its dice, and the audit bundle, re-deciding
every order from the seed, agrees; at a battle maneuver deadline the characters not yet
on the battleland are eliminated.  Wolff 20.4's refusal stays the default (test_timeouts).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from moderator.audit.bundle import make_bundle
from moderator.audit.verify import verify
from moderator.rules import events as ev
from moderator.rules.lateness import RANDOM_MOVE
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.schedule import timing
from moderator.schedule.limits import TimeLimits

from .conftest import Desk, position, to
from .test_timeouts import THREE, _battle, _time_out

LATE = TimeLimits(lateness="21.2")


def _board(make_desk: Callable[..., Desk], phase: str = "move", lateness: str = "21.2") -> Desk:
    """Ann (Red) at 34 and 35, Bob and Cy in their towers, at ``phase``, under ``lateness``."""
    return make_desk(
        position=position(
            [
                ("Rd01", 34, "Titan Angel Ogre Lion"),
                ("Rd02", 35, "Troll Troll"),
                ("Bu01", 300, "Titan Ogre"),
                ("Gr01", 100, "Titan Ogre"),
            ],
            players=THREE,
            phase=phase,
        ),
        limits=TimeLimits(lateness=lateness),
        bound=True,
    )


def _audit(desk: Desk) -> None:
    """The whole game's audit bundle verifies: every die re-derived, every order re-decided."""
    events = desk.store.load(desk.game_id)
    seed = desk.table.record.dice.seed
    assert seed is not None
    bundle = make_bundle(desk.game_id, seed, events, "2026-11-26T00:00:00+00:00", None)
    verdict = verify(bundle)
    assert verdict.ok, verdict.problem


@pytest.mark.parametrize("phase", ["move", "split"])
def test_21_2_timeout_in_movement_moves_a_legion_drawn_by_the_dice(
    make_desk: Callable[..., Desk], phase: str
) -> None:
    """21.2: a mover late with his movement has a legion drawn and moved; the draw's dice are recorded and audited."""
    desk = _board(make_desk, phase)
    row = desk.acting()
    assert row is not None and (row.player, row.kind) == ("Ann", timing.TURN)
    lines, events = _time_out(desk)
    if phase == "split":  # the roll is made for him first
        assert any(isinstance(e, ev.MovementRolled) and e.player == "Ann" for e in events)
    (drawn,) = [e for e in events if isinstance(e, ev.LateMoveDrawn)]
    assert drawn.player == "Ann" and drawn.marker in ("Rd01", "Rd02") and drawn.rolls
    moved = [e for e in events if isinstance(e, ev.LegionMoved)]
    assert [(m.marker, m.to_land) for m in moved] == [(drawn.marker, drawn.land)]
    assert any(isinstance(e, ev.MovementEnded) for e in events)
    assert not any(isinstance(e, ev.PlayerWithdrew) for e in events)
    seals = [e for e in events if isinstance(e, ev.OrderSealed)]
    assert [s.order for s in seals if s.order == RANDOM_MOVE] == [RANDOM_MOVE]
    assert all(s.trigger.startswith("timeout-21.2:") for s in seals)
    assert "(drawn by the dice, rulebook 21.2)" in lines[0]
    state = desk.table.state
    assert to_act(state) == "Ann" and state.step in (Step.ENGAGE, Step.MUSTER)
    mails = desk.mails()
    for name in THREE:  # everybody is told what the dice gave for Ann
        (notice,) = [m for m in to(mails, name) if "deadline passed" in m.subject]
        assert "drawn by the dice" in notice.body
    _audit(desk)


def test_21_2_timeout_keeps_the_moves_made_in_time(make_desk: Callable[..., Desk]) -> None:
    """21.2: a mover who moved a legion in time keeps it; nothing is drawn and his movement ends."""
    desk = _board(make_desk)
    assert desk.orders("Ann", "move Rd02 to 36").note is None
    lines, events = _time_out(desk)
    assert lines[0].endswith("given for him: done")
    assert not any(isinstance(e, ev.LateMoveDrawn | ev.MoveUndone) for e in events)
    assert desk.table.state.legions["Rd02"].land == 36
    _audit(desk)


def test_21_2_timeout_in_a_maneuver_eliminates_the_characters_not_on_the_battleland(
    make_desk: Callable[..., Desk],
) -> None:
    """21.2: at a maneuver deadline, the moves made stand and characters not brought on are eliminated."""
    desk = make_desk(
        position=_battle(
            "maneuver",
            "defender",
            [
                {"legion": "Rd01", "type": "ogre", "hex": "D1"},
                {"legion": "Bu01", "type": "centaur", "hex": "D6"},
            ],
        ),
        limits=LATE,
        bound=True,
    )
    assert desk.orders("Bob", "move D6 to D4").note is None
    lines, events = _time_out(desk)
    assert lines[0].endswith("given for him: done")
    assert not any(isinstance(e, ev.ConcessionAttempted | ev.ManeuverReset) for e in events)
    battle = desk.table.state.battle
    assert battle is not None
    (centaur,) = [f for f in battle.fighters if f.side == "defender"]
    assert centaur.hex == "D4" and not centaur.slain
    _audit(desk)


def test_21_2_timeout_of_a_first_maneuver_leaves_unentered_characters_slain(
    make_desk: Callable[..., Desk],
) -> None:
    """21.2/10.1: characters still off the battleland when the first maneuver's time runs out are eliminated."""
    desk = make_desk(
        position=position(
            [
                ("Rd01", 1, "Ogre Ogre", True),
                ("Bu01", 1, "Centaur Centaur"),
                ("Rd02", 600, "Titan"),
                ("Bu02", 300, "Titan"),
            ],
            phase="engage",
            roll=3,
            turn=4,
        ),
        limits=LATE,
        bound=True,
    )
    for name, line in (("Ann", "engage 1"), ("Bob", "no more proposals"), ("Ann", "fight")):
        assert desk.orders(name, line).note is None
    while (row := desk.acting()) is not None and row.player == "Ann":
        assert desk.orders("Ann", "proceed").note is None
    assert desk.orders("Bob", "proceed").note is None
    state = desk.table.state
    assert state.battle is not None and state.battle.step == "maneuver" and to_act(state) == "Bob"
    assert desk.orders("Bob", "move centaur to F4").note is None
    _lines, events = _time_out(desk)
    assert any(isinstance(e, ev.FightersLeftOff) for e in events)
    battle = desk.table.state.battle
    assert battle is not None
    slain = [f for f in battle.fighters if f.side == "defender" and f.slain]
    assert len(slain) == 1 and slain[0].hex is None
    _audit(desk)


def test_21_2_a_game_under_wolff_never_draws_a_move(make_desk: Callable[..., Desk]) -> None:
    """The default lateness stays Wolff 20.4: the same late mover withdraws, and the trigger says 'timeout:'."""
    desk = make_desk(
        position=position(
            [("Rd01", 34, "Titan Angel Ogre Lion"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan")],
            players=THREE,
        ),
        bound=True,
    )
    _lines, events = _time_out(desk)
    assert any(isinstance(e, ev.PlayerWithdrew) for e in events)
    assert not any(isinstance(e, ev.LateMoveDrawn) for e in events)
    seals = [e for e in events if isinstance(e, ev.OrderSealed)]
    assert seals and all(s.trigger.startswith("timeout:") for s in seals)


def test_21_2_the_setting_reads_and_names_its_choices() -> None:
    """The game's setting: lateness=wolff|21.2, kept in the record's time limits; a wrong value names the choices."""
    assert TimeLimits.parse(["lateness=21.2"]).lateness == "21.2"
    assert TimeLimits.parse([]).lateness == "wolff"
    assert TimeLimits.from_json(LATE.to_json()) == LATE
    assert "lateness" not in TimeLimits().to_json()  # older records read the same
    with pytest.raises(ValueError, match="lateness=wolff .* or lateness=21.2"):
        TimeLimits.parse(["lateness=soon"])
