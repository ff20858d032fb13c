"""
A mail with tournament lines (``join tournament T``, ``standings T``, a director's
``pause G``...): they need neither a game nor a step reference, so they run before
the game is asked for; the mail's other lines are then played as in any mail.

The tournament lines are decided by ``moderator.usecases.tournaments.tournaments`` as a chain of
outcomes, each applied by the mail runner before the next line is decided; this module
only decides whether the mail's other lines may be played too (after the last line), or
go back unread.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import GameContext, Lookup, Outcome, Player
from moderator.schedule import reference
from moderator.usecases.mail.play_mail import play
from moderator.usecases.mail.replies import Replies
from moderator.usecases.tournaments import tournaments


def tournament(
    replies: Replies,
    game: GameContext | None,
    lookup: Lookup,
    player: Player,
    method: str | None,
    ours: list[str],
    rest: list[str],
    ignored: list[str],
    now: datetime,
    unnamed: str = "",
) -> Outcome:
    """
    A mail with tournament lines ``ours`` (``moderator.usecases.tournaments.tournaments``): each is
    decided once the line before it is applied, answered on its own, and needs neither
    a game nor a step reference.  The mail's other lines, ``rest``, are played
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
    mail = tournaments.LinesMail(
        player,
        tuple(ours),
        replies.moderator_address,
        replies.reply_headers(),
        others=tuple(orders) if why else (),
        others_why=why,
    )
    done = tournaments.carry_out(mail, lookup, now)
    if not orders or why:
        return done
    assert game is not None and seat is not None
    held, sitting = game, seat

    def played(lookup: Lookup, now: datetime) -> Outcome:
        return play(replies, held, lookup, now, player, sitting, method, rest, ignored)

    return done.followed_by(played)
