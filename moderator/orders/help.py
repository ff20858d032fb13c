"""Help texts for the order language: one short paragraph with an example per word."""

from __future__ import annotations

from moderator.orders.queries import QUERY_KINDS

#: The order words (commands) in the order of play; "no more" is two words.
ORDER_WORDS = (
    "colour",
    "withdraw",
    "split",
    "roll",
    "mulligan",
    "move",
    "teleport",
    "undo",
    "done",
    "engage",
    "flee",
    "propose",
    "accept",
    "no more",
    "concede",
    "fight",
    "proceed",
    "reset",
    "strike",
    "rangestrike",
    "carry",
    "summon",
    "reinforce",
    "take",
    "decline",
    "muster",
    "show",
    "tell",
)

#: The query words: they ask for information and change nothing.
QUERY_WORDS = QUERY_KINDS

#: The shortest correct forms of a battle move (a maneuver), for the error messages.
MANEUVER_USAGE = "'move C1 to C2', 'move centaur to C1' or 'move centaur C1 to C2'"

#: Other words a player may write for an order word.
ALIASES = {
    "color": "colour",
    "pass": "decline",
    "refuse": "decline",
    "no": "decline",
    "no more proposals": "no more",
    "nomore": "no more",
    "go": "proceed",
    "go on": "proceed",
    "continue": "proceed",
    "no carry": "carry",
    "accept concession": "accept",
    "accept the concession": "accept",
    "maneuver": "move",
    "manoeuvre": "move",
}

#: The shortest correct form of each word, quoted as the error messages show it.
USAGE = {
    "colour": "'colour red'",
    "withdraw": "'withdraw'",
    "show": "'show Rd01 to Bob' or 'show Rd01 to Bob, Cy: troll troll' (or 'to all')",
    "tell": "'tell Bob: your message' (or 'tell Bob, Cy: ...', 'tell all: ...')",
    "split": "'split Rd01 into Rd02: angel ogre centaur centaur' (or 'split Rd01: ...')",
    "roll": "'roll'",
    "mulligan": "'mulligan'",
    "move": "'move Rd01 to 6' (optionally 'from left')",
    "teleport": "'teleport Rd01 to 300 showing angel' (optionally 'from right')",
    "undo": "'undo' or 'undo Rd01'",
    "done": "'done' (at the end of movement optionally 'keeping Rd03')",
    "engage": "'engage 6'",
    "flee": "'flee'",
    "propose": "'propose Rd01 loses ogre; Bu03 eliminated' (several: separate them with 'or')",
    "accept": "'accept 2' or 'accept concession'",
    "no more": "'no more proposals'",
    "concede": "'concede'",
    "fight": "'fight'",
    "proceed": "'proceed' (or 'go on', 'continue')",
    "reset": "'reset'",
    "strike": "'strike D4 at D5' (optionally 'needing 5 with 3 dice')",
    "rangestrike": "'rangestrike B3 at E5' (optionally 'via C4 D4 needing 6')",
    "carry": "'carry to E4', 'carry to E4 then D5' or 'no carry'",
    "summon": "'summon angel from Rd03'",
    "reinforce": "'reinforce troll' (optionally 'showing ogre ogre')",
    "take": "'take angel'",
    "decline": "'decline'",
    "muster": "'muster Rd01 troll' (optionally 'showing ogre ogre')",
    "status": "'status'",
    "moves": "'moves Rd01'",
    "legion": "'legion Rd01'",
    "battle": "'battle'",
    "reach": "'reach C1'",
    "strikes": "'strikes'",
    "help": "'help' or 'help move'",
    "history": "'history', 'history from turn 3' or 'history from turn 3 to turn 5'",
    "report": "'report'",
    "legal": "'legal'",
}

HELP: dict[str, str] = {
    "show": (
        "show MARKER to PLAYER[, PLAYER | all][: CHARACTERS]: at any time, show one of your "
        "legions, whole or the characters you name, to the players you name (Wolff 4.5). "
        "The moderator shows only what is really there; it goes in their private part, "
        "never signed. Players are named as they signed on, spaces and all, or by a "
        "beginning of at least three letters that fits one of them. "
        "Example: show Rd01 to Ann Example, Bob: troll troll"
    ),
    "tell": (
        "tell PLAYER[, PLAYER | all]: TEXT: at any time, a message passed on to the players "
        "you name, in the private part of their next mail, marked as your words (Wolff "
        "4.5); the moderator checks nothing in it. Names as for show ('Ann Example', "
        "'Ann E'). Example: tell Bob: leave my tower alone"
    ),
    "colour": (
        "colour COLOUR (or color): pick your colour at the start of the game, when it is "
        "your turn to choose. Your legion markers are the ones of that colour. "
        "Example: colour red"
    ),
    "withdraw": (
        "withdraw: leave the game for good. Your legions are removed from the board. "
        "You may withdraw while choosing colours or on your own turn (split, move or "
        "muster). Example: withdraw"
    ),
    "split": (
        "split MARKER [into MARKER]: CHARACTERS: on your split step, move the listed "
        "characters from a legion into a new legion under a free marker (the lowest free "
        "one if you name none). Counts are allowed and commas are optional. "
        "Example: split Rd01 into Rd02: angel, 2 centaurs, ogre"
    ),
    "roll": "roll: finish splitting and roll the movement die. Example: roll",
    "mulligan": (
        "mulligan: on your first turn only, roll the movement die once more before moving "
        "anything. Example: mulligan"
    ),
    "move": (
        "move MARKER to LAND [from left|right|bottom]: on your move step, move a legion "
        "along the signs to a land. If it will fight there, you may say from which side "
        "it enters; otherwise a side is drawn when needed. In a battle, on your maneuver, "
        "move one character: 'move HEX to HEX' for one on the battleland, 'move CHARACTER "
        "to HEX' for one entering (or, in a tower, deploying); 'move CHARACTER HEX to HEX' "
        "names both. Hexes are A1 to F4. "
        "Example: move Rd01 to 6 from left; in a battle: move C1 to C2, move centaur to C1"
    ),
    "teleport": (
        "teleport MARKER to LAND [from SIDE] showing LORD: on your move step after rolling "
        "a 6, teleport a legion, revealing the lord that allows it (a Titan, or an angel "
        "or archangel for a tower teleport). Example: teleport Rd02 to 300 showing angel"
    ),
    "undo": (
        "undo [MARKER]: on your move step, take back the last move, or the move of the "
        "named legion. Example: undo Rd01"
    ),
    "done": (
        "done [keeping MARKER]: end your move step (then engagements and mustering "
        "follow) or, on your muster step, end your turn. In a battle, end your maneuver or "
        "your strikes (or counterstrikes). When split-offs that cannot move apart "
        "recombine and the one with the original marker moved off, 'keeping MARKER' says "
        "which marker the recombined legion keeps (Wolff 4.7; else the lowest). "
        "Example: done, done keeping Rd03"
    ),
    "engage": (
        "engage LAND (or engage land LAND): after moving, pick which engagement is "
        "resolved next. Example: engage 6"
    ),
    "flee": (
        "flee: as the defender, before doing anything else in the engagement, run away "
        "instead of fighting; the attacker earns half the points. Lords cannot flee. "
        "Example: flee"
    ),
    "propose": (
        "propose TERMS [or TERMS ...]: during an engagement, offer a settlement. Terms are "
        "clauses separated by ';': 'MARKER loses CHARACTERS', 'MARKER loses nothing' or "
        "'MARKER eliminated'; a legion you do not name loses nothing. Each proposal must "
        "eliminate at least one legion. Separate several proposals with 'or'; they are "
        "numbered in the order they are made. "
        "Example: propose Rd01 loses ogre; Bu03 eliminated"
    ),
    "accept": (
        "accept NUMBER: during an engagement, agree to a proposal the other player made; "
        "the engagement ends on those terms. In a battle, after the other player tried to "
        "concede, 'accept concession' lets the concession stand (you may instead concede "
        "yourself). Example: accept 2; in a battle: accept concession"
    ),
    "no more": (
        "no more proposals (or no more): during an engagement, say that you will make no "
        "further proposals; you may still accept one. Example: no more proposals"
    ),
    "concede": (
        "concede: during an engagement, give up: your legion is eliminated and the other "
        "side earns the full points. In a battle you concede at once when the moderator "
        "asks whether you concede or proceed; during your own maneuver or strikes it is "
        "an attempt, which the other player accepts or answers by conceding instead. "
        "Example: concede"
    ),
    "fight": (
        "fight: during an engagement, after the other player declared no more proposals, "
        "go to battle on the battleland of the land. Example: fight"
    ),
    "proceed": (
        "proceed (or go on, continue): in a battle, when the moderator asks whether you "
        "concede, carry on fighting instead. Example: proceed"
    ),
    "reset": (
        "reset: in a battle, during your maneuver, put back every character moved so far "
        "in this maneuver, to move them again. Example: reset"
    ),
    "strike": (
        "strike HEX at HEX [needing N] [with N dice]: in a battle, during your strikes or "
        "counterstrikes, the character on the first hex strikes the enemy in contact on "
        "the second. Without 'needing' the strike is made at its best; a higher strike "
        "number or fewer dice may be chosen when that allows carrying excess hits over. "
        "Example: strike D4 at D5 needing 6 with 5 dice"
    ),
    "rangestrike": (
        "rangestrike HEX at HEX [via HEX ...] [needing N]: in a battle, during your "
        "strikes, a rangestriker not in contact with an enemy strikes at one within range "
        "and sight; 'via' names the hexes the line of sight crosses when there is a "
        "choice. Example: rangestrike B3 at E5 via C4 D4"
    ),
    "carry": (
        "carry [N] to HEX [then HEX ...] (or no carry, carry nowhere): in a battle, after "
        "a strike slays its target with hits to spare, carry the excess hits to these "
        "characters in turn, or to nobody. The number is only a reminder. "
        "Example: carry 2 to E4 then D5; to carry nothing: no carry"
    ),
    "summon": (
        "summon LORD from MARKER: after your attacking legion wins, bring an angel or "
        "archangel from another of your legions into it. In a battle, on your first "
        "maneuver after the first defending character that entered is slain; the lord "
        "then enters like any character. Example: summon angel from Rd03"
    ),
    "reinforce": (
        "reinforce CREATURE [showing CHARACTERS]: after your defending legion wins, muster "
        "one creature into it, revealing the characters that allow it. In a battle, on "
        "your fourth maneuver; the creature then enters like any character. "
        "Example: reinforce troll showing ogre ogre"
    ),
    "take": (
        "take LORD: after an engagement earns you an angel or archangel (at each 100 "
        "points), take it into the winning legion. Example: take archangel"
    ),
    "decline": (
        "decline (or pass, no, refuse): pass up a reinforcement, a summons or an earned "
        "angel. Example: decline"
    ),
    "muster": (
        "muster MARKER CREATURE [showing CHARACTERS]: on your muster step, recruit a "
        "creature into a legion that moved, revealing the characters that allow it. "
        "Example: muster Rd01 troll showing ogre ogre"
    ),
    "status": "status: ask for the state of the game (a query; changes nothing). Example: status",
    "moves": (
        "moves MARKER: ask where a legion of yours may move with the current roll. "
        "Example: moves Rd01"
    ),
    "legion": (
        "legion MARKER: ask what is known about a legion: where it is and, if you may "
        "know, what it holds. Example: legion Rd01"
    ),
    "battle": (
        "battle: ask for the state of the battle being fought: the battle turn, whose "
        "step it is, and every character with its hex and hits. Example: battle"
    ),
    "reach": (
        "reach HEX: ask where the character of yours on that hex may move in this "
        "maneuver. Example: reach C1"
    ),
    "strikes": (
        "strikes: ask which strikes and rangestrikes your characters may make now, with "
        "strike numbers and dice. Example: strikes"
    ),
    "help": "help [WORD]: this help, or the help for one order word. Example: help move",
    "history": (
        "history [from turn N [to turn M]]: ask for what happened in the game, all of it "
        "or the turns named. Example: history from turn 3 to turn 5"
    ),
    "report": "report: ask for the last report to be sent again. Example: report",
    "legal": "legal: ask which orders you may give now. Example: legal",
}


#: Lines given ahead (standing orders, orders for the roll, notification choices):
#: not orders of the moment, so not in ``ORDER_WORDS``; ``help`` knows them.
AHEAD_WORDS = ("on roll", "standing", "notify", "pictures")
HELP.update(
    {
        "on roll": (
            "on roll N[, M]: ORDER; ORDER: in the mail that rolls, the orders to carry out "
            "if the roll is N (or M); the die is rolled only at your 'roll' line. "
            "Example: on roll 3: move Rd01 to 6; move Rd02 to 9"
        ),
        "standing": (
            "standing ...: an order kept for decisions to come, known to the moderator "
            "alone: 'standing when attacked: fight|flee|concede' (or for one legion: "
            "'standing Rd01 when attacked: flee'), 'standing no concede', 'standing "
            "strikes: auto', 'standing muster best', 'muster Rd01 troll if able', "
            "'standing summon best|never'; 'ask' in place of the choice undoes one. "
            "Example: standing when attacked: fight"
        ),
        "notify": (
            "notify turn|all|digest HH:MM: when you are mailed a report: when you must "
            "act or your turn-relevant news comes (turn, the default), after every change "
            "(all), or once a day at that hour besides your moves (digest). "
            "Example: notify digest 18:00"
        ),
        "pictures": (
            "pictures changes|always|none: which pictures your reports carry: the board "
            "when it changed since the last one you were sent and a battle when it asks "
            "you to act and changed since your last, not when only your own orders "
            "changed it (changes, the default), every time (always), or none. "
            "Example: pictures none"
        ),
    }
)


def canonical_topic(topic: str) -> str:
    """The HELP key for ``topic`` (any case, aliases allowed), or ``topic`` folded."""
    key = " ".join(topic.casefold().split())
    return ALIASES.get(key, key)


def help_text(topic: str | None = None) -> str:
    """The help for one order word, or an overview when ``topic`` is None or empty."""
    if topic is not None and topic.strip():
        key = canonical_topic(topic)
        if key in HELP:
            return HELP[key]
        return (
            f"there is no help on {topic.strip()!r}. Topics: {', '.join(HELP)}. "
            "Write 'help' and an order word, e.g. 'help move'."
        )
    return (
        "Write one order per line; case does not matter; lines starting with '#' are "
        "ignored and a line 'signoff' ends the orders. "
        f"Orders: {', '.join(ORDER_WORDS)}. "
        f"Queries: {', '.join(QUERY_WORDS)}. "
        f"Given ahead: {', '.join(AHEAD_WORDS)}. "
        "Write 'help WORD' for one of them, e.g. 'help propose'."
    )
