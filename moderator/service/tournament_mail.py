"""
A mail with tournament lines (``join tournament T``, ``standings T``, a director's
``pause G``...): they need neither a game nor a step reference, so they run before
the game is asked for; the mail's other lines are then played as in any mail.

The tournament lines are carried out by ``moderator.service.tournaments`` in the mail's
transaction; this module only decides whether the mail's other lines may be played
too, or go back unread.
"""

from __future__ import annotations

from dataclasses import replace

from moderator.ports import GameContext, Lookup, Outcome, Player
from moderator.schedule import reference
from moderator.service import tournaments
from moderator.service.play_mail import play
from moderator.service.replies import Replies
from moderator.store.handling import SqlLookup


def tournament(
    replies: Replies,
    game: GameContext | None,
    lookup: Lookup,
    player: Player,
    method: str | None,
    ours: list[str],
    rest: list[str],
    ignored: list[str],
    unnamed: str = "",
) -> Outcome:
    """
    A mail with tournament lines ``ours`` (``moderator.service.tournaments``): they are
    carried out in the message's transaction, each answered on its own, and need
    neither a game nor a step reference.  The mail's other lines, ``rest``, are played
    in the game it names, as in any mail, unless the tournament lines name that game (a
    director's ``pause G``, ``end G``...): then they are returned unread, as they are
    when the mail names no game of the player's (``unnamed``: why the subject's tag may
    not pick one).
    """
    _refs, orders, _unreadable = reference.split_refs(rest)
    seat = game.seats.get(player.address) if game is not None else None
    why = ""
    if not orders:
        pass
    elif game is None:
        why = unnamed or "your mail names no game"
    elif seat is None or not game.state.has_player(seat):
        why = f"you have no seat in game {game.game_id}"
    elif game.game_id in tournaments.games_named(ours):
        why = f"your tournament lines change game {game.game_id}: send orders on their own"
    if not isinstance(lookup, SqlLookup):  # until the runner applies each line's outcome
        msg = "tournament lines are carried out in the SQL store's transaction"
        raise TypeError(msg)
    done = tournaments.carry_out(
        lookup.transaction,
        player,
        ours,
        moderator_address=replies.moderator_address,
        now=lookup.now(),
        headers=replies.reply_headers(),
        others=orders if why else (),
        others_why=why,
    )
    note = "; ".join(done.log)
    if not orders or why:
        return Outcome(mails=tuple(done.mails), note=note)
    assert game is not None and seat is not None
    played = play(replies, game, lookup, player, seat, method, rest, ignored)
    notes = "; ".join(n for n in (note, played.note) if n)
    return replace(played, mails=(*done.mails, *played.mails), note=notes)
