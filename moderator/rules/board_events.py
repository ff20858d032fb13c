"""
The events of the masterboard game: setup, the turn, engagements and the time limit.

One module for everything that happens outside a battle (Complete Sequence 1.x, 2.1-2.5,
2.6-2.7, 19.x, Wolff 21.x); the battle's events are in ``battle_events``.  Import them
through ``events``, which also registers them by type name for the codec.
"""

from __future__ import annotations

from typing import ClassVar

from moderator.records import record
from moderator.rules.event_base import Event, LegionList
from moderator.rules.state import Proposal

# -- setup (Complete Sequence 1.x) --------------------------------------------


@record(kw_only=True)
class GameCreated(Event):
    """1.1: the game and its players, in the variant it is played in.

    Version 1 named no variant: ``codec`` upcasts it to the standard game."""

    TYPE: ClassVar[str] = "game-created"
    VERSION: ClassVar[int] = 2
    players: tuple[str, ...]
    scripted_dice: bool = False
    variant: str
    #: A group's own variant: the digest of its data (``rules.variant``); "" when shipped.
    variant_digest: str = ""


@record(kw_only=True)
class TowersRolled(Event):
    """One set of tower rolls (1.3.1.1) and the towers it assigned (1.3.1.2)."""

    TYPE: ClassVar[str] = "towers-rolled"
    rolls: tuple[tuple[str, int], ...]
    assigned: tuple[tuple[str, int], ...]


@record(kw_only=True)
class ColourChosen(Event):
    TYPE: ClassVar[str] = "colour-chosen"
    player: str
    colour: str
    markers: tuple[str, ...]


@record(kw_only=True)
class LegionsPlaced(Event):
    """1.5/1.6: initial legions on the towers, scores zero, first mover known."""

    TYPE: ClassVar[str] = "legions-placed"
    legions: tuple[tuple[str, str, int, tuple[str, ...]], ...]  # (marker, owner, land, contents)


@record(kw_only=True)
class PositionLoaded(Event):
    """A game restored from a position file (rulebook 20.5) instead of set up.

    Version 1 named no variant: ``codec`` upcasts it to the standard game."""

    TYPE: ClassVar[str] = "position-loaded"
    VERSION: ClassVar[int] = 2
    players: tuple[tuple[str, str, int, int, bool, tuple[str, ...]], ...]
    # (name, colour, tower, score, eliminated, markers)
    legions: tuple[tuple[str, str, int, tuple[str, ...], bool], ...]
    # (marker, owner, land, contents, moved)
    dead: tuple[tuple[str, int], ...]
    turn: int
    active: str
    step: str
    roll: int | None
    scripted_dice: bool = False
    battle: (
        tuple[int, str, str, str, int, str, str, tuple[tuple[str, str, str, int], ...]] | None
    ) = None
    # (land, attacker, defender, entry, turn, phasing, step, ((legion, type, hex, hits), ...))
    #: the battleland that battle is fought on when the file names one (Badlands' roll
    #: chose it); "": the land's placed battleland, as before the field existed.
    battleland: str = ""
    entries: tuple[tuple[int, str], ...] = ()
    # (land, side): the side each pending engagement's attacker enters from (engage phase)
    variant: str
    #: A group's own variant: the digest of its data (``rules.variant``); "" when shipped.
    variant_digest: str = ""


# -- the turn (2.1-2.4, 2.6-2.7) ----------------------------------------------


@record(kw_only=True)
class TurnStarted(Event):
    TYPE: ClassVar[str] = "turn-started"
    player: str
    turn: int


@record(kw_only=True)
class LegionSplit(Event):
    """Public half of a split: who split off which marker, and the heights."""

    TYPE: ClassVar[str] = "legion-split"
    parent: str
    child: str
    parent_height: int
    child_height: int


@record(kw_only=True)
class SplitContents(Event):
    """Private half of a split: which characters went where (owner only)."""

    TYPE: ClassVar[str] = "split-contents"
    parent: str
    child: str
    moved: tuple[str, ...]


@record(kw_only=True)
class MovementRolled(Event):
    TYPE: ClassVar[str] = "movement-rolled"
    player: str
    roll: int
    mulligan: bool = False


@record(kw_only=True)
class LateMoveDrawn(Event):
    """
    Rulebook 21.2: ``player``'s time to move ran out before he moved a legion, so the
    dice drew one of his legions that could move (``marker``) and one of its legal moves
    (to ``land``); ``rolls`` are every die rolled for the two draws, so the audit checks
    them.  The move itself follows as a ``LegionMoved``.
    """

    TYPE: ClassVar[str] = "late-move-drawn"
    player: str
    rolls: tuple[int, ...]
    marker: str
    land: int


@record(kw_only=True)
class LegionMoved(Event):
    TYPE: ClassVar[str] = "legion-moved"
    marker: str
    from_land: int
    to_land: int
    entry: str | None = None
    entry_roll: int | None = None  # set when the side was drawn at random (Wolff 7.0)
    teleport: str | None = None  # "tower" or "titan"
    lord_shown: str | None = None  # 8.1/8.2: the lord revealed to teleport


@record(kw_only=True)
class MoveUndone(Event):
    TYPE: ClassVar[str] = "move-undone"
    marker: str
    back_to: int


@record(kw_only=True)
class MovementEnded(Event):
    TYPE: ClassVar[str] = "movement-ended"
    player: str


@record(kw_only=True)
class LegionsRecombined(Event):
    """2.4/Wolff 4.7: split-offs left on one land become one legion again."""

    TYPE: ClassVar[str] = "legions-recombined"
    land: int
    marker: str
    absorbed: tuple[str, ...]


@record(kw_only=True)
class CreatureMustered(Event):
    """18.x muster, or a defender's reinforcement (14.x): public, with what was shown."""

    TYPE: ClassVar[str] = "creature-mustered"
    marker: str
    creature: str
    shown: tuple[str, ...]
    reinforcement: bool = False


@record(kw_only=True)
class TurnEnded(Event):
    TYPE: ClassVar[str] = "turn-ended"
    player: str


@record(kw_only=True)
class PlayerWithdrew(Event):
    """20.4: the player leaves; his legions are set aside with the slain, nobody scores."""

    TYPE: ClassVar[str] = "player-withdrew"
    player: str
    legions: LegionList


# -- engagements (2.5) ----------------------------------------------------------


@record(kw_only=True)
class EngagementStarted(Event):
    TYPE: ClassVar[str] = "engagement-started"
    land: int
    attacker: str
    defender: str


@record(kw_only=True)
class LegionRevealed(Event):
    """A legion's contents shown to ``visible_to`` (or to all when None)."""

    TYPE: ClassVar[str] = "legion-revealed"
    marker: str
    contents: tuple[str, ...]
    reason: str


@record(kw_only=True)
class ProposalsMade(Event):
    """Wolff 9.3: a set of proposals, secret between the two players."""

    TYPE: ClassVar[str] = "proposals-made"
    player: str
    proposals: tuple[Proposal, ...]
    first_number: int


@record(kw_only=True)
class NoMoreProposals(Event):
    TYPE: ClassVar[str] = "no-more-proposals"
    player: str


@record(kw_only=True)
class EngagementResolved(Event):
    """
    How an engagement ended and what each legion lost (public: Wolff 9.5).

    ``how`` is "flight", "concession" or "agreement"; ``winner`` the surviving
    legion when exactly one side survives; ``points`` what the winner is due
    at 2.5.6.8 (half for flight, none for mutual elimination).
    """

    TYPE: ClassVar[str] = "engagement-resolved"
    land: int
    how: str
    attacker_losses: tuple[str, ...]
    defender_losses: tuple[str, ...]
    winner: str | None
    points: int


@record(kw_only=True)
class DecisionAwaited(Event):
    """The winner may now reinforce, summon or take an angel (2.5.6.5, 2.5.6.8)."""

    TYPE: ClassVar[str] = "decision-awaited"
    player: str
    what: str  # "summon", "reinforce" or "angel"


@record(kw_only=True)
class AngelSummoned(Event):
    TYPE: ClassVar[str] = "angel-summoned"
    lord: str
    source: str
    target: str


@record(kw_only=True)
class Declined(Event):
    """A player passed up an optional reinforcement, summons or angel."""

    TYPE: ClassVar[str] = "declined"
    player: str
    what: str  # "summon", "reinforce" or "angel"
    reason: str = ""  # set when nothing could be taken (no room, none left)


@record(kw_only=True)
class PointsScored(Event):
    TYPE: ClassVar[str] = "points-scored"
    player: str
    points: int
    multiples: tuple[int, ...]  # multiples of 100 reached that may bring angels (17.2)


@record(kw_only=True)
class AngelAcquired(Event):
    TYPE: ClassVar[str] = "angel-acquired"
    marker: str
    lord: str


@record(kw_only=True)
class PlayerEliminated(Event):
    """
    19.3/19.4: a Titan died.  The player's remaining legions are revealed and
    removed; half points go to whoever each legion was engaged with, otherwise
    to the slayer, rounded once per player; the slayer takes the markers.
    """

    TYPE: ClassVar[str] = "player-eliminated"
    player: str
    slayer: str | None
    legions: LegionList
    half_points: tuple[tuple[str, int], ...]
    markers_to: str | None


@record(kw_only=True)
class EngagementEnded(Event):
    """2.5.6.10: slain lords and demi-lords regenerate, creatures go to the dead pile."""

    TYPE: ClassVar[str] = "engagement-ended"
    land: int


@record(kw_only=True)
class GameOver(Event):
    """19.0/Complete Sequence 3: the winner (if any) and his legions, now public."""

    TYPE: ClassVar[str] = "game-over"
    winner: str | None
    legions: LegionList


# -- the moderator's notes --------------------------------------------------------------


@record(kw_only=True)
class StandingOrderUsed(Event):
    """
    A standing order of ``player``'s answered a decision for him (the events of
    ``order``, the line it gave, follow).  Seen by him alone: standing orders are
    private to the moderator (Wolff 9.4); the game changes only by the events after it.
    """

    TYPE: ClassVar[str] = "standing-order-used"
    player: str
    order: str
    standing: str


@record(kw_only=True)
class OperatorActed(Event):
    """
    The moderator's operator gave a line on the game outside the rules (``game pause``,
    ``resume``, ``extend``, ``replace``: a game with no tournament director): ``line``
    says what, as every player was told.  Seen by all and sealed as an order of its own,
    so a player's audit proves what the operator did to his game, and when; the game
    itself does not change.
    """

    TYPE: ClassVar[str] = "operator-acted"
    line: str


# -- the time limit (Wolff 21.0/21.1, rulebook 20.5) ----------------------------------


@record(kw_only=True)
class TimeCalled(Event):
    """
    Wolff 21.1: the game's time limit was reached.  The current turn is finished, then
    every player still in the game has one more full turn: the game ends when
    ``last_player``'s turn in round ``last_turn`` is over (or when the next turn would
    come after it, if he is eliminated before then).
    """

    TYPE: ClassVar[str] = "time-called"
    last_player: str
    last_turn: int


@record(kw_only=True)
class GameScored(Event):
    """
    Rulebook 20.5/21.1: the game ended by its time limit.  Every remaining legion is
    revealed as it is counted; each player still in the game totals his score and the
    value (16.0: power times skill, a Titan's power by 19.1) of his legions; the highest
    total wins, and players tied for it share the win.  The game is over.
    """

    TYPE: ClassVar[str] = "game-scored"
    scores: tuple[tuple[str, int, int, int], ...]  # (player, score, legions' value, total)
    legions: tuple[tuple[str, str, tuple[str, ...], int], ...]  # (marker, owner, contents, value)
    winners: tuple[str, ...]
