"""
What each player knows for certain of every legion (``reporting/knowledge.py``).

Each scenario is named after the rule that reveals (or hides) the characters.  Games
start from a position file (rulebook 20.5, docs/positions.md: a restored position
is secret, so only owners know their legions) or from the start of a game (5.2),
and go on with commands through ``decide``.  Cast: Ann (Red, tower 600, moves
first), Bob (Blue, 300) and, when asked for, Cy (Green, 100), who watches.  The
public (``None``) sees only what everybody sees.

The property test at the end plays random robot games and checks, after every
event and for every viewer, that what is known is a sub-multiset of the truth,
that known and unknown add up to the height, that an owner knows his legions, and
that the fold knows at least what the state's ``known_to`` says.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.reporting.knowledge import (
    Knowledge,
    KnownLegion,
    knowledge_of,
    known_contents,
    learn,
    legion_line,
    sorted_characters,
)
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import apply
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.positions import position_event
from moderator.rules.refusal import refusal_command
from moderator.rules.state import GameState, Step
from moderator.rules.timelimit import final_scores
from moderator.rules.variant import STANDARD, load_variant
from moderator.usecases.games.robot_games import play_robot_game

from ..rules.conftest import Game

CAST: dict[str, tuple[str, int]] = {"Ann": ("Red", 600), "Bob": ("Blue", 300), "Cy": ("Green", 100)}


def position(
    legions: Iterable[tuple[str, int, str] | tuple[str, int, str, bool]],
    *,
    players: Sequence[str] = ("Ann", "Bob"),
    phase: str = "move",
    roll: int | None = 1,
    turn: int = 3,
    scores: dict[str, int] | None = None,
    battle: dict[str, Any] | None = None,
) -> ev.PositionLoaded:
    data: dict[str, Any] = {
        "players": [
            {
                "name": n,
                "color": CAST[n][0],
                "tower": CAST[n][1],
                "score": (scores or {}).get(n, 0),
            }
            for n in players
        ],
        "turn": turn,
        "active": "Ann",
        "phase": phase,
        "legions": [
            {"marker": m, "land": land, "contents": c.split(), "moved": bool(rest and rest[0])}
            for m, land, c, *rest in legions
        ],
    }
    if roll is not None:
        data["roll"] = roll
    if battle is not None:
        data["battle"] = battle
    return position_event(data)


class Play(Game):
    """The rules tests' ``Game`` (commands roll only the dice a test writes down), asked
    what each viewer knows."""

    def knowledge(self) -> Knowledge:
        knowledge = knowledge_of(self.log, strict=True)
        assert knowledge.state == self.state
        return knowledge

    def knows(self, viewer: str | None, marker: str) -> KnownLegion:
        """What ``viewer`` knows of ``marker``, checked against the truth."""
        known = self.knowledge().legion(viewer, marker)
        truth = self.state.legions[marker]
        assert not Counter(known.known) - Counter(truth.contents)
        assert len(known.known) + known.unknown == truth.height == known.height
        return known

    def known(self, viewer: str | None, marker: str) -> tuple[str, ...]:
        return self.knows(viewer, marker).known


def chars(text: str) -> tuple[str, ...]:
    return sorted_characters(load_variant(STANDARD), text.split())


# -- the start (5.2, Wolff 4.1) and owners (4.5) ----------------------------------------------


def _started() -> Play:
    game = Play(setup.start_game(["Ann", "Bob"], ScriptedDice([6, 3])))
    game.do(cmd.ChooseColour(player="Bob", colour="Blue"))
    game.do(cmd.ChooseColour(player="Ann", colour="Red"))
    return game


STARTING = chars("Titan Angel Centaur Centaur Gargoyle Gargoyle Ogre Ogre")


def test_5_2_every_starting_legion_is_known_to_everybody() -> None:
    """5.2, Wolff 4.1: the eight starting characters are the same for every player."""
    game = _started()
    for viewer in ("Ann", "Bob", None, "a stranger"):
        for marker in game.state.legions:
            known = game.knows(viewer, marker)
            assert known.known == STARTING and known.unknown == 0 and known.complete


def test_4_5_an_owner_knows_his_legions_and_a_restored_position_hides_the_rest() -> None:
    """4.5: a player may always look at his own stacks; nobody else sees them (4.5, 5.2)."""
    game = Play(
        [
            position(
                [
                    ("Rd01", 34, "Titan Ogre Troll"),
                    ("Rd02", 600, "Angel Ogre"),
                    ("Bu01", 300, "Titan Ogre"),
                    ("Bu02", 40, "Ogre Ogre"),
                ]
            )
        ]
    )
    assert game.known("Ann", "Rd01") == chars("Titan Troll Ogre")
    assert game.known("Bob", "Bu01") == chars("Titan Ogre")
    assert game.knows("Bob", "Rd01").unknown == 3
    assert game.knows(None, "Bu01").unknown == 2
    assert known_contents(game.log, "Bob")["Bu01"].complete


def test_5_2_19_a_player_with_one_legion_has_his_titan_in_it() -> None:
    """5.2, 19.3: a player has his Titan while he is in the game: one legion must hold it."""
    game = Play([position([("Rd01", 34, "Titan Ogre Troll"), ("Bu01", 300, "Titan Ogre")])])
    assert game.known("Bob", "Rd01") == ("Titan",)
    assert game.knows("Bob", "Rd01").unknown == 2
    assert game.known(None, "Bu01") == ("Titan",)


# -- splits (4.3, Wolff 4.7) -------------------------------------------------------------------


def test_4_3_a_split_hides_which_characters_went_where() -> None:
    """4.3: the others see only the heights; no character of the eight is certain in a half."""
    game = _started()
    game.do(
        cmd.Split(
            player="Ann",
            parent="Rd01",
            child="Rd02",
            characters=("Angel", "Centaur", "Gargoyle", "Ogre"),
        )
    )
    assert game.known("Ann", "Rd02") == chars("Angel Centaur Gargoyle Ogre")
    assert game.known("Ann", "Rd01") == chars("Titan Centaur Gargoyle Ogre")
    for viewer in ("Bob", None):
        for marker in ("Rd01", "Rd02"):
            assert game.knows(viewer, marker) == KnownLegion(
                marker=marker, owner="Ann", height=4, known=(), unknown=4
            )


def _looked_then_split(
    contents: str,
    moved: tuple[str, ...],
    *,
    spare_legion: bool = True,
    cy: bool = False,
    land: int = 7,
    extra: Sequence[tuple[str, int, str]] = (),
) -> Play:
    """
    Ann's Rd01 (``contents``) at ``land`` (Desert 7) attacks Bob's Bu02 (2.5.1/2.5.2:
    Bob looks at it); Bob concedes.  Next turn Ann splits ``moved`` off into Rd03.
    With ``spare_legion`` Ann also has Rd02 (Angel Centaur Gargoyle) in her tower.
    """
    players = ("Ann", "Bob", "Cy") if cy else ("Ann", "Bob")
    legions: list[tuple[str, int, str] | tuple[str, int, str, bool]] = [
        ("Rd01", land, contents, True),
        ("Bu01", 300, "Titan Ogre Gargoyle"),
        ("Bu02", land, "Lion Centaur"),
        *extra,
    ]
    if spare_legion:
        legions.append(("Rd02", 600, "Angel Centaur Gargoyle"))
    if cy:
        legions.append(("Gr01", 100, "Titan Ogre"))
    game = Play([position(legions, players=players, phase="engage")])
    game.do(cmd.Engage(player="Ann", land=land))
    game.do(cmd.Concede(player="Bob"))
    if game.state.step is Step.SUMMON:
        game.do(cmd.Decline(player="Ann"))
    game.do(cmd.Done(player="Ann"))  # her muster phase
    others = {"Bob": ("Bu01", 114), "Cy": ("Gr01", 101)}
    for player in players[1:]:
        marker, land = others[player]
        game.do(cmd.Roll(player=player), 2 if player == "Bob" else 1)
        game.do(cmd.MoveLegion(player=player, marker=marker, land=land))
        game.do(cmd.Done(player=player))
        game.do(cmd.Done(player=player))
    assert to_act(game.state) == "Ann" and game.state.step is Step.SPLIT
    game.do(cmd.Split(player="Ann", parent="Rd01", child="Rd03", characters=moved))
    return game


def test_4_3_a_split_makes_the_looked_at_parent_uncertain_in_each_half() -> None:
    """4.3: Bob knew Rd01 in full; after a 3-2 split no character is certain in a half."""
    game = _looked_then_split("Titan Troll Troll Ogre Ogre", ("Ogre", "Ogre"))
    assert game.known("Bob", "Rd01") == () and game.known("Bob", "Rd03") == ()
    assert game.knows("Bob", "Rd01").unknown == 3
    assert game.knows("Bob", "Rd03").unknown == 2


def test_4_3_what_a_split_cannot_hide_stays_known() -> None:
    """
    4.3: Rd01 held Titan and four Ogres; split 3-2, the three-high half holds at least
    two Ogres and the other at least one, whatever went where.
    """
    game = _looked_then_split("Titan Ogre Ogre Ogre Ogre", ("Ogre", "Ogre"))
    assert game.known("Bob", "Rd01") == ("Ogre", "Ogre")
    assert game.known("Bob", "Rd03") == ("Ogre",)
    assert game.known(None, "Rd01") == ()  # the public never saw the parent


def _split_half_musters(game: Play) -> None:
    """Rd03 (two Ogres) moves to Marsh 8 and musters a Troll, showing both Ogres (18.3)."""
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(cmd.MoveLegion(player="Ann", marker="Rd03", land=8))
    game.do(cmd.Done(player="Ann"))
    game.do(cmd.Muster(player="Ann", marker="Rd03", creature="Troll", showing=("Ogre", "Ogre")))


def test_4_3_18_a_half_shown_in_full_gives_away_the_other_half() -> None:
    """
    4.3 with 18.3: Bob knew the parent; once the two-high half shows its two Ogres to
    muster a Troll, the other half must be what is left: Titan and two Trolls.
    Cy saw only the muster, so he knows the muster's legion and nothing of the other.
    """
    game = _looked_then_split("Titan Troll Troll Ogre Ogre", ("Ogre", "Ogre"), cy=True)
    _split_half_musters(game)
    assert game.known("Bob", "Rd03") == chars("Troll Ogre Ogre")
    assert game.known("Bob", "Rd01") == chars("Titan Troll Troll")
    assert game.known("Cy", "Rd03") == chars("Troll Ogre Ogre")
    assert game.known("Cy", "Rd01") == ()  # his Titan may be in Rd01 or in Rd02


def test_5_2_19_the_titan_is_in_the_one_legion_not_known_to_lack_it() -> None:
    """
    5.2, 19.3: every player has one Titan while he is in the game.  Ann has only Rd01
    and Rd03; once Rd03 is known in full without it, even the public knows Rd01 has it.
    """
    game = _looked_then_split("Titan Troll Troll Ogre Ogre", ("Ogre", "Ogre"), spare_legion=False)
    _split_half_musters(game)
    assert game.known(None, "Rd01") == ("Titan",)
    assert game.knows(None, "Rd01").unknown == 2


def test_wolff_4_7_a_recombined_split_is_known_as_the_parent_was() -> None:
    """
    4.3, 2.4, Wolff 4.7: when neither split-off can move (Rd09 blocks the only way out
    of Hills 4 on a 1), they recombine, and Bob, who knew the parent, knows it again.
    """
    game = _looked_then_split(
        "Titan Ogre Ogre Troll Troll Lion Lion",
        ("Troll", "Troll"),
        land=4,
        extra=[("Rd09", 104, "Ogre Ogre")],
    )
    assert game.known("Bob", "Rd01") == () and game.known("Bob", "Rd03") == ()
    game.do(cmd.Roll(player="Ann"), 1)
    game.do(cmd.MoveLegion(player="Ann", marker="Rd09", land=103))
    events = game.do(cmd.Done(player="Ann"))
    assert any(isinstance(e, ev.LegionsRecombined) for e in events)
    assert game.known("Bob", "Rd01") == chars("Titan Ogre Ogre Troll Troll Lion Lion")
    assert game.known(None, "Rd01") == ()


# -- musters and reinforcements (18.x, 14.x) ---------------------------------------------------


def _muster_game(land: int, contents: str) -> Play:
    return Play(
        [
            position(
                [
                    ("Rd01", 34, "Titan Ogre"),
                    ("Rd02", land, contents, True),
                    ("Bu01", 300, "Titan Ogre"),
                    ("Gr01", 100, "Titan Ogre"),
                ],
                players=("Ann", "Bob", "Cy"),
                phase="muster",
            )
        ]
    )


def test_18_muster_reveals_the_shown_characters() -> None:
    """18.0/18.3: the recruit and the characters shown for it become known to everybody."""
    game = _muster_game(8, "Ogre Ogre Centaur")
    game.do(cmd.Muster(player="Ann", marker="Rd02", creature="Troll", showing=("Ogre", "Ogre")))
    for viewer in ("Bob", "Cy", None):
        known = game.knows(viewer, "Rd02")
        assert known.known == ("Troll", "Ogre", "Ogre") and known.unknown == 1
        line = legion_line(known, 8, "Marsh", "Bat")
        assert line == "Rd02 (Bat) in 8 (Marsh), 4 high: Troll, Ogre, Ogre, 1 unknown"
    assert game.knows("Ann", "Rd02").complete


def test_wolff_18_0_a_tower_creature_mustered_in_a_tower_shows_nothing_else() -> None:
    """Wolff 18.0: in a tower a tower creature needs nothing shown: only the recruit is known."""
    game = _muster_game(600, "Troll Troll")
    events = game.do(cmd.Muster(player="Ann", marker="Rd02", creature="Centaur"))
    assert next(e for e in events if isinstance(e, ev.CreatureMustered)).shown == ()
    assert game.known("Bob", "Rd02") == ("Centaur",)
    assert game.knows("Bob", "Rd02").unknown == 2


def _engaged(
    attacker: str,
    defender: str,
    *,
    land: int = 8,
    spare: str = "Titan Angel Ogre",
    home: str = "Titan Ogre",
    **kw: Any,
) -> Play:
    """Ann's Rd01 (``attacker``) has moved onto Bob's Bu02 (``defender``); Cy watches."""
    game = Play(
        [
            position(
                [
                    ("Rd01", land, attacker, True),
                    ("Rd02", 600, spare),
                    ("Bu01", 300, home),
                    ("Bu02", land, defender),
                    ("Gr01", 100, "Titan Ogre"),
                ],
                players=("Ann", "Bob", "Cy"),
                phase="engage",
                **kw,
            )
        ]
    )
    game.do(cmd.Engage(player="Ann", land=land))
    return game


def test_14_a_reinforcement_shows_what_it_was_mustered_with() -> None:
    """14.0/18.3, Wolff 9.5: the agreed losses and the reinforcement (with what was shown)."""
    game = _engaged("Troll Ogre", "Ogre Ogre Centaur")
    game.do(cmd.Propose(player="Bob", proposals=((("Ogre", "Troll"), ("Centaur",)),)))
    game.do(cmd.Accept(player="Ann", number=1))
    assert "Rd01" not in game.state.legions
    assert game.knows("Cy", "Bu02").unknown == 2  # Wolff 9.4 note: the winner is not shown
    game.do(cmd.Reinforce(player="Bob", creature="Troll", showing=("Ogre", "Ogre")))
    assert game.known("Cy", "Bu02") == chars("Troll Ogre Ogre")
    assert game.known("Ann", "Bu02") == chars("Troll Ogre Ogre")


# -- teleports (8.1, 8.2) ----------------------------------------------------------------------


def test_8_1_a_tower_teleport_reveals_the_lord() -> None:
    """8.1: the mover must reveal the lord that allows a tower teleport."""
    game = Play(
        [
            position(
                [
                    ("Rd01", 100, "Angel Ogre Ogre"),
                    ("Rd02", 30, "Titan Ogre"),
                    ("Bu01", 300, "Titan"),
                ],
                roll=6,
            )
        ]
    )
    game.do(cmd.MoveLegion(player="Ann", marker="Rd01", land=400, teleport=True))
    assert game.known("Bob", "Rd01") == ("Angel",)
    assert game.knows(None, "Rd01").unknown == 2


def test_8_2_a_titan_teleport_shows_the_titan() -> None:
    """8.2: the mover must show that the teleporting legion holds his Titan."""
    game = Play(
        [
            position(
                [
                    ("Rd01", 5, "Titan Ogre Ogre"),
                    ("Rd02", 600, "Angel Ogre"),
                    ("Bu01", 300, "Titan Ogre"),
                    ("Bu02", 20, "Ogre Ogre"),
                ],
                roll=6,
                scores={"Ann": 400},
            )
        ]
    )
    events = game.do(cmd.MoveLegion(player="Ann", marker="Rd01", land=20, teleport=True), 1)
    assert next(e for e in events if isinstance(e, ev.LegionMoved)).lord_shown == "Titan"
    assert game.known("Bob", "Rd01") == ("Titan",)
    assert game.known(None, "Rd01") == ("Titan",)


# -- engagements (2.5.1, 2.5.2, Wolff 9.1, 9.3, 9.5) -------------------------------------------


def test_2_5_1_the_look_shows_both_legions_to_the_two_players_only() -> None:
    """2.5.1/2.5.2, 9.1: attacker and defender look at each other's legion; Cy does not."""
    game = _engaged("Titan Troll Ogre", "Ogre Ogre", spare="Angel Ogre")
    assert game.known("Bob", "Rd01") == chars("Titan Troll Ogre")
    assert game.known("Ann", "Bu02") == ("Ogre", "Ogre")
    assert game.known("Cy", "Rd01") == () and game.known("Cy", "Bu02") == ()
    assert game.known(None, "Bu02") == ()


def test_wolff_9_3_a_battle_makes_both_legions_public() -> None:
    """Wolff 9.3, 2.5.6.1: once a player says he will fight, both stacks are public."""
    game = _engaged("Titan Troll Ogre", "Ogre Ogre", spare="Angel Ogre")
    game.do(cmd.NoMore(player="Bob"))
    game.do(cmd.Fight(player="Ann"))
    for viewer in ("Cy", None):
        assert game.known(viewer, "Rd01") == chars("Titan Troll Ogre")
        assert game.known(viewer, "Bu02") == ("Ogre", "Ogre")


def test_wolff_9_5_losses_are_public_but_a_winner_by_concession_is_not_shown() -> None:
    """
    Wolff 9.5: each legion's losses are public; Wolff 9.1/9.4: after a concession without
    battle the winner is not revealed, but Bob, who looked, still knows it.
    """
    game = _engaged("Troll Troll Ogre", "Lion Ogre")
    game.do(cmd.Concede(player="Bob"))
    assert "Bu02" not in game.knowledge().legions("Cy")  # 4.4: gone
    assert game.known("Cy", "Rd01") == ()
    assert game.known("Bob", "Rd01") == chars("Troll Troll Ogre")


BATTLE: dict[str, Any] = {
    "land": 1,
    "attacker": "Rd01",
    "defender": "Bu02",
    "entry": "bottom",
    "turn": 2,
    "phasing": "attacker",
    "step": "strike",
    "characters": [
        {"legion": "Rd01", "type": "cyclops", "hex": "D4"},
        {"legion": "Bu02", "type": "troll", "hex": "D3"},
        {"legion": "Bu02", "type": "ogre", "hex": "D5"},
        {"legion": "Bu02", "type": "ranger", "hex": "E4"},
    ],
}


def test_2_5_6_1_16_a_battles_slain_leave_what_everybody_knows() -> None:
    """
    2.5.6.1: a battle in a restored position is public; 12.6/16.0 and Wolff 9.5: the
    slain Ogre and the conceding Cyclops are gone, the rest stays known to all.
    """
    game = Play(
        [
            position(
                [
                    ("Rd01", 1, "Cyclops"),
                    ("Rd02", 600, "Titan Angel"),
                    ("Bu02", 1, "Troll Ogre Ranger"),
                    ("Bu01", 300, "Titan"),
                ],
                phase="engage",
                roll=3,
                battle=BATTLE,
            )
        ]
    )
    assert game.known(None, "Bu02") == chars("Troll Ogre Ranger")
    game.do(cmd.Strike(player="Ann", striker="D4", target="D5"), 6, 6, 6, 6, 6, 6, 1, 1, 1)
    game.do(cmd.Concede(player="Ann"))
    game.do(cmd.AcceptConcession(player="Bob"))
    assert game.known(None, "Bu02") == chars("Troll Ranger")
    assert "Rd01" not in game.knowledge().legions(None)
    # 5.2, 19.3: Ann's only other legion must hold her Titan; Bob's Titan is in Bu01.
    assert game.known(None, "Rd02") == ("Titan",)
    assert game.known(None, "Bu01") == ("Titan",)


# -- summons and angels (15.x, 17.x, Wolff 18.1) ------------------------------------------------


def test_15_1_a_summoned_angel_is_shown_leaving_one_legion_for_another() -> None:
    """15.1: the summoned angel is shown: it is known in the winner and gone from the source."""
    game = _engaged("Troll Troll Ogre", "Lion Ogre")
    game.do(cmd.Concede(player="Bob"))
    assert game.state.step is Step.SUMMON
    game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd02"))
    assert game.known("Cy", "Rd01") == ("Angel",)
    assert game.knows("Cy", "Rd01").unknown == 3
    assert game.known("Bob", "Rd01") == chars("Angel Troll Troll Ogre")
    assert game.knows("Cy", "Rd02").height == 2 and game.known("Cy", "Rd02") == ()


def test_wolff_18_1_a_legion_emptied_by_a_summons_is_gone() -> None:
    """Wolff 18.1: summoning the last character out of a legion disbands it."""
    game = _engaged("Titan Troll Ogre", "Lion Ogre", spare="Angel")
    game.do(cmd.Concede(player="Bob"))
    game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd02"))
    assert "Rd02" not in game.knowledge().legions("Cy")
    # Rd01 is now Ann's only legion, so it holds her Titan too (5.2, 19.3).
    assert game.known("Cy", "Rd01") == ("Titan", "Angel")


def test_wolff_15_1_an_angel_summoned_into_battle_that_does_not_enter_goes_back() -> None:
    """
    15.0/15.1: the summoned angel is shown; Wolff 15.1: not entered, it goes back to its
    legion as if never summoned, and everybody saw it go back.
    """
    battle = {
        "land": 1,
        "attacker": "Rd01",
        "defender": "Bu02",
        "entry": "bottom",
        "turn": 2,
        "phasing": "attacker",
        "step": "strike",
        "characters": [
            {"legion": "Rd01", "type": "ogre", "hex": "D3"},
            {"legion": "Bu02", "type": "centaur", "hex": "D4", "hits": 2},
            {"legion": "Bu02", "type": "centaur", "hex": "F4"},
        ],
    }
    game = Play(
        [
            position(
                [
                    ("Rd01", 1, "Ogre", True),
                    ("Rd02", 600, "Titan"),
                    ("Rd03", 6, "Angel Gargoyle"),
                    ("Bu02", 1, "Centaur Centaur"),
                    ("Bu01", 300, "Titan"),
                ],
                phase="engage",
                roll=3,
                battle=battle,
            )
        ]
    )
    game.do(cmd.Strike(player="Ann", striker="D3", target="D4"), *[6] * 6)
    game.do(cmd.Done(player="Ann"))
    game.do(cmd.Proceed(player="Bob"))
    game.do(cmd.Strike(player="Bob", striker="D4", target="D3"), 1, 1, 1)
    game.do(cmd.Done(player="Bob"))
    game.do(cmd.Done(player="Bob"))  # Bob's turn 3 passes without contact
    game.do(cmd.Done(player="Bob"))
    game.do(cmd.Proceed(player="Ann"))
    game.do(cmd.Done(player="Ann"))
    assert to_act(game.state) == "Ann" and game.state.battle is not None
    assert game.state.battle.step == "maneuver"
    game.do(cmd.Summon(player="Ann", lord="Angel", source="Rd03"))
    assert game.known(None, "Rd01") == ("Angel", "Ogre")
    assert game.known(None, "Rd03") == () and game.knows(None, "Rd03").height == 1
    events = game.do(cmd.Done(player="Ann"))
    assert any(isinstance(e, ev.JoinUndone) for e in events)
    assert game.known(None, "Rd03") == ("Angel",)
    assert game.knows(None, "Rd03").unknown == 1
    assert game.known(None, "Rd01") == ("Ogre",)


def test_20_5_legions_counted_at_the_time_limit_are_public() -> None:
    """20.5, Wolff 21.1: every remaining legion is revealed as it is counted."""
    game = Play(
        [
            position(
                [
                    ("Rd01", 34, "Titan Ogre Troll"),
                    ("Rd02", 600, "Angel Ogre"),
                    ("Bu01", 300, "Titan"),
                ]
            )
        ]
    )
    game.log.append(final_scores(game.state))
    game.state = replay(game.log)
    for marker in ("Rd01", "Rd02", "Bu01"):
        assert game.knows(None, marker).complete


def test_17_an_acquired_angel_is_known_to_everybody() -> None:
    """17.1/17.2: the angel taken for crossing 100 points joins the winner, in view of all."""
    game = _engaged("Troll Troll Ogre", "Lion Ogre", scores={"Ann": 90})
    game.do(cmd.Concede(player="Bob"))
    game.do(cmd.Decline(player="Ann"))  # no summons
    assert game.state.step is Step.ACQUIRE
    game.do(cmd.TakeAngel(player="Ann", lord="Angel"))
    assert game.known("Cy", "Rd01") == ("Angel",)
    assert game.known(None, "Rd01") == ("Angel",)


# -- eliminations and the end (19.x, 20.4) -------------------------------------------------------


def test_19_4_an_eliminated_players_legions_leave_the_knowledge() -> None:
    """19.4: Bob's Titan is slain: his legions are revealed and removed; Cy's are untouched."""
    game = _engaged("Troll Troll Ogre", "Titan Ogre", spare="Titan Angel", home="Ogre Ogre")
    game.do(cmd.Concede(player="Bob"))
    while game.state.step in (Step.SUMMON, Step.ACQUIRE):
        game.do(cmd.Decline(player="Ann"))
    assert game.state.player("Bob").eliminated
    for viewer in ("Ann", "Cy", None):
        assert set(game.knowledge().legions(viewer)) == {"Rd01", "Rd02", "Gr01"}


def test_20_4_a_withdrawn_players_legions_leave_the_knowledge() -> None:
    """20.4: the legions of a player who withdraws are set aside."""
    game = _muster_game(8, "Ogre Ogre")
    game.do(cmd.Withdraw(player="Ann"))
    assert set(game.knowledge().legions("Bob")) == {"Bu01", "Gr01"}


def test_19_0_the_winners_legions_are_public() -> None:
    """19.0, Complete Sequence 3: when the game ends the winner's legions are public."""
    game = Play(
        [
            position(
                [
                    ("Rd01", 8, "Troll Troll Ogre", True),
                    ("Rd02", 600, "Titan Angel Ogre"),
                    ("Bu02", 8, "Titan Ogre"),
                ],
                phase="engage",
            )
        ]
    )
    game.do(cmd.Engage(player="Ann", land=8))
    game.do(cmd.Concede(player="Bob"))
    while game.state.step is not Step.OVER:
        game.do(cmd.Decline(player="Ann"))
    assert game.known(None, "Rd02") == chars("Titan Angel Ogre")
    assert game.known(None, "Rd01") == chars("Troll Troll Ogre")


# -- the report line ---------------------------------------------------------------------------


def test_legion_line_lists_the_known_then_the_unknown() -> None:
    part = KnownLegion(marker="Rd02", owner="Ann", height=5, known=("Gargoyle",), unknown=4)
    assert legion_line(part, 114, "Marsh", "Eagle") == (
        "Rd02 (Eagle) in 114 (Marsh), 5 high: Gargoyle, 4 unknown"
    )
    none = KnownLegion(marker="Rd02", owner="Ann", height=5, known=(), unknown=5)
    assert legion_line(none, 114, "Marsh", "Eagle").endswith("5 high: 5 unknown")
    full = KnownLegion(marker="Bu01", owner="Bob", height=2, known=("Titan", "Ogre"), unknown=0)
    assert legion_line(full, 300, "Tower") == "Bu01 in 300 (Tower), 2 high: Titan, Ogre"


def test_characters_are_listed_titan_first_then_by_value() -> None:
    """16.0: value is power times skill (Angel 24, Troll 16, Ogre 12, Centaur 12)."""
    assert sorted_characters(load_variant(STANDARD), ["Ogre", "Centaur", "Troll", "Angel", "Titan"]) == (
        "Titan",
        "Angel",
        "Troll",
        "Centaur",
        "Ogre",
    )


def test_learn_one_event_at_a_time_is_the_same_fold() -> None:
    game = _looked_then_split("Titan Troll Troll Ogre Ogre", ("Ogre", "Ogre"))
    knowledge = Knowledge()
    for event in game.log:
        knowledge = learn(knowledge, event)
    assert knowledge == knowledge_of(game.log)
    assert knowledge.legions("Bob") == known_contents(game.log, "Bob")


def test_a_snapshot_start_knows_what_the_state_says() -> None:
    """``from_state``: a fold started at a snapshot knows owners and ``known_to``."""
    game = _engaged("Titan Troll Ogre", "Ogre Ogre", spare="Angel Ogre")
    knowledge = Knowledge.from_state(game.state)
    assert knowledge.legion("Bob", "Rd01").complete
    assert knowledge.legion("Cy", "Rd01").unknown == 3
    game.do(cmd.NoMore(player="Bob"))
    game.do(cmd.Fight(player="Ann"))
    later = knowledge_of(game.log[-5:], knowledge)
    assert later.state == game.state
    assert later.legion("Cy", "Rd01").complete


# -- the property: certain facts only ------------------------------------------------------------


def check(knowledge: Knowledge, event: ev.Event) -> None:
    state = knowledge.state
    mid_split = isinstance(event, ev.SplitContents)  # known_to is reset by the LegionSplit
    for viewer in [*(p.name for p in state.players), None]:
        legions = knowledge.legions(viewer)
        assert set(legions) == set(state.legions)
        for marker, known in legions.items():
            truth = state.legions[marker]
            assert not Counter(known.known) - Counter(truth.contents), (viewer, known, truth)
            assert len(known.known) + known.unknown == truth.height == known.height
            assert known.known == sorted_characters(load_variant(STANDARD), known.known)
            if truth.owner == viewer or (truth.known_by(viewer) and not mid_split):
                assert known.complete, (viewer, known, truth)


@pytest.mark.long
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), players=st.integers(2, 6))
def test_random_robot_games_know_only_certain_facts(seed: int, players: int) -> None:
    """
    Every viewer, after every event of a robot game: the known characters are a
    sub-multiset of the truth, known + unknown is the height, the owner knows his
    legions, and whatever ``Legion.known_to`` shows is known in full.
    """
    game = play_robot_game(players, seed=seed, max_actions=4000)
    knowledge = Knowledge()
    for event in game.events:
        knowledge = learn(knowledge, event, strict=True)
        check(knowledge, event)
    assert knowledge.state == game.state


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, count: int = 1) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(count))


def _pick(rng: random.Random, state: GameState) -> cmd.Command:
    """Any legal command, kind first; now and then a refusal to play (Wolff 20.4)."""
    legal = legal_commands(state)
    if rng.random() < 0.995:
        legal = [c for c in legal if not isinstance(c, cmd.Withdraw)] or legal
    if rng.random() < 0.01 and (refusal := refusal_command(state)) is not None:
        return refusal
    if state.battle is not None:
        keep = [c for c in legal if not isinstance(c, (cmd.Concede, cmd.ResetManeuver))]
        legal = keep if keep and rng.random() < 0.99 else legal
        fights = [c for c in legal if isinstance(c, (cmd.Maneuver, cmd.Strike, cmd.Rangestrike))]
        if fights and rng.random() < 0.9:
            return rng.choice(fights)
    kind = rng.choice(sorted({type(c).__name__ for c in legal}))
    return rng.choice([c for c in legal if type(c).__name__ == kind])


def random_game(seed: int, players: int, actions: int = 3000) -> list[ev.Event]:
    """Random legal play (undoing moves, withdrawing, refusing), from the setup."""
    dice = SeededDice(seed)
    rng = random.Random(seed * 31 + players)
    events = setup.start_game([f"P{i}" for i in range(players)], dice)
    state = replay(events)
    for _ in range(actions):
        if to_act(state) is None:
            break
        state, new = apply(state, _pick(rng, state), dice)
        events.extend(new)
    return events


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), players=st.integers(2, 6))
def test_random_legal_play_knows_only_certain_facts(seed: int, players: int) -> None:
    """The same checks over random legal play: undone moves, withdrawals and refusals too."""
    knowledge = Knowledge()
    for event in random_game(seed, players):
        knowledge = learn(knowledge, event, strict=True)
        check(knowledge, event)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_whole_robot_games_fold_soundly(players: int) -> None:
    """The same checks over three whole games, and the fold derives beyond ``known_to``."""
    game = play_robot_game(players, seed=1000 + players)
    knowledge = Knowledge()
    derived = 0
    for event in game.events:
        knowledge = learn(knowledge, event, strict=True)
        check(knowledge, event)
        for viewer in (p.name for p in knowledge.state.players):
            for marker, known in knowledge.legions(viewer).items():
                truth = knowledge.state.legions[marker]
                derived += truth.owner != viewer and not truth.known_by(viewer) and known.complete
    assert game.finished and knowledge.state == game.state
    assert derived > 0
