"""
A small tournament by mail, on SQLite and PostgreSQL: sign-up, games formed by
themselves, a seat handed over, the director's lines, a game finished and the
standings mailed.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from moderator.audit.verify import verify
from moderator.ports import Outcome, StoredMail
from moderator.ports.deadlines import GAME_END
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.runners import mail as processing
from moderator.runners import tournaments as service
from moderator.store import EventStore, deadlines, inbox, outbox, players
from moderator.store import tournaments as stored
from moderator.testing.clocks import TestClock as Clock
from moderator.usecases.mail.handler import MailGameHandler

from ..service.conftest import carries_report, headers_of, plain_mail
from ..service.privacy import Knowledge, leaks
from .conftest import DIRECTOR, MODERATOR, address, play_to_the_end, register, secret_of

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


def lines_of(
    store: EventStore, name: str, lines: list[str], clock: Clock
) -> Outcome:
    """``name``'s tournament lines, carried out and their mails stored, as the handler would."""
    assert store.clock() == clock.now()
    return service.carry_out(
        store,
        address(name),
        lines,
        moderator_address=MODERATOR,
        headers={"In-Reply-To": "<m@example.org>"},
    )


def reply_of(out: Outcome, name: str) -> str:
    first = out.mails[0]
    assert first.recipient == address(name) and first.kind == "reply"
    assert first.headers["In-Reply-To"] == "<m@example.org>"
    return f"{first.body}\n{first.private_body or ''}"  # the results quote his lines: private


def all_mails(store: EventStore) -> list[StoredMail]:
    with store.reading() as tx:
        return outbox.mails(tx)


def new_mails(store: EventStore, before: int) -> list[StoredMail]:
    return all_mails(store)[before:]


def seats_of(store: EventStore, game_id: str) -> dict[str, str]:
    with store.reading() as tx:
        return {seat: address_ for address_, seat in players.seats(tx, game_id).items()}


def started(store: EventStore, clock: Clock) -> None:
    """Dee's tournament, six players on its waiting list, Gus on standby."""
    register(store, DIRECTOR, *NAMES, "Gus")
    out = lines_of(
        store,
        DIRECTOR,
        ["tournament create spring players 3 rounds 2 days 90 timing turn=48 absence count=2"],
        clock,
    )
    assert "open for sign-up" in reply_of(out, DIRECTOR)
    for name in NAMES:
        body = reply_of(lines_of(store, name, ["join tournament spring"], clock), name)
        assert "You are on the waiting list of spring" in body
    body = reply_of(lines_of(store, "Gus", ["standby tournament spring"], clock), "Gus")
    assert "standby list of spring" in body


def test_sign_ups_are_stored_and_games_formed(any_store: EventStore, clock: Clock) -> None:
    store = any_store
    started(store, clock)
    with store.reading() as tx:
        state = stored.load(tx, "spring").state
    assert [e.name for e in state.entrants.values() if e.waiting] == list(NAMES)
    assert state.entrants[address("Gus")].standby
    before = len(all_mails(store))
    log = service.form_games(store, MODERATOR, clock.now(), seed=4)
    assert len(log) == 2 and all("formed spring-" in line for line in log)
    assert {"spring-1", "spring-2"} <= set(store.games())
    mails = new_mails(store, before)
    for name in NAMES:
        kinds = sorted(m.kind or "" for m in mails if m.recipient == address(name))
        assert kinds == ["notice", "report"]
    start = next(m for m in mails if m.recipient == address("Ann") and m.kind == "notice")
    assert "The tournament spring has formed the game" in start.body
    assert "time limit is reached at 2024-09-29" in start.body
    for game_id in ("spring-1", "spring-2"):
        record = store.record(game_id)
        assert record.tournament == "spring"
        assert record.time_limits is not None
        assert record.time_limits.turn_hours == 48
        assert record.time_limits.absences == 2
        assert record.ends_at == clock.now() + timedelta(days=90)
        assert record.deadline is not None  # the first deadline runs
        assert len(seats_of(store, game_id)) == 3
        assert store.load_state(game_id).state.step is Step.COLOUR
    assert service.form_games(store, MODERATOR, clock.now(), seed=4) == []  # nobody is free


def test_refusals_are_answered_with_codes(any_store: EventStore, clock: Clock) -> None:
    store = any_store
    started(store, clock)
    service.form_games(store, MODERATOR, clock.now(), seed=4)
    out = lines_of(
        store,
        "Ann",
        [
            "tournament create mine players 2",
            "join tournament spring",
            "pause spring-1",
            "standings nowhere",
            "extend nowhere-1 24",
            "replace Ann",
            "standings spring",
        ],
        clock,
    )
    body = reply_of(out, "Ann")
    for code in ("E-T-DIRECTOR", "E-T-JOINED", "E-T-UNKNOWN", "E-T-GAME", "E-T-SYNTAX"):
        assert f"Refused ({code})" in body
    assert "Standings of the tournament spring" in body
    assert "6 refused, 1 answered" in body


def test_a_seat_is_handed_to_a_standby(any_store: EventStore, clock: Clock) -> None:
    store = any_store
    started(store, clock)
    service.form_games(store, MODERATOR, clock.now(), seed=4)
    game_id = "spring-1"
    seats = seats_of(store, game_id)
    seat, old = min(seats.items())
    knowledge = Knowledge()
    knowledge.follow(store.load(game_id))
    clock.advance(hours=1)
    before = len(all_mails(store))
    out = lines_of(store, DIRECTOR, [f"replace {seat} in {game_id}"], clock)
    assert f"{seat} in {game_id} is now {address('Gus')}" in reply_of(out, DIRECTOR)
    assert seats_of(store, game_id)[seat] == address("Gus")
    mails = new_mails(store, before)
    to_gus = {m.kind: m for m in mails if m.recipient == address("Gus")}
    assert set(to_gus) == {"notice", "report"}
    assert f"You now hold the seat {seat}" in to_gus["notice"].body
    assert leaks(to_gus["report"], seat, knowledge) == []
    assert "Welcome" not in to_gus["report"].body
    to_old = [m for m in mails if m.recipient == old]
    assert [m.kind for m in to_old] == ["notice"]
    assert "you get no more mail about the game" in to_old[0].body
    # The game goes on: the player to act sends his order by mail; Gus has chosen to
    # hear of every change (``notify all``), so each report to him is checked for leaks.
    with store.transaction() as tx:
        loaded = tx.load(game_id)
        notify = {**loaded.record.notify, seat: "all"}
        tx.append(game_id, loaded.seq, [], record=loaded.record.but(notify=notify))
    handler = MailGameHandler(None, MODERATOR)
    state = store.load_state(game_id).state
    actor = to_act(state)
    assert actor is not None
    holder = seats_of(store, game_id)[actor]
    name = holder.split("@")[0].title()
    body = (
        f"game {game_id}\nref {game_id}-{state.steps_seen(actor)}\nsecret {secret_of(name)}\n"
        f"{legal_orders(state, actor)[0]}\n"
    )
    headers = headers_of(name, sender=holder)
    message = inbox.receive(store, plain_mail(body, headers))
    assert processing.process_message(store, message, handler) == inbox.PROCESSED
    with store.reading() as tx:
        sent = outbox.mails(tx, inbound_id=message)
    assert not [m for m in sent if m.recipient == old]  # the old player gets nothing new
    knowledge = Knowledge()
    knowledge.follow(store.load(game_id))
    gus_reports = [  # a report, or his answer carrying it when the order was his
        m for m in sent if m.recipient == address("Gus") and carries_report(m)
    ]
    assert gus_reports
    for mail in gus_reports:
        assert leaks(mail, seat, knowledge) == []
    # The old player's mail for the game is refused: he has no seat any more.
    old_name = old.split("@")[0].title()
    stale = plain_mail(
        f"game {game_id}\nsecret {secret_of(old_name)}\nstatus\n", headers_of(old_name)
    )
    message = inbox.receive(store, stale)
    assert processing.process_message(store, message, handler) == inbox.REJECTED
    with store.reading() as tx:
        assert "no seat" in (inbox.message(tx, message).error or "")
        tournament = stored.load(tx, "spring").state
    assert tournament.games[game_id].replaced == ((seat, old, address("Gus")),)


def test_pause_resume_and_extend_move_the_clock(any_store: EventStore, clock: Clock) -> None:
    store = any_store
    started(store, clock)
    service.form_games(store, MODERATOR, clock.now(), seed=4)
    game_id = "spring-2"
    with store.reading() as tx:
        first = [d for d in deadlines.open_deadlines(tx, game_id) if d.acting]
    assert len(first) == 1
    clock.advance(hours=5)
    out = lines_of(store, DIRECTOR, [f"pause {game_id}"], clock)
    assert "paused the game" in reply_of(out, DIRECTOR)
    assert len([m for m in out.mails if m.kind == "notice"]) == 3
    record = store.record(game_id)
    assert record.paused is not None and record.time_limits is None
    with store.reading() as tx:
        assert deadlines.open_deadlines(tx, game_id) == []
    clock.advance(days=2)
    out = lines_of(store, DIRECTOR, [f"resume {game_id}"], clock)
    assert "paused for 2 day(s)" in reply_of(out, DIRECTOR)
    record = store.record(game_id)
    assert record.time_limits is not None and record.time_limits.turn_hours == 48
    assert record.ends_at == first[0].created_at + timedelta(days=92)
    with store.reading() as tx:
        (acting,) = [d for d in deadlines.open_deadlines(tx, game_id) if d.acting]
        (end,) = [d for d in deadlines.open_deadlines(tx, game_id) if d.kind == GAME_END]
    assert acting.due_at > clock.now() and end.due_at == record.ends_at
    out = lines_of(store, DIRECTOR, [f"extend {game_id} 24"], clock)
    assert "Deadline now" in reply_of(out, DIRECTOR)
    with store.reading() as tx:
        (moved,) = [d for d in deadlines.open_deadlines(tx, game_id) if d.acting]
    assert moved.due_at == acting.due_at + timedelta(hours=24)


def test_a_seat_lost_is_counted_for_the_player_who_held_it(
    any_store: EventStore, clock: Clock
) -> None:
    store = any_store
    started(store, clock)
    service.form_games(store, MODERATOR, clock.now(), seed=4)
    seat, holder = next(iter(seats_of(store, "spring-1").items()))
    assert service.record_reliability(store, "spring-1", seat, seats_lost=1)
    with store.reading() as tx:
        state = stored.load(tx, "spring").state
    entrant = state.entrants[holder]
    assert (entrant.on_time, entrant.timeouts, entrant.seats_lost) == (0, 0, 1)
    assert sum(e.seats_lost for e in state.entrants.values()) == 1


def test_a_finished_game_records_its_result_and_mails_the_standings(
    any_store: EventStore, clock: Clock
) -> None:
    store = any_store
    started(store, clock)
    service.form_games(store, MODERATOR, clock.now(), seed=4)
    game_id = "spring-2"
    seated = set(seats_of(store, game_id).values())
    assert service.game_finished(store, MODERATOR, game_id) == []  # not over yet
    seat = next(iter(seats_of(store, "spring-1")))
    assert service.record_reliability(store, "spring-1", seat, on_time=3, timeouts=1)
    assert play_to_the_end(store, game_id) > 0
    assert store.load_state(game_id).state.step is Step.OVER
    before = len(all_mails(store))
    log = service.game_finished(store, MODERATOR, game_id)
    assert log and "spring-2 finished (play)" in log[0]
    mails = new_mails(store, before)
    recipients = {m.recipient for m in mails}
    assert recipients == {address(n) for n in (*NAMES, DIRECTOR)}
    text = mails[0].body
    assert f"Game {game_id} is over (played to its end)" in text
    assert "Standings of the tournament spring" in text
    assert all(m.kind == "notice" for m in mails)
    # Idempotent: nothing more the second time, nor from the sweep.
    assert service.game_finished(store, MODERATOR, game_id) == []
    assert service.finish_games(store, MODERATOR) == []
    assert len(all_mails(store)) == before + len(mails)
    with store.reading() as tx:
        state = stored.load(tx, "spring").state
        assert stored.reliability(tx, seats_of(store, "spring-1")[seat]) == (3, 1)
    assert state.games[game_id].finished
    # Its three players are free again, with a game left each: they play again.
    log = service.form_games(store, MODERATOR, clock.now(), seed=4)
    assert log == [line for line in log if "formed spring-3" in line] and len(log) == 1
    assert set(seats_of(store, "spring-3").values()) == seated


def test_the_director_ends_a_game_and_the_tournament_ends(
    any_store: EventStore, clock: Clock
) -> None:
    store = any_store
    register(store, DIRECTOR, "Ann", "Bob")
    lines_of(store, DIRECTOR, ["tournament create duel players 2 rounds 1 scoring winner"], clock)
    for name in ("Ann", "Bob"):
        lines_of(store, name, ["join tournament duel"], clock)
    service.form_games(store, MODERATOR, clock.now(), seed=1)
    before = len(all_mails(store))
    out = lines_of(store, DIRECTOR, ["end duel-1"], clock)
    assert "duel-1 is stopped and scored" in reply_of(out, DIRECTOR)
    state = store.load_state("duel-1").state
    assert state.step is Step.OVER
    mails = new_mails(store, before)
    standings = [m for m in mails if "final standings" in m.subject]
    assert {m.recipient for m in standings} == {address(n) for n in ("Ann", "Bob", DIRECTOR)}
    assert "stopped by the director" in standings[0].body
    assert "The tournament duel is over" in standings[0].body
    with store.reading() as tx:
        tournament = stored.load(tx, "duel").state
        assert stored.tournament_ids(tx, finished=True) == ["duel"]
    assert tournament.finished
    assert tournament.games["duel-1"].result is not None
    assert tournament.games["duel-1"].result.ended == "director"
    out = lines_of(store, "Ann", ["join tournament duel"], clock)
    assert "E-T-FINISHED" in reply_of(out, "Ann")
    # Issue 16: the game's end mailed its audit to both players, and it verifies.
    audits = [m for m in mails if m.kind == "audit"]
    assert {m.recipient for m in audits} == {address(n) for n in ("Ann", "Bob")}
    bundle = json.loads(audits[0].attachments[0]["text"])
    assert audits[0].attachments[0]["content_type"] == "application/json"
    assert verify(bundle).ok, verify(bundle).problem
    assert bundle["final"]["events"] == state.version


def test_issue_16_the_director_asks_again_for_a_finished_games_audit(
    store: EventStore, clock: Clock
) -> None:
    register(store, DIRECTOR, "Ann", "Bob")
    lines_of(store, DIRECTOR, ["tournament create duel players 2 rounds 1 scoring winner"], clock)
    for name in ("Ann", "Bob"):
        lines_of(store, name, ["join tournament duel"], clock)
    service.form_games(store, MODERATOR, clock.now(), seed=1)
    out = lines_of(store, DIRECTOR, ["audit duel-1"], clock)
    assert "E-T-GAME" in reply_of(out, DIRECTOR) and "not over" in reply_of(out, DIRECTOR)
    out = lines_of(store, "Ann", ["audit duel-1"], clock)
    assert "E-T-DIRECTOR" in reply_of(out, "Ann")
    lines_of(store, DIRECTOR, ["end duel-1"], clock)
    before = len(all_mails(store))
    out = lines_of(store, DIRECTOR, ["audit duel-1"], clock)
    assert "The audit of duel-1 is on its way." in reply_of(out, DIRECTOR)
    again = [m for m in new_mails(store, before) if m.kind == "audit"]
    assert {m.recipient for m in again} == {address(n) for n in ("Ann", "Bob", DIRECTOR)}
    assert "as the director asked" in again[0].body
    assert verify(json.loads(again[0].attachments[0]["text"])).ok


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("tournament create bad players 3 timing turn=-5", "E-T-SETTINGS"),
        ("tournament create bad players 3 timing colour=5", "E-T-SETTINGS"),
        ("tournament create bad players 9", "E-T-SETTINGS"),
        ("tournament create bad timing reminders=4,x", "E-T-SETTINGS"),
    ],
)
def test_bad_settings_are_refused(store: EventStore, clock: Clock, line: str, code: str) -> None:
    register(store, DIRECTOR)
    out = lines_of(store, DIRECTOR, [line], clock)
    assert f"Refused ({code})" in reply_of(out, DIRECTOR)
    with store.reading() as tx:
        assert stored.tournament_ids(tx) == []


def test_a_withdrawal_tells_the_director_which_seats_to_fill(
    any_store: EventStore, clock: Clock
) -> None:
    store = any_store
    started(store, clock)
    service.form_games(store, MODERATOR, clock.now(), seed=4)
    game_id, seat = next(
        (g, s)
        for g in ("spring-1", "spring-2")
        for s, a in seats_of(store, g).items()
        if a == address("Ann")
    )
    out = lines_of(store, "Ann", ["withdraw from tournament spring"], clock)
    assert "You have withdrawn from spring" in reply_of(out, "Ann")
    (notice,) = out.mails[1:]
    assert notice.recipient == address(DIRECTOR)
    assert f"Seats to hand over: {game_id} ({seat})" in notice.body
    out = lines_of(store, DIRECTOR, [f"replace {seat} in {game_id} with nobody@example.org"], clock)
    assert "Refused (E-T-PLAYER)" in reply_of(out, DIRECTOR)
    out = lines_of(
        store, DIRECTOR, [f"replace ann@example.org in {game_id} with gus@example.org"], clock
    )
    assert f"{seat} in {game_id} is now gus@example.org" in reply_of(out, DIRECTOR)


def test_a_seats_former_holder_gets_the_public_audit_bundle_and_it_verifies(
    store: EventStore, clock: Clock
) -> None:
    """
    Ann's seat was handed to Cy: at the game's end she still gets an audit (Wolff's fair
    dice are hers to check for the turns she played, and her proof the seat was taken
    from her), the public bundle: no aside of anybody's, nothing of Cy's private part;
    it verifies.  The record names her a former holder from the start to the handover.
    """
    register(store, DIRECTOR, "Ann", "Bob", "Cy")
    lines_of(store, DIRECTOR, ["tournament create duel players 2 rounds 1 scoring winner"], clock)
    for name in ("Ann", "Bob"):
        lines_of(store, name, ["join tournament duel"], clock)
    service.form_games(store, MODERATOR, clock.now(), seed=1)
    seat = next(s for s, a in seats_of(store, "duel-1").items() if a == address("Ann"))
    at = store.load_state("duel-1").state.version
    lines_of(store, DIRECTOR, [f"replace {seat} in duel-1 with {address('Cy')}"], clock)
    (former,) = store.record("duel-1").former
    assert (former.seat, former.address, former.since, former.until) == (
        seat, address("Ann"), 0, at
    )
    before = len(all_mails(store))
    lines_of(store, DIRECTOR, ["end duel-1"], clock)
    audits = {m.recipient: m for m in new_mails(store, before) if m.kind == "audit"}
    assert set(audits) == {address(n) for n in ("Ann", "Bob", "Cy")}
    bundle = json.loads(audits[address("Ann")].attachments[0]["text"])
    assert bundle["reader"] is None
    assert verify(bundle).ok, verify(bundle).problem
    assert json.loads(audits[address("Cy")].attachments[0]["text"])["reader"] == seat
