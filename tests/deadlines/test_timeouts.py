"""
Timeouts (Wolff 21.0): a player who has not acted by his deadline is treated as refusing
to continue the game (Wolff 20.4), in every kind of step; everybody is told what was
given for him, the reports follow and the next deadline starts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.schedule import timing
from moderator.store import EventStore
from moderator.testing.stores import open_store

from .conftest import Desk, hours, position, to

THREE = ("Ann", "Bob", "Cy")


def _events_since(desk: Desk, seq: int) -> list[ev.Event]:
    return desk.store.load(desk.game_id)[seq:]


def _time_out(desk: Desk) -> tuple[list[str], list[ev.Event]]:
    """Move the clock to the acting deadline and run the check; (log lines, new events)."""
    row = desk.acting()
    assert row is not None
    seq = desk.table.state.version
    desk.at(row.due_at - hours(0.01))  # reminders may go out first
    desk.mails()
    lines = desk.at(row.due_at)
    return lines, _events_since(desk, seq)


def _notices(desk: Desk, names: Sequence[str]) -> dict[str, Any]:
    mails = desk.mails()
    out = {}
    for name in names:
        (notice,) = [m for m in to(mails, name) if "deadline passed" in m.subject]
        assert to(mails, name, "report"), f"{name} got no report"
        out[name] = notice
    return out


@pytest.mark.parametrize("phase", ["split", "muster"])
def test_wolff_20_4_timeout_in_ones_turn_withdraws(
    make_desk: Callable[..., Desk], phase: str
) -> None:
    """Wolff 20.4: withdrawal from the game is the first refusal, whenever it is legal."""
    desk = make_desk(
        position=position(
            [("Rd01", 600, "Titan Ogre"), ("Bu01", 300, "Titan Ogre"), ("Gr01", 100, "Titan")],
            players=THREE,
            phase=phase,
        )
    )
    row = desk.acting()
    assert row is not None and row.player == "Ann"
    assert row.kind == (timing.TURN if phase == "split" else timing.MUSTER)
    lines, events = _time_out(desk)
    assert lines == [
        f"g1: Ann did not act by {row.due_at.isoformat()} ({row.kind}); given for him: withdraw"
    ]
    assert any(isinstance(e, ev.PlayerWithdrew) and e.player == "Ann" for e in events)
    told = _notices(desk, THREE)
    assert "gave for you:\n  withdraw" in told["Ann"].body
    assert "treated Ann\nas refusing" in told["Bob"].body and "withdraw" in told["Bob"].body
    nxt = desk.acting()
    assert nxt is not None and nxt.player == "Bob" and nxt.kind == timing.TURN
    assert nxt.due_at == desk.clock.now() + hours(72)
    assert "It is now your move" in told["Bob"].body


def test_wolff_20_4_timeout_part_way_through_movement_undoes_it_and_withdraws(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(
        position=position(
            [
                ("Rd01", 34, "Titan Angel Ogre Lion"),
                ("Rd02", 35, "Troll Troll"),
                ("Bu01", 300, "Titan Ogre"),
                ("Gr01", 100, "Titan Ogre"),
            ],
            players=THREE,
        )
    )
    sent = desk.orders("Ann", "move Rd02 to 36")
    assert sent.note is None
    _lines, events = _time_out(desk)
    assert events[:2] == [
        ev.MoveUndone(marker="Rd02", back_to=35),
        ev.PlayerWithdrew(
            player="Ann",
            legions=(("Rd01", ("Angel", "Lion", "Ogre", "Titan")), ("Rd02", ("Troll", "Troll"))),
        ),
    ]
    assert to_act(desk.table.state) == "Bob"


def _engaged(defender: str, others: Sequence[tuple[str, int, str]] = ()) -> dict[str, Any]:
    return position(
        [
            ("Rd01", 3, "Troll Troll", True),
            ("Rd02", 36, "Ogre Ogre", True),
            ("Rd03", 600, "Titan Angel"),
            ("Bu02", 3, defender),
            ("Bu03", 36, "Lion Lion"),
            *others,
        ],
        phase="engage",
    )


def test_wolff_20_4_timeout_in_the_choice_of_engagement_takes_the_lowest_land(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(position=_engaged("Lion Ogre", [("Bu01", 300, "Titan Ogre")]))
    row = desk.acting()
    assert row is not None and (row.player, row.kind) == ("Ann", timing.ENGAGEMENT)
    lines, events = _time_out(desk)
    assert "given for him: engage 3" in lines[0]
    assert ev.EngagementStarted in {type(e) for e in events}
    state = desk.table.state
    assert state.engagement is not None and state.engagement.land == 3
    told = _notices(desk, ("Ann", "Bob"))
    assert "engage 3" in told["Bob"].body
    nxt = desk.acting()  # the defender negotiates next: his own deadline
    assert nxt is not None and (nxt.player, nxt.kind) == ("Bob", timing.ENGAGEMENT)


def test_wolff_20_4_timeout_in_negotiation_flees_if_the_defender_may(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(position=_engaged("Lion Ogre", [("Bu01", 300, "Titan Ogre")]))
    desk.orders("Ann", "engage 3")
    lines, events = _time_out(desk)
    assert lines[0].startswith("g1: Bob did not act") and lines[0].endswith("flee")
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.how == "flight"
    nxt = desk.acting()
    assert nxt is not None and (nxt.player, nxt.kind) == ("Ann", timing.ENGAGEMENT)


def test_wolff_20_4_timeout_in_negotiation_concedes_when_flight_is_not_allowed(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(position=_engaged("Titan Ogre"))
    desk.orders("Ann", "engage 3")
    lines, events = _time_out(desk)
    assert lines[0].endswith("given for him: concede")
    resolved = next(e for e in events if isinstance(e, ev.EngagementResolved))
    assert resolved.how == "concession"


def test_wolff_20_4_timeout_declines_a_reinforcement(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(position=_engaged("Gargoyle Gargoyle", [("Bu01", 300, "Titan Ogre")]))
    desk.orders("Ann", "engage 3")
    desk.orders("Bob", "propose Rd01 loses troll troll")
    assert desk.orders("Ann", "accept 1").note is None
    assert desk.table.state.step is Step.REINFORCE
    lines, events = _time_out(desk)
    assert lines[0].startswith("g1: Bob did not act") and lines[0].endswith("decline")
    assert any(isinstance(e, ev.Declined) for e in events)
    assert desk.table.state.legions["Bu02"].height == 2


def test_wolff_20_4_timeout_declines_an_earned_angel(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(
        position={
            **position(
                [
                    ("Rd01", 3, "Troll Troll", True),
                    ("Rd03", 600, "Titan Ogre"),
                    ("Bu01", 300, "Titan Ogre"),
                    ("Bu02", 3, "Angel Lion"),
                ],
                phase="engage",
                scores={"Ann": 99},
            )
        }
    )
    desk.orders("Ann", "engage 3")
    desk.orders("Bob", "concede")
    assert desk.table.state.step is Step.ACQUIRE
    row = desk.acting()
    assert row is not None and (row.player, row.kind) == ("Ann", timing.ENGAGEMENT)
    lines, _events = _time_out(desk)
    assert lines[0].endswith("given for him: decline")
    assert "Angel" not in desk.table.state.legions["Rd01"].contents
    nxt = desk.acting()  # then her muster: a deadline of its own
    assert nxt is not None and (nxt.player, nxt.kind) == ("Ann", timing.MUSTER)


def _battle(step: str, phasing: str, characters: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    legions = {"Rd01": [], "Bu01": []}  # type: dict[str, list[str]]
    for c in characters:
        legions[c["legion"]].append(c["type"])
    return position(
        [
            ("Rd01", 1, " ".join(legions["Rd01"]), True),
            ("Bu01", 1, " ".join(legions["Bu01"])),
            ("Rd02", 600, "Titan"),
            ("Bu02", 300, "Titan"),
        ],
        phase="engage",
        roll=3,
        turn=4,
        battle={
            "land": 1,
            "attacker": "Rd01",
            "defender": "Bu01",
            "turn": 2,
            "phasing": phasing,
            "step": step,
            "characters": characters,
            **kw,
        },
    )


def test_wolff_20_4_timeout_part_way_through_a_maneuver_resets_it_and_attempts_to_concede(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(
        position=_battle(
            "maneuver",
            "defender",
            [
                {"legion": "Rd01", "type": "ogre", "hex": "D1"},
                {"legion": "Bu01", "type": "centaur", "hex": "D6"},
            ],
        )
    )
    row = desk.acting()
    assert row is not None and (row.player, row.kind) == ("Bob", timing.BATTLE)
    assert desk.orders("Bob", "move D6 to D4").note is None
    assert desk.acting() == row  # the same battle step: the same deadline
    lines, events = _time_out(desk)
    assert lines[0].endswith("given for him: concede")
    assert events[:2] == [
        ev.ManeuverReset(side="defender"),
        ev.ConcessionAttempted(side="defender"),
    ]
    battle = desk.table.state.battle
    assert battle is not None and battle.step == "concede-reply"
    nxt = desk.acting()  # Ann answers the attempt (Wolff 9.4): her own deadline
    assert nxt is not None and (nxt.player, nxt.kind) == ("Ann", timing.BATTLE)


def test_wolff_20_4_timeout_in_the_strikes_attempts_to_concede(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(
        position=_battle(
            "strike",
            "defender",
            [
                {"legion": "Rd01", "type": "ogre", "hex": "D3"},
                {"legion": "Bu01", "type": "centaur", "hex": "D4"},
            ],
        )
    )
    _lines, events = _time_out(desk)
    assert ev.ConcessionAttempted(side="defender") in events


def test_wolff_20_4_timeout_in_carry_over_refuses_it_then_concedes(
    make_desk: Callable[..., Desk],
) -> None:
    """Refusal goes on while the same player is to act under the same deadline."""
    desk = make_desk(
        position=_battle(
            "strike",
            "attacker",
            [
                {"legion": "Rd01", "type": "cyclops", "hex": "D4"},
                {"legion": "Bu01", "type": "troll", "hex": "D3"},
                {"legion": "Bu01", "type": "ogre", "hex": "D5"},
                {"legion": "Bu01", "type": "ranger", "hex": "E4"},
            ],
        ),
        script=[6] * 9,
    )
    assert desk.orders("Ann", "strike D4 at D5 needing 6").note is None
    battle = desk.table.state.battle
    assert battle is not None and battle.step == "carry"
    lines, events = _time_out(desk)
    assert lines[0].endswith("given for him: carry nowhere; concede")
    assert ev.CarryAllocated(allocations=()) in events
    assert ev.ConcessionAttempted(side="attacker") in events
    told = _notices(desk, ("Ann", "Bob"))
    assert "  carry nowhere\n  concede" in told["Bob"].body


def test_wolff_20_4_timeout_at_the_choice_of_colour_withdraws(
    make_desk: Callable[..., Desk],
) -> None:
    desk = make_desk(THREE)
    first = desk.actor
    row = desk.acting()
    assert row is not None and row.kind == timing.SETUP and row.player == first
    lines, events = _time_out(desk)
    assert lines[0].endswith("withdraw")
    assert any(isinstance(e, ev.PlayerWithdrew) for e in events)
    assert desk.actor not in (None, first)


def test_wolff_21_0_timeout_uses_the_games_dice_and_keeps_their_position(
    make_desk: Callable[..., Desk],
) -> None:
    """A default that rolls (none do yet) would use the game's dice: their position is kept."""
    desk = make_desk(THREE, seed=11)
    before = desk.table.record.dice.rolled
    _time_out(desk)
    assert desk.table.record.dice.rolled == before
    assert desk.table.record.dice.seed == 11


def test_a_timeout_is_applied_once(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(THREE)
    _lines, events = _time_out(desk)
    version = desk.table.state.version
    assert desk.advance(minutes=1) == []
    assert desk.table.state.version == version
    assert events


def test_a_mail_that_came_in_time_beats_the_check(make_desk: Callable[..., Desk]) -> None:
    desk = make_desk(THREE)
    row = desk.acting()
    assert row is not None
    desk.clock.set(row.due_at - hours(0.1))
    desk.orders(row.player or "", "withdraw")
    assert not [line for line in desk.at(row.due_at) if "did not act" in line]


def test_restart_between_a_deadline_and_its_check_times_out_on_the_new_store(
    any_store: EventStore, make_desk: Callable[..., Desk]
) -> None:
    """The deadline lives in the database: a new store object on it finds and enforces it."""
    desk = make_desk(THREE, on=any_store)
    row = desk.acting()
    assert row is not None
    desk.clock.set(row.due_at + hours(3))
    any_store.close()
    with open_store(any_store.url, clock=desk.clock) as again:
        lines = desk.check(again)
        assert len(lines) == 1 and "did not act" in lines[0]
        with again.reading() as tx:
            state = tx.load("g1").state
        assert not any(p.name == row.player and not p.eliminated for p in state.players)
        assert desk.check(again) == []
