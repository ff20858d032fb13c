"""
The ``Lookup`` port's contract: the same questions get the same answers from the
in-memory store of the use-case tests (``moderator.testing``), SQLite and PostgreSQL.

Each backend is filled the one way the service fills the store, through the unit of
work (``Work``: the SQL store's ``write``, the memory's ``RecordingUnitOfWork``), so
the suite holds the two writers to one behaviour as well as the two readers.
PostgreSQL is the ``postgres_url`` server of ``tests/conftest.py``: skipped without
its binaries, a failure under ``CI=true``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from moderator.ports import (
    ASK,
    MOVE,
    AddressChange,
    ConflictError,
    GameNotFoundError,
    MailStatus,
    MessageDone,
    NewPlayer,
    Seal,
    TournamentWrite,
    UsedSeal,
    Work,
    game_write,
)
from moderator.ports.mail import (
    DROPPED,
    PENDING,
    PROCESSED,
    RECEIVED,
    REJECTED,
    UNDELIVERED,
)
from moderator.ports.players import token_hash
from moderator.ports.writes import MAIL_IN, MAIL_OUT
from moderator.rules import commands as cmd
from moderator.rules.decide import decide
from moderator.rules.dice import NoDice
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.schedule.record import GameRecord
from moderator.tournament import events as tev
from moderator.tournament.settings import Settings
from moderator.usecases.games.planning import plan_game

from .lookup_backends import ANN, BOB, CY, KEY, NOW, Backend, mail, register, two_player_game

# -- players ------------------------------------------------------------------------------


def test_a_player_is_found_by_his_address_in_any_case(backend: Backend) -> None:
    register(backend, "Ann@Example.ORG")
    with backend.reading() as lookup:
        found = lookup.player("  ann@example.org ")
        assert found is not None and found.name == "Ann" and found.address == ANN
        assert lookup.player("ANN@EXAMPLE.ORG") == found
        assert lookup.player(BOB) is None


def test_players_with_a_key_are_found_by_its_fingerprint(backend: Backend) -> None:
    """A key may be pinned by more than one player; they come in the order they signed on."""
    register(backend, ANN, key=KEY)
    register(backend, BOB, key=KEY)
    register(backend, CY)
    with backend.reading() as lookup:
        assert [p.address for p in lookup.players_with_key(KEY.lower())] == [ANN, BOB]
        assert lookup.players_with_key("CD" * 20) == []


def test_a_change_of_address_waits_for_its_confirmation(backend: Backend) -> None:
    """Asked from the new address, kept by its token's hash; carried out, the seats follow."""
    register(backend, ANN, BOB)
    two_player_game(backend)
    hashed = token_hash("tok-1")
    backend.write(Work(addresses=(AddressChange(ASK, "ANN@example.org", CY, hashed),)))
    with backend.reading() as lookup:
        waiting = lookup.pending_address_change(ANN)
        assert waiting is not None and (waiting.old, waiting.new) == (ANN, CY)
        assert waiting.token_hash == hashed and waiting.requested_at == NOW
    backend.write(Work(addresses=(AddressChange(MOVE, ANN, CY),)))
    with backend.reading() as lookup:
        assert lookup.pending_address_change(ANN) is None
        assert lookup.player(ANN) is None
        assert lookup.seats("g1") == {CY: "Ann", BOB: "Bob"}
        assert lookup.games_of(CY) == [("g1", "Ann")]


def test_a_move_to_a_taken_address_conflicts_and_changes_nothing(backend: Backend) -> None:
    register(backend, ANN, BOB)
    with pytest.raises(ConflictError):
        move = AddressChange(MOVE, ANN, BOB)
        backend.write(Work(players=(NewPlayer("Cy", CY),), addresses=(move,)))
    with backend.reading() as lookup:
        assert lookup.player(CY) is None and lookup.player(ANN) is not None


# -- games, seats and events --------------------------------------------------------------


def test_seats_name_the_players_of_a_game(backend: Backend) -> None:
    register(backend, ANN, BOB, CY)
    two_player_game(backend, "g2")
    two_player_game_of(backend, "g1", (("Cy", CY), ("Ann", ANN)))
    with backend.reading() as lookup:
        assert lookup.seats("g2") == {ANN: "Ann", BOB: "Bob"}
        seated = lookup.seated_players("g1")
        assert {seat: p.address for seat, p in seated.items()} == {"Cy": CY, "Ann": ANN}
        assert lookup.games_of("ANN@example.org") == [("g1", "Ann"), ("g2", "Ann")]
        assert lookup.games_of("nobody@example.org") == []
        assert lookup.seats("nope") == {} and lookup.seated_players("nope") == {}


def two_player_game_of(backend: Backend, game_id: str, seats: tuple[tuple[str, str], ...]) -> None:
    planned, _ = plan_game(game_id, ["Ann", "Bob"], 5, None, None, NOW, seats=seats)
    backend.write(Work(games=(planned,)))


def test_a_game_reads_as_it_was_written(backend: Backend) -> None:
    register(backend, ANN, BOB)
    planned, state = two_player_game(backend)
    with backend.reading() as lookup:
        game = lookup.game("g1")
        assert game is not None
        assert (game.game_id, game.seq, game.state) == ("g1", len(planned.events), state)
        assert game.record == planned.record == lookup.record("g1")
        assert dict(game.seats) == {ANN: "Ann", BOB: "Bob"}
        assert lookup.game("nope") is None and lookup.record("nope") is None


def test_events_after_and_up_to_a_sequence_number(backend: Backend) -> None:
    register(backend, ANN, BOB)
    planned, state = two_player_game(backend)
    more = decide(state, cmd.Withdraw(player=to_act(state)), NoDice())
    backend.write(Work(games=(game_write("g1", state.version, more),)))
    every = [*planned.events, *more]
    with backend.reading() as lookup:
        assert lookup.events("g1") == every
        assert lookup.events("g1", after=1) == every[1:]
        assert lookup.events("g1", after=1, upto=2) == every[1:2]
        assert lookup.events("g1", after=len(every)) == []
        with pytest.raises(GameNotFoundError):
            lookup.events("nope")


def test_active_games_leave_out_games_over_and_seats_out_of_the_game(backend: Backend) -> None:
    register(backend, ANN, BOB, CY)
    _, state = two_player_game(backend, "over")
    ended = decide(state, cmd.Withdraw(player=to_act(state)), NoDice())
    assert replay(ended, state).step is Step.OVER
    backend.write(Work(games=(game_write("over", state.version, ended),)))
    two_player_game_of(backend, "running", (("Ann", ANN), ("Zed", CY)))
    with backend.reading() as lookup:
        assert lookup.active_games_of(ANN) == [("running", "Ann")]
        assert lookup.active_games_of(CY) == []  # "Zed" is no player of the game


def test_a_stale_write_conflicts_and_nothing_of_its_work_lands(backend: Backend) -> None:
    """Optimistic per stream: a decision on an old sequence number is made again."""
    register(backend, ANN, BOB)
    _, state = two_player_game(backend)
    more = decide(state, cmd.Withdraw(player=to_act(state)), NoDice())
    stale = game_write("g1", state.version - 1, more, record=GameRecord(players=("X",)))
    with pytest.raises(ConflictError):
        backend.write(Work(players=(NewPlayer("Cy", CY),), games=(stale,), mails=(mail(CY),)))
    with backend.reading() as lookup:
        assert lookup.player(CY) is None and lookup.mails_today(CY, now=NOW) == 0
        game = lookup.game("g1")
        assert game is not None and game.seq == state.version and game.record != stale.record


# -- mail -----------------------------------------------------------------------------------


def test_mails_today_count_since_midnight_utc_by_kind(backend: Backend) -> None:
    """A mail written without a kind counts as every kind (it predates kinds); "today"
    is the day of the ``now`` the use case was handed, not the store's clock."""
    backend.now = NOW.replace(hour=0) - timedelta(minutes=1)
    backend.write(Work(mails=(mail(ANN),)))
    backend.now = NOW.replace(hour=0, minute=1)
    backend.write(Work(mails=(mail(ANN), mail(ANN, "reply"), mail(ANN, None), mail(BOB))))
    backend.now = NOW
    with backend.reading() as lookup:
        assert lookup.mails_today(ANN, now=NOW) == 3
        assert lookup.mails_today(" Ann@Example.org ", ("report",), now=NOW) == 2
        assert lookup.mails_today(ANN, ("reply", "refusal"), now=NOW) == 2
        assert lookup.mails_today(CY, now=NOW) == 0
        assert lookup.mails_today(ANN, now=NOW + timedelta(days=1)) == 0


def test_outbox_mail_by_id_and_by_message_id(backend: Backend) -> None:
    backend.write(Work(mails=(mail(ANN, subject="first"), mail(BOB, subject="second"))))
    first, second = backend.outbox_ids()
    backend.write(Work(undelivered=((second, "550 no such user"),)))
    with backend.reading() as lookup:
        one = lookup.outbox_mail(first)
        assert one is not None and (one.recipient, one.subject) == (ANN, "first")
        assert one.kind == "report"
        assert one.created_at == NOW and one.message_id
        assert lookup.outbox_mail_by_message_id(one.message_id) == one
        two = lookup.outbox_mail(second)
        assert two is not None and two.status == UNDELIVERED
        assert lookup.outbox_mail(second + 100) is None
        assert lookup.outbox_mail_by_message_id("<nothing@example.org>") is None


def test_the_operators_word_on_a_mail_applies_only_to_the_row_as_he_saw_it(
    backend: Backend,
) -> None:
    """``mail retry|drop``: a row the sender moved meanwhile is a conflict, decided again."""
    backend.write(Work(mails=(mail(ANN, subject="first"),)))
    (first,) = backend.outbox_ids()
    held = backend.receive(RAW)
    backend.write(Work(message=MessageDone(held, REJECTED, None, "held for the moderator: x")))
    dropped = MailStatus(MAIL_OUT, first, PENDING, DROPPED, "dropped by the operator")
    backend.write(Work(statuses=(dropped,)))
    again = MailStatus(MAIL_IN, held, REJECTED, RECEIVED)
    backend.write(Work(statuses=(again,)))
    with backend.reading() as lookup:
        one = lookup.outbox_mail(first)
        assert one is not None and one.status == DROPPED
        message = lookup.inbound_message(held)
        assert message is not None and (message.status, message.error) == (RECEIVED, None)
        assert lookup.inbound_message(held + 100) is None
    with pytest.raises(ConflictError):
        backend.write(Work(statuses=(dropped,)))  # it is no longer pending


RAW = b"Message-ID: <m1@example.org>\r\nSubject: orders\r\n\r\nroll\r\n"


def test_an_earlier_copy_is_one_already_dealt_with(backend: Backend) -> None:
    """The same Message-ID and body, processed or rejected before: a copy, or a replay."""
    first = backend.receive(RAW)
    again = backend.inbound(backend.receive(b"Received: by elsewhere\r\n" + RAW))
    with backend.reading() as lookup:
        assert lookup.earlier_copy(again) is None  # the first is not dealt with yet
    backend.write(Work(message=MessageDone(first, PROCESSED)))
    other_body = backend.inbound(backend.receive(RAW.replace(b"roll", b"split")))
    itself = backend.inbound(first)
    with backend.reading() as lookup:
        assert lookup.earlier_copy(again) == first
        assert lookup.earlier_copy(itself) is None
        assert lookup.earlier_copy(other_body) is None


def test_without_a_message_id_only_the_same_bytes_are_a_copy(backend: Backend) -> None:
    bare = b"Subject: orders\r\n\r\nroll\r\n"
    first = backend.receive(bare)
    backend.write(Work(message=MessageDone(first, REJECTED)))
    same = backend.inbound(backend.receive(bare))
    other_headers = backend.inbound(backend.receive(b"Subject: x\r\n\r\nroll\r\n"))
    with backend.reading() as lookup:
        assert lookup.earlier_copy(same) == first
        assert lookup.earlier_copy(other_headers) is None


# -- seals and tournaments -----------------------------------------------------------------


def test_a_seal_counts_once(backend: Backend) -> None:
    message = backend.receive(RAW)
    with backend.reading() as lookup:
        assert lookup.seal_used("d1") is None
    backend.write(Work(seals=(Seal("d1", "pgp"),)), inbound_id=message)
    with backend.reading() as lookup:
        assert lookup.seal_used("d1") == UsedSeal(NOW, message)
    with pytest.raises(ConflictError):
        backend.write(Work(seals=(Seal("d1", "secret"),)))


def test_a_tournament_has_a_head_and_a_director(backend: Backend) -> None:
    register(backend, ANN, BOB)
    created = tev.TournamentCreated(
        tournament="spring",
        director=ANN,
        director_name="Ann",
        settings=Settings().to_payload(),
        at=NOW.isoformat(),
    )
    backend.write(Work(tournaments=(TournamentWrite("spring", 0, (created,), "Ann@Example.org"),)))
    with backend.reading() as lookup:
        assert lookup.tournament_head("spring") == 1
        assert lookup.director("spring") == ANN
        assert lookup.tournament_head("autumn") is None and lookup.director("autumn") is None
    with pytest.raises(ConflictError):
        backend.write(Work(tournaments=(TournamentWrite("spring", 0, (created,)),)))
    backend.write(Work(addresses=(AddressChange(MOVE, ANN, CY),)))
    with backend.reading() as lookup:
        assert lookup.director("spring") == CY
        assert lookup.tournament_head("spring") == 2  # the move is recorded in its stream


def test_tournaments_are_listed_finished_or_not_and_reliability_adds_up_across_them(
    backend: Backend,
) -> None:
    """Reliability (issue 7) counts a player's moves in time and timeouts over every
    tournament he played in, finished or not."""
    register(backend, ANN, BOB)
    for name, director in (("spring", ANN), ("autumn", BOB)):
        created = tev.TournamentCreated(
            tournament=name,
            director=director,
            director_name=director,
            settings=Settings().to_payload(),
            at=NOW.isoformat(),
        )
        joined = tev.PlayerJoined(player=ANN, name="Ann")
        write = TournamentWrite(name, 0, (created, joined), director)
        backend.write(Work(tournaments=(write,)))
    spring = (
        tev.ReliabilityRecorded(player=ANN, game="g1", seat="Ann", on_time=3, timeouts=1),
        tev.TournamentFinished(),
    )
    autumn = (tev.ReliabilityRecorded(player=ANN, game="g2", seat="Ann", on_time=2, timeouts=0),)
    both = (TournamentWrite("spring", 2, spring), TournamentWrite("autumn", 2, autumn))
    backend.write(Work(tournaments=both))
    with backend.reading() as lookup:
        assert lookup.tournament_ids() == ["autumn", "spring"]
        assert lookup.tournament_ids(finished=True) == ["spring"]
        assert lookup.tournament_ids(finished=False) == ["autumn"]
        assert lookup.reliability(ANN) == (5, 1) and lookup.reliability(BOB) == (0, 0)
        loaded = lookup.tournament("spring")
        assert loaded is not None and loaded.seq == 4 and loaded.state.finished
        assert lookup.tournament("winter") is None


def test_games_are_listed_by_name_with_their_records_and_seats(backend: Backend) -> None:
    register(backend, ANN, BOB)
    second, _ = two_player_game(backend, "g2")
    first, _ = two_player_game(backend, "g1")
    with backend.reading() as lookup:
        assert lookup.game_ids() == ["g1", "g2"]
        assert lookup.record("g1") == first.record and lookup.record("g2") == second.record
        assert lookup.record("g3") is None and lookup.game("g3") is None
        assert lookup.games_of(ANN) == [("g1", "Ann"), ("g2", "Ann")]
        assert lookup.games_of(CY) == []


def test_each_store_names_its_database(backend: Backend) -> None:
    with backend.reading() as lookup:
        assert lookup.database
