"""
Wolff 4.5: a player may show some or all of one of his legions, at any time, to all
players or any of them, and pass messages through the moderator.  The moderator shows
only what is there, to exactly those named, and never in anything he signs.
"""

from __future__ import annotations

from collections import Counter

from moderator.orders import parse_order
from moderator.reporting.knowledge import known_contents
from moderator.rules import commands as cmd
from moderator.rules import events as ev


def _show(player: str, marker: str, to: tuple[str, ...] | None, chars: str | None = None):
    return cmd.ShowLegion(
        player=player, marker=marker, to=to, characters=tuple(chars.split()) if chars else None
    )


def three(game_at):
    return game_at(
        [
            ("Rd01", 1, "Titan Troll Troll Minotaur"),
            ("Bu01", 2, "Titan Centaur"),
            ("Gr01", 3, "Titan Gargoyle Gargoyle"),
        ],
        players=("Ann", "Bob", "Cy"),
    )


def test_wolff_4_5_an_exposure_reaches_exactly_the_players_named(game_at) -> None:
    game = three(game_at)
    shown = game.one(game.do(_show("Ann", "Rd01", ("Bob",), "Troll Troll")), ev.LegionShown)
    assert shown.visible_to == frozenset({"Ann", "Bob"})  # never None: never signed
    assert shown.characters == ("Troll", "Troll") and not shown.whole
    known = known_contents(game.log, "Bob")["Rd01"]
    assert Counter(known.known)["Troll"] == 2  # (the Titan he knew already: Ann's only legion)
    assert "Troll" not in known_contents(game.log, "Cy")["Rd01"].known
    # Shown to nobody but those named, even "all" is a list of players, not the public.
    everybody = game.one(game.do(_show("Ann", "Rd01", None)), ev.LegionShown)
    assert everybody.visible_to == frozenset({"Ann", "Bob", "Cy"}) and everybody.whole


def test_wolff_4_5_a_whole_legion_shown_is_known_as_after_a_look(game_at) -> None:
    game = three(game_at)
    game.do(_show("Ann", "Rd01", ("Cy",)))
    assert game.legion("Rd01").known_by("Cy") and not game.legion("Rd01").known_by("Bob")
    assert known_contents(game.log, "Cy")["Rd01"].complete


def test_wolff_4_5_a_false_exposure_changes_nothing(game_at) -> None:
    game = three(game_at)
    error = game.refused(_show("Ann", "Rd01", ("Bob",), "Troll Troll Troll"), "E-SHOW")
    assert "does not hold Troll" in str(error)
    game.refused(_show("Ann", "Rd01", ("Bob",), "Hydra"), "E-SHOW")
    game.refused(_show("Ann", "Bu01", ("Cy",)), "E-SHOW")  # not his legion
    game.refused(_show("Ann", "Rd01", ("Zed",)), "E-SHOW")  # not a player
    game.refused(_show("Ann", "Rd01", ("Ann",)), "E-SHOW")  # nobody else


def test_wolff_4_5_shown_at_any_time_whoever_is_to_act(game_at) -> None:
    game = three(game_at)
    before = (game.state.active, game.state.step, game.state.roll)
    assert before[0] == "Ann"
    game.do(_show("Cy", "Gr01", ("Bob",)))  # Cy shows on Ann's turn
    game.do(cmd.Tell(player="Bob", to=("Cy",), text="thanks"))
    assert (game.state.active, game.state.step, game.state.roll) == before


def test_wolff_4_5_knowledge_from_an_exposure_lasts_until_the_legion_changes_out_of_sight(
    game_at,
) -> None:
    game = game_at(
        [
            ("Rd01", 1, "Titan Troll Troll Minotaur Minotaur Centaur Centaur"),
            ("Bu01", 2, "Titan Minotaur"),
        ],
        phase="split",
    )
    game.do(_show("Ann", "Rd01", ("Bob",)))
    assert known_contents(game.log, "Bob")["Rd01"].complete
    game.do(cmd.Split(player="Ann", parent="Rd01", child="Rd02", characters=("Troll", "Minotaur")))
    known = known_contents(game.log, "Bob")
    truth = {m: Counter(lg.contents) for m, lg in game.state.legions.items()}
    for marker in ("Rd01", "Rd02"):  # what he knows stays a sub-multiset of the truth
        assert not Counter(known[marker].known) - truth[marker]
    assert not known["Rd02"].complete  # the split went on out of his sight


def test_wolff_4_5_relayed_text_cannot_reach_a_player_outside_the_game(game_at) -> None:
    game = game_at(
        [("Rd01", 1, "Titan Minotaur"), ("Bu01", 2, "Titan Minotaur")],
        players=("Ann", "Bob", "Cy"),
        eliminated=("Cy",),
    )
    game.refused(cmd.Tell(player="Ann", to=("Cy",), text="hello"), "E-TELL")
    game.refused(cmd.Tell(player="Ann", to=("Zed",), text="hello"), "E-TELL")
    told = game.one(
        game.do(cmd.Tell(player="Ann", to=None, text=" hi   there ")), ev.MessageRelayed
    )
    assert told.visible_to == frozenset({"Ann", "Bob"}) and told.text == "hi there"
    game.refused(cmd.Tell(player="Ann", to=("Bob",), text="x" * 1001), "E-TELL")
    game.refused(cmd.Tell(player="Ann", to=("Bob",), text="   "), "E-TELL")


def test_wolff_4_5_show_and_tell_read_as_players_write_them() -> None:
    assert parse_order("show rd1 to Bob and cy: 2 trolls", "Ann") == cmd.ShowLegion(
        player="Ann", marker="Rd01", to=("Bob", "cy"), characters=("Troll", "Troll")
    )
    assert parse_order("show Rd01 to all", "Ann") == cmd.ShowLegion(
        player="Ann", marker="Rd01", to=None, characters=None
    )
    assert parse_order("tell Bob, Cy: meet at 6 # not 7.", "Ann") == cmd.Tell(
        player="Ann", to=("Bob", "Cy"), text="meet at 6 # not 7."
    )
