"""The order parser: every order form, names and plurals, and every error code."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moderator.orders import (
    CODES,
    HELP,
    ORDER_WORDS,
    QUERY_WORDS,
    AmbiguousOrderError,
    OrderError,
    OrderSyntaxError,
    Query,
    help_text,
    parse_order,
    split_lines,
)
from moderator.orders.help import AHEAD_WORDS
from moderator.rules import commands as cmd
from moderator.rules.state import Engagement, GameState, Legion, Player


def _state() -> GameState:
    return GameState(
        players=(Player(name="Ann", tower=100), Player(name="Bob", tower=200)),
        legions={
            "Rd01": Legion(marker="Rd01", owner="Ann", land=6, contents=("Angel", "Ogre", "Titan")),
            "Bu03": Legion(
                marker="Bu03", owner="Bob", land=6, contents=("Centaur", "Centaur", "Gargoyle")
            ),
            "Rd02": Legion(marker="Rd02", owner="Ann", land=9, contents=("Troll", "Troll")),
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


STATE = _state()


def parse(line: str, state: GameState | None = None) -> cmd.Command | Query:
    return parse_order(line, "Ann", state)


def code_of(line: str, state: GameState | None = None) -> str:
    with pytest.raises(OrderError) as info:
        parse(line, state)
    return info.value.code


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("line", ["colour red", "color red", "COLOUR Red", "colour rd", "colour r"])
def test_colour_in_any_spelling_gives_the_canonical_colour(line: str) -> None:
    assert parse(line) == cmd.ChooseColour(player="Ann", colour="Red")


def test_colour_by_clear_beginning() -> None:
    assert parse("colour gre") == cmd.ChooseColour(player="Ann", colour="Green")


def test_unknown_colour_is_e_colour() -> None:
    assert code_of("colour purple") == "E-COLOUR"


def test_ambiguous_colour_is_e_ambiguous() -> None:
    with pytest.raises(AmbiguousOrderError) as info:
        parse("colour bl")
    assert info.value.code == "E-AMBIGUOUS"
    assert "Black" in str(info.value) and "Blue" in str(info.value)


def test_withdraw() -> None:
    assert parse("withdraw") == cmd.Withdraw(player="Ann")


# --------------------------------------------------------------------------- split


def test_split_into_named_child() -> None:
    assert parse("split Rd01 into Rd02: angel ogre centaur centaur") == cmd.Split(
        player="Ann",
        parent="Rd01",
        child="Rd02",
        characters=("Angel", "Ogre", "Centaur", "Centaur"),
    )


def test_split_without_child_leaves_it_to_the_moderator() -> None:
    assert parse("split Rd01: angel ogre centaur centaur") == cmd.Split(
        player="Ann", parent="Rd01", child=None, characters=("Angel", "Ogre", "Centaur", "Centaur")
    )


@pytest.mark.parametrize(
    "line",
    [
        "split Rd01 into Rd02: angel, 2 centaurs, ogre",
        "split Rd01 into Rd02 angel 2 centaurs ogre",
        "SPLIT rd1 INTO rd2: Angel, two Centaurs, and Ogre",
        "split Cross into Eagle: angels 2 centaur ogres",
        "  split   Rd01   into   Rd02 :  angel ,2 centaurs,ogre  ",
        "split Rd01 Rd02: angel 2 centaurs ogre",
        "split Rd01 into Rd02: angel 2 cent ogre",
    ],
)
def test_split_accepts_counts_plurals_names_and_loose_punctuation(line: str) -> None:
    assert parse(line) == cmd.Split(
        player="Ann",
        parent="Rd01",
        child="Rd02",
        characters=("Angel", "Centaur", "Centaur", "Ogre"),
    )


def test_split_of_nothing_is_a_syntax_error() -> None:
    assert code_of("split Rd01 into Rd02") == "E-SYNTAX"


def test_split_count_out_of_range_is_e_number() -> None:
    assert code_of("split Rd01: 8 ogres") == "E-NUMBER"
    assert code_of("split Rd01: 0 ogres") == "E-NUMBER"


def test_unknown_creature_is_e_creature() -> None:
    with pytest.raises(OrderError) as info:
        parse("split Rd01: angel dwarf")
    assert info.value.code == "E-CREATURE"
    assert "'dwarf'" in str(info.value)


def test_abbreviation_matching_two_creatures_is_ambiguous() -> None:
    with pytest.raises(AmbiguousOrderError) as info:
        parse("split Rd01: war")
    assert info.value.code == "E-AMBIGUOUS"
    assert "Warbear" in str(info.value) and "Warlock" in str(info.value)


def test_creature_aliases_and_irregular_plurals() -> None:
    got = parse("split Rd01: cyclopes hydrae colossi")
    assert isinstance(got, cmd.Split)
    assert got.characters == ("Cyclops", "Hydra", "Colossus")


# --------------------------------------------------------------------------- movement


def test_roll_and_mulligan() -> None:
    assert parse("roll") == cmd.Roll(player="Ann")
    assert parse("Mulligan") == cmd.Mulligan(player="Ann")


def test_move() -> None:
    assert parse("move Rd01 to 6") == cmd.MoveLegion(player="Ann", marker="Rd01", land=6)


@pytest.mark.parametrize("side", ["left", "right", "bottom"])
def test_move_with_entry_side(side: str) -> None:
    assert parse(f"move Rd01 to 6 from {side}") == cmd.MoveLegion(
        player="Ann", marker="Rd01", land=6, entry=side
    )


@pytest.mark.parametrize(
    "line", ["MOVE rd01 TO 6 FROM LEFT", "move Cross to land 6 from the left", "move rd1 to 6."]
)
def test_move_is_case_and_filler_tolerant(line: str) -> None:
    got = parse(line)
    assert isinstance(got, cmd.MoveLegion)
    assert (got.marker, got.land) == ("Rd01", 6)


def test_move_without_to_tells_what_to_write() -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse("move Rd01 6")
    assert info.value.code == "E-SYNTAX"
    assert str(info.value) == (
        "cannot read 'move Rd01 6': write 'move Rd01 to 6' (optionally 'from left')"
    )
    assert info.value.line == "move Rd01 6"


def test_move_with_bad_side_is_a_syntax_error() -> None:
    assert code_of("move Rd01 to 6 from top") == "E-SYNTAX"


def test_move_to_a_non_number_is_e_number() -> None:
    assert code_of("move Rd01 to six") == "E-NUMBER"
    assert code_of("move Rd01 to 6a") == "E-NUMBER"
    assert code_of("move Rd01 to ²") == "E-NUMBER"


def test_move_of_an_unknown_marker_is_e_marker() -> None:
    assert code_of("move Rd13 to 6") == "E-MARKER"
    assert code_of("move Xx01 to 6") == "E-MARKER"
    assert code_of("move to 6") == "E-MARKER"


def test_teleport_showing_a_lord() -> None:
    assert parse("teleport Rd02 to 300 showing angel") == cmd.MoveLegion(
        player="Ann", marker="Rd02", land=300, teleport=True, showing="Angel"
    )


def test_teleport_with_side_showing_titan() -> None:
    assert parse("teleport Rd02 to 41 from right showing titan") == cmd.MoveLegion(
        player="Ann", marker="Rd02", land=41, entry="right", teleport=True, showing="Titan"
    )


def test_teleport_showing_may_come_before_side_and_may_be_left_out() -> None:
    assert parse("teleport Rd02 to 41 showing Titans from right") == parse(
        "teleport Rd02 to 41 from right showing titan"
    )
    assert parse("teleport Rd02 to 300") == cmd.MoveLegion(
        player="Ann", marker="Rd02", land=300, teleport=True
    )


def test_plain_move_cannot_show_a_lord() -> None:
    assert code_of("move Rd02 to 300 showing angel") == "E-SYNTAX"


def test_undo() -> None:
    assert parse("undo") == cmd.UndoMove(player="Ann")
    assert parse("undo Rd01") == cmd.UndoMove(player="Ann", marker="Rd01")
    assert parse("undo move cross") == cmd.UndoMove(player="Ann", marker="Rd01")


def test_done() -> None:
    assert parse("done") == cmd.Done(player="Ann")


def test_wolff_4_7_done_keeping_names_the_recombined_legions_marker() -> None:
    """Wolff 4.7: 'done keeping MARKER' names the marker recombined split-offs keep."""
    assert parse("done keeping Rd03") == cmd.Done(player="Ann", keep=("Rd03",))
    assert parse("Done keep rd3 and Rd07.") == cmd.Done(player="Ann", keep=("Rd03", "Rd07"))
    assert code_of("done keeping") == "E-SYNTAX"
    assert code_of("done keeping ogre") == "E-MARKER"


def test_trailing_words_are_a_syntax_error() -> None:
    assert code_of("done now") == "E-SYNTAX"
    assert code_of("roll twice") == "E-SYNTAX"


# --------------------------------------------------------------------------- engagements


def test_engage() -> None:
    assert parse("engage 6") == cmd.Engage(player="Ann", land=6)
    assert parse("engage land 6") == cmd.Engage(player="Ann", land=6)


def test_bare_engage_picks_the_only_engagement() -> None:
    assert parse("engage", STATE) == cmd.Engage(player="Ann", land=6)


def test_bare_engage_with_several_engagements_is_ambiguous() -> None:
    legions = dict(STATE.legions)
    legions["Bu04"] = Legion(marker="Bu04", owner="Bob", land=9, contents=("Ogre",))
    state = GameState(players=STATE.players, legions=legions)
    assert code_of("engage", state) == "E-AMBIGUOUS"


def test_bare_engage_without_state_is_a_syntax_error() -> None:
    assert code_of("engage") == "E-SYNTAX"


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("flee", cmd.Flee),
        ("concede", cmd.Concede),
        ("fight", cmd.Fight),
        ("no more proposals", cmd.NoMore),
        ("no more", cmd.NoMore),
        ("No More Proposals", cmd.NoMore),
        ("decline", cmd.Decline),
        ("pass", cmd.Decline),
        ("no", cmd.Decline),
        ("refuse", cmd.Decline),
    ],
)
def test_word_orders(line: str, kind: type[cmd.Command]) -> None:
    assert parse(line) == kind(player="Ann")


def test_no_followed_by_something_else_is_a_syntax_error() -> None:
    assert code_of("no thanks") == "E-SYNTAX"
    assert code_of("no more fighting") == "E-SYNTAX"


def test_accept() -> None:
    assert parse("accept 2") == cmd.Accept(player="Ann", number=2)
    assert parse("accept proposal 2") == cmd.Accept(player="Ann", number=2)


def test_accept_without_a_number_is_e_number() -> None:
    assert code_of("accept two") == "E-NUMBER"
    assert code_of("accept") == "E-SYNTAX"


# --------------------------------------------------------------------------- propose


def test_propose_one_proposal() -> None:
    got = parse("propose Rd01 loses ogre; Bu03 eliminated", STATE)
    assert got == cmd.Propose(
        player="Ann", proposals=((("Ogre",), ("Centaur", "Centaur", "Gargoyle")),)
    )


def test_propose_sides_come_from_the_engagement_not_the_order_of_clauses() -> None:
    assert parse("propose Bu03 eliminated; Rd01 loses ogre", STATE) == parse(
        "propose Rd01 loses ogre; Bu03 eliminated", STATE
    )


def test_propose_legion_not_named_loses_nothing() -> None:
    got = parse("propose Bu03 eliminated", STATE)
    assert got == cmd.Propose(player="Ann", proposals=(((), ("Centaur", "Centaur", "Gargoyle")),))


def test_propose_loses_nothing() -> None:
    got = parse("propose Rd01 loses nothing; Bu03 loses centaurs centaur", STATE)
    assert got == cmd.Propose(player="Ann", proposals=(((), ("Centaur", "Centaur")),))


def test_propose_losses_are_sorted_and_canonical() -> None:
    got = parse("propose RD01 LOSES TITANS ogre ANGEL; bu03 loses gargoyles", STATE)
    assert got == cmd.Propose(
        player="Ann", proposals=((("Angel", "Ogre", "Titan"), ("Gargoyle",)),)
    )


@pytest.mark.parametrize("sep", [" or ", " | ", " OR "])
def test_propose_several_proposals(sep: str) -> None:
    got = parse(f"propose Bu03 eliminated{sep}Rd01 loses ogre; Bu03 eliminated", STATE)
    everything = ("Centaur", "Centaur", "Gargoyle")
    assert got == cmd.Propose(player="Ann", proposals=(((), everything), (("Ogre",), everything)))


def test_propose_clauses_by_marker_names_and_without_semicolon() -> None:
    got = parse("propose Cross loses 1 ogre Candle is eliminated", STATE)
    assert got == parse("propose Rd01 loses ogre; Bu03 eliminated", STATE)


def test_propose_needs_an_engagement() -> None:
    assert code_of("propose Rd01 loses ogre") == "E-PROPOSAL"
    assert code_of("propose Rd01 loses ogre", GameState()) == "E-PROPOSAL"


def test_propose_with_a_marker_outside_the_engagement() -> None:
    with pytest.raises(OrderError) as info:
        parse("propose Rd02 eliminated", STATE)
    assert info.value.code == "E-PROPOSAL"
    assert "Rd02 is not part of this engagement" in str(info.value)


def test_propose_losing_what_the_legion_does_not_hold() -> None:
    assert code_of("propose Rd01 loses troll", STATE) == "E-PROPOSAL"
    assert code_of("propose Rd01 loses 2 ogres", STATE) == "E-PROPOSAL"


def test_propose_eliminated_needs_known_contents() -> None:
    legions = {k: v for k, v in STATE.legions.items() if k != "Bu03"}
    state = GameState(players=STATE.players, legions=legions, engagement=STATE.engagement)
    assert code_of("propose Bu03 eliminated", state) == "E-PROPOSAL"
    got = parse("propose Bu03 loses ogre", state)
    assert got == cmd.Propose(player="Ann", proposals=(((), ("Ogre",)),))


def test_propose_naming_a_legion_twice() -> None:
    assert code_of("propose Rd01 loses ogre; Rd01 loses angel", STATE) == "E-PROPOSAL"


@pytest.mark.parametrize(
    "line",
    [
        "propose",
        "propose Rd01",
        "propose Rd01 keeps ogre",
        "propose Rd01 loses",
        "propose Rd01 loses ogre or",
        "propose Rd01 loses ogre; or Bu03 eliminated or",
    ],
)
def test_propose_malformed_is_a_syntax_error(line: str) -> None:
    assert code_of(line, STATE) in ("E-SYNTAX", "E-MARKER")


# --------------------------------------------------------------------------- after engagements


def test_summon() -> None:
    assert parse("summon angel from Rd03") == cmd.Summon(player="Ann", lord="Angel", source="Rd03")
    assert parse("summon Archangels from fist") == cmd.Summon(
        player="Ann", lord="Archangel", source="Rd03"
    )


def test_summon_without_from_is_a_syntax_error() -> None:
    assert code_of("summon angel Rd03") == "E-SYNTAX"


def test_reinforce() -> None:
    assert parse("reinforce troll") == cmd.Reinforce(player="Ann", creature="Troll")
    assert parse("reinforce Trolls showing ogre OGRES") == cmd.Reinforce(
        player="Ann", creature="Troll", showing=("Ogre", "Ogre")
    )
    assert parse("reinforce troll showing 2 ogres") == parse("reinforce troll showing ogre ogre")


def test_reinforce_showing_nothing_is_a_syntax_error() -> None:
    assert code_of("reinforce troll showing") == "E-SYNTAX"


def test_take_angel() -> None:
    assert parse("take angel") == cmd.TakeAngel(player="Ann", lord="Angel")
    assert parse("take ARCHANGEL") == cmd.TakeAngel(player="Ann", lord="Archangel")


def test_muster() -> None:
    assert parse("muster Rd01 troll showing ogre ogre") == cmd.Muster(
        player="Ann", marker="Rd01", creature="Troll", showing=("Ogre", "Ogre")
    )
    assert parse("muster cross Trolls") == cmd.Muster(player="Ann", marker="Rd01", creature="Troll")


def test_muster_junk_after_creature_is_a_syntax_error() -> None:
    assert code_of("muster Rd01 troll with ogre") == "E-SYNTAX"


# --------------------------------------------------------------------------- queries


@pytest.mark.parametrize("kind", ["status", "report", "legal"])
def test_plain_queries(kind: str) -> None:
    assert parse(kind.upper()) == Query("Ann", kind)


def test_marker_queries() -> None:
    assert parse("moves Rd01") == Query("Ann", "moves", ("Rd01",))
    assert parse("legion cross") == Query("Ann", "legion", ("Rd01",))
    got = parse("legion Bu3")
    assert isinstance(got, Query)
    assert got.marker == "Bu03"


def test_marker_query_without_a_marker_is_a_syntax_error() -> None:
    assert code_of("moves") == "E-SYNTAX"


def test_help_queries() -> None:
    assert parse("help") == Query("Ann", "help")
    assert parse("help move") == Query("Ann", "help", ("move",))
    assert parse("HELP Color") == Query("Ann", "help", ("colour",))
    assert parse("help no more proposals") == Query("Ann", "help", ("no more",))


def test_history_queries() -> None:
    assert parse("history") == Query("Ann", "history")
    assert parse("history from turn 3") == Query("Ann", "history", ("3",))
    got = parse("history from turn 3 to turn 5")
    assert got == Query("Ann", "history", ("3", "5"))
    assert isinstance(got, Query)
    assert (got.from_turn, got.to_turn) == (3, 5)
    assert parse("history to turn 4") == Query("Ann", "history", ("1", "4"))


def test_history_backwards_or_malformed() -> None:
    assert code_of("history from turn 5 to turn 3") == "E-NUMBER"
    assert code_of("history from turn three") == "E-NUMBER"
    assert code_of("history from turn 3 until 5") == "E-SYNTAX"


def test_query_rejects_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown query kind"):
        Query("Ann", "gossip")


# --------------------------------------------------------------------------- general errors


def test_unknown_order_word_lists_the_orders() -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse("mvoe Rd01 to 6")
    assert info.value.code == "E-UNKNOWN-ORDER"
    message = str(info.value)
    assert "Did you mean 'move'?" in message
    assert all(word in message for word in ORDER_WORDS)


@pytest.mark.parametrize("line", ["", "   ", "# just a comment", "."])
def test_empty_order_is_e_empty(line: str) -> None:
    assert code_of(line) == "E-EMPTY"


def test_inline_comment_is_ignored() -> None:
    assert parse("move Rd01 to 6  # towards the hills") == parse("move Rd01 to 6")


def test_every_error_code_is_listed() -> None:
    assert set(CODES) == {
        "E-EMPTY",
        "E-UNKNOWN-ORDER",
        "E-SYNTAX",
        "E-NUMBER",
        "E-AMBIGUOUS",
        "E-MARKER",
        "E-CREATURE",
        "E-COLOUR",
        "E-PROPOSAL",
        "E-HEX",
        "E-PLAYER",
    }


def test_order_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse("bogus")


_WORDS = st.sampled_from(
    [
        *ORDER_WORDS,
        *QUERY_WORDS,
        "Rd01",
        "Bu03",
        "rd1",
        "Cross",
        "into",
        "to",
        "from",
        "left",
        "showing",
        "loses",
        "eliminated",
        "nothing",
        "or",
        ";",
        "|",
        ":",
        ",",
        "angel",
        "ogres",
        "war",
        "2",
        "9",
        "99999999999",
        "turn",
        "land",
        "#",
        "²",
        "٣",
        # battles
        "C1",
        "c2",
        "D4",
        "A4",
        "G9",
        "centaur",
        "at",
        "via",
        "needing",
        "with",
        "dice",
        "die",
        "then",
        "nowhere",
        "carry",
        "concession",
        "on",
        "go",
        "0",
        "7",
    ]
)


@given(st.text(max_size=80))
def test_arbitrary_text_parses_or_raises_order_error(text: str) -> None:
    for state in (None, STATE):
        try:
            got = parse(text, state)
        except OrderError:
            continue
        assert isinstance(got, cmd.Command | Query)


@given(st.lists(_WORDS, max_size=12))
def test_arbitrary_word_salad_parses_or_raises_order_error(words: list[str]) -> None:
    for state in (None, STATE):
        try:
            got = parse(" ".join(words), state)
        except OrderError as error:
            assert error.code in CODES
            continue
        assert isinstance(got, cmd.Command | Query)


# --------------------------------------------------------------------------- help and mails


def test_help_has_an_example_for_every_word() -> None:
    assert set(HELP) == {*ORDER_WORDS, *QUERY_WORDS, *AHEAD_WORDS}
    assert all("Example: " in text for text in HELP.values())


def test_help_text() -> None:
    assert help_text(None).startswith("Write one order per line")
    assert help_text("Move") == HELP["move"]
    assert help_text("pass") == HELP["decline"]
    assert "no help on 'dance'" in help_text("dance")


def test_split_lines_skips_comments_quotes_and_stops_at_signoff() -> None:
    text = (
        "Hello moderator\n"
        "\n"
        "# my orders\n"
        "> quoted earlier mail\n"
        "  move Rd01 to 6  \n"
        "done\n"
        "SignOff\n"
        "Ann\n"
        "\n"
        "move Rd02 to 9\n"
    )
    assert split_lines(text) == (
        ["Hello moderator", "move Rd01 to 6", "done"],
        ["Ann", "move Rd02 to 9"],
    )


def test_split_lines_stops_at_end_and_signature() -> None:
    assert split_lines("roll\nend\nmore") == (["roll"], ["more"])
    assert split_lines("roll\r\n-- \r\nAnn\r\n") == (["roll"], ["Ann"])


def test_split_lines_keeps_at_most_max_lines() -> None:
    text = "\n".join(f"move Rd0{i} to {i}" for i in range(1, 6))
    orders, ignored = split_lines(text, max_lines=3)
    assert orders == ["move Rd01 to 1", "move Rd02 to 2", "move Rd03 to 3"]
    assert ignored == ["move Rd04 to 4", "move Rd05 to 5"]


def test_split_lines_of_nothing() -> None:
    assert split_lines("") == ([], [])
