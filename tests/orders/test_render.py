"""Rendering commands back to order lines, and the round trip through the parser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moderator.orders import Query, parse_order, render_order, render_query
from moderator.rules import commands as cmd
from moderator.rules.state import Engagement, GameState, Legion, Player
from moderator.rules.variant import LABELS

STATE = GameState(
    players=(
        Player(name="Ann", tower=100),
        Player(name="Bob", tower=200),
        Player(name="Cy", tower=300),
        Player(name="Di Example", tower=400),
    ),
    legions={
        "Rd01": Legion(marker="Rd01", owner="Ann", land=6, contents=("Angel", "Ogre", "Titan")),
        "Bu03": Legion(
            marker="Bu03", owner="Bob", land=6, contents=("Angel", "Centaur", "Centaur", "Ogre")
        ),
    },
    engagement=Engagement(
        land=6,
        attacker="Rd01",
        defender="Bu03",
        attacker_player="Ann",
        defender_player="Bob",
        awaiting="Bob",
    ),
)

EVERYTHING = ("Angel", "Centaur", "Centaur", "Ogre")

COMMANDS: list[tuple[cmd.Command, str]] = [
    (cmd.ChooseColour(player="Ann", colour="Red"), "colour red"),
    (
        cmd.ShowLegion(player="Ann", marker="Rd01", to=("Bob",), characters=("Ogre", "Ogre")),
        "show Rd01 to Bob: ogre ogre",
    ),
    (cmd.ShowLegion(player="Ann", marker="Rd01", to=None), "show Rd01 to all"),
    (cmd.Tell(player="Ann", to=("Bob", "Cy"), text="meet at 6 # not 7."), "tell Bob, Cy: meet at 6 # not 7."),
    (
        cmd.Tell(player="Ann", to=("Di Example", "Cy"), text="hi"),
        "tell Di Example, Cy: hi",
    ),
    (
        cmd.ShowLegion(player="Ann", marker="Rd01", to=("Bob", "Di Example"), characters=("Ogre",)),
        "show Rd01 to Bob, Di Example: ogre",
    ),
    (cmd.Withdraw(player="Ann"), "withdraw"),
    (
        cmd.Split(
            player="Ann",
            parent="Rd01",
            child="Rd02",
            characters=("Angel", "Ogre", "Centaur", "Centaur"),
        ),
        "split Rd01 into Rd02: angel ogre centaur centaur",
    ),
    (
        cmd.Split(player="Ann", parent="Rd01", child=None, characters=("Titan", "Gargoyle")),
        "split Rd01: titan gargoyle",
    ),
    (cmd.Roll(player="Ann"), "roll"),
    (cmd.Mulligan(player="Ann"), "mulligan"),
    (cmd.MoveLegion(player="Ann", marker="Rd01", land=6), "move Rd01 to 6"),
    (
        cmd.MoveLegion(player="Ann", marker="Rd01", land=6, entry="left"),
        "move Rd01 to 6 from left",
    ),
    (
        cmd.MoveLegion(player="Ann", marker="Rd02", land=300, teleport=True, showing="Angel"),
        "teleport Rd02 to 300 showing angel",
    ),
    (
        cmd.MoveLegion(
            player="Ann", marker="Rd02", land=41, entry="right", teleport=True, showing="Titan"
        ),
        "teleport Rd02 to 41 from right showing titan",
    ),
    (cmd.MoveLegion(player="Ann", marker="Gd12", land=100, teleport=True), "teleport Gd12 to 100"),
    (cmd.UndoMove(player="Ann"), "undo"),
    (cmd.UndoMove(player="Ann", marker="Rd01"), "undo Rd01"),
    (cmd.Done(player="Ann"), "done"),
    (cmd.Done(player="Ann", keep=("Rd03",)), "done keeping Rd03"),
    (cmd.Done(player="Ann", keep=("Rd03", "Rd07")), "done keeping Rd03 Rd07"),
    (cmd.Engage(player="Ann", land=6), "engage 6"),
    (cmd.Flee(player="Bob"), "flee"),
    (
        cmd.Propose(player="Ann", proposals=((("Ogre",), EVERYTHING),)),
        "propose Rd01 loses ogre; Bu03 loses angel centaur centaur ogre",
    ),
    (
        cmd.Propose(player="Bob", proposals=(((), EVERYTHING), (("Ogre",), ()))),
        (
            "propose Rd01 loses nothing; Bu03 loses angel centaur centaur ogre"
            " or Rd01 loses ogre; Bu03 loses nothing"
        ),
    ),
    (cmd.Accept(player="Ann", number=2), "accept 2"),
    (cmd.NoMore(player="Ann"), "no more proposals"),
    (cmd.Concede(player="Ann"), "concede"),
    (cmd.Fight(player="Ann"), "fight"),
    (cmd.Summon(player="Ann", lord="Angel", source="Rd03"), "summon angel from Rd03"),
    (cmd.Summon(player="Ann", lord="Archangel", source="Bk11"), "summon archangel from Bk11"),
    (cmd.Reinforce(player="Bob", creature="Troll"), "reinforce troll"),
    (
        cmd.Reinforce(player="Bob", creature="Troll", showing=("Ogre", "Ogre")),
        "reinforce troll showing ogre ogre",
    ),
    (cmd.TakeAngel(player="Ann", lord="Angel"), "take angel"),
    (cmd.TakeAngel(player="Ann", lord="Archangel"), "take archangel"),
    (cmd.Decline(player="Ann"), "decline"),
    (
        cmd.Muster(player="Ann", marker="Rd01", creature="Troll", showing=("Ogre", "Ogre")),
        "muster Rd01 troll showing ogre ogre",
    ),
    (cmd.Muster(player="Ann", marker="Rd01", creature="Cyclops"), "muster Rd01 cyclops"),
    # -- battles
    (cmd.Maneuver(player="Bob", to_hex="C1", creature="Centaur"), "move centaur to C1"),
    (cmd.Maneuver(player="Bob", to_hex="C2", from_hex="C1"), "move C1 to C2"),
    (
        cmd.Maneuver(player="Bob", to_hex="F4", from_hex="A1", creature="Titan"),
        "move titan A1 to F4",
    ),
    (cmd.ResetManeuver(player="Bob"), "reset"),
    (cmd.Proceed(player="Ann"), "proceed"),
    (cmd.AcceptConcession(player="Ann"), "accept concession"),
    (cmd.Strike(player="Ann", striker="D4", target="D3"), "strike D4 at D3"),
    (
        cmd.Strike(player="Ann", striker="D4", target="D5", strike_number=6),
        "strike D4 at D5 needing 6",
    ),
    (
        cmd.Strike(player="Ann", striker="D4", target="D5", strike_number=6, dice=5),
        "strike D4 at D5 needing 6 with 5 dice",
    ),
    (cmd.Strike(player="Ann", striker="A1", target="B1", dice=1), "strike A1 at B1 with 1 die"),
    (cmd.Rangestrike(player="Ann", striker="B3", target="E5"), "rangestrike B3 at E5"),
    (
        cmd.Rangestrike(player="Ann", striker="B3", target="E5", via=("C4",)),
        "rangestrike B3 at E5 via C4",
    ),
    (
        cmd.Rangestrike(player="Ann", striker="B3", target="E5", via=("C4", "D4"), strike_number=6),
        "rangestrike B3 at E5 via C4 D4 needing 6",
    ),
    (
        cmd.Rangestrike(player="Ann", striker="B3", target="D5", strike_number=4),
        "rangestrike B3 at D5 needing 4",
    ),
    (cmd.Carry(player="Ann"), "carry nowhere"),
    (cmd.Carry(player="Ann", targets=("E4",)), "carry to E4"),
    (cmd.Carry(player="Ann", targets=("E4", "D5")), "carry to E4 then D5"),
]


@pytest.mark.parametrize(("command", "line"), COMMANDS)
def test_render_gives_the_canonical_line(command: cmd.Command, line: str) -> None:
    assert render_order(command, STATE) == line


@pytest.mark.parametrize(("command", "line"), COMMANDS)
def test_round_trip_through_the_parser(command: cmd.Command, line: str) -> None:
    assert parse_order(render_order(command, STATE), command.player, STATE) == command


def test_every_command_class_has_a_round_trip_case() -> None:
    # compare names: a slotted dataclass leaves its pre-slots class among the subclasses
    covered = {type(c).__name__ for c, _ in COMMANDS}
    assert covered == {kind.__name__ for kind in cmd.Command.__subclasses__()}


def test_render_without_state_for_everything_but_propose() -> None:
    for command, line in COMMANDS:
        if not isinstance(command, cmd.Propose):
            assert render_order(command) == line


def test_render_propose_needs_the_engagement() -> None:
    proposal = cmd.Propose(player="Ann", proposals=((("Ogre",), ()),))
    with pytest.raises(ValueError, match="engagement"):
        render_order(proposal)
    with pytest.raises(ValueError, match="engagement"):
        render_order(proposal, GameState())


def test_render_refuses_what_no_line_expresses() -> None:
    with pytest.raises(ValueError):
        render_order(cmd.Split(player="Ann", parent="Rd01", child=None, characters=()))
    with pytest.raises(ValueError):
        render_order(cmd.MoveLegion(player="Ann", marker="Rd01", land=6, showing="Angel"))
    with pytest.raises(ValueError):
        render_order(cmd.Propose(player="Ann", proposals=()), STATE)
    with pytest.raises(ValueError, match="maneuver"):
        render_order(cmd.Maneuver(player="Ann", to_hex="C1"))


def test_render_writes_hexes_in_capitals() -> None:
    assert render_order(cmd.Maneuver(player="Ann", to_hex="c2", from_hex="c1")) == "move C1 to C2"
    assert render_order(cmd.Carry(player="Ann", targets=("e4", "d5"))) == "carry to E4 then D5"


def test_the_two_moves_render_apart() -> None:
    """A legion's move names its marker; a character's maneuver a hex or a character."""
    legion = render_order(cmd.MoveLegion(player="Ann", marker="Rd01", land=6))
    character = render_order(cmd.Maneuver(player="Ann", to_hex="C1", from_hex="B1"))
    assert isinstance(parse_order(legion, "Ann"), cmd.MoveLegion)
    assert isinstance(parse_order(character, "Ann"), cmd.Maneuver)


QUERIES = [
    Query("Ann", "status"),
    Query("Ann", "moves", ("Rd01",)),
    Query("Ann", "legion", ("Bu03",)),
    Query("Ann", "battle"),
    Query("Ann", "reach", ("C1",)),
    Query("Ann", "strikes"),
    Query("Ann", "help"),
    Query("Ann", "help", ("move",)),
    Query("Ann", "help", ("no more",)),
    Query("Ann", "help", ("proceed",)),
    Query("Ann", "help", ("rangestrike",)),
    Query("Ann", "history"),
    Query("Ann", "history", ("3",)),
    Query("Ann", "history", ("3", "5")),
    Query("Ann", "report"),
    Query("Ann", "legal"),
]


@pytest.mark.parametrize("query", QUERIES)
def test_query_round_trip(query: Query) -> None:
    assert parse_order(render_query(query), query.player) == query


_CREATURES = st.sampled_from(
    ["Angel", "Archangel", "Centaur", "Cyclops", "Gargoyle", "Hydra", "Colossus", "Ogre", "Titan"]
)
_MARKERS = st.builds(
    lambda colour, n: f"{colour}{n:02d}",
    st.sampled_from(["Bk", "Bu", "Br", "Gd", "Gr", "Rd"]),
    st.integers(1, 12),
)


@given(
    _MARKERS,
    st.one_of(st.none(), _MARKERS),
    st.lists(_CREATURES, min_size=1, max_size=7),
)
def test_split_round_trip(parent: str, child: str | None, characters: list[str]) -> None:
    command = cmd.Split(player="Ann", parent=parent, child=child, characters=tuple(characters))
    assert parse_order(render_order(command), "Ann") == command


@given(
    _MARKERS,
    st.integers(1, 6000),
    st.one_of(st.none(), st.sampled_from(["left", "right", "bottom"])),
    st.booleans(),
    st.one_of(st.none(), st.sampled_from(["Titan", "Angel", "Archangel"])),
)
def test_move_round_trip(
    marker: str, land: int, entry: str | None, teleport: bool, showing: str | None
) -> None:
    command = cmd.MoveLegion(
        player="Ann",
        marker=marker,
        land=land,
        entry=entry,
        teleport=teleport,
        showing=showing if teleport else None,
    )
    assert parse_order(render_order(command), "Ann") == command


_SUBSETS = st.lists(st.sampled_from(["Angel", "Ogre", "Titan"]), unique=True)
_DEFENDER_SUBSETS = st.lists(st.sampled_from(range(4)), unique=True)


@given(st.lists(st.tuples(_SUBSETS, _DEFENDER_SUBSETS), min_size=1, max_size=3))
def test_propose_round_trip(pairs: list[tuple[list[str], list[int]]]) -> None:
    proposals = tuple((tuple(sorted(a)), tuple(sorted(EVERYTHING[i] for i in d))) for a, d in pairs)
    command = cmd.Propose(player="Ann", proposals=proposals)
    assert parse_order(render_order(command, STATE), "Ann", STATE) == command


# -- battles ---------------------------------------------------------------------------

_HEXES = st.sampled_from(LABELS)
_STRIKE_NUMBERS = st.one_of(st.none(), st.integers(1, 6))


@given(
    _HEXES,
    st.one_of(st.none(), _HEXES),
    st.one_of(st.none(), _CREATURES),
)
def test_maneuver_round_trip(to_hex: str, from_hex: str | None, creature: str | None) -> None:
    if from_hex is None and creature is None:
        creature = "Ogre"
    command = cmd.Maneuver(player="Ann", to_hex=to_hex, from_hex=from_hex, creature=creature)
    assert parse_order(render_order(command), "Ann") == command


@given(_HEXES, _HEXES, _STRIKE_NUMBERS, st.one_of(st.none(), st.integers(1, 30)))
def test_strike_round_trip(
    striker: str, target: str, strike_number: int | None, dice: int | None
) -> None:
    command = cmd.Strike(
        player="Ann", striker=striker, target=target, strike_number=strike_number, dice=dice
    )
    assert parse_order(render_order(command), "Ann") == command


@given(_HEXES, _HEXES, st.lists(_HEXES, max_size=4), _STRIKE_NUMBERS)
def test_rangestrike_round_trip(
    striker: str, target: str, via: list[str], strike_number: int | None
) -> None:
    command = cmd.Rangestrike(
        player="Ann", striker=striker, target=target, via=tuple(via), strike_number=strike_number
    )
    assert parse_order(render_order(command), "Ann") == command


@given(st.lists(_HEXES, max_size=5))
def test_carry_round_trip(targets: list[str]) -> None:
    command = cmd.Carry(player="Ann", targets=tuple(targets))
    assert parse_order(render_order(command), "Ann") == command


@given(_HEXES)
def test_reach_query_round_trip(label: str) -> None:
    query = Query("Ann", "reach", (label,))
    assert parse_order(render_query(query), "Ann") == query
