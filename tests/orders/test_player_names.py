"""Players named in orders (issue 24, item 1): read as the names they signed on with,
spaces and all, or by a beginning that fits one player only, as characters are."""

from __future__ import annotations

import pytest

from moderator.orders import parse_order, render_order
from moderator.orders.errors import OrderError
from moderator.rules import commands as cmd
from moderator.rules.state import GameState, Legion, Player

STATE = GameState(
    players=(
        Player(name="Ann Example", tower=100),
        Player(name="Bob", tower=200),
        Player(name="Cy", tower=300),
        Player(name="Anna", tower=400),
        Player(name="Di Left", tower=500, eliminated=True),
    ),
    legions={"Bu01": Legion(marker="Bu01", owner="Bob", land=6, contents=("Ogre", "Troll"))},
)


def _as_bob(line: str) -> cmd.Command:
    got = parse_order(line, "Bob", STATE)
    assert isinstance(got, cmd.Command)
    return got


def _refusal(line: str) -> OrderError:
    with pytest.raises(OrderError) as caught:
        parse_order(line, "Bob", STATE)
    return caught.value


def test_a_player_named_with_a_space_can_be_told() -> None:
    assert _as_bob("tell Ann Example: hi") == cmd.Tell(
        player="Bob", to=("Ann Example",), text="hi"
    )
    assert _as_bob("tell ann   EXAMPLE: hi") == _as_bob("tell Ann Example: hi")


def test_a_player_named_with_a_space_can_be_shown_a_legion() -> None:
    assert _as_bob("show Bu01 to Ann Example, Cy: troll") == cmd.ShowLegion(
        player="Bob", marker="Bu01", to=("Ann Example", "Cy"), characters=("Troll",)
    )
    assert _as_bob("show Bu01 to Ann Example.") == cmd.ShowLegion(
        player="Bob", marker="Bu01", to=("Ann Example",)
    )


@pytest.mark.parametrize(
    "names",
    ["Ann Example, Cy", "Ann Example and Cy", "ann example, and cy", "Ann Example Cy", "Ann Ex, Cy"],
)
def test_names_with_spaces_are_separated_by_commas_and_and(names: str) -> None:
    assert _as_bob(f"tell {names}: meet at 6") == cmd.Tell(
        player="Bob", to=("Ann Example", "Cy"), text="meet at 6"
    )


def test_a_name_may_be_abbreviated_where_it_fits_one_player() -> None:
    """As characters are: at least three letters, fitting one other player only."""
    assert _as_bob("tell Ann E: hi").to == ("Ann Example",)
    assert _as_bob("tell ANNA: hi").to == ("Anna",)  # a name in full beats a beginning
    # the writer himself is never the abbreviation's player
    assert parse_order("tell ann: hi", "Anna", STATE) == cmd.Tell(
        player="Anna", to=("Ann Example",), text="hi"
    )


def test_an_abbreviated_name_that_fits_two_players_is_refused_with_both_names() -> None:
    error = _refusal("tell Ann: hi")
    assert error.code == "E-AMBIGUOUS"
    assert "'Ann' could be Ann Example or Anna" in str(error)
    assert "players you may name: Ann Example, Anna, Cy, or 'all'" in str(error)


def test_a_name_that_fits_nobody_is_refused_with_the_names_one_may_use() -> None:
    error = _refusal("show Bu01 to Zed Zulu and Cy")
    assert error.code == "E-PLAYER"
    assert "'Zed Zulu' is not a player in this game" in str(error)
    assert "players you may name: Ann Example, Anna, Cy, or 'all'" in str(error)
    short = _refusal("tell Cy, An: hi")
    assert short.code == "E-PLAYER" and "at least 3 letters" in str(short)


def test_a_player_who_left_is_read_so_the_rules_can_say_he_left() -> None:
    """Names are read against every player of the game; whether one may still be named
    is the rules' answer (rules.exposure: 'has left this game')."""
    assert _as_bob("tell Di Left: hi").to == ("Di Left",)
    assert _as_bob("tell di l: hi").to == ("Di Left",)


def test_all_still_names_every_other_player() -> None:
    assert _as_bob("tell everyone: hi").to is None
    assert _as_bob("show Bu01 to all").to is None


@pytest.mark.parametrize(
    "command",
    [
        cmd.Tell(player="Bob", to=("Ann Example", "Cy", "Anna"), text="a: b # c."),
        cmd.ShowLegion(player="Bob", marker="Bu01", to=("Ann Example",), characters=("Ogre",)),
        cmd.ShowLegion(player="Bob", marker="Bu01", to=("Cy", "Ann Example")),
    ],
)
def test_a_name_with_a_space_renders_back_to_the_same_order(command: cmd.Command) -> None:
    assert parse_order(render_order(command, STATE), "Bob", STATE) == command


def test_without_a_game_at_hand_names_are_taken_as_written() -> None:
    assert parse_order("tell Ann Example and Cy: hi", "Bob") == cmd.Tell(
        player="Bob", to=("Ann Example", "Cy"), text="hi"
    )
