"""
The game state: frozen values, rebuilt by folding events (see ``evolve``).

Mappings inside the state are plain dicts that are never mutated after the
state is built; ``evolve`` copies the one it changes.  That keeps replay fast
while the state stays a value.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import field

from moderator.records import record
from moderator.rules.battlefield import Fighter
from moderator.rules.variant import STANDARD, Battleland, Variant, check_digest, load_variant

#: Who may see an event or know a legion's contents: ``None`` means everybody.
Audience = frozenset[str] | None

#: A proposal in a negotiation: (attacker's losses, defender's losses), each sorted.
Proposal = tuple[tuple[str, ...], tuple[str, ...]]


class Step(enum.Enum):
    """What the game is waiting for (the Complete Sequence of Play, one step each)."""

    COLOUR = "colour"  # 1.4: choose a colour or withdraw
    SPLIT = "split"  # 2.1: split, withdraw, or roll (2.2)
    MOVE = "move"  # 2.2.1/2.3: mulligan, move, undo, done, withdraw
    ENGAGE = "engage"  # 2.5: the mover picks the next engagement
    NEGOTIATE = "negotiate"  # 2.5.3-2.5.5: flee, propose, accept, concede, no more proposals, fight
    BATTLE = "battle"  # 2.5.6.1-2.5.6.4: the battle on the battleland
    REINFORCE = "reinforce"  # 2.5.6.5: a winning defender may muster a reinforcement
    SUMMON = "summon"  # 2.5.6.5: a winning attacker may summon an angel
    ACQUIRE = "acquire"  # 2.5.6.8: take an angel or archangel earned by points
    MUSTER = "muster"  # 2.6/2.7: muster, done, withdraw
    OVER = "over"  # 3: the game has ended

    @property
    def phase(self) -> str:
        """The coarse phase name used in position files and views."""
        return _PHASES[self]


_PHASES = {
    Step.COLOUR: "setup",
    Step.SPLIT: "split",
    Step.MOVE: "move",
    Step.ENGAGE: "engage",
    Step.NEGOTIATE: "engage",
    Step.BATTLE: "engage",
    Step.REINFORCE: "engage",
    Step.SUMMON: "engage",
    Step.ACQUIRE: "engage",
    Step.MUSTER: "muster",
    Step.OVER: "over",
}


@record(kw_only=True)
class Player:
    name: str
    tower: int
    colour: str | None = None
    score: int = 0
    eliminated: bool = False
    markers: tuple[str, ...] = ()  # every marker this player may use (own and captured, 4.6)
    turns_played: int = 0

    @property
    def titan_power(self) -> int:
        """19.1: 6 plus one per full 100 points."""
        return 6 + self.score // 100


@record(kw_only=True)
class Legion:
    marker: str
    owner: str
    land: int
    contents: tuple[str, ...]  # sorted type names
    moved: bool = False
    mustered: bool = False
    #: Took an angel or archangel for its points this turn (17.4; see RuleOptions).
    took_angel: bool = False
    split_from: str | None = None  # parent marker when split this turn (4.7)
    known_to: Audience = frozenset()  # who besides the owner knows the contents
    #: Who was shown the whole legion by its owner (Wolff 4.5) since it last went out of
    #: sight: kept apart from ``known_to``, which the game's own events decide, so that
    #: the audit's notes never depend on a show that only its audience may see.
    shown_to: frozenset[str] = frozenset()

    @property
    def height(self) -> int:
        return len(self.contents)

    def known_by(self, player: str | None) -> bool:
        """Whether ``player`` (None: the public) knows this legion's contents."""
        if self.known_to is None:
            return True
        return player is not None and (
            player == self.owner or player in self.known_to or player in self.shown_to
        )


@record(kw_only=True)
class Move:
    """One masterboard move this turn, kept so it can be undone (Wolff 7.0)."""

    marker: str
    from_land: int
    to_land: int
    entry: str | None
    teleport: str | None


@record(kw_only=True)
class Engagement:
    """The engagement being resolved (2.5), and what its resolution earned."""

    land: int
    attacker: str
    defender: str
    attacker_player: str
    defender_player: str
    awaiting: str  # the player who acts next in the negotiation
    opened: bool = False  # the defender has acted, so he can no longer flee (9.2)
    proposals: tuple[tuple[str, Proposal], ...] = ()  # (proposer, proposal), numbered from 1
    no_more: str | None = None  # who declared no more proposals (Wolff 9.3)
    resolved: bool = False
    how: str | None = None  # "flight", "concession", "agreement"
    winner: str | None = None  # the surviving legion's marker, if exactly one side survives
    points: int = 0  # due to the winner at 2.5.6.8
    slain: tuple[str, ...] = ()  # characters slain, regenerated or buried at 2.5.6.10
    titans_slain: tuple[str, ...] = ()  # players whose Titan died here (19.3)
    reinforce_right: bool = (
        False  # a defender who won a battle may still reinforce (14.0, Wolff 14.2)
    )
    option_done: bool = False  # the 2.5.6.5 reinforcement or summons was decided
    scored: bool = False  # the 2.5.6.8 points were awarded

    def other(self, player: str) -> str:
        return self.defender_player if player == self.attacker_player else self.attacker_player


@record(kw_only=True)
class Battle:
    """
    A battle being fought on a battleland (Complete Sequence 2.5.6).

    ``step`` names the decision awaited: "attacker-concede", "defender-concede"
    (2.5.6.2/2.5.6.3), "maneuver", "concede-reply" (after an attempt to
    concede), "drift-concede", "strike", "carry", "counter-concede",
    "counterstrike" and "end-concede" (2.5.6.4.x.8.1).
    """

    land: int
    terrain: str
    entry: str  # the attacker's entry side (Wolff 2.2/10.1)
    fighters: tuple[Fighter, ...]
    variant_name: str  # the game's variant, whose battleland for ``terrain`` is fought on
    turn: int = 1  # battle turn, 1..7 (10.5)
    phasing: str = "defender"  # the defender takes the first turn (10.3)
    step: str = "attacker-concede"
    resume: str = ""  # the step an attempt to concede interrupted
    attempt: str | None = None  # the side that attempted to concede (Wolff 9.4)
    moved: tuple[
        tuple[int, str | None], ...
    ] = ()  # (fighter, hex before) this maneuver (Wolff 11.0)
    struck: tuple[int, ...] = ()  # fighters that struck or rangestruck this strike phase
    carry: tuple[int, int, int, tuple[int, ...]] | None = None
    # pending carry-over: (striker, strike number, excess hits, allowed targets)
    entered: tuple[str, ...] = ()  # sides that have had their first maneuver (10.1)
    first_blood: bool = False  # a defender character that entered has been slain
    summon_turn: int | None = None  # the attacker maneuver in which he may summon (15.0)
    summoned: int | None = None  # fighter id of an angel summoned this battle
    summoned_from: str | None = None  # the legion it came from (15.1: it goes back if not entered)
    summoned_land: int = 0  # where that legion stood
    reinforced: int | None = None  # fighter id of the reinforcement (14.0)
    reinforcement_earned: bool = False  # Wolff 14.2
    ending: str | None = (
        None  # how the battle ended: "elimination", "titan", "time loss", "concession"
    )
    conceded: str | None = None  # the side that conceded

    def fighter(self, fighter_id: int) -> Fighter:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        msg = f"no fighter {fighter_id} in this battle"
        raise KeyError(msg)

    def side_of(self, player_side: str) -> list[Fighter]:
        return [f for f in self.fighters if f.side == player_side]

    @property
    def nonphasing(self) -> str:
        return "attacker" if self.phasing == "defender" else "defender"

    @property
    def battleland(self) -> Battleland:
        """The map this battle is fought on (its terrain's, in the game's variant)."""
        return load_variant(self.variant_name).battlelands[self.terrain]


@record(kw_only=True)
class GameState:
    players: tuple[Player, ...] = ()  # in turn order once towers are assigned (5.1)
    legions: Mapping[str, Legion] = field(default_factory=dict)
    caretaker: Mapping[str, int] = field(default_factory=dict)
    dead: Mapping[str, int] = field(default_factory=dict)
    step: Step = Step.COLOUR
    turn: int = 1
    active: str | None = None
    roll: int | None = None
    mulligan_used: bool = False
    moves: tuple[Move, ...] = ()
    engagement: Engagement | None = None
    battle: Battle | None = None
    summoned_this_phase: bool = False
    acquisitions: tuple[int, ...] = ()  # pending multiples of 100 (17.2) for the winner
    acquiring: str | None = None  # the legion that may take them
    winner: str | None = None
    winners: tuple[str, ...] = ()  # the winner, or every player tied for the best total (20.5)
    # Wolff 21.1: once time is called the game ends when the turn of ``final_player`` in
    # round ``final_turn`` is over (players eliminated meanwhile drop out); see ``timelimit``.
    final_turn: int | None = None
    final_player: str | None = None
    version: int = 0  # number of events folded so far (the log's numbering, the dice's)
    #: The step references (``schedule.reference``) count only the moves of play a
    #: player saw, so that one never tells him of what passed between others: the moves
    #: everybody saw, and per player those he saw of the moves only a few could see.
    public_steps: int = 0
    own_steps: tuple[tuple[str, int], ...] = ()
    #: The events every player saw so far, audit notes included: the numbers the audit's
    #: notes in a report go by (``reporting.audit_notes``), which an event hidden from
    #: some players never advances, so they tell nobody that something passed between
    #: others (Wolff 4.5).
    public_events: int = 0
    #: The variant the game is played in, as its setup named it (an old log: standard).
    variant_name: str = STANDARD
    #: The digest of a group's own variant's data as the game began ("" for a shipped one).
    variant_digest: str = ""

    def steps_seen(self, player: str | None) -> int:
        """The moves of play ``player`` (None: the public) was told of so far."""
        own = dict(self.own_steps).get(player, 0) if player is not None else 0
        return self.public_steps + own

    @property
    def variant(self) -> Variant:
        """
        The board, characters and mustering of this game (its rules read them here); a
        game of an own variant whose data changed since it began is refused
        (``VariantChangedError``), as it would not replay as it was played.
        """
        if self.variant_digest:
            check_digest(self.variant_name, self.variant_digest)
        return load_variant(self.variant_name)

    # -- lookups ---------------------------------------------------------

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        msg = f"there is no player called {name!r} in this game"
        raise KeyError(msg)

    def has_player(self, name: str) -> bool:
        return any(p.name == name for p in self.players)

    @property
    def live_players(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if not p.eliminated)

    def legions_of(self, player: str) -> list[Legion]:
        return sorted(
            (lg for lg in self.legions.values() if lg.owner == player), key=lambda lg: lg.marker
        )

    def legions_at(self, land: int) -> list[Legion]:
        return sorted(
            (lg for lg in self.legions.values() if lg.land == land), key=lambda lg: lg.marker
        )

    def free_markers(self, player: str) -> list[str]:
        used = {lg.marker for lg in self.legions.values()}
        return [m for m in self.player(player).markers if m not in used]

    def engagement_lands(self) -> list[int]:
        """Lands where the mover's legion shares a land with another player's (2.5)."""
        owners: dict[int, set[str]] = {}
        for lg in self.legions.values():
            owners.setdefault(lg.land, set()).add(lg.owner)
        return sorted(land for land, who in owners.items() if len(who) > 1)

    def titan_legion(self, player: str) -> Legion | None:
        for lg in self.legions.values():
            if lg.owner == player and "Titan" in lg.contents:
                return lg
        return None

    def value_of(self, creature: str, owner: str) -> int:
        """Points for slaying one character (16.0); a Titan's grows with its owner's score."""
        if creature == "Titan":
            return self.player(owner).titan_power * self.variant.creature("Titan").skill
        return self.variant.creature(creature).value

    def legion_value(self, contents: tuple[str, ...], owner: str) -> int:
        return sum(self.value_of(c, owner) for c in contents)
