"""
The mail service's handler: one archived mail in, events, outbox mails and new players
out (``moderator.store.inbox.Handler``; ``process_message`` runs it in the mail's
transaction).

For each mail:

1. **Intake** (``moderator.mail.intake``): ``parse``, ``screen`` (automatic mail, our
   own, loops, the daily reply budget; a mail to drop gets no answer, one to hold is
   parked as rejected with a note), ``extract_text``, ``order_lines``,
   ``game_and_player_hints``.  A mail whose Message-ID and body were seen before is not
   read again.
2. **Who wrote it** (``moderator.service.auth``): a good signature by the key pinned for
   a player, or his secret line where the game allows secrets; never the From header
   alone.  An unauthenticated mail from a player's address is refused (once a day) to
   his registered address; a mail from an unknown address is not answered, unless it
   signs on (``moderator.service.signon``).  A mail that asks for, confirms or cancels a
   change of address (``moderator.service.address_change``) does only that: it proves
   it is the player's by his key or secret, and the change is confirmed from the old
   address.
3. **Step reference** (``moderator.schedule.reference``): orders that change the game
   are carried out only if the mail quotes the game's current reference; otherwise each
   is refused with the current one quoted, and queries are still answered.
4. **Orders** (``moderator.play.run.run_orders``): in turn, as one transaction; the first
   refused order stops the rest.  The reply lists every line with its result.
5. **Reports**: every seated player who may see one of the new events, and the player
   to act, gets a report of what he may see since his last one (``reported`` in the
   game's options), the public state, his legions and, on his move, his orders.
6. **Deadlines** (a game with time limits, ``moderator.schedule.timing``): when the
   player to act or the kind of step changed, a new deadline starts, written with the
   events (``Outcome.deadlines``); every reply and report shows it.  Lines
   ``absent from DATE to DATE`` and ``absent cancel`` (``moderator.schedule.absence``)
   change no game state and need no step reference: they move the player's deadlines
   within the game's limits, and the other players are told.
7. **Tournament lines** (``join tournament T``, ``standings T``, a director's
   ``tournament create``, ``pause G``, ``replace SEAT in G``...; see
   ``moderator.service.tournaments``): carried out in the mail's transaction and
   answered line by line; they need no game and no step reference.  A move made
   before its deadline in a tournament game counts for the player's reliability.

No gpg work is done for outgoing mail here: the outbox row holds the public text, the
private text, a fresh token and the recipient's key, and the sender signs and encrypts
just before sending (``moderator.service.outgoing.render_outgoing``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

from moderator.mail.checks.base import header_text
from moderator.mail.gpg import Keyring
from moderator.mail.intake import (
    Action,
    Disposition,
    Extracted,
    Hints,
    ReplyBudget,
    extract_text,
    game_and_player_hints,
    order_lines,
    parse,
    screen,
)
from moderator.mail.limits import RawLimits, over_limit
from moderator.orders import Query
from moderator.play.queries import answer_query
from moderator.play.run import DONE, REFUSED, Answerer, LineResult, run_orders
from moderator.reporting.narrate import history_lines
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule import absence, reference, timing
from moderator.service import (
    address_change,
    auth,
    notices,
    notify,
    reliability,
    reports,
    seals,
    signon,
    tournaments,
)
from moderator.service.notify import (
    ANSWER_KINDS,
    HISTORY,
    REFUSAL,
    REPLY,
    REPORT_FROM,
    REPORTED,
    SIGNON_REFUSAL,
    WELCOME,
)
from moderator.store.deadlines import ABSENCE_END, DeadlineChange, deadline_change
from moderator.store.inbox import GameContext, InboundMessage, Lookup, NewPlayer, Outcome
from moderator.store.outbox import OutgoingMail
from moderator.store.players import Player, hash_secret, normal_address
from moderator.store.seals import Seal

log = logging.getLogger(__name__)

#: A battle by mail takes dozens of mails a day: the budget is for runaway robots.
DEFAULT_BUDGET = ReplyBudget(200)
#: Game record mails one mail may ask for.
HISTORIES_PER_MAIL = 3
#: How much of a mail over the intake's caps is read for its sender.
_HEAD_BYTES = 16_384
#: The code of a refused absence line.
ABSENCE_REFUSED = "E-ABSENCE"

_HEADER_GAME = re.compile(rf"^{reference.GAME_ID}$")
_ADDRESS = re.compile(
    r"^[^\s\x00-\x1f\x7f<>()@,;:\"\\]{1,128}@[^\s\x00-\x1f\x7f<>()@,;:\"\\]{1,255}$"
)
_REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|antw|fwd?)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _AbsenceChange:
    """An absence a mail declared, ended early or withdrew."""

    absence: absence.Absence
    what: str  # declared, cancelled, withdrawn
    withdrawn: bool


_NO_HINTS = Hints()


@dataclass(frozen=True, slots=True)
class _Read:
    """
    A mail as the intake reads it, before anybody is trusted; ``over``: why it was not
    read at all (over the intake's caps); ``signed_hints``: the hints of the signed text
    alone (the subject's tag and the sender kept), when the signature is good.
    """

    msg: EmailMessage
    extracted: Extracted
    hints: Hints
    game: str | None
    signature: auth.Signature = auth.UNSIGNED
    signed_hints: Hints = _NO_HINTS
    over: str | None = None


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
            mail acts once (``moderator.service.seals``).
    """

    def __init__(
        self,
        keyring_factory: Callable[[], Keyring] | None,
        moderator_address: str,
        *,
        own_addresses: Iterable[str] = (),
        budget: ReplyBudget = DEFAULT_BUDGET,
        max_lines: int = 100,
        limits: RawLimits | None = None,
        seal_window: timedelta = seals.WINDOW,
    ) -> None:
        self._keyring_factory = keyring_factory
        self._keyring: Keyring | None = None
        self.moderator_address = moderator_address
        self.own_addresses = frozenset({moderator_address, *own_addresses})
        self.budget = budget
        self.max_lines = max_lines
        self.limits = limits if limits is not None else RawLimits()
        self.seal_window = seal_window
        self.secrets = auth.SecretChecker()
        self._last: tuple[int, bytes, _Read] | None = None

    @property
    def keyring(self) -> Keyring | None:
        if self._keyring is None and self._keyring_factory is not None:
            self._keyring = self._keyring_factory()
        return self._keyring

    # -- the Handler protocol ----------------------------------------------------------

    def game_of(self, message: InboundMessage) -> str | None:
        return self._read(message).game

    def handle(self, message: InboundMessage, game: GameContext | None, lookup: Lookup) -> Outcome:
        read = self._read(message)
        if read.over is not None:
            return self._over_limit(lookup, message, read)
        earlier = lookup.earlier_copy(message)
        if earlier is not None:
            return Outcome(rejected=True, note=f"a copy of message {earlier}: not read again")
        sender = read.hints.sender
        answered = lookup.mails_today(sender, ANSWER_KINDS) if sender else None
        disposition = screen(
            read.msg, own_addresses=self.own_addresses, replies_today=answered, budget=self.budget
        )
        if disposition.action is Action.DROP:
            return Outcome(rejected=True, note=f"dropped: {_reasons(disposition)}")
        if disposition.action is Action.HOLD:
            return Outcome(rejected=True, note=f"held for the moderator: {_reasons(disposition)}")
        info = _info(read, message)
        if disposition.action is Action.REPLY_ONLY:
            return self._cannot_read(lookup, message, info, sender, disposition)
        signature = read.signature
        text = signature.text if signature.text is not None else read.extracted.text
        hints = read.signed_hints if signature.valid else read.hints
        lines, ignored = order_lines(text, max_lines=self.max_lines)
        seal = self._seal(lookup, message, info, signature, hints.secret, text)
        if isinstance(seal, Outcome):  # used before, or a signature out of its time window
            return seal
        if any(address_change.is_address_line(line) for line in lines):
            headers = self._reply_headers(message)
            mail = address_change.Mail(hints.sender, lines, signature, hints.secret, info, headers)
            return _sealed(self._address_change(message, lookup, mail), seal)
        signing_on = any(signon.is_signon(line) for line in lines)
        if signing_on and (not sender or lookup.player(sender) is None):
            return self._sign_on(message, read, lookup, info, lines, hints, signature, seal)
        allowed = bool(game.options.get(auth.ALLOW_SECRETS)) if game is not None else True
        who = auth.identify(
            lookup, sender, signature, hints.secret, secrets_allowed=allowed, checker=self.secrets
        )
        if who.player is None:
            return Outcome(rejected=True, note=f"not answered: {who.why}")
        if not who.authenticated and signing_on:
            how = _registered_how(who.player)
            return self._refuse(lookup, message, info, who.player, _REGISTERED, how)
        if not who.authenticated:
            how = auth.how_to_authenticate(who.player, allowed)
            return self._refuse(lookup, message, info, who.player, who.why, how)
        player = who.player
        if signing_on:
            return _sealed(self._registered(message, info, player), seal)
        game, unnamed = self._trusted_game(read, signature, game, lookup, player)
        ours, rest = tournaments.tournament_lines(lines)
        if ours:
            done = self._tournament(
                message, game, lookup, info, player, who.method, ours, rest, ignored, unnamed
            )
            return _sealed(done, seal)
        if game is None:
            why = unnamed or (
                f"there is no game {hints.game!r}" if hints.game else "your mail names no game"
            )
            return _sealed(self._no_game(lookup, message, info, player, why), seal)
        seat = game.seats.get(player.address)
        if seat is None or not game.state.has_player(seat):
            why = f"you have no seat in game {game.game_id}"
            return _sealed(self._no_game(lookup, message, info, player, why), seal)
        played = self._play(message, game, lookup, info, player, seat, who.method, lines, ignored)
        return _sealed(played, seal)

    # -- counting each mail once -------------------------------------------------------

    def _seal(
        self,
        lookup: Lookup,
        message: InboundMessage,
        info: reports.MailInfo,
        signature: auth.Signature,
        secret: str | None,
        text: str,
    ) -> Seal | Outcome | None:
        """
        The seal this mail will leave (``moderator.service.seals``), or the refusal of a
        mail whose signature or secret text was used before, or whose signature is out
        of the time window.  None: nothing authenticates the mail (yet).
        """
        sender = self._read(message).hints.sender
        if signature.valid:
            seal = seals.signature_seal(signature, self.seal_window)
            why = seals.age_problem(signature.signed_at, lookup.now(), self.seal_window)
        elif secret and sender:
            seal, why = seals.secret_seal(sender, text), None
        else:
            return None
        earlier = lookup.seal_used(seal.digest)
        if earlier is not None:
            why = seals.replay_answer(earlier, secret=seal.kind == seals.SECRET_SEAL)
        if why is None:
            return seal
        owner = self._owner(lookup, signature, sender)
        note = f"replayed: seal of message {earlier.inbound_id}" if earlier else why
        if owner is None:
            return Outcome(rejected=True, note=f"not answered: {note}")
        how = ["Write your orders in a new mail and sign it (or add your secret) again."]
        refused = self._refuse(lookup, message, info, owner, why, how)
        return replace(refused, note=f"refused: {note}")

    def _owner(
        self, lookup: Lookup, signature: auth.Signature, sender: str | None
    ) -> Player | None:
        """Whose mail this is, by the key that signed it or else by its sender."""
        if signature.valid and signature.fingerprint:
            signers = lookup.players_with_key(signature.fingerprint)
            return signers[0] if signers else None
        return lookup.player(sender) if sender else None

    def _trusted_game(
        self,
        read: _Read,
        signature: auth.Signature,
        game: GameContext | None,
        lookup: Lookup,
        player: Player,
    ) -> tuple[GameContext | None, str]:
        """
        The game a signed mail may act on: the one its signed text names; the subject's
        tag (which no signature covers) only while the signer plays one game alone.
        (None, why) when the tag may not pick it.
        """
        if game is None or not signature.valid or read.signed_hints.body_game:
            return game, ""
        active = [g for g, _seat in lookup.active_games_of(player.address)]
        if active == [game.game_id]:
            return game, ""
        return None, (
            f"your signed text names no game and you play {len(active)} games: the "
            f"[titan {game.game_id}] tag of the subject is not signed, so it cannot pick "
            f"one; write the line 'game NAME' inside the signed text"
        )

    def _over_limit(self, lookup: Lookup, message: InboundMessage, read: _Read) -> Outcome:
        """A mail over the intake's caps: archived, not read, its registered sender told once a day."""
        why = read.over or ""
        log.warning("inbound message %s not read: %s", message.id, why)
        player = lookup.player(read.hints.sender) if read.hints.sender else None
        note = f"over the intake's limits, not read: {why}"
        if player is None or lookup.mails_today(player.address, (REFUSAL,)):
            return Outcome(rejected=True, note=note)
        info = _info(read, message)
        how = [
            ("Send your orders as plain text (or signed text) in a mail of their own, "
            "without large attachments.")
        ]
        texts = reports.refusal(info, f"the mail is too large to read ({why})", how)
        mail = self._answer(message, player, REFUSAL, texts, None)
        return Outcome(mails=(mail,), rejected=True, note=note)

    def _registered(self, message: InboundMessage, info: reports.MailInfo, player: Player) -> Outcome:
        """A sign-on from an address that is registered already (and proved his)."""
        how = _registered_how(player)
        texts = reports.refusal(info, _REGISTERED, how, once=False)
        mail = self._answer(message, player, REPLY, texts, None)
        return Outcome(mails=(mail,), rejected=True, note="a sign-on from a registered address")

    # -- reading -----------------------------------------------------------------------

    def _read(self, message: InboundMessage) -> _Read:
        """
        The intake's reading of the mail, its signature checked (remembered for the next
        call on it).  A mail over the caps of ``moderator.mail.limits`` is not parsed:
        only its headers' first bytes are read, for the sender to tell.
        """
        if self._last is not None and self._last[:2] == (message.id, message.raw):
            return self._last[2]
        over = over_limit(message.raw, self.limits)
        if over is not None:
            msg = parse(_head(message.raw))
            hints = _checked_sender(game_and_player_hints(msg, ""))
            read = _Read(msg, Extracted(text=""), hints, None, over=over)
            self._last = (message.id, message.raw, read)
            return read
        msg = parse(message.raw)
        extracted = extract_text(msg, raw=message.raw)
        hints = _checked_sender(game_and_player_hints(msg, extracted.text))
        tagged = header_text(msg, "X-Titan-Game").strip()
        signature = auth.check_signature(message.raw, self.keyring, extracted.charset)
        signed_hints = Hints()
        if signature.valid:  # the game and secret lines of the signed text alone
            signed = game_and_player_hints(msg, signature.text or "")
            signed_hints = replace(signed, sender=hints.sender)
            named = signed.body_game or signed.subject_game or tagged
        else:
            named = hints.game or tagged
        game = named if _HEADER_GAME.match(named or "") else None
        read = _Read(msg, extracted, hints, game, signature, signed_hints)
        self._last = (message.id, message.raw, read)
        return read

    # -- accounts ------------------------------------------------------------------------

    def _address_change(
        self, message: InboundMessage, lookup: Lookup, mail: address_change.Mail
    ) -> Outcome:
        """A change of address asked for, confirmed or cancelled (``address_change``)."""
        done = address_change.handle(
            mail, lookup, moderator_address=self.moderator_address, checker=self.secrets
        )
        if isinstance(done, address_change.Unauthenticated):
            return self._refuse(lookup, message, mail.info, done.player, done.why, done.how)
        return done

    # -- tournaments ---------------------------------------------------------------------

    def _tournament(
        self,
        message: InboundMessage,
        game: GameContext | None,
        lookup: Lookup,
        info: reports.MailInfo,
        player: Player,
        method: str | None,
        ours: list[str],
        rest: list[str],
        ignored: list[str],
        unnamed: str = "",
    ) -> Outcome:
        """
        A mail with tournament lines (``moderator.service.tournaments``): they are
        carried out in the message's transaction, each answered on its own, and need
        neither a game nor a step reference.  The mail's other lines are played in the
        game it names, as in any mail, unless the tournament lines name that game (a
        director's ``pause G``, ``end G``...): then they are returned unread, as they
        are when the mail names no game of the player's.
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
        done = tournaments.carry_out(
            lookup.transaction,
            player,
            ours,
            moderator_address=self.moderator_address,
            now=lookup.now(),
            headers=self._reply_headers(message),
            others=orders if why else (),
            others_why=why,
        )
        note = "; ".join(done.log)
        if not orders or why:
            return Outcome(mails=tuple(done.mails), note=note)
        assert game is not None and seat is not None
        played = self._play(message, game, lookup, info, player, seat, method, rest, ignored)
        notes = "; ".join(n for n in (note, played.note) if n)
        return replace(played, mails=(*done.mails, *played.mails), note=notes)

    # -- playing -------------------------------------------------------------------------

    def _play(
        self,
        message: InboundMessage,
        game: GameContext,
        lookup: Lookup,
        info: reports.MailInfo,
        player: Player,
        seat: str,
        method: str | None,
        lines: list[str],
        ignored: list[str],
    ) -> Outcome:
        refs, lines, unreadable = reference.split_refs(lines)
        skipped = [line for line in lines if signon.is_signon(line) or signon.is_timezone(line)]
        away = [line for line in lines if absence.is_absence(line)]
        lines = [line for line in lines if line not in skipped and line not in away]
        quoted = refs[0] if refs else None
        if quoted is None and method != auth.PGP:  # the subject is not covered by a signature
            quoted = reference.subject_ref(info.subject)  # the subject as written
        now = reference.current(game.game_id, game.state)
        problem = reference.check(quoted, now)
        moment = lookup.now()
        options, absent, changes, moved = self._absences(game, seat, player, away, moment)
        asked: list[Query] = []
        run = run_orders(
            game.state,
            options,
            seat,
            lines,
            lambda: lookup.events(game.game_id),
            refuse_changes=problem,
            answer=_answerer(asked),
        )
        ref_refused = problem is not None and any(r.code == problem[0] for r in run.results)
        after = reference.current(game.game_id, run.state)
        resend = {seat} if any(q.kind == "report" for q in asked) else set()
        settled = notify.settle(
            self.moderator_address,
            game,
            lookup,
            run.events,
            run.state,
            run.options,
            moment,
            resend,
        )
        options = settled.options
        texts = reports.reply(
            after,
            run.state,
            seat,
            info,
            [*absent, *run.results],
            run.unprocessed,
            [*ignored, *unreadable, *skipped],
            options=options,
            time_zone=player.time_zone,
            ref_problem=problem[1] if ref_refused and problem else "",
        )
        mails = [self._answer(message, player, REPLY, texts, game.game_id)]
        histories = [q for q in asked if q.kind == "history"][:HISTORIES_PER_MAIL]
        events = [*lookup.events(game.game_id), *run.events] if histories else []
        for query in histories:
            record = history_lines(events, seat, query.from_turn, query.to_turn)
            found = reports.history(after, seat, record, query.from_turn, query.to_turn)
            mails.append(self._answer(message, player, HISTORY, found, game.game_id))
        mails.extend(settled.mails)
        for change in changes:
            mails.extend(self._absence_notices(game, lookup, run.state, options, seat, change))
        refused = [r for r in [*absent, *run.results] if r.outcome == REFUSED]
        note = f"refused: {', '.join(r.code for r in refused)}" if refused else ""
        if run.events and reliability.moved_in_time(
            game.options, game.state, run.state, seat, moment
        ):  # a tournament game counts it for the seat's holder
            uncounted = reliability.count_quietly(
                lookup.transaction, game.game_id, seat, on_time=1, now=moment
            )
            note = "; ".join(n for n in (note, uncounted) if n)
        changed = bool(run.events) or options != dict(game.options)
        deadline_rows = [*moved, *settled.deadlines]
        for change in changes:
            ends = None if change.withdrawn else change.absence.ends
            deadline_rows.append(
                DeadlineChange(ABSENCE_END, ends, seat, change.absence.key)
            )
        return Outcome(
            events=tuple(run.events),
            mails=tuple(mails),
            options=options if changed else None,
            note=note,
            deadlines=tuple(deadline_rows) if changed else (),
        )

    def _absences(
        self,
        game: GameContext,
        seat: str,
        player: Player,
        lines: list[str],
        now: datetime,
    ) -> tuple[dict[str, Any], list[LineResult], list[_AbsenceChange], list[DeadlineChange]]:
        """
        The mail's absence lines (they change no game state, so need no step reference):
        the game's options after them, a result per line, the absences changed and the
        running deadline moved by them.
        """
        options = dict(game.options)
        results: list[LineResult] = []
        changes: list[_AbsenceChange] = []
        moved: list[DeadlineChange] = []
        limits = timing.TimeLimits.from_options(options)
        for line in lines:
            if game.state.step is Step.OVER:
                results.append(
                    LineResult(line, REFUSED, reason="the game is over", code=ABSENCE_REFUSED)
                )
                continue
            done = absence.request(options, seat, line, now, player.time_zone, limits)
            if done.options is None:
                results.append(LineResult(line, REFUSED, reason=done.answer, code=ABSENCE_REFUSED))
                continue
            options, change = timing.recompute(done.options, now)
            moved.extend(deadline_change(change))
            results.append(LineResult(line, DONE, (done.answer[:1].upper() + done.answer[1:],)))
            if done.absence is not None:
                withdrawn = done.cancelled and done.absence.begins > now
                what = "withdrawn" if withdrawn else "cancelled" if done.cancelled else "declared"
                changes.append(_AbsenceChange(done.absence, what, withdrawn))
        return options, results, changes, moved

    def _absence_notices(
        self,
        game: GameContext,
        lookup: Lookup,
        state: GameState,
        options: Mapping[str, Any],
        seat: str,
        change: _AbsenceChange,
    ) -> list[OutgoingMail]:
        """The other players are told of ``seat``'s absence (it is public)."""
        actor = to_act(state)
        mails: list[OutgoingMail] = []
        for other, player in sorted(lookup.seated_players(game.game_id).items()):
            if other == seat or not state.has_player(other):
                continue
            texts = notices.absence(
                game.game_id,
                seat,
                change.what,
                change.absence.first,
                change.absence.last,
                change.absence.begins,
                change.absence.ends,
                actor=actor,
                deadline=reports.deadline_line(options, player.time_zone),
                time_zone=player.time_zone,
            )
            mails.append(self._mail(player, notices.NOTICE, texts, game.game_id, {}))
        return mails

    # -- answers that play nothing -------------------------------------------------------

    def _refuse(
        self,
        lookup: Lookup,
        message: InboundMessage,
        info: reports.MailInfo,
        player: Player,
        why: str,
        how: Sequence[str],
        *,
        kind: str = REFUSAL,
        per_day: int = auth.REFUSALS_PER_DAY,
    ) -> Outcome:
        """A mail not carried out: ``per_day`` refusals of its ``kind`` a day to the address."""
        if lookup.mails_today(player.address, (kind,)) >= per_day:
            return Outcome(rejected=True, note=f"refused, not answered (refused today): {why}")
        texts = reports.refusal(info, why, how, per_day=per_day)
        mail = self._answer(message, player, kind, texts, None)
        return Outcome(mails=(mail,), rejected=True, note=f"refused: {why}")

    def _no_game(
        self,
        lookup: Lookup,
        message: InboundMessage,
        info: reports.MailInfo,
        player: Player,
        why: str,
    ) -> Outcome:
        """An authenticated mail for no game the player sits in."""
        games = ", ".join(f"{g} (as {seat})" for g, seat in lookup.games_of(player.address))
        how = [
            (
                "Name the game in your mail: a line 'game NAME', or keep the [titan NAME] tag "
                "in the subject of an answer to one of its reports."
            )
        ]
        texts = reports.refusal(info, why, how, games=games or "none yet", once=False)
        return Outcome(
            mails=(self._answer(message, player, REPLY, texts, None),), rejected=True, note=why
        )

    def _cannot_read(
        self,
        lookup: Lookup,
        message: InboundMessage,
        info: reports.MailInfo,
        sender: str | None,
        disposition: Disposition,
    ) -> Outcome:
        """An encrypted mail: its registered sender is told to sign instead."""
        player = lookup.player(sender) if sender else None
        why = f"the mail cannot be read ({_reasons(disposition)})"
        if player is None:
            return Outcome(rejected=True, note=f"not answered: {why}")
        how = [
            (
                "Send your orders signed but not encrypted: the moderator reads only signed "
                "or plain text."
            )
        ]
        return self._refuse(lookup, message, info, player, why, how)

    def _sign_on(
        self,
        message: InboundMessage,
        read: _Read,
        lookup: Lookup,
        info: reports.MailInfo,
        lines: list[str],
        hints: Hints,
        signature: auth.Signature,
        seal: Seal | None,
    ) -> Outcome:
        """
        ``signon NAME`` from an address nobody registered (see ``signon``).  Every refusal
        is answered, with what to do, up to ``signon.REFUSALS_PER_DAY`` a day.
        """
        address = normal_address(read.hints.sender or "")
        if not address:
            return Outcome(rejected=True, note="a sign-on without a sender address")
        req = signon.request(lines)
        assert req is not None
        stranger = Player(0, req.name, address, "UTC", None, None)
        why = signon.problem(req)
        how = ["Write 'signon YOUR NAME' (and 'timezone Europe/Berlin' if you like)."]
        key: str | None = None
        blocks = auth.key_blocks(read.msg, signature.text or read.extracted.text)
        keyring = self.keyring
        if why is None and blocks and keyring is not None:
            checked: list[auth.Signature] = []

            def check() -> auth.Signature:
                checked.append(auth.check_signature(message.raw, keyring, read.extracted.charset))
                return checked[-1]

            key, why = signon.pinned_key(keyring, blocks, check)
            if key is not None and lookup.players_with_key(key):
                key, why = None, f"the key {key} is registered for another address already"
            if key is not None and checked:  # the signature is good now: count it once
                seal = seals.signature_seal(checked[-1], self.seal_window)
                used = lookup.seal_used(seal.digest)
                late = seals.age_problem(checked[-1].signed_at, lookup.now(), self.seal_window)
                why = seals.replay_answer(used, secret=False) if used else late
                key = key if why is None else None
            elif key is None and checked and not checked[-1].valid:
                how = signon.how_to_sign(checked[-1])
        elif why is None and blocks:
            why = "this moderator takes no keys: sign on with a secret line instead"
        secret = hints.secret
        if why is None and secret is not None and len(secret) < signon.MIN_SECRET:
            why = f"a secret must have at least {signon.MIN_SECRET} characters"
        if why is None and key is None and secret is None:
            why = (
                "a sign-on needs your PGP public key (attached or inline, and the mail "
                "signed with it) or a line 'secret YOUR-SECRET'"
            )
        if why is not None:
            return self._refuse(
                lookup, message, info, stranger, why, how,
                kind=SIGNON_REFUSAL, per_day=signon.REFUSALS_PER_DAY,
            )
        zone = req.time_zone or "UTC"
        hashed = hash_secret(secret) if secret is not None else None
        new = NewPlayer(req.name, address, zone, key, hashed)
        texts = reports.welcome(req.name, address, zone, key, new.secret_hash is not None)
        player = Player(0, req.name, address, zone, key, new.secret_hash)
        mail = self._answer(message, player, WELCOME, texts, None)
        done = Outcome(players=(new,), mails=(mail,), note=f"signed on {req.name} <{address}>")
        return _sealed(done, seal)

    # -- mails ---------------------------------------------------------------------------

    def _answer(
        self,
        message: InboundMessage,
        player: Player,
        kind: str,
        texts: reports.Texts,
        game_id: str | None,
    ) -> OutgoingMail:
        """A mail answering ``message``, to the player's registered address."""
        return self._mail(player, kind, texts, game_id, self._reply_headers(message))

    def _reply_headers(self, message: InboundMessage) -> dict[str, str]:
        """The threading headers of an answer to ``message``."""
        headers: dict[str, str] = {}
        if message.message_id:
            headers["In-Reply-To"] = message.message_id
            earlier = header_text(self._read(message).msg, "References")
            headers["References"] = f"{earlier} {message.message_id}".strip()
        return headers

    def _mail(
        self,
        player: Player,
        kind: str,
        texts: reports.Texts,
        game_id: str | None,
        headers: Mapping[str, str],
    ) -> OutgoingMail:
        return notify.mail_to(self.moderator_address, player, kind, texts, game_id, headers)


def _answerer(asked: list[Query]) -> Answerer:
    """Queries as ``answer_query`` answers them, but ``history`` and ``report`` by mail."""

    def answer(query: Query, events: Callable[[], list[ev.Event]], state: GameState) -> list[str]:
        if query.kind == "history":
            asked.append(query)
            if len([q for q in asked if q.kind == "history"]) > HISTORIES_PER_MAIL:
                return [f"Not sent: at most {HISTORIES_PER_MAIL} game records per mail."]
            return ["The game record follows in a mail of its own."]
        if query.kind == "report":
            asked.append(query)
            return ["Your latest report is sent again in a mail of its own."]
        return answer_query(query, events, state)

    return answer


def _info(read: _Read, message: InboundMessage) -> reports.MailInfo:
    subject = header_text(read.msg, "Subject")
    topic = _REPLY_PREFIX.sub("", reference.without_refs(subject)).strip()
    return reports.MailInfo(
        sender=header_text(read.msg, "From") or "(no sender)",
        subject=subject,
        date=header_text(read.msg, "Date"),
        message_id=message.message_id or "",
        topic=topic or "your mail",
    )


def _sealed(outcome: Outcome, seal: Seal | None) -> Outcome:
    """``outcome`` keeping ``seal``: the mail's signature or secret text is used up."""
    return outcome if seal is None else replace(outcome, seals=(*outcome.seals, seal))


_REGISTERED = "this address is registered already"


def _registered_how(player: Player) -> list[str]:
    """What a registered player who signs on again may want instead."""
    return [
        f"You are registered as {player.name} <{player.address}>; nothing needs doing.",
        (
            f"To move to another address, write 'change address from {player.address}' "
            "from the new address (signed with your key or with your secret line); the "
            "change is confirmed from this address."
        ),
        (
            "To register another key, ask the game master: a key is changed by hand, so "
            "that nobody can take over your games with a key of his own."
        ),
    ]


def _head(raw: bytes) -> bytes:
    """The first headers of a mail too large to parse: enough to find its sender."""
    head = raw[:_HEAD_BYTES]
    end = head.find(b"\n\n")
    end = head.find(b"\r\n\r\n") if end < 0 else end
    return head[: end + 1] if end >= 0 else head[: head.rfind(b"\n") + 1]


def _checked_sender(hints: Hints) -> Hints:
    if hints.sender is not None and not _ADDRESS.match(hints.sender):
        return replace(hints, sender=None)  # not an address we could ever answer
    return hints


def _reasons(disposition: Disposition) -> str:
    return "; ".join(f"{name}: {why}" for name, why in disposition.reasons) or "no reason"


__all__ = ["ANSWER_KINDS", "DEFAULT_BUDGET", "REPORTED", "REPORT_FROM", "MailGameHandler"]
