"""
What a tournament director's line does to one of the tournament's games, once the
tournament's event is decided: the game's clock stopped (``pause_game``), started
again (``resume_game``) or its deadline moved (``extend_deadline``), the game ended
and scored (``stop_game``), a seat's report sent to its new holder
(``seat_handed_over``), a finished game's audit sent again (``audit_again``).  Each writes its change through the unit of work in the
tournament line's transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from moderator.audit.seal import DIRECTOR_END
from moderator.letters import tournaments as wording
from moderator.letters.moments import deadline_line
from moderator.play.dice import sealed
from moderator.ports import (
    DeadlineChange,
    GameContext,
    LoadedGame,
    OutgoingMail,
    Player,
    Work,
    game_write,
)
from moderator.ports.deadlines import GAME_END, deadline_change
from moderator.rules.state import Step
from moderator.schedule import timing
from moderator.schedule.record import Pause
from moderator.service import audits, notify
from moderator.service.tournament_games import TournamentOutcome, notice, to_seats
from moderator.store import players
from moderator.store.eventstore import Tx
from moderator.store.handling import SqlLookup
from moderator.store.unit_of_work import write
from moderator.tournament import errors as err
from moderator.tournament import events as tev
from moderator.tournament.errors import TournamentError
from moderator.tournament.scoring import stop_events
from moderator.tournament.state import TournamentGame, TournamentState


def _game_context(tx: Tx, game_id: str) -> tuple[GameContext, LoadedGame]:
    loaded = tx.load(game_id, lock=True)
    context = GameContext(
        game_id, loaded.state, loaded.seq, loaded.record, players.seats(tx, game_id)
    )
    return context, loaded


def pause_game(tx: Tx, game_id: str, now: datetime) -> list[str]:
    """Stop the game's clock: its limits are kept aside, its deadlines cancelled."""
    loaded = tx.load(game_id, lock=True)
    record = loaded.record
    record = record.but(time_limits=None, deadline=None, paused=Pause(now, record.time_limits))
    stopped = (DeadlineChange("", None), DeadlineChange(GAME_END, None))
    write(tx, Work(games=(game_write(game_id, loaded.seq, record=record, deadlines=stopped),)))
    return wording.paused_lines()


def resume_game(tx: Tx, game_id: str, now: datetime) -> list[str]:
    """Start the clock again: a fresh deadline for the player to act, the end date moved on."""
    loaded = tx.load(game_id, lock=True)
    record, paused = loaded.record, loaded.record.paused
    changes: list[DeadlineChange] = []
    record = record.but(paused=None)
    if paused is not None and paused.time_limits is not None:
        record = record.but(time_limits=paused.time_limits)
    since = paused.at if paused is not None else now
    ends = record.ends_at
    if ends is not None:
        ends += now - since
        record = record.but(ends_at=ends)
        changes.append(DeadlineChange(GAME_END, ends))
    record, change = timing.follow(loaded.state, record, now)
    changes.extend(deadline_change(change))
    write(tx, Work(games=(game_write(game_id, loaded.seq, record=record, deadlines=changes),)))
    ends_at = timing.iso(ends) if ends is not None else ""
    return wording.resumed_lines(now - since, ends_at, deadline_line(record))


def extend_deadline(tx: Tx, game_id: str, hours: int, now: datetime) -> list[str]:
    loaded = tx.load(game_id, lock=True)
    record, change = timing.extend(loaded.record, timedelta(hours=hours), now)
    if change is None:
        return wording.extended_lines(None)
    moved = deadline_change(change)
    write(tx, Work(games=(game_write(game_id, loaded.seq, record=record, deadlines=moved),)))
    return wording.extended_lines(deadline_line(record))


def stop_game(tx: Tx, sender: str, game_id: str, now: datetime) -> TournamentOutcome:
    """End the game now, scored by rulebook 20.5: reports and the result to every player."""
    context, loaded = _game_context(tx, game_id)
    new = stop_events(loaded.state)
    if not new:
        return TournamentOutcome()
    new, state, record = sealed(loaded.state, new, loaded.record, game_id, DIRECTOR_END, DIRECTOR_END)
    settled = notify.settle(sender, context, SqlLookup(tx), new, state, record, now)
    rows = (*settled.deadlines, DeadlineChange(GAME_END, None))
    game = game_write(game_id, loaded.seq, new, record=settled.record, state=state, deadlines=rows)
    write(tx, Work(games=(game,)))
    return TournamentOutcome(settled.mails, [f"{game_id}: stopped by the director and scored"])


def seat_handed_over(
    tx: Tx,
    sender: str,
    state: TournamentState,
    game: TournamentGame,
    replaced: tev.SeatReplaced,
    now: datetime,
) -> TournamentOutcome:
    """The seat's report to its new holder (what the seat may see), and word to everyone."""
    context, loaded = _game_context(tx, game.game)
    settled = notify.settle(
        sender, context, SqlLookup(tx), [], loaded.state, loaded.record, now, {replaced.seat}
    )
    write(
        tx,
        Work(
            games=(
                game_write(
                    game.game, loaded.seq, record=settled.record, deadlines=settled.deadlines
                ),
            )
        ),
    )
    heading, to_new, to_old, to_others = wording.replacement(state, replaced)
    mails: list[OutgoingMail] = []
    for address, lines in ((replaced.new, to_new), (replaced.old, to_old)):
        player = players.player_by_address(tx, address)
        if player is not None:
            mails.append(notice(sender, player, heading, lines, game.game))
    others = [p for p in game.players if p != replaced.new]
    mails.extend(to_seats(tx, sender, game, heading, to_others, only=others))
    mails.extend(settled.mails)
    return TournamentOutcome(
        mails, [f"{game.game}: {replaced.seat} {replaced.old} -> {replaced.new}"]
    )



def audit_again(
    tx: Tx, sender: str, state: TournamentState, game_id: str, by: str, now: datetime
) -> TournamentOutcome:
    """
    The director's ``audit GAME``: a finished game's audit bundle mailed again to every
    player of it and to the director.

    Raises:
        TournamentError: not the director, the game is not over, or its dice are not bound.
    """
    if by != state.director:
        raise TournamentError(err.E_DIRECTOR, f"only the director of {state.name} may ask for it")
    loaded = tx.load(game_id)
    if loaded.state.step is not Step.OVER:
        raise TournamentError(
            err.E_GAME,
            f"{game_id} is not over: its audit tells the dice seed, so it comes after the game",
        )
    events = tx.events(game_id)
    if not loaded.record.dice.bound or loaded.record.dice.seed is None:
        raise TournamentError(err.E_GAME, f"{game_id} was played with scripted dice: no audit")
    to: dict[str, tuple[str | None, Player]] = {
        seat: (seat, p) for seat, p in players.seated_players(tx, game_id).items()
    }
    director = players.player_by_address(tx, state.director)
    if director is not None and director.address not in {p.address for _, p in to.values()}:
        to["(director)"] = (None, director)  # no seat: the bundle anybody may have
    mails = []
    for reader, p in (to[key] for key in sorted(to)):
        found = audits.audit(game_id, events, loaded.record, now, reader, asked="the director")
        assert found is not None
        mails.append(
            found.attached_to(notify.mail_to(sender, p, audits.AUDIT, found.texts, game_id, {}))
        )
    return TournamentOutcome(mails, [f"{game_id}: audit sent again to {len(mails)}"])


__all__ = [
    "audit_again","extend_deadline", "pause_game", "resume_game", "seat_handed_over", "stop_game"]
