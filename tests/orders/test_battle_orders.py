"""The battle orders: maneuvers, concession windows, strikes, rangestrikes, carries."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moderator.orders import (
    CODES,
    HELP,
    AmbiguousOrderError,
    OrderError,
    OrderSyntaxError,
    Query,
    help_text,
    hex_label,
    parse_order,
    render_order,
)
from moderator.rules import commands as cmd
from moderator.rules.battlefield import Fighter
from moderator.rules.legal import legal_commands
from moderator.rules.state import Battle, Engagement, GameState, Legion, Player, Step
from moderator.rules.variant import LABELS, STANDARD


def parse(line: str, state: GameState | None = None) -> cmd.Command | Query:
    return parse_order(line, "Ann", state)


def code_of(line: str) -> str:
    with pytest.raises(OrderError) as info:
        parse(line)
    return info.value.code


# --------------------------------------------------------------------------- hexes


def test_every_label_of_the_variant_is_a_hex_in_any_case() -> None:
    for label in LABELS:
        assert hex_label(label) == label
        assert hex_label(label.lower()) == label


@pytest.mark.parametrize("token", ["A4", "F5", "G1", "D7", "C0", "a10"])
def test_labels_outside_the_battleland_are_e_hex(token: str) -> None:
    with pytest.raises(OrderError) as info:
        hex_label(token)
    assert info.value.code == "E-HEX"
    assert "there is no hex" in str(info.value)
    assert "A1-A3, B1-B4, C1-C5, D1-D6, E1-E5, F1-F4" in str(info.value)


def test_a_word_is_not_a_hex() -> None:
    with pytest.raises(OrderError, match="'left' is not a battleland hex") as info:
        hex_label("left")
    assert info.value.code == "E-HEX"


# --------------------------------------------------------------------------- maneuvers


def test_an_offboard_character_enters() -> None:
    assert parse("move centaur to C1") == cmd.Maneuver(
        player="Ann", to_hex="C1", creature="Centaur"
    )


def test_a_character_on_the_board_moves_by_hex() -> None:
    assert parse("move C1 to C2") == cmd.Maneuver(player="Ann", to_hex="C2", from_hex="C1")


@pytest.mark.parametrize(
    "line",
    [
        "move centaur C1 to C2",
        "move centaur from C1 to C2",
        "MOVE CENTAURS c1 TO c2",
        "move cent from c1 to c2.",
        "move Centaur, C1 to C2",
    ],
)
def test_a_maneuver_may_name_both_character_and_hex(line: str) -> None:
    assert parse(line) == cmd.Maneuver(player="Ann", to_hex="C2", from_hex="C1", creature="Centaur")


def test_a_maneuver_may_say_from_before_the_hex() -> None:
    assert parse("move from C1 to C2") == parse("move C1 to C2")


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("move Rd01 to 6", cmd.MoveLegion),
        ("move rd1 to 6", cmd.MoveLegion),
        ("move Cross to 6", cmd.MoveLegion),
        ("move C1 to C2", cmd.Maneuver),
        ("move c1 to c2", cmd.Maneuver),
        ("move ogre to B1", cmd.Maneuver),
        ("move Titans A2 to B1", cmd.Maneuver),
    ],
)
def test_a_marker_means_the_masterboard_a_hex_or_character_the_battle(
    line: str, kind: type[cmd.Command]
) -> None:
    assert isinstance(parse(line), kind)


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("move A4 to C1", "E-HEX"),  # column A has three hexes
        ("move C1 to G1", "E-HEX"),
        ("move centaur to 6", "E-HEX"),
        ("move C1 to left", "E-HEX"),
        ("move dwarf to C1", "E-CREATURE"),  # a battle move of something unknown
        ("move dwarf to 6", "E-MARKER"),  # a masterboard move of something unknown
        ("move war to C1", "E-AMBIGUOUS"),
        ("move Rd01 to C1", "E-NUMBER"),  # a legion goes to a land
        ("move centaur", "E-SYNTAX"),
        ("move C1", "E-SYNTAX"),
        ("move C1 C2", "E-SYNTAX"),
        ("move to C1", "E-SYNTAX"),
        ("move centaur to C1 from left", "E-SYNTAX"),
        ("move 2 centaurs to C1", "E-SYNTAX"),  # one character a line
        ("move two centaurs to C1", "E-SYNTAX"),
    ],
)
def test_maneuver_errors(line: str, code: str) -> None:
    assert code_of(line) == code


def test_a_malformed_maneuver_shows_the_battle_forms() -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse("move C1 C2")
    assert str(info.value) == (
        "cannot read 'move C1 C2': write 'move C1 to C2', 'move centaur to C1' or "
        "'move centaur C1 to C2'"
    )


def test_the_masterboard_move_errors_are_unchanged() -> None:
    assert code_of("move to 6") == "E-MARKER"
    assert code_of("move Xx01 to 6") == "E-MARKER"
    with pytest.raises(OrderSyntaxError, match="write 'move Rd01 to 6'"):
        parse("move Rd01 6")


@pytest.mark.parametrize("line", ["reset", "RESET", "reset maneuver", "reset manoeuvre"])
def test_reset(line: str) -> None:
    assert parse(line) == cmd.ResetManeuver(player="Ann")


def test_reset_takes_no_marker() -> None:
    assert code_of("reset Rd01") == "E-SYNTAX"


# --------------------------------------------------------------------------- windows


@pytest.mark.parametrize("line", ["proceed", "Proceed.", "go on", "GO ON", "continue"])
def test_proceed(line: str) -> None:
    assert parse(line) == cmd.Proceed(player="Ann")


def test_go_needs_on() -> None:
    assert code_of("go") == "E-SYNTAX"
    assert code_of("go away") == "E-SYNTAX"
    assert code_of("proceed now") == "E-SYNTAX"


@pytest.mark.parametrize(
    "line", ["accept concession", "accept the concession", "ACCEPT Concession"]
)
def test_accept_concession(line: str) -> None:
    assert parse(line) == cmd.AcceptConcession(player="Ann")


def test_accept_still_takes_a_proposal_number() -> None:
    assert parse("accept 2") == cmd.Accept(player="Ann", number=2)
    assert parse("accept the proposal 3") == cmd.Accept(player="Ann", number=3)
    assert code_of("accept concession 2") == "E-SYNTAX"
    assert code_of("accept concessions") == "E-NUMBER"


def test_concede_and_done_serve_battles_too() -> None:
    assert parse("concede") == cmd.Concede(player="Ann")
    assert parse("done") == cmd.Done(player="Ann")


# --------------------------------------------------------------------------- strikes


def test_strike() -> None:
    assert parse("strike D4 at D3") == cmd.Strike(player="Ann", striker="D4", target="D3")


def test_strike_needing() -> None:
    assert parse("strike D4 at D5 needing 6") == cmd.Strike(
        player="Ann", striker="D4", target="D5", strike_number=6
    )


@pytest.mark.parametrize(
    "line",
    [
        "strike D4 at D5 needing 6 with 5 dice",
        "STRIKE d4 AT d5 NEEDING 6 WITH 5 DICE",
        "strike D4 at D5 with 5 dice needing 6",
        "strike D4 at D5, needing 6, with 5 dice.",
        "strike D4 at D5 needs 6 with 5 dice",
    ],
)
def test_strike_needing_with_dice(line: str) -> None:
    assert parse(line) == cmd.Strike(
        player="Ann", striker="D4", target="D5", strike_number=6, dice=5
    )


def test_strike_with_one_die() -> None:
    assert parse("strike D4 at D5 with 1 die") == cmd.Strike(
        player="Ann", striker="D4", target="D5", dice=1
    )


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("strike D4 D5", "E-SYNTAX"),
        ("strike D4 at", "E-SYNTAX"),
        ("strike at D5", "E-HEX"),
        ("strike D4 at G5", "E-HEX"),
        ("strike centaur at D5", "E-HEX"),
        ("strike D4 at D5 needing", "E-SYNTAX"),
        ("strike D4 at D5 needing 7", "E-NUMBER"),
        ("strike D4 at D5 needing 0", "E-NUMBER"),
        ("strike D4 at D5 needing six", "E-NUMBER"),
        ("strike D4 at D5 with 0 dice", "E-NUMBER"),
        ("strike D4 at D5 with 5", "E-SYNTAX"),
        ("strike D4 at D5 needing 5 needing 6", "E-SYNTAX"),
        ("strike D4 at D5 via C4", "E-SYNTAX"),
    ],
)
def test_strike_errors(line: str, code: str) -> None:
    assert code_of(line) == code


def test_strike_number_out_of_range_says_the_range() -> None:
    with pytest.raises(OrderSyntaxError, match="a strike number runs from 1 to 6, not 7"):
        parse("strike D4 at D5 needing 7")


def test_rangestrike() -> None:
    assert parse("rangestrike B3 at E5") == cmd.Rangestrike(player="Ann", striker="B3", target="E5")
    assert parse("rangestrike B3 at E5 via C4") == cmd.Rangestrike(
        player="Ann", striker="B3", target="E5", via=("C4",)
    )


@pytest.mark.parametrize(
    "line",
    [
        "rangestrike B3 at E5 via C4 D4 needing 6",
        "rangestrike b3 at e5 via c4, d4 needing 6",
        "rangestrike B3 at E5 via C4 then D4 needing 6",
        "rangestrike B3 at E5 needing 6 via C4 and D4",
    ],
)
def test_rangestrike_via_a_path_needing(line: str) -> None:
    assert parse(line) == cmd.Rangestrike(
        player="Ann", striker="B3", target="E5", via=("C4", "D4"), strike_number=6
    )


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("rangestrike B3 E5", "E-SYNTAX"),
        ("rangestrike B3 at E5 via", "E-SYNTAX"),
        ("rangestrike B3 at E5 via needing 6", "E-SYNTAX"),
        ("rangestrike B3 at E5 via C4 G4", "E-HEX"),
        ("rangestrike B3 at E5 needing 9", "E-NUMBER"),
        ("rangestrike B3 at E5 with 2 dice", "E-SYNTAX"),
        ("rangestrike B3 at E5 via C4 via D4", "E-HEX"),
    ],
)
def test_rangestrike_errors(line: str, code: str) -> None:
    assert code_of(line) == code


# --------------------------------------------------------------------------- carries


@pytest.mark.parametrize(
    "line", ["carry to E4", "carry 3 to E4", "carry 3 hits to E4", "Carry E4", "carry 1 hit to e4"]
)
def test_carry_to_one_hex_the_count_is_only_a_reminder(line: str) -> None:
    assert parse(line) == cmd.Carry(player="Ann", targets=("E4",))


@pytest.mark.parametrize(
    "line",
    [
        "carry to E4 then D5",
        "carry to E4, D5",
        "carry to E4 and D5",
        "carry to E4 and then D5",
        "carry 2 to E4 then 1 to D5",
        "carry to E4 then to D5",
    ],
)
def test_carry_to_several_hexes_keeps_their_order(line: str) -> None:
    assert parse(line) == cmd.Carry(player="Ann", targets=("E4", "D5"))


@pytest.mark.parametrize("line", ["no carry", "NO CARRY", "carry nowhere", "Carry nowhere."])
def test_no_carry(line: str) -> None:
    assert parse(line) == cmd.Carry(player="Ann", targets=())


def test_no_still_declines_and_no_more_still_ends_proposals() -> None:
    assert parse("no") == cmd.Decline(player="Ann")
    assert parse("no more") == cmd.NoMore(player="Ann")


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("carry", "E-SYNTAX"),
        ("carry to", "E-SYNTAX"),
        ("carry to E4 then", "E-SYNTAX"),
        ("carry to six", "E-SYNTAX"),
        ("carry to G4", "E-HEX"),
        ("carry 0 to E4", "E-NUMBER"),
        ("carry nowhere else", "E-SYNTAX"),
        ("no carry to E4", "E-SYNTAX"),
    ],
)
def test_carry_errors(line: str, code: str) -> None:
    assert code_of(line) == code


# --------------------------------------------------------------------------- queries


def test_battle_queries() -> None:
    assert parse("battle") == Query("Ann", "battle")
    assert parse("STRIKES") == Query("Ann", "strikes")
    got = parse("reach c1")
    assert got == Query("Ann", "reach", ("C1",))
    assert isinstance(got, Query)
    assert got.hex_label == "C1"
    assert got.marker is None


def test_battle_query_errors() -> None:
    assert code_of("reach") == "E-SYNTAX"
    assert code_of("reach G1") == "E-HEX"
    assert code_of("reach C1 C2") == "E-SYNTAX"
    assert code_of("battle now") == "E-SYNTAX"


# --------------------------------------------------------------------------- help


@pytest.mark.parametrize(
    "word", ["proceed", "reset", "strike", "rangestrike", "carry", "battle", "reach", "strikes"]
)
def test_every_battle_word_has_help_with_an_example(word: str) -> None:
    assert "Example" in HELP[word]


def test_help_aliases_for_battle_words() -> None:
    assert help_text("go on") == HELP["proceed"]
    assert help_text("continue") == HELP["proceed"]
    assert help_text("no carry") == HELP["carry"]
    assert help_text("accept concession") == HELP["accept"]
    assert help_text("maneuver") == HELP["move"]
    assert parse("help go on") == Query("Ann", "help", ("proceed",))


def test_help_no_longer_says_battles_are_missing() -> None:
    assert "not available" not in HELP["fight"]
    assert "move C1 to C2" in HELP["move"]


def test_e_hex_is_a_listed_code() -> None:
    assert "E-HEX" in CODES


def test_ambiguous_character_in_a_maneuver_is_ambiguous_error() -> None:
    with pytest.raises(AmbiguousOrderError):
        parse("move war C1 to C2")


# --------------------------------------------------------------------------- fuzz

_BATTLE_WORDS = st.sampled_from(
    [
        "move",
        "strike",
        "rangestrike",
        "carry",
        "reset",
        "proceed",
        "go",
        "on",
        "accept",
        "concession",
        "the",
        "no",
        "reach",
        "C1",
        "d4",
        "F4",
        "F5",
        "A0",
        "Z9",
        "centaur",
        "cent",
        "war",
        "Rd01",
        "Cross",
        "from",
        "to",
        "at",
        "via",
        "then",
        "and",
        ",",
        "needing",
        "with",
        "dice",
        "die",
        "hits",
        "nowhere",
        "1",
        "6",
        "7",
        "0",
        "999999",
        "1234567",
    ]
)


@given(st.lists(_BATTLE_WORDS, min_size=1, max_size=10))
def test_battle_word_salad_parses_or_raises_order_error(words: list[str]) -> None:
    try:
        got = parse(" ".join(words))
    except OrderError as error:
        assert error.code in CODES
        return
    assert isinstance(got, cmd.Command | Query)
    if not isinstance(got, Query):
        assert parse(render_order(got)) == got


# --------------------------------------------------------------------------- legal battle orders


def _battle_state(step: str, phasing: str, **battle: object) -> GameState:
    def fighter(fid: int, side: str, creature: str, place: str | None, hits: int = 0) -> Fighter:
        power = {"Centaur": 3, "Gargoyle": 4, "Ogre": 6, "Lion": 5, "Titan": 6}[creature]
        skill = {"Centaur": 4, "Gargoyle": 3, "Ogre": 2, "Lion": 3, "Titan": 4}[creature]
        return Fighter(
            id=fid,
            side=side,
            creature=creature,
            power=power,
            skill=skill,
            hex=place,
            hits=hits,
            variant_name=STANDARD,
        )

    fighters = (
        fighter(1, "defender", "Centaur", "C3"),
        fighter(2, "defender", "Centaur", None),
        fighter(3, "defender", "Gargoyle", "D4"),
        fighter(4, "attacker", "Ogre", "C4"),
        fighter(5, "attacker", "Lion", None),
        fighter(6, "attacker", "Titan", "D5"),
    )
    fields: dict[str, object] = {"entered": ("defender",), **battle}
    return GameState(
        players=(Player(name="Ann", tower=100), Player(name="Bob", tower=200)),
        legions={
            "Rd01": Legion(marker="Rd01", owner="Ann", land=6, contents=("Lion", "Ogre", "Titan")),
            "Bu03": Legion(
                marker="Bu03", owner="Bob", land=6, contents=("Centaur", "Centaur", "Gargoyle")
            ),
        },
        engagement=Engagement(
            land=6,
            attacker="Rd01",
            defender="Bu03",
            attacker_player="Ann",
            defender_player="Bob",
            awaiting="Ann",
        ),
        battle=replace(
            Battle(
                land=6, terrain="Plains", entry="left", fighters=fighters, variant_name=STANDARD
            ),
            step=step,
            phasing=phasing,
            **fields,  # type: ignore[arg-type]
        ),
        step=Step.BATTLE,
        active="Ann",
    )


@pytest.mark.parametrize(
    ("step", "phasing", "extra"),
    [
        ("attacker-concede", "defender", {}),
        ("defender-concede", "defender", {}),
        ("maneuver", "defender", {}),
        ("maneuver", "attacker", {}),
        ("concede-reply", "attacker", {"attempt": "attacker"}),
        ("strike", "attacker", {"entered": ("defender", "attacker")}),
        ("counterstrike", "attacker", {"entered": ("defender", "attacker")}),
        ("end-concede", "attacker", {}),
    ],
)
def test_every_legal_battle_order_renders_and_reads_back(
    step: str, phasing: str, extra: dict[str, object]
) -> None:
    state = _battle_state(step, phasing, **extra)
    commands = legal_commands(state)
    assert commands
    for command in commands:
        line = render_order(command, state)
        assert parse_order(line, command.player, state) == command, line
