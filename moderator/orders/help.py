"""Help texts for the order language: one short paragraph with an example per word."""

from __future__ import annotations

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
    "summon",
    "reinforce",
    "take",
    "decline",
    "muster",
)

#: The query words: they ask for information and change nothing.
QUERY_WORDS = ("status", "moves", "legion", "help", "history", "report", "legal")

#: Other words a player may write for an order word.
ALIASES = {
    "color": "colour",
    "pass": "decline",
    "refuse": "decline",
    "no": "decline",
    "no more proposals": "no more",
    "nomore": "no more",
}

#: The shortest correct form of each word, quoted as the error messages show it.
USAGE = {
    "colour": "'colour red'",
    "withdraw": "'withdraw'",
    "split": "'split Rd01 into Rd02: angel ogre centaur centaur' (or 'split Rd01: ...')",
    "roll": "'roll'",
    "mulligan": "'mulligan'",
    "move": "'move Rd01 to 6' (optionally 'from left')",
    "teleport": "'teleport Rd01 to 300 showing angel' (optionally 'from right')",
    "undo": "'undo' or 'undo Rd01'",
    "done": "'done'",
    "engage": "'engage 6'",
    "flee": "'flee'",
    "propose": "'propose Rd01 loses ogre; Bu03 eliminated' (several: separate them with 'or')",
    "accept": "'accept 2'",
    "no more": "'no more proposals'",
    "concede": "'concede'",
    "fight": "'fight'",
    "summon": "'summon angel from Rd03'",
    "reinforce": "'reinforce troll' (optionally 'showing ogre ogre')",
    "take": "'take angel'",
    "decline": "'decline'",
    "muster": "'muster Rd01 troll' (optionally 'showing ogre ogre')",
    "status": "'status'",
    "moves": "'moves Rd01'",
    "legion": "'legion Rd01'",
    "help": "'help' or 'help move'",
    "history": "'history', 'history from turn 3' or 'history from turn 3 to turn 5'",
    "report": "'report'",
    "legal": "'legal'",
}

HELP: dict[str, str] = {
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
        "it enters; otherwise a side is drawn when needed. Example: move Rd01 to 6 from left"
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
        "done: end your move step (then engagements and mustering follow) or, on your "
        "muster step, end your turn. Example: done"
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
        "the engagement ends on those terms. Example: accept 2"
    ),
    "no more": (
        "no more proposals (or no more): during an engagement, say that you will make no "
        "further proposals; you may still accept one. Example: no more proposals"
    ),
    "concede": (
        "concede: during an engagement, give up: your legion is eliminated and the other "
        "side earns the full points. Example: concede"
    ),
    "fight": (
        "fight: during an engagement, after the other player declared no more proposals, "
        "go to battle. Battles are not available in this version; a later release adds "
        "the battle orders. Example: fight"
    ),
    "summon": (
        "summon LORD from MARKER: after your attacking legion wins, bring an angel or "
        "archangel from another of your legions into it. Example: summon angel from Rd03"
    ),
    "reinforce": (
        "reinforce CREATURE [showing CHARACTERS]: after your defending legion wins, muster "
        "one creature into it, revealing the characters that allow it. "
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
    "help": "help [WORD]: this help, or the help for one order word. Example: help move",
    "history": (
        "history [from turn N [to turn M]]: ask for what happened in the game, all of it "
        "or the turns named. Example: history from turn 3 to turn 5"
    ),
    "report": "report: ask for the last report to be sent again. Example: report",
    "legal": "legal: ask which orders you may give now. Example: legal",
}


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
        "Write 'help WORD' for one of them, e.g. 'help propose'."
    )
