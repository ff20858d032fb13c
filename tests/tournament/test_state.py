"""The tournament's fold: a change of address renames the player everywhere, in order."""

from __future__ import annotations

from moderator.tournament import events as tev
from moderator.tournament.settings import Settings
from moderator.tournament.state import replay

AT = "2024-07-01T00:00:00+00:00"
OLD, NEW, BOB, CY = "ann@old.example", "ann@new.example", "bob@example.org", "cy@example.org"


def test_an_address_change_renames_the_player_in_every_record_of_the_tournament() -> None:
    state = replay(
        [
            tev.TournamentCreated(
                at=AT, tournament="t", director=OLD, director_name="Ann",
                settings=Settings().to_payload(),
            ),
            tev.PlayerJoined(at=AT, player=BOB, name="Bob"),
            tev.PlayerJoined(at=AT, player=OLD, name="Ann"),
            tev.StandbyJoined(at=AT, player=CY, name="Cy"),
            tev.GameFormed(at=AT, game="t-1", seats=(("Ann", OLD), ("Bob", BOB))),
            tev.SeatReplaced(at=AT, game="t-1", seat="Bob", old=BOB, new=CY, new_name="Cy"),
            tev.ReliabilityRecorded(
                at=AT, player=OLD, game="t-1", seat="Ann", on_time=2, timeouts=1
            ),
            tev.GameFinished(
                at=AT, game="t-1", ranking=(("Ann",), ("Bob",)), totals=(("Ann", 90), ("Bob", 30)),
                ended="play", winner="Ann",
            ),
            tev.AddressChanged(at=AT, old=OLD, new=NEW),
        ]
    )
    assert state.director == NEW
    assert list(state.entrants) == [BOB, NEW, CY]  # his place in the order is kept
    ann = state.entrants[NEW]
    assert (ann.player, ann.name, ann.on_time, ann.timeouts) == (NEW, "Ann", 2, 1)
    game = state.games["t-1"]
    assert game.formed == (("Ann", NEW), ("Bob", BOB))
    assert game.seats == (("Ann", NEW), ("Bob", CY))
    assert game.everyone == (NEW, BOB, CY)
    assert game.replaced == (("Bob", BOB, CY),)
    assert game.result is not None and game.result.holders == (("Ann", NEW), ("Bob", CY))
    assert state.games_placed(NEW) == 1 and state.games_placed(OLD) == 0


def test_an_address_change_of_somebody_else_changes_nothing_of_the_others() -> None:
    before = replay([tev.PlayerJoined(at=AT, player=BOB, name="Bob")])
    after = replay([tev.AddressChanged(at=AT, old=OLD, new=NEW)], before)
    assert after.entrants == before.entrants and after.version == before.version + 1
