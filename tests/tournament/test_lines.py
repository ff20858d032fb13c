"""The tournament lines of a mail."""

from __future__ import annotations

import pytest

from moderator.tournament.errors import E_SYNTAX, TournamentError
from moderator.tournament.lines import is_tournament_line, parse_line, tournament_lines
from moderator.tournament.settings import GameEndRule, Scoring, Settings


def test_tournament_lines_are_told_from_orders() -> None:
    lines = [
        "join tournament Spring",
        "move Rd01 to 7",
        "standings spring",
        "withdraw",
        "end",
        "end spring-2",
        "replace Ann in spring-2 with zed@example.org",
        "status",
    ]
    ours, rest = tournament_lines(lines)
    assert ours == [lines[0], lines[2], lines[5], lines[6]]
    assert rest == ["move Rd01 to 7", "withdraw", "end", "status"]
    assert is_tournament_line("tournament create x")
    assert not is_tournament_line("done")


def test_the_create_line() -> None:
    request = parse_line(
        "tournament create Spring players 3 rounds 2 games 2 days 60 reliability 80% "
        "scoring winner secrets no timing turn=72 battle=24 reminders=24,4 absence count=2"
    )
    settings = request.settings
    assert settings is not None
    assert (request.kind, request.tournament) == ("create", "spring")
    assert (settings.players_per_game, settings.rounds, settings.max_games) == (3, 2, 2)
    assert (settings.game_end, settings.time_limit_days) == (GameEndRule.TIME_LIMIT, 60)
    assert (settings.min_reliability, settings.scoring, settings.allow_secrets) == (
        80,
        Scoring.WINNER,
        False,
    )
    assert settings.time_limits == {"turn": 72, "battle": 24, "reminders": "24,4"}
    assert settings.absence == {"count": 2}
    plain = parse_line("tournament create t2").settings
    assert plain is not None and plain.game_end is GameEndRule.TO_THE_END


def test_a_tournament_says_how_its_games_keep_a_dropped_players_seat() -> None:
    """Issue 26: 'seats', 'keep' and 'delay' reach the settings (and their payload), every
    game inherits them; a word the moderator cannot apply is refused by name."""
    request = parse_line("tournament create Spring seats standby keep 3 delay 15")
    settings = request.settings
    assert settings is not None
    settings.check()
    assert (settings.seat_keeping, settings.keep_after, settings.robot_delay) == (
        "standby", 3, 15
    )
    assert Settings.from_payload(settings.to_payload()) == settings
    assert any("Seats kept: after 3 missed deadlines" in line for line in settings.describe())
    plain = parse_line("tournament create t2").settings
    assert plain is not None
    assert (plain.seat_keeping, plain.keep_after, plain.robot_delay) == ("defaults", 2, 0)
    odd = parse_line("tournament create t3 seats sometimes").settings
    assert odd is not None
    with pytest.raises(TournamentError, match="'seats' is one of defaults, robot, standby"):
        odd.check()


@pytest.mark.parametrize(
    ("line", "kind", "fields"),
    [
        ("leave tournament T", "leave", {"tournament": "t"}),
        ("withdraw from tournament T.", "withdraw", {"tournament": "t"}),
        ("standby tournament t", "standby", {"tournament": "t"}),
        ("standby t", "standby", {"tournament": "t"}),
        ("standings of tournament t", "standings", {"tournament": "t"}),
        ("pause t-1", "pause", {"game": "t-1"}),
        ("resume game t-1", "resume", {"game": "t-1"}),
        ("extend t-1 by 48 hours", "extend", {"game": "t-1", "hours": 48}),
        ("extend t-1 12", "extend", {"game": "t-1", "hours": 12}),
        ("end t-1", "end", {"game": "t-1"}),
        ("replace Ann Lee in t-1", "replace", {"game": "t-1", "seat": "Ann Lee", "address": None}),
        ("REPLACE Bob in t-1 with Zed@Example.org", "replace", {"address": "zed@example.org"}),
    ],
)
def test_the_other_lines(line: str, kind: str, fields: dict[str, object]) -> None:
    request = parse_line(line)
    assert request.kind == kind
    for name, value in fields.items():
        assert getattr(request, name) == value


@pytest.mark.parametrize(
    ("line", "usage"),
    [
        ("tournament create t players", "tournament create NAME"),
        ("tournament create t days 5 to-the-end", "tournament create NAME"),
        ("tournament create t scoring best", "tournament create NAME"),
        ("tournament create t colour red", "tournament create NAME"),
        ("extend t-1 soon", "extend GAME HOURS"),
        ("replace Ann", "replace SEAT in GAME"),
        ("standings", "standings NAME"),
    ],
)
def test_unreadable_lines_are_answered_with_their_usage(line: str, usage: str) -> None:
    assert is_tournament_line(line)
    with pytest.raises(TournamentError) as caught:
        parse_line(line)
    assert caught.value.code == E_SYNTAX
    assert usage in str(caught.value)
