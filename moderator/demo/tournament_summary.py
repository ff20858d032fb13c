"""
The tournament demo's outcome: ``TournamentDemoSummary``, gathered from the database
and the outbox once the run is over, and its text for the operator.

Apart from the run (``tournament_demo``) because reading the result back is a job of
its own: it opens the database afresh and counts what each robot was mailed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from moderator.demo.mail_demo import dump_inbox, where_lines
from moderator.demo.tournament_run import TOURNAMENT, DemoRun
from moderator.letters.tournaments import standings as standings_text
from moderator.ports.mail import PENDING
from moderator.rules.events import TimeCalled
from moderator.rules.state import GameState, Step
from moderator.runtime.bootstrap import bootstrap
from moderator.runtime.config import Config
from moderator.store import outbox
from moderator.store import tournaments as stored
from moderator.tournament.scoring import DIRECTOR, PLAY, TIME
from moderator.tournament.state import TournamentState

_HOW = {
    TIME: "ended by its end date (Wolff 21.1), scored by 20.5",
    PLAY: "played to its end",
    DIRECTOR: "stopped by the director",
}


@dataclass
class TournamentDemoSummary:
    folder: Path
    tournament: TournamentState
    games: dict[str, GameState]
    orders: int
    mails_sent: int
    mails_read: int
    seconds: float
    seed: int
    #: Standings mails each robot received (name -> count).
    standings_mailed: dict[str, int] = field(default_factory=dict)
    #: (game, seat, old robot, new robot) of the replacement made.
    replaced: tuple[str, str, str, str] | None = None
    #: Orders each robot mailed (name -> count).
    orders_by: dict[str, int] = field(default_factory=dict)
    #: Mails about the replaced seat's game written to its old robot after the replacement,
    #: but the public audit bundle every former holder gets at the game's end.
    after_replacement: int = 0
    #: Games scored as ended by their end date (Wolff 21.1, rulebook 20.5).
    by_time: list[str] = field(default_factory=list)
    #: Games whose end date came (some then ended by play during the last turns).
    time_called: list[str] = field(default_factory=list)
    mailboxes: dict[str, Path] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.tournament.finished

    @property
    def done(self) -> bool:
        """Whether it did what was asked (the one-game demo's ``done``): finished."""
        return self.finished

    def text(self) -> str:
        state = self.tournament
        lines = [
            f"Tournament {state.name}: "
            + ("over" if self.finished else "NOT finished")
            + f"; {len(self.games)} game(s) formed by the moderator.",
        ]
        for game_id, game in sorted(self.games.items()):
            result = state.games[game_id].result
            how = _HOW.get(result.ended, result.ended) if result is not None else "not scored"
            if game_id in self.time_called and game_id not in self.by_time:
                how += " after time was called"
            holders = dict(state.games[game_id].seats)
            scores = ", ".join(
                f"{p.name} ({holders.get(p.name, '?').split('@')[0]}) {p.score}"
                for p in game.players
            )
            over = (
                f"over after {game.turn} turns, {how}; winner {game.winner or 'nobody'}"
                if game.step is Step.OVER
                else f"not over (turn {game.turn})"
            )
            lines.append(f"  {game_id}: {over}; scores {scores}")
        if self.replaced is not None:
            game_id, seat, old, new = self.replaced
            lines.append(
                f"Replacement: {new} took the seat {seat} in {game_id} from {old} "
                f"(mails to {old} about {game_id} afterwards: {self.after_replacement})."
            )
        mailed = ", ".join(f"{who} {n}" for who, n in sorted(self.standings_mailed.items()))
        standings = standings_text(state)
        lines += [
            f"Standings mails written: {mailed}.",
            "",
            *(f"  {line}".rstrip() for line in standings.strip().splitlines()),
            "",
            (
                f"{self.orders} orders by mail, {self.mails_sent} mails from the moderator "
                f"(all signed), {self.mails_read} read by the robots, in {self.seconds:.0f} s; "
                f"seed {self.seed}."
            ),
            "",
            *where_lines(self.folder, self.mailboxes, *self._replayed()),
        ]
        return "\n".join(lines)

    def _replayed(self) -> tuple[str, str]:
        """The game the summary's replay command shows, and one of its players."""
        first = next(iter(sorted(self.games)), None)
        if first is None or not self.games[first].players:
            return "GAME", "NAME"
        return first, self.games[first].players[0].name


def summarise(run: DemoRun, config: Config) -> TournamentDemoSummary:
    """Read the finished run back from its database (opened afresh) and its robots."""
    app = bootstrap(config)
    try:
        store = app.store
        with store.reading() as tx:
            tournament = stored.load(tx, TOURNAMENT).state
            sent = len(outbox.mails(tx)) - len(outbox.mails(tx, status=PENDING))
            mails = outbox.mails(tx)
        games = {g: store.load_state(g).state for g in tournament.games}
        called = [g for g in games if any(isinstance(e, TimeCalled) for e in store.load(g))]
        by_time = [
            g for g, game in tournament.games.items() if game.result and game.result.ended == TIME
        ]
        mailboxes = {bot.name: bot.mbox_path for bot in run.everyone}
        mailboxes["moderator"] = dump_inbox(store, run.folder / "mail" / "moderator.mbox")
    finally:
        app.close()
    standings = {
        bot.name: sum(1 for m in mails if m.recipient == bot.address and "standings" in m.subject)
        for bot in run.everyone
    }
    after = 0
    if run.replaced is not None:
        game_id, _seat, old_name, _new = run.replaced
        old = next(bot for bot in run.robots if bot.name == old_name)
        after = sum(
            1
            for m in mails
            if m.id > run.outbox_at_replacement
            and m.recipient == old.address
            and f"[titan {game_id}]" in m.subject
            and m.kind != "audit"  # the game's public bundle at its end: his by right
        )
    return TournamentDemoSummary(
        folder=run.folder,
        tournament=tournament,
        games=games,
        orders=sum(bot.tally.orders_sent for bot in run.everyone),
        orders_by={bot.name: bot.tally.orders_sent for bot in run.everyone},
        mails_sent=sent,
        mails_read=sum(bot.tally.mails_read for bot in run.everyone),
        seconds=time.monotonic() - run.started,
        seed=run.seed,
        standings_mailed=standings,
        replaced=run.replaced,
        after_replacement=after,
        by_time=by_time,
        time_called=called,
        mailboxes=mailboxes,
    )
