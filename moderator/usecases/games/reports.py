"""
What a player's report holds, gathered from the game: the events he may see, the public
view, his legions and those he knows of, the orders he may give, the audit's notes and
the pictures.  ``letters.reports.report`` words it; ``service.subjects`` says in the
subject why it is sent.

Everything here is built from ``player_view(state, viewer)`` and the events ``viewer``
may see, so no report can hold anything its recipient may not know: the public part
(signed) gets the public view and those public events that name no legion's contents;
the private part (never signed, encrypted to the player when he has a key: Wolff 4.5)
the rest, with the public events that do name contents (reveals, musters, a battle's
strikes) and the openings of commitments: every player saw them, none may prove them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.letters import reports as letters
from moderator.letters.moments import deadline_whose
from moderator.letters.texts import Texts
from moderator.orders.errors import OrderError
from moderator.orders.standing import read as read_standing
from moderator.pictures.changes import board_changes
from moderator.pictures.spec import BATTLE, Picture, report_pictures
from moderator.reporting.audit_notes import audit_notes, audit_openings
from moderator.reporting.knowledge import KnownLegion, legion_line
from moderator.reporting.move_plan import plan_lines, sharing_notes
from moderator.reporting.muster_notes import caretaker_lines, muster_notes
from moderator.reporting.narrate import describe, is_bookkeeping, may_see
from moderator.reporting.stakes import stakes_lines
from moderator.reporting.views import land_name, legal_lines, marker_names, player_view
from moderator.reporting.visibility import (
    before_his_hold,
    names_contents,
    order_unseen,
    robot_marks,
)
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import Variant
from moderator.schedule import holders
from moderator.schedule import pictures as pictures_choice
from moderator.schedule.record import GameRecord
from moderator.schedule.reference import StepRef
from moderator.usecases.games import subjects
from moderator.usecases.games.shown import NOTHING_SHOWN, Shown, battle_changed

#: (event, the game just before it): what a report narrates.
Timeline = Sequence[tuple[ev.Event, GameState]]


def _whose(state: GameState) -> tuple[str | None, bool]:
    """(the player to act, whether the game is over)."""
    return to_act(state), state.step is Step.OVER


def _legion_line(view: Mapping[str, Any], names: Mapping[str, str], variant: Variant) -> str:
    picture = names.get(view["marker"], "")
    contents = ", ".join(view["contents"]) if view["contents"] is not None else "contents unknown"
    moved = " (moved)" if view["moved"] else ""
    where = land_name(variant, view["land"])
    return f"{view['marker']} ({picture}) in {where}, {view['height']} high: {contents}{moved}"


def _known_line(
    known: KnownLegion, view: Mapping[str, Any], names: Mapping[str, str], variant: Variant
) -> str:
    """Another player's legion as ``known`` says the viewer knows it (Wolff 4.5: only in
    the private part)."""
    land = int(view["land"])
    terrain = variant.lands[land].terrain
    moved = " (moved)" if view["moved"] else ""
    return legion_line(known, land, terrain, names.get(known.marker) or None) + moved


def visible(
    timeline: Timeline, viewer: str, held_since: int = 0
) -> tuple[list[str], list[str], list[str]]:
    """
    (public lines, lines every player saw that name what a legion holds, private lines)
    of the events ``viewer`` may see in ``timeline``: the first go in the signed part,
    the other two in the private part (Wolff 4.5: nothing signed names contents); not
    the messages relayed to his seat's former holder (``held_since``).
    """
    public: list[str] = []
    told: list[str] = []
    private: list[str] = []
    unseen = False  # the viewer missed an event of the order being read
    for event, before in timeline:
        missed, unseen = unseen, order_unseen(event, viewer, unseen)
        if not may_see(event, viewer) or before_his_hold(event, before.version + 1, held_since):
            continue
        signed, unsigned = robot_marks(event, saw_all=not missed)
        if signed is not None and event.visible_to is not None:
            private.append(signed)
        elif signed is not None:
            public.append(signed)
        if unsigned is not None:  # a robot's split or muster names what it holds: unsigned
            told.append(unsigned)
        if is_bookkeeping(event):
            continue
        if event.visible_to is not None:
            private.append(describe(event, before))
        else:
            (told if names_contents(event) else public).append(describe(event, before))
    return public, told, private


def report(
    ref: StepRef,
    state: GameState,
    viewer: str,
    timeline: Timeline,
    since: int,
    *,
    record: GameRecord,
    known: Mapping[str, KnownLegion] | None = None,
    time_zone: str = "UTC",
    how: Sequence[str] = (),
    resend: bool = False,
    news_after: int | None = None,
    digest: bool = False,
    answering: bool = False,
    shown: Shown = NOTHING_SHOWN,
) -> Texts:
    """
    ``viewer``'s report of the game now: the events he may see in ``timeline`` (those
    after event ``since``), the public state, his legions and, if it is his move, the
    orders he may give; it names his last report by his own reference then (the state
    ``timeline`` starts from counts only what he was told of).  Its subject says why it
    is sent (``subjects.headline``: the events after ``news_after`` are the news,
    ``digest`` his daily digest, ``answering`` the answer to his mail).  ``shown``: the game as the last masterboard
    and battle picture he was sent showed it, and whether only his own orders changed
    each since (``shown.shown``).
    """
    actor, over = _whose(state)
    your_move = actor == viewer and not over
    since_held = holders.held_since(record.former, viewer)
    public_events, told_events, private_events = visible(timeline, viewer, since_held)
    names = marker_names(state.variant)
    mine = player_view(state, viewer)
    own = [_legion_line(lg, names, state.variant) for lg in mine["legions"] if lg["owner"] == viewer]
    others = [lg for lg in mine["legions"] if lg["owner"] != viewer]
    if known is not None:  # what the viewer knows for certain, partly known legions too
        lines = [_known_line(known[lg["marker"]], lg, names, state.variant) for lg in others]
    else:
        lines = [_legion_line(lg, names, state.variant) for lg in others if lg["contents"] is not None]
    everyone = player_view(state, None)
    board_changed, changed = board_changes(player_view(shown.board or state, None), everyone)
    fought = battle_changed(None if shown.battle is None else player_view(shown.battle, None), everyone)
    sealed = audit_notes(timeline)
    opened = audit_openings(timeline)
    facts = letters.Report(
        game=ref.game,
        viewer=viewer,
        ref=str(ref),
        since=str(StepRef(ref.game, (timeline[0][1] if timeline else state).steps_seen(viewer))),
        public_view=everyone,
        deadline=deadline_whose(record, viewer, time_zone),
        actor=actor,
        over=over,
        your_move=your_move,
        out=not any(p.name == viewer for p in state.live_players),
        resend=resend,
        digest=digest,
        public_events=public_events,
        told_events=told_events,
        private_events=private_events,
        dice_commitment=record.dice.commitment if record.dice.bound and since == 0 else "",
        dice_not_secret=record.insecure_dice,
        commitments=sealed,
        openings=opened,
        how=how,
        own=own,
        known=lines,
        # the proposals while they may still be made or accepted: in a battle or after
        # it, a list of stale offers would read as if one still stood (9.3)
        engagement=(
            mine["engagement"]
            if "proposals" in (mine["engagement"] or {}) and state.step is Step.NEGOTIATE
            else None
        ),
        move_plan=plan_lines(state, viewer) if your_move else [],
        orders=legal_lines(state, viewer) if your_move else [],
        muster_notes=muster_notes(state, viewer),
        caretaker=caretaker_lines(state, viewer) if your_move else [],
        sharing=sharing_notes(state, viewer) if your_move else [],
        stakes=stakes_lines(state, viewer) if your_move else [],
        standing=standing_lines(record.standing.get(viewer, ()), state.variant),
        explain=since == 0,
        legions_unchanged=since != 0
        and not (resend or digest)
        and _legions(timeline[0][1] if timeline else state) == _legions(state),
        pictures=chosen_pictures(
            report_pictures(everyone, viewer, ref.game, changed),
            record.pictures.get(viewer, pictures_choice.DEFAULT),
            first=shown.board is None or resend,
            board_changed=board_changed and (resend or not shown.board_own),
            acting=your_move,
            own_step=at_own_step(timeline[0][1] if timeline else state, state, viewer),
            battle_changed=fought and (resend or _maneuvering(state) or not shown.battle_stood),
        ),
    )
    headline = subjects.headline(
        state, viewer, timeline, news_after=news_after, digest=digest, answering=answering
    )
    return letters.report(facts, headline)


def chosen_pictures(
    pictures: Sequence[Picture],
    mode: str,
    *,
    first: bool,
    board_changed: bool,
    acting: bool,
    own_step: bool = False,
    battle_changed: bool = True,
) -> tuple[Picture, ...]:
    """
    The report's pictures the player's ``pictures`` choice keeps (``schedule.pictures``):
    with ``changes``, the masterboard in his ``first`` report (or one he asked for
    again) and when the board changed since the last one he was sent, and a battle's
    when it asks him to act and changed since the last one he was sent; neither while
    only his own orders of the ``own_step`` he is still at changed them (he wrote them;
    the text tells their results, and the next report that asks him for another step,
    or tells him of another's play, carries the picture).  A change that is only his
    own doing is no change here, nor, but at a maneuver step, a battle's hits and
    deaths alone (``shown``: the caller says so in ``board_changed`` and
    ``battle_changed``).
    """
    if mode == pictures_choice.NONE:
        return ()
    if mode == pictures_choice.ALWAYS:
        return tuple(pictures)
    fresh = first or not own_step
    return tuple(
        p
        for p in pictures
        if fresh
        and (acting and (first or battle_changed) if p.kind == BATTLE else first or board_changed)
    )


def _maneuvering(state: GameState) -> bool:
    """Whether the battle is at a maneuver step: the step a player plans from the
    battle's picture, so one that shows its hits and deaths too goes with it."""
    return state.battle is not None and state.battle.step == "maneuver"


def at_own_step(before: GameState, now: GameState, viewer: str) -> bool:
    """
    Whether ``viewer`` was to act at ``before`` (his last report) and still is, at the
    same step of the same turn (and of the same battle turn): only his own orders came
    between (Wolff 1.3: one player acts at a time).
    """
    return to_act(before) == viewer == to_act(now) and _step_of(before) == _step_of(now)


def _step_of(state: GameState) -> tuple[object, ...]:
    battle = state.battle
    fight = None if battle is None else (battle.land, battle.turn, battle.phasing, battle.step)
    return state.turn, state.active, state.step, fight


def _legions(state: GameState) -> list[tuple[str, str, int, int, bool]]:
    """What the signed part lists of each legion: its marker, owner, land, height and
    whether it moved this turn."""
    return sorted(
        (lg.marker, lg.owner, lg.land, lg.height, lg.moved) for lg in state.legions.values()
    )


def standing_lines(lines: Sequence[str], variant: Variant) -> list[str]:
    """A player's standing orders as his report lists them (as he would write them)."""
    try:
        return read_standing(lines, variant).lines()
    except OrderError:  # kept lines were read when they came; shown as written if not now
        return list(lines)

