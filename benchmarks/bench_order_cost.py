"""
Order-mail cost benchmark: what one order mail costs the mail service as games and
tournaments grow; prints figures, asserts nothing.

    python benchmarks/bench_order_cost.py [--quick] [--db URL] [--orders N] [--warmup N]
        [--reliability-per-game N]

What is timed is one order mail through the mail service, gpg excluded:
``moderator.store.inbox.receive`` (the mail archived) and
``moderator.runners.mail.process_message`` with the real ``MailGameHandler`` configured
without a keyring (``MailGameHandler(None, MODERATOR)``): intake, the player
authenticated by his ``secret`` line, the step reference checked, the order decided,
its events appended (and a snapshot when one is due), the deadline moved, the reply and
every player's report rendered and put in the outbox, a move in time counted for a
tournament game.  Signing and encryption happen later, in the sender, so they are left
out by construction.  The handler's memory of checked secrets is filled for every
player first, as a running service's is after each player's first mail (checking a
secret the first time costs 200,000 PBKDF2 rounds).  The store's clock is moved by hand,
two minutes per mail; every game has players of its own, so that none of them comes near
the daily reply budget.  The sizes of a series are measured in turn, one mail at each
size at a time, so that whatever else runs on the machine weighs on every size alike.

Each mail holds the lines a player writes: ``game NAME``, the game's current
``ref GAME-N``, ``secret ...`` and one order line, one of
``moderator.reporting.views.legal_orders(state, actor)``: the line the robot players
choose (``moderator.robot.choose_order``), passing over a line that would eliminate a
player or end the game, so that every size measures the same kind of game.  (The first
legal line would have the player move a legion and take it back for ever.)  A mail
whose order is not carried out stops the benchmark.

1. **Game size.**  A six-player game with the default time limits, by mail with
   secrets, whose event log holds about 100, 1,000, 10,000 and 100,000 events before
   the measured orders.  Games between robots end after about a thousand events, and a
   log of concatenated games cannot be one game (the step reference is the event
   count), so each size is a game of its own, built so that only the log's length
   differs: the same dice seed, the same robot moves up to the first move phase past
   event 100, then the player to act moving one of his legions and taking the move back
   (``move`` and ``undo``, legal orders that change nothing else and roll no dice)
   until the log is long enough.  The measured mails are then the very same orders at
   every size.  The events are appended straight to the store in one transaction, in
   appends that end at each multiple of the store's ``snapshot_every`` (its default
   unless configured) with the state, so that snapshots lie where the mail service
   would have written them; every player is marked as reported up to the last event,
   as the mail service's reports would have left him, and the deadline follows the
   player to act.  Below the first snapshot (event 500 by default) every load replays
   the whole log: that is why the smallest game can cost more than the longer ones.
2. **Tournament size.**  A tournament (four players a game, at most 100 games a player,
   48 hours a turn, secrets allowed) whose stream records 10, 100 and 1,000 finished
   games, then orders in a game the service forms then.  The stream is appended in big
   batches: the creation and the sign-ups as the tournament core's ``decide`` makes
   them, then for each finished game the events ``decide`` would have made when it was
   formed and finished (``GameFormed``, ``GameFinished``) and the moves in time its
   players would have had counted meanwhile (``ReliabilityRecorded``, one per mail that
   moved the game on before its deadline: as many as robot games of four players count
   on average, ``--reliability-per-game`` to choose).  The formation's planner is not run
   for the finished games (with dozens of waiting players it takes seconds a round), nor
   are their own event logs stored: nothing an order mail does reads them.  The running
   games are formed by the service's job
   (``moderator.usecases.tournaments.tournament_games.form_games``: the planner, the games created,
   seated, clocked and mailed; its time is shown).  A move made in time in a tournament
   game counts towards reliability: one ``ReliabilityRecorded`` decided on a state
   holding that game alone and appended after the stream's head, in the mail's
   transaction (the tournament is not loaded): the table gives how many of the
   measured mails counted one and their median apart.  These games differ from size to size (their
   seats and dice come from the game's name), so their orders differ too (listed).

For each size it prints the median and 90th percentile in milliseconds of the measured
mails (``--orders``, 30 by default, after ``--warmup`` unmeasured ones) and the median
against the smallest size's.  ``--quick`` stops at 10,000 events and 100 finished games.
The database is SQLite in a temporary folder unless ``--db URL`` names another (for
PostgreSQL: an empty database, or one where the names this run picks are free).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select

from moderator import robot
from moderator.mail import compose
from moderator.ports.deadlines import deadline_change
from moderator.ports.players import DIRECTOR
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState, Step
from moderator.runners import mail as processing
from moderator.runners.commands import new_game
from moderator.runners.tournaments import form_games
from moderator.schedule import timing
from moderator.store import EventStore, deadlines, inbox, players
from moderator.store import tournaments as stored
from moderator.store.eventstore import Tx
from moderator.store.tables import TOURNAMENT
from moderator.testing.clocks import TestClock
from moderator.testing.stores import open_store
from moderator.tournament import commands as tcmd
from moderator.tournament import events as tev
from moderator.tournament.decide import decide as tdecide
from moderator.tournament.formation import formable
from moderator.tournament.settings import Settings
from moderator.tournament.state import TournamentState
from moderator.tournament.state import replay as fold
from moderator.usecases.games.dice import CountingDice
from moderator.usecases.mail.handler import MailGameHandler

MODERATOR = "moderator@titan.example"
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
#: The dice and robots of the game-size series (every size plays the same game).
SEED = 11
#: Events of robot play before the padding starts (the smallest size).
PREFIX = 100
#: Players per tournament game, and the most games a tournament player is placed in.
SEATS, ROUNDS = 4, 100
#: Tournament events appended per call (all in one transaction).
TOURNAMENT_BATCH = 5_000


def next_day(clock: TestClock) -> None:
    """The clock on to eight o'clock the next morning."""
    clock.set((clock.now() + timedelta(days=1)).replace(hour=8, minute=0))


@dataclass(frozen=True)
class Person:
    name: str
    address: str
    secret: str


@dataclass
class Bench:
    store: EventStore
    handler: MailGameHandler
    clock: TestClock
    tag: str  # makes this run's names unique in a database used before
    mails: int = 0


@dataclass(frozen=True)
class Sample:
    ms: float
    counted: bool  # a move in time counted for the tournament
    line: str


def register(bench: Bench, people: Sequence[Person]) -> None:
    """Register ``people`` with their secrets, and fill the handler's memory of secrets."""
    with bench.store.transaction() as tx:
        for person in people:
            if players.player_by_address(tx, person.address) is None:
                players.add_player(tx, person.name, person.address, secret=person.secret)
            player = players.player_by_address(tx, person.address)
            if player is not None and player.secret_hash:
                bench.handler.secrets.matches(person.secret, player.secret_hash)


def order_mail(bench: Bench, person: Person, game_id: str, version: int, line: str) -> bytes:
    bench.mails += 1
    message = EmailMessage(policy=compose.POLICY)
    message["From"] = f"{person.name} <{person.address}>"
    message["To"] = MODERATOR
    message["Subject"] = f"[titan {game_id}] orders"
    message["Date"] = bench.clock.now().strftime("%a, %d %b %Y %H:%M:%S +0000")
    message["Message-ID"] = f"<order-{bench.tag}-{bench.mails}@example.org>"
    body = f"game {game_id}\nref {game_id}-{version}\nsecret {person.secret}\n{line}\n"
    message.set_content(body)
    return message.as_bytes()


def harmless(state: GameState, command: cmd.Command, dice: CountingDice) -> bool:
    """Whether ``command`` neither eliminates a player nor ends the game (dice: a copy)."""
    for event in decide(state, command, dice):
        if isinstance(event, ev.PlayerEliminated | ev.PlayerWithdrew | ev.GameOver):
            return False
        state = evolve(state, event)
    return state.step is not Step.OVER


def robot_order(
    state: GameState, dice: CountingDice, rng: random.Random
) -> tuple[str, cmd.Command]:
    """The robot's order line for the player to act, passing over one that ends much."""
    line, command = robot.choose_order(state, rng)
    for _ in range(30):
        if harmless(state, command, CountingDice.from_record(dice.record())):
            break
        line, command = robot.choose_order(state, rng)
    return line, command


@dataclass
class Target:
    """A game to send orders to: who holds its seats, the robots' choices, its samples."""

    game_id: str
    people: dict[str, Person]  # by address
    tournament: str | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(SEED))
    samples: list[Sample] = field(default_factory=list)


def send_order(bench: Bench, target: Target) -> Sample:
    """One order mail from the player to act in ``target``'s game: received and processed."""
    store, game_id = bench.store, target.game_id
    loaded = store.load_state(game_id)
    state = loaded.state
    actor = to_act(state)
    if actor is None:
        raise SystemExit(f"{game_id}: the game is over after {loaded.seq} events")
    with store.reading() as tx:
        holders = {seat: address for address, seat in players.seats(tx, game_id).items()}
    line, _command = robot_order(state, CountingDice.from_record(loaded.record.dice), target.rng)
    raw = order_mail(bench, target.people[holders[actor]], game_id, state.steps_seen(actor), line)
    counted_before = tournament_seq(store, target.tournament)
    started = time.perf_counter()
    message_id = inbox.receive(store, raw)
    status = processing.process_message(store, message_id, bench.handler)
    elapsed = time.perf_counter() - started
    with store.reading() as tx:
        note = inbox.message(tx, message_id).error
        after = tx.last_seq(game_id)
    if status != inbox.PROCESSED or note or after <= loaded.seq:
        raise SystemExit(f"{game_id}: {line!r} was not carried out: {status} {note or ''}")
    counted = tournament_seq(store, target.tournament) > counted_before
    bench.clock.advance(minutes=2)
    return Sample(elapsed * 1e3, counted, line)


def measure(bench: Bench, targets: Sequence[Target], count: int, warmup: int) -> None:
    """
    ``warmup`` then ``count`` rounds of one order mail in each game, timing the latter:
    taking the games in turn, whatever else runs on the machine weighs on every size.
    """
    for number in range(warmup + count):
        for target in targets:
            sample = send_order(bench, target)
            if number >= warmup:
                target.samples.append(sample)


def tournament_seq(store: EventStore, name: str | None) -> int:
    if name is None:
        return 0
    with store.reading() as tx:
        found = tx.connection.scalar(select(TOURNAMENT.c.last_seq).where(TOURNAMENT.c.id == name))
    return int(found or 0)


# -- the game-size series ------------------------------------------------------------------


def grow(tx: Tx, game_id: str, target: int, rng: random.Random) -> tuple[GameState, int]:
    """
    Play the game with robots up to the first player's move phase past event ``PREFIX``,
    then move a legion and take it back until the log holds ``target`` events; appended
    in ``tx`` in pieces that end at each multiple of ``snapshot_every``.
    """
    every = tx.store.snapshot_every
    loaded = tx.load(game_id, lock=True)
    state, seq, record = loaded.state, loaded.seq, loaded.record
    dice = CountingDice.from_record(record.dice)
    batch: list[ev.Event] = []

    def add(events: Sequence[ev.Event]) -> None:
        nonlocal state, seq, batch
        for event in events:
            state = evolve(state, event)
            batch.append(event)
            if state.version % every == 0:
                seq = tx.append(game_id, seq, batch, state=state)
                batch = []

    def ready() -> bool:
        return state.version >= PREFIX and state.step is Step.MOVE and not state.moves

    while not ready():
        _line, command = robot_order(state, dice, rng)
        add(decide(state, command, dice))
    start, rolled = state, dice.rolled
    moves = [c for c in legal_commands(state) if isinstance(c, cmd.MoveLegion) and not c.teleport]
    if not moves:
        raise SystemExit(f"{game_id}: no legion to move at event {state.version}")
    while state.version < target:
        add(decide(state, moves[0], dice))
        undo = next(c for c in legal_commands(state) if isinstance(c, cmd.UndoMove))
        add(decide(state, undo, dice))
    steps = {"public_steps": start.public_steps, "own_steps": start.own_steps}
    if dice.rolled != rolled or replace(state, version=start.version, **steps) != start:
        raise SystemExit(f"{game_id}: moving and taking back changed the game")
    seats = players.seats(tx, game_id).values()
    record = record.but(dice=dice.record(), reported=dict.fromkeys(seats, state.version))
    record, change = timing.follow(state, record, tx.now())
    seq = tx.append(game_id, seq, batch, record=record, state=state)
    for row in deadline_change(change):
        deadlines.apply(tx, game_id, row, seq)
    return state, seq


def build_game(bench: Bench, size: int) -> tuple[Target, int]:
    """The game of about ``size`` events, its six players seated: (target, events)."""
    people = [
        Person(n, f"{n.lower()}{size}.{bench.tag}@example.org", f"{n.lower()}-secret-{bench.tag}")
        for n in NAMES
    ]
    register(bench, people)
    game_id = f"long{size}x{bench.tag}"
    new_game(bench.store, game_id, list(NAMES), seed=SEED, time_limits=timing.TimeLimits())
    with bench.store.transaction() as tx:
        for person in people:
            players.seat_player(tx, game_id, person.name, person.address)
        loaded = tx.load(game_id)
        tx.append(game_id, loaded.seq, [], record=loaded.record.but(allow_secrets=True))
    with bench.store.transaction() as tx:
        _state, seq = grow(tx, game_id, size, random.Random(SEED))
    return Target(game_id, {p.address: p for p in people}), seq


def game_series(
    bench: Bench, sizes: Sequence[int], count: int, warmup: int
) -> list[tuple[int, list[Sample]]]:
    next_day(bench.clock)
    built: list[tuple[Target, int]] = []
    for size in sizes:
        started = time.perf_counter()
        built.append(build_game(bench, size))
        took = time.perf_counter() - started
        print(f"  game of {built[-1][1]:,} events built in {took:.1f} s", flush=True)
    measure(bench, [target for target, _ in built], count, warmup)
    return [(seq, target.samples) for target, seq in built]


# -- the tournament-size series -------------------------------------------------------------


def reliability_per_game(games: int = 6) -> int:
    """Moves in time a robot game of ``SEATS`` players counts, on average (every mail in time)."""
    return round(statistics.mean(_keys_moved(seed) for seed in range(games)))


def _keys_moved(seed: int) -> int:
    """Commands of the robot game ``seed`` that changed the step a deadline times."""
    dice = CountingDice(seed=seed)
    rng = random.Random(f"robots:{seed}")
    events = setup.start_game(list(NAMES[:SEATS]), dice)
    state = replay(events)
    state = replay(advance(state), state)
    moved = 0
    while to_act(state) is not None:
        before = timing.step_key(state)
        _line, command = robot.choose_order(state, rng)
        for event in decide(state, command, dice):
            state = evolve(state, event)
        moved += timing.step_key(state) != before
    return moved


def entrants_for(games: int) -> int:
    """Entrants of a tournament of ``games`` games: each placed in at most about 80."""
    needed = -(-games * SEATS // 80)
    return max(2 * SEATS, -(-needed // SEATS) * SEATS)


def tournament_stream(
    name: str,
    director: Person,
    entrants: Sequence[Person],
    finished: int,
    reliability: int,
    now: datetime,
) -> list[tev.TournamentEvent]:
    """
    The events of a tournament that has finished ``finished`` games: its creation and
    sign-ups by the core's ``decide``; then, game after game, ``GameFormed`` (four
    entrants of a shuffled list, in turn), ``reliability`` moves in time
    (``ReliabilityRecorded``, spread over the seats) and ``GameFinished``, as ``decide``
    makes them for ``FormGames``, ``RecordReliability`` and ``RecordResult``.  The
    formation's planner is not run for these games: with dozens of waiting players it
    takes seconds a round, and the games' make-up changes nothing an order mail does.
    """
    settings = Settings(
        players_per_game=SEATS, rounds=ROUNDS, max_games=1, time_limits={"turn_hours": 48}
    )
    create = tcmd.CreateTournament(
        tournament=name,
        by=director.address,
        by_name=director.name,
        may_direct=True,
        settings=settings,
    )
    at = now.isoformat()
    out = tdecide(TournamentState(), create, now=now)
    state = fold(out)
    for person in entrants:
        out.extend(tdecide(state, tcmd.Join(player=person.address, name=person.name), now=now))
    rng = random.Random(f"results:{name}")
    queue: list[Person] = []
    for number in range(1, finished + 1):
        if len(queue) < SEATS:
            queue = rng.sample(list(entrants), len(entrants))
        group, queue = queue[:SEATS], queue[SEATS:]
        game_id = f"{name}-{number}"
        seats = tuple((p.name, p.address) for p in group)
        out.append(tev.GameFormed(at=at, game=game_id, seats=seats))
        for n in range(reliability):  # each move in time is an event of its own
            seat, player = seats[n % SEATS]
            out.append(
                tev.ReliabilityRecorded(
                    at=at, player=player, game=game_id, seat=seat, on_time=1, timeouts=0
                )
            )
        ranking = [seat for seat, _ in seats]
        rng.shuffle(ranking)
        out.append(
            tev.GameFinished(
                at=at,
                game=game_id,
                ranking=tuple((seat,) for seat in ranking),
                totals=tuple((seat, 100 * (SEATS - i)) for i, seat in enumerate(ranking)),
                ended="play",
                winner=ranking[0],
            )
        )
    state = fold(out)  # the stream as the store will replay it: a tournament under way
    if state.finished or state.unfinished or not formable(state):
        raise SystemExit(f"{name}: the tournament built cannot form a game")
    return out


def build_tournament(bench: Bench, size: int, reliability: int) -> tuple[Target, int]:
    """A tournament with ``size`` finished games and games formed: (target, stream events)."""
    name = f"cup{size}x{bench.tag}"
    director = Person("Dee", f"dee.{bench.tag}@example.org", f"dee-secret-{bench.tag}")
    entrants = [
        Person(f"Pl{i}", f"cup{size}p{i}.{bench.tag}@example.org", f"p{i}-secret-{bench.tag}")
        for i in range(entrants_for(size))
    ]
    register(bench, [director, *entrants])
    with bench.store.transaction() as tx:
        players.set_roles(tx, director.address, (DIRECTOR,))
    events = tournament_stream(name, director, entrants, size, reliability, bench.clock.now())
    with bench.store.transaction() as tx:
        stored.create(tx, name, director.address)
        seq = 0
        for at in range(0, len(events), TOURNAMENT_BATCH):
            seq = stored.append(tx, name, seq, events[at : at + TOURNAMENT_BATCH])
    started = time.perf_counter()
    form_games(bench.store, MODERATOR, bench.clock.now(), seed=size)
    forming = time.perf_counter() - started
    game_id = f"{name}-{size + 1}"
    if game_id not in bench.store.games():
        raise SystemExit(f"{name}: the service formed no game {game_id}")
    print(f"    form_games (the service's job) took {forming:.1f} s", flush=True)
    return Target(game_id, {p.address: p for p in entrants}, tournament=name), seq


def tournament_series(
    bench: Bench, sizes: Sequence[int], count: int, warmup: int, reliability: int
) -> list[tuple[int, int, list[Sample]]]:
    next_day(bench.clock)
    built: list[tuple[Target, int]] = []
    for size in sizes:
        started = time.perf_counter()
        built.append(build_tournament(bench, size, reliability))
        took = time.perf_counter() - started
        print(
            f"  tournament of {size:,} finished games ({built[-1][1]:,} events) built in "
            f"{took:.1f} s; orders in {built[-1][0].game_id}",
            flush=True,
        )
    measure(bench, [target for target, _ in built], count, warmup)
    return [(size, seq, target.samples) for size, (target, seq) in zip(sizes, built)]


# -- figures ----------------------------------------------------------------------------------


def p90(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def fmt(value: float) -> str:
    return f"{value:.1f}"


def kinds(samples: Sequence[Sample]) -> str:
    """The measured orders by their first word: ``move 9, done 6, ...``."""
    words = Counter(s.line.split()[0] for s in samples)
    return ", ".join(f"{word} {n}" for word, n in words.most_common())


def print_games(kind: str, rows: list[tuple[int, list[Sample]]]) -> None:
    print(f"\norder mail cost (decide, append, reports, outbox; gpg excluded), {kind}")
    print(f"{'events before':<16}{'median ms':>10}{'p90 ms':>9}{'x smallest':>12}")
    base = statistics.median(s.ms for s in rows[0][1])
    for events, samples in rows:
        ms = [s.ms for s in samples]
        median = statistics.median(ms)
        print(f"{events:<16,}{fmt(median):>10}{fmt(p90(ms)):>9}{median / base:>12.2f}")
    same = all([s.line for s in r[1]] == [s.line for s in rows[0][1]] for r in rows)
    print(
        f"orders measured ({'the same lines at every size' if same else 'NOT the same lines'}):"
        f" {kinds(rows[0][1])}"
    )


def print_tournaments(kind: str, rows: list[tuple[int, int, list[Sample]]]) -> None:
    print(f"\norder mail cost in a tournament game (as above, moves in time counted), {kind}")
    print(
        f"{'finished games':<16}{'stream events':>14}{'median ms':>11}{'p90 ms':>9}"
        f"{'x smallest':>12}   of which counted a move in time: mails, median ms, x smallest"
    )
    base = statistics.median(s.ms for s in rows[0][2])
    first = [s.ms for s in rows[0][2] if s.counted]
    counted_base = statistics.median(first) if first else None
    for games, events, samples in rows:
        ms = [s.ms for s in samples]
        counted = [s.ms for s in samples if s.counted]
        median = statistics.median(ms)
        in_time = f"{len(counted)}, -"
        if counted:
            middle = statistics.median(counted)
            ratio = f"{middle / counted_base:.2f}" if counted_base else "-"
            in_time = f"{len(counted)}, {fmt(middle)}, {ratio}"
        print(
            f"{games:<16,}{events:>14,}{fmt(median):>11}{fmt(p90(ms)):>9}{median / base:>12.2f}"
            f"   {in_time}"
        )
    for games, _events, samples in rows:
        print(f"orders measured with {games:,} finished games: {kinds(samples)}")


def run(
    url: str,
    tag: str,
    args: argparse.Namespace,
    game_sizes: Sequence[int],
    cup_sizes: Sequence[int],
) -> None:
    clock = TestClock(datetime(2024, 7, 1, 8, 0, tzinfo=UTC))
    with open_store(url, clock=clock) as store:
        kind = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(store.dialect, store.dialect)
        bench = Bench(store, MailGameHandler(None, MODERATOR), clock, tag)
        print(
            f"{kind}, snapshot every {store.snapshot_every} events; {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.2f}; building games ..."
        )
        games = game_series(bench, game_sizes, args.orders, args.warmup)
        print_games(kind, games)
        reliability = args.reliability_per_game
        if reliability is None:
            reliability = reliability_per_game()
        print(
            f"\nbuilding tournaments ({SEATS} players a game, {reliability} moves in time "
            "recorded per finished game) ..."
        )
        cups = tournament_series(bench, cup_sizes, args.orders, args.warmup, reliability)
        print_tournaments(kind, cups)
        print(f"load average now {os.getloadavg()[0]:.2f} (other work on the machine skews this)")


def timed(label: str, fn: Callable[[], None]) -> None:
    started = time.perf_counter()
    fn()
    print(f"\n{label} in {time.perf_counter() - started:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--quick", action="store_true", help="up to 10,000 events, 100 games")
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--orders", type=int, default=30, help="mails measured at each size")
    parser.add_argument("--warmup", type=int, default=2, help="mails sent first, not measured")
    parser.add_argument(
        "--reliability-per-game", type=int, default=None,
        help="moves in time recorded per finished tournament game (default: as robots play)",
    )
    args = parser.parse_args()
    game_sizes = [100, 1_000, 10_000] if args.quick else [100, 1_000, 10_000, 100_000]
    cup_sizes = [10, 100] if args.quick else [10, 100, 1_000]
    if args.db:  # names of their own, in a database that may have been used before
        timed("done", lambda: run(args.db, secrets.token_hex(3), args, game_sizes, cup_sizes))
        return
    with tempfile.TemporaryDirectory(prefix="bench-order-") as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite'}"  # the same games at every run
        timed("done", lambda: run(url, "b", args, game_sizes, cup_sizes))


if __name__ == "__main__":
    main()
