"""
The mail service's handler: one archived mail in, events, outbox mails and new players
out (``moderator.runners.mail.Handler``; ``process_message`` runs it in the mail's
transaction).

For each mail:

1. **Intake** (``moderator.mail.intake``): ``parse``, ``screen`` (automatic mail, our
   own, loops, the daily reply budget; a mail to drop gets no answer, one to hold is
   parked as rejected with a note), ``extract_text``, ``order_lines``,
   ``game_and_player_hints``.  A mail whose Message-ID and body were seen before is not
   read again.
2. **Who wrote it** (``moderator.usecases.players.auth``): a good signature by the key pinned for
   a player, or his secret line where the game allows secrets; never the From header
   alone.  An unauthenticated mail from a player's address is refused (once a day) to
   his registered address; a mail from an unknown address is not answered, unless it
   signs on (``moderator.usecases.players.signon``).  A mail that asks for, confirms or cancels a
   change of address (``moderator.usecases.mail.address_change``) does only that: it proves
   it is the player's by his key or secret, and the change is confirmed from the old
   address.
3. **Step reference** (``moderator.schedule.reference``): orders that change the game
   are carried out only if the mail quotes the game's current reference; otherwise each
   is refused with the current one quoted, and queries are still answered.
4. **Orders** (``moderator.usecases.games.run.run_orders``): in turn, as one transaction; the first
   refused order stops the rest.  The reply lists every line with its result.
5. **Reports**: every seated player who may see one of the new events, and the player
   to act, gets a report of what he may see since his last one (``reported`` in the
   game's record), the public state, his legions and, on his move, his orders.
6. **Deadlines** (a game with time limits, ``moderator.schedule.timing``): when the
   player to act or the kind of step changed, a new deadline starts, written with the
   events (``Outcome.deadlines``); every reply and report shows it.  Lines
   ``absent from DATE to DATE`` and ``absent cancel`` (``moderator.schedule.absence``)
   change no game state and need no step reference: they move the player's deadlines
   within the game's limits, and the other players are told.
7. **Tournament lines** (``join tournament T``, ``standings T``, a director's
   ``tournament create``, ``pause G``, ``replace SEAT in G``...; see
   ``moderator.usecases.tournaments.tournaments``): decided line by line, each line's changes
   applied by the runner before the next is decided, and answered line by line; they need no game and no step reference.  A move made
   before its deadline in a tournament game counts for the player's reliability.
8. **Bounces** (``moderator.usecases.mail.bounces``): a mail the intake drops as a bounce
   is read as one (``intake.bounce_of``); one that returns a mail of ours and is
   believed (a delivery report that his mail failed for good, from no player's address
   or key) marks it undelivered, pauses its player's deadline for ``bounce_pause``,
   once per deadline, and tells the game master; any other is logged and dropped.  A
   player's authenticated mail for a game ends his pause in every game he sits in
   (``bounces.delivered``), before its flow runs.

This module keeps the order of the steps; each lives in a module of its own: reading a
mail in ``mail_reading``, what it must pass before it acts (caps, seals, the game it may
pick) in ``gate``, its answers in ``replies``, and the flows in ``signon_mail``,
``play_mail`` and ``tournament_mail``.

No gpg work is done for outgoing mail here: the outbox row holds the public text, the
private text, a fresh token and the recipient's key, and the sender signs and encrypts
just before sending (``moderator.runtime.outgoing.render_outgoing``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from moderator.mail.intake import (
    Action,
    Disposition,
    ReplyBudget,
    bounce_of,
    order_lines,
    screen,
)
from moderator.mail.limits import RawLimits
from moderator.mail.signatures import Verifier
from moderator.ports import GameContext, InboundMessage, Lookup, Outcome, Player
from moderator.ports.mail import HELD
from moderator.usecases.games import notify, robot_seats
from moderator.usecases.games.notify import ANSWER_KINDS
from moderator.usecases.mail import address_change, bounces, gate, seals
from moderator.usecases.mail.mail_reading import ReadMail, read_mail, reasons
from moderator.usecases.mail.play_mail import play
from moderator.usecases.mail.readings import CountedKeyring, KeptReadings
from moderator.usecases.mail.replies import Replies
from moderator.usecases.mail.signon_mail import sign_on
from moderator.usecases.mail.tournament_mail import tournament
from moderator.usecases.players import auth, signon
from moderator.usecases.tournaments import tournaments

log = logging.getLogger(__name__)

#: A battle by mail takes dozens of mails a day: the budget is for runaway robots.
DEFAULT_BUDGET = ReplyBudget(200)


class MailGameHandler:
    """
    The mail service's handler (see the module's text).

    Args:
        keyring_factory: makes the moderator's keyring (called once, when first
            needed); None: no PGP at all, only secrets authenticate.  The sender must
            use the same GnuPG home: sign-ons import players' keys into it.
        moderator_address: the address the moderator's mail comes from (and is
            written to): mail from it is dropped.
        own_addresses: more of our addresses, dropped the same way.
        budget: automatic answers to one address in a day; beyond it, mail is held.
        max_lines: order lines read from one mail.
        limits: the caps checked on a mail's raw bytes before anything parses it.
        seal_window: how old a signature may be; each signature and each secret
            mail acts once (``moderator.usecases.mail.seals``).
        verp_key: the key of the return paths' tags (``moderator.mail.verp``): a
            bounce delivered to one names its mail.  None: bounces are recognised only
            by a Message-ID of ours they quote.
        gm_address: the game master, told when a player's mail bounces (None: nobody
            but a tournament game's director).
        bounce_pause: how long a believed bounce pauses its player's deadline.
        aside_mails_a_day: the mails one player's shows and messages may cause another
            to get at once in a day (``notify.report_round``).
    """

    def __init__(
        self,
        keyring_factory: Callable[[], Verifier] | None,
        moderator_address: str,
        *,
        own_addresses: Iterable[str] = (),
        budget: ReplyBudget = DEFAULT_BUDGET,
        max_lines: int = 100,
        limits: RawLimits | None = None,
        seal_window: timedelta = seals.WINDOW,
        verp_key: bytes | None = None,
        gm_address: str | None = None,
        bounce_pause: timedelta = bounces.PAUSE,
        aside_mails_a_day: int = notify.ASIDE_MAILS_A_DAY,
    ) -> None:
        self._keyring_factory = keyring_factory
        self._keyring: CountedKeyring | None = None
        self.moderator_address = moderator_address
        self.own_addresses = frozenset({moderator_address, *own_addresses})
        self.budget = budget
        self.max_lines = max_lines
        self.limits = limits if limits is not None else RawLimits()
        self.seal_window = seal_window
        self.verp_key = verp_key
        self.gm_address = gm_address or None
        self.bounce_pause = bounce_pause
        self.aside_mails_a_day = aside_mails_a_day
        self.secrets = auth.SecretChecker()
        self._readings = KeptReadings(lambda: self._keyring.imports if self._keyring else 0)

    @property
    def keyring(self) -> Verifier | None:
        """The moderator's keyring, its imports counted (``readings``)."""
        if self._keyring is None and self._keyring_factory is not None:
            self._keyring = CountedKeyring(self._keyring_factory())
        return self._keyring

    # -- the Handler protocol ----------------------------------------------------------

    def game_of(self, message: InboundMessage) -> str | None:
        return self._read(message.raw).game

    def read_ahead(self, raw: bytes) -> None:
        """Read the mail ``raw`` before its transaction, kept for it (``readings``)."""
        self._read(raw, ahead=True)

    def robot_turns(self, game_id: str, lookup: Lookup, now: datetime) -> Outcome:
        """The robots holding seats in ``game_id`` act, if one is to (issue 26): the mail
        runner asks after the mail's change, in its unit of work."""
        return robot_seats.play_robots(game_id, self.moderator_address, lookup, now)

    def handle(
        self, message: InboundMessage, game: GameContext | None, lookup: Lookup, now: datetime
    ) -> Outcome:
        read = self._read(message.raw)
        if read.over is not None:
            log.warning("inbound message %s not read: %s", message.id, read.over)
            return gate.over_caps(self.moderator_address, message, read, lookup, now)
        earlier = lookup.earlier_copy(message)
        if earlier is not None:
            return Outcome(rejected=True, note=f"a copy of message {earlier}: not read again")
        sender = read.hints.sender
        answered = lookup.mails_today(sender, ANSWER_KINDS, now=now) if sender else None
        disposition = screen(
            read.msg, own_addresses=self.own_addresses, replies_today=answered, budget=self.budget
        )
        if disposition.action is Action.DROP:
            bounced = self._bounce(read, game, lookup, now, disposition)
            return bounced or Outcome(rejected=True, note=f"dropped: {reasons(disposition)}")
        if disposition.action is Action.HOLD:
            return Outcome(rejected=True, note=f"{HELD}: {reasons(disposition)}")
        replies = Replies.to(self.moderator_address, message, read)
        if disposition.action is Action.REPLY_ONLY:
            return gate.cannot_read(replies, lookup, now, sender, disposition)
        signature = read.signature
        text = signature.text if signature.text is not None else read.extracted.text
        hints = read.signed_hints if signature.valid else read.hints
        lines, ignored = order_lines(text, max_lines=self.max_lines)
        seal = gate.seal(
            replies, lookup, now, sender, signature, hints.secret, text, self.seal_window
        )
        if isinstance(seal, Outcome):  # used before, or a signature out of its time window
            return seal
        if any(address_change.is_address_line(line) for line in lines):
            headers = replies.reply_headers()
            mail = address_change.Mail(
                hints.sender, lines, signature, hints.secret, replies.info, headers
            )
            return gate.sealed(self._address_change(replies, lookup, now, mail), seal)
        signing_on = any(signon.is_signon(line) for line in lines)
        if signing_on and (not sender or lookup.player(sender) is None):
            return sign_on(
                replies, read, lookup, now, lines, hints.secret, seal,
                keyring=self.keyring, window=self.seal_window,
            )
        allowed = game.record.allow_secrets if game is not None else True
        who = auth.identify(
            lookup, sender, signature, hints.secret, secrets_allowed=allowed, checker=self.secrets
        )
        if who.player is None:
            return Outcome(rejected=True, note=f"not answered: {who.why}")
        if not who.authenticated and signing_on:
            return gate.registered(replies, lookup, now, who.player, proved=False)
        if not who.authenticated:
            how = auth.how_to_authenticate(who.player, allowed)
            return replies.refuse(lookup, now, who.player, who.why, how)
        player = who.player
        if signing_on:
            registered = gate.registered(replies, lookup, now, player, proved=True)
            return gate.sealed(registered, seal)
        ours, rest = tournaments.tournament_lines(lines)
        if ours:  # applied line by line, so they clear no bounces: his next game mail does
            game, unnamed = gate.trusted_game(read, game, lookup, player)
            done = tournament(
                replies, game, lookup, player, who.method, ours, rest, ignored, now, unnamed
            )
            return gate.sealed(done, seal)
        # he reads his mail: his bounce pauses end
        cleared = bounces.delivered(player, game, lookup, now, self.moderator_address)
        played = self._game_mail(
            replies, read, cleared.game, lookup, now, player, who.method, lines, ignored
        )
        return gate.sealed(cleared.keep(played), seal)

    def _game_mail(
        self,
        replies: Replies,
        read: ReadMail,
        game: GameContext | None,
        lookup: Lookup,
        now: datetime,
        player: Player,
        method: str | None,
        lines: list[str],
        ignored: list[str],
    ) -> Outcome:
        """An authenticated mail's lines in the game it may act on (``play``)."""
        game, unnamed = gate.trusted_game(read, game, lookup, player)
        if game is None:
            named = read.signed_hints.game if read.signature.valid else read.hints.game
            why = unnamed or (f"there is no game {named!r}" if named else "your mail names no game")
            return gate.no_game(replies, lookup, player, why)
        seat = game.seats.get(player.address)
        if seat is None or not game.state.has_player(seat):
            why = f"you have no seat in game {game.game_id}"
            return gate.no_game(replies, lookup, player, why)
        return play(
            replies, game, lookup, now, player, seat, method, lines, ignored,
            self.aside_mails_a_day,
        )

    def _bounce(
        self,
        read: ReadMail,
        game: GameContext | None,
        lookup: Lookup,
        now: datetime,
        disposition: Disposition,
    ) -> Outcome | None:
        """A dropped mail that is a bounce of a mail of ours (``bounces.handle``); else None."""
        bounce = bounce_of(read.msg, disposition)
        if bounce is None:
            log.info("dropped, no bounce: no recipient failed for good (%s)", reasons(disposition))
            return None
        signature = read.signature
        return bounces.handle(
            bounce,
            game,
            lookup,
            now,
            moderator_address=self.moderator_address,
            verp_key=self.verp_key,
            gm_address=self.gm_address,
            pause=self.bounce_pause,
            signer=signature.fingerprint if signature.valid else None,
        )

    # -- reading -----------------------------------------------------------------------

    def _read(self, raw: bytes, *, ahead: bool = False) -> ReadMail:
        """The intake's reading of the mail (``read_mail``), kept for the next call on it."""
        kept = self._readings.get(raw)
        if kept is not None:
            return kept
        keyring, imports = self.keyring, self._readings.imports()
        read = read_mail(raw, self.limits, lambda: keyring)
        self._readings.put(raw, imports, read, ahead=ahead)
        return read

    # -- accounts ------------------------------------------------------------------------

    def _address_change(
        self, replies: Replies, lookup: Lookup, now: datetime, mail: address_change.Mail
    ) -> Outcome:
        """A change of address asked for, confirmed or cancelled (``address_change``)."""
        done = address_change.handle(
            mail, lookup, now, moderator_address=self.moderator_address, checker=self.secrets
        )
        if isinstance(done, address_change.Unauthenticated):
            return replies.refuse(lookup, now, done.player, done.why, done.how)
        return done


__all__ = ["ANSWER_KINDS", "DEFAULT_BUDGET", "MailGameHandler"]
