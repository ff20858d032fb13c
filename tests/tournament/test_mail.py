"""
Tournament lines through the mail handler (in the message's transaction, no game tag
needed), the reliability record kept by the handler and the clock, and the service's
tournament job.
"""

from __future__ import annotations

from moderator.ports import StoredMail
from moderator.ports.players import DIRECTOR as DIRECTOR_ROLE
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.runners import clock as clockwork
from moderator.runners import mail as processing
from moderator.runners import tournaments as service
from moderator.store import EventStore, inbox, outbox, players
from moderator.store import tournaments as stored
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.mail.handler import MailGameHandler

from ..service.conftest import headers_of, plain_mail
from .conftest import DIRECTOR, MODERATOR, address, play_to_the_end, register, secret_of

NAMES = ("Ann", "Bob", "Cy", "Di")


def send(
    store: EventStore, name: str, lines: list[str], *, subject: str = "tournament"
) -> tuple[str, list[StoredMail]]:
    """``name`` mails ``lines`` (authenticated by his secret); his mail's status and mails."""
    body = "\n".join([f"secret {secret_of(name)}", *lines]) + "\n"
    message = inbox.receive(store, plain_mail(body, headers_of(name, subject=subject)))
    status = processing.process_message(store, message, MailGameHandler(None, MODERATOR))
    with store.reading() as tx:
        return status, outbox.mails(tx, inbound_id=message)


def reply(mails: list[StoredMail], name: str) -> str:
    """The answers to ``name``'s mail (the tournament lines', then the game's), as one text
    (both parts: the results quote his lines, so they are in the private part)."""
    answers = [m for m in mails if m.recipient == address(name) and m.kind == "reply"]
    assert answers and all(m.headers.get("In-Reply-To") for m in answers)
    return "\n".join(f"{m.body}\n{m.private_body or ''}" for m in answers)


def seats_of(store: EventStore, game_id: str) -> dict[str, str]:
    with store.reading() as tx:
        return {seat: who for who, seat in players.seats(tx, game_id).items()}


def opened(store: EventStore) -> None:
    register(store, DIRECTOR, *NAMES)
    status, mails = send(
        store, DIRECTOR, ["tournament create duel players 2 rounds 1 timing turn=24"]
    )
    assert status == inbox.PROCESSED
    assert "open for sign-up" in reply(mails, DIRECTOR)


def test_tournament_lines_by_mail_need_no_game(store: EventStore, clock: Clock) -> None:
    opened(store)
    for name in NAMES:
        status, mails = send(store, name, ["join tournament duel", "standings duel"])
        assert status == inbox.PROCESSED
        body = reply(mails, name)
        assert "You are on the waiting list of duel" in body
        assert "Standings of the tournament duel" in body
    with store.reading() as tx:
        state = stored.load(tx, "duel").state
    assert [e.name for e in state.entrants.values() if e.waiting] == list(NAMES)
    # A refused line is answered; the mail is still processed (nothing else to do).
    status, mails = send(store, "Ann", ["pause duel-1"])
    assert "Refused (E-T-" in reply(mails, "Ann")
    # Orders beside tournament lines in a mail naming no game are returned unread.
    status, mails = send(store, "Bob", ["standings duel", "move Rd01 to 7"])
    body = reply(mails, "Bob")
    assert "Not read (your mail names no game)" in body and "> move Rd01 to 7" in body


def test_a_mail_from_a_stranger_or_unauthenticated_changes_nothing(
    store: EventStore, clock: Clock
) -> None:
    opened(store)
    body = "secret wrong-secret-000\njoin tournament duel\n"
    message = inbox.receive(store, plain_mail(body, headers_of("Ann")))
    assert processing.process_message(store, message, MailGameHandler(None, MODERATOR)) == (
        inbox.REJECTED
    )
    with store.reading() as tx:
        assert not stored.load(tx, "duel").state.entrants


def test_games_start_by_the_job_and_moves_and_timeouts_are_counted(
    store: EventStore, clock: Clock
) -> None:
    opened(store)
    for name in NAMES:
        send(store, name, ["join tournament duel"])
    log = service.form_games(store, MODERATOR, clock.now(), seed=3)
    assert len(log) == 2
    game_id = "duel-1"
    state = store.load_state(game_id).state
    actor = to_act(state)
    assert actor is not None
    holder = seats_of(store, game_id)[actor]
    name = holder.split("@")[0].title()
    # The player to act answers in time, with a director line for another game in the
    # same mail: both are carried out.
    clock.advance(hours=1)
    status, mails = send(
        store,
        name,
        [f"ref {game_id}-{state.steps_seen(actor)}", legal_orders(state, actor)[0], "standings duel"],
        subject=f"[titan {game_id}] orders",
    )
    assert status == inbox.PROCESSED, mails
    assert store.load_state(game_id).state.version > state.version
    assert "Standings of the tournament duel" in reply(mails, name)
    with store.reading() as tx:
        assert stored.reliability(tx, holder) == (1, 0)
    # The next player to act sleeps past his deadline: a timeout is counted.
    after = store.load_state(game_id).state
    sleeper = to_act(after)
    assert sleeper is not None
    clock.advance(days=20)  # past any step's limit
    done = clockwork.check_deadlines(store, MODERATOR, clock.now())
    assert any("did not act" in line for line in done), done
    with store.reading() as tx:
        sleeper_at = seats_of(store, game_id)[sleeper]
        on_time, timeouts = stored.reliability(tx, sleeper_at)
    assert timeouts >= 1 and on_time == 0
    with store.reading() as tx:
        tournament = stored.load(tx, "duel").state
    assert tournament.games[game_id].players


def test_a_director_line_naming_the_mails_game_leaves_its_orders_unread(
    store: EventStore, clock: Clock
) -> None:
    opened(store)
    with store.transaction() as tx:
        players.set_roles(tx, address("Ann"), (DIRECTOR_ROLE,))
    for name in NAMES:
        send(store, name, ["join tournament duel"])
    service.form_games(store, MODERATOR, clock.now(), seed=3)
    game_id = next(g for g in ("duel-1", "duel-2") if address("Ann") in seats_of(store, g).values())
    # Dee directs the tournament: Ann, a director too, may not pause its games.
    status, mails = send(store, "Ann", [f"pause {game_id}", "status"], subject=f"[titan {game_id}]")
    body = reply(mails, "Ann")
    assert "Refused (E-T-DIRECTOR)" in body
    assert f"Not read (your tournament lines change game {game_id}" in body
    status, mails = send(
        store, DIRECTOR, [f"pause {game_id}", "status"], subject=f"[titan {game_id}]"
    )
    assert status == inbox.PROCESSED
    body = reply(mails, DIRECTOR)
    assert "paused the game" in body
    assert f"Not read (you have no seat in game {game_id})" in body
    assert store.record(game_id).paused is not None


def test_the_service_job_forms_and_finishes_games(store: EventStore, clock: Clock) -> None:
    opened(store)
    for name in NAMES:
        send(store, name, ["join tournament duel"])
    first = service.finish_games(store, MODERATOR) + service.form_games(
        store, MODERATOR, clock.now(), seed=3
    )
    assert len(first) == 2
    status, mails = send(store, DIRECTOR, ["end duel-1"])
    assert status == inbox.PROCESSED
    assert "duel-1 is stopped and scored" in reply(mails, DIRECTOR)
    clock.advance(minutes=5)
    assert service.finish_games(store, MODERATOR) == []  # recorded with the director's line
    with store.reading() as tx:
        state = stored.load(tx, "duel").state
    assert state.games["duel-1"].finished and not state.games["duel-2"].finished


def test_the_standings_answer_by_mail_shows_rating_and_reliability(
    store: EventStore, clock: Clock
) -> None:
    opened(store)
    for name in NAMES:
        send(store, name, ["join tournament duel"])
    service.form_games(store, MODERATOR, clock.now(), seed=3)
    game_id = "duel-1"
    seats = seats_of(store, game_id)
    lost_seat = min(seats)
    assert service.record_reliability(store, game_id, lost_seat, timeouts=2)
    assert play_to_the_end(store, game_id) > 0
    assert service.game_finished(store, MODERATOR, game_id)
    # counted after the result (a seat lost before it would leave the seat unscored)
    assert service.record_reliability(store, game_id, lost_seat, seats_lost=1)
    with store.reading() as tx:
        state = stored.load(tx, "duel").state
    result = state.games[game_id].result
    assert result is not None
    winner = dict(result.holders)[result.ranking[0][0]]
    loser = dict(result.holders)[result.ranking[-1][-1]]
    idle = next(n for n in NAMES if address(n) not in seats.values())  # in the other game
    _status, mails = send(store, idle, ["standings duel"])
    body = reply(mails, idle)
    table = body.split("Ratings and reliability:", 1)[1]

    def columns(player: str) -> list[str]:
        name = state.name_of(player)
        (row,) = [line for line in table.splitlines() if line.split()[:1] == [name]]
        return row.split()

    # name, rating (mu - 3 sigma), mu, deadlines met, missed, on time, seats lost
    if len(result.ranking) == 1:  # the game's dice are its own: both Titans may die at once
        assert columns(winner)[1:3] == columns(loser)[1:3]
    else:
        assert float(columns(winner)[1]) > float(columns(loser)[1])
    assert columns(seats[lost_seat])[4:] == ["2", "0%", "1"]
    assert columns(address(idle))[1:3] == ["-", "-"]  # in no finished game yet
