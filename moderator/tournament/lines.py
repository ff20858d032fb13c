"""
The tournament lines of a mail, read into requests (pure text work).

Players::

    join tournament NAME
    leave tournament NAME            (off the waiting list; games under way go on)
    withdraw from tournament NAME    (out for good)
    standby tournament NAME          (ready to take over a seat)
    standings NAME

The director::

    tournament create NAME [players N] [rounds N] [games N] [days N | to-the-end]
        [reliability PERCENT] [scoring places|winner] [secrets yes|no] [variant NAME]
        [seats defaults|robot|standby] [keep N] [delay MINUTES]
        [timing KEY=VALUE ...] [absence KEY=VALUE ...]
    pause GAME
    resume GAME
    extend GAME HOURS
    replace SEAT in GAME [with ADDRESS]
    end GAME

>>> parse_line("join tournament Spring").kind, parse_line("join tournament Spring").tournament
('join', 'spring')
>>> parse_line("replace Ann in spring-3 with zed@example.org").address
'zed@example.org'
>>> is_tournament_line("move Rd01 to 7"), is_tournament_line("extend g1 24")
(False, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import field
from typing import Any

from moderator.records import record
from moderator.rules.variant import STANDARD
from moderator.tournament.errors import E_SYNTAX, TournamentError
from moderator.tournament.settings import GameEndRule, Scoring, Settings

#: A tournament's name (stored in lower case); its games are ``NAME-1``, ``NAME-2``...
NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}"
#: A game id, as the mail service spells them.
GAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"
ADDRESS = r"[^\s@<>]+@[^\s@<>]+"

USAGE = {
    "create": (
        "tournament create NAME [players N] [rounds N] [games N] [days N | to-the-end] "
        "[reliability PERCENT] [scoring places|winner] [secrets yes|no] [variant NAME] "
        "[seats defaults|robot|standby] [keep N] [delay MINUTES] "
        "[timing KEY=VALUE ...] [absence KEY=VALUE ...]"
    ),
    "join": "join tournament NAME",
    "leave": "leave tournament NAME",
    "withdraw": "withdraw from tournament NAME",
    "standby": "standby tournament NAME",
    "standings": "standings NAME",
    "pause": "pause GAME",
    "resume": "resume GAME",
    "extend": "extend GAME HOURS",
    "replace": "replace SEAT in GAME [with ADDRESS]",
    "end": "end GAME",
    "audit": "audit GAME",
}

_PLAYER = re.compile(
    rf"^(?P<kind>join|leave|withdraw|standby)\s+(?:from\s+)?tournament\s+(?P<name>{NAME})\s*\.?$",
    re.IGNORECASE,
)
_STANDBY = re.compile(rf"^standby\s+(?P<name>{NAME})\s*\.?$", re.IGNORECASE)
_STANDINGS = re.compile(
    rf"^standings\s+(?:of\s+)?(?:tournament\s+)?(?P<name>{NAME})\s*\.?$", re.IGNORECASE
)
_GAME_LINE = re.compile(
    rf"^(?P<kind>pause|resume|end|audit)\s+(?:game\s+)?(?P<game>{GAME})\s*\.?$", re.IGNORECASE
)
_EXTEND = re.compile(
    rf"^extend\s+(?:game\s+)?(?P<game>{GAME})\s+(?:by\s+)?(?P<hours>\d{{1,5}})\s*(?:h|hours?)?\s*\.?$",
    re.IGNORECASE,
)
_REPLACE = re.compile(
    rf"^replace\s+(?P<seat>.+?)\s+in\s+(?:game\s+)?(?P<game>{GAME})"
    rf"(?:\s+(?:with|by)\s+(?P<address>{ADDRESS}))?\s*\.?$",
    re.IGNORECASE,
)
_CREATE = re.compile(
    rf"^tournament\s+create\s+(?P<name>{NAME})(?P<rest>(?:\s+.*)?)$", re.IGNORECASE
)
#: Words after ``end`` that are not a game: ``end turn`` is a slip for ``done``, not the
#: director's ``end GAME`` (the game's parser answers it).
_NOT_GAMES = "turn|phase|move|moves|movement|maneuver|manoeuvre|battle|orders|here|mail|message"
#: The first words that make a line a tournament line (a line that starts so but
#: cannot be read is answered with its usage).
_LEADS = re.compile(
    r"^(?:tournament\b|standby\b|standings\b|pause\b|resume\b|extend\b|replace\b|audit\b"
    rf"|(?:join|leave|withdraw)\s+(?:from\s+)?tournament\b|end\s+(?!(?:{_NOT_GAMES})\b)\S+\s*\.?$"
    r"|end\s+game\s+\S+)",
    re.IGNORECASE,
)
_PAIR = re.compile(r"^(?P<key>[A-Za-z][A-Za-z0-9_]{0,31})=(?P<value>[^\s=]{1,64})$")


@record
class Request:
    """One tournament line, read: what it asks (``kind``) and of what."""

    line: str
    kind: str
    tournament: str | None = None
    game: str | None = None
    seat: str | None = None
    address: str | None = None
    hours: int | None = None
    settings: Settings | None = field(default=None, compare=False)


def is_tournament_line(line: str) -> bool:
    """Whether ``line`` is meant for the tournament service (readable or not)."""
    return bool(_LEADS.match(line.strip()))


def tournament_lines(lines: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the tournament lines, the other lines), each in the mail's order."""
    ours = [line for line in lines if is_tournament_line(line)]
    return ours, [line for line in lines if not is_tournament_line(line)]


def parse_line(line: str) -> Request:
    """
    Raises:
        TournamentError: ``E-T-SYNTAX`` with the usage of the line it looks like.
    """
    text = line.strip()
    if found := _CREATE.match(text):
        settings = _settings(found["rest"].split(), text)
        return Request(text, "create", tournament=found["name"].lower(), settings=settings)
    if found := _PLAYER.match(text):
        return Request(text, found["kind"].lower(), tournament=found["name"].lower())
    if found := _STANDBY.match(text):
        return Request(text, "standby", tournament=found["name"].lower())
    if found := _STANDINGS.match(text):
        return Request(text, "standings", tournament=found["name"].lower())
    if found := _GAME_LINE.match(text):
        return Request(text, found["kind"].lower(), game=found["game"])
    if found := _EXTEND.match(text):
        return Request(text, "extend", game=found["game"], hours=int(found["hours"]))
    if found := _REPLACE.match(text):
        address = found["address"].lower() if found["address"] else None
        return Request(text, "replace", game=found["game"], seat=found["seat"], address=address)
    first = text.split()[0].lower() if text.split() else ""
    kind = "create" if first == "tournament" else first
    usage = USAGE.get(kind)
    hint = f"; write: {usage}" if usage else ""
    raise TournamentError(E_SYNTAX, f"cannot read {text!r}{hint}")


def _settings(words: list[str], line: str) -> Settings:
    values: dict[str, Any] = {}
    maps: dict[str, dict[str, Any]] = {"timing": {}, "absence": {}}
    index = 0

    def fail(why: str) -> TournamentError:
        return TournamentError(E_SYNTAX, f"cannot read {line!r}: {why}; write: {USAGE['create']}")

    def number(word: str) -> int:
        if index + 1 >= len(words) or not words[index + 1].rstrip("%").isdigit():
            raise fail(f"'{word}' needs a number after it")
        return int(words[index + 1].rstrip("%"))

    while index < len(words):
        word = words[index].lower()
        if word in ("players", "rounds", "games", "days", "reliability", "keep", "delay"):
            values[word] = number(word)
            index += 2
        elif word in ("to-the-end", "to_the_end"):
            values["to_the_end"] = True
            index += 1
        elif word in ("scoring", "secrets", "variant", "seats"):
            if index + 1 >= len(words):
                raise fail(f"'{word}' needs a value after it")
            values[word] = words[index + 1].lower()
            index += 2
        elif word in maps:
            index += 1
            while index < len(words) and (pair := _PAIR.match(words[index])):
                value = pair["value"]
                maps[word][pair["key"].lower()] = int(value) if value.isdigit() else value
                index += 1
        else:
            raise fail(f"{words[index]!r} is not a setting")
    if values.get("to_the_end") and "days" in values:
        raise fail("'days N' and 'to-the-end' exclude each other")
    scoring = values.get("scoring", Scoring.PLACES.value)
    if scoring not in (s.value for s in Scoring):
        raise fail("scoring is 'places' or 'winner'")
    secrets = values.get("secrets", "yes")
    if secrets not in ("yes", "no"):
        raise fail("secrets is 'yes' or 'no'")
    days = values.get("days")
    return Settings(
        players_per_game=values.get("players", 4),
        rounds=values.get("rounds", 1),
        max_games=values.get("games", 1),
        game_end=GameEndRule.TIME_LIMIT if days is not None else GameEndRule.TO_THE_END,
        time_limit_days=days,
        min_reliability=values.get("reliability", 0),
        scoring=Scoring(scoring),
        allow_secrets=secrets == "yes",
        time_limits=maps["timing"],
        absence=maps["absence"],
        variant=values.get("variant", STANDARD),
        seat_keeping=values.get("seats", "defaults"),
        keep_after=values.get("keep", 2),
        robot_delay=values.get("delay", 0),
    )
