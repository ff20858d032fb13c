"""
Standing orders: what a player tells the moderator to do for him at decisions he would
rather not be mailed about.  Private to the moderator (Wolff 9.4: nothing an opponent
could act on); each use is told to its owner.

The lines a player may write (``standing`` may start each; a line replaces the earlier
one of the same kind):

- ``standing Rd01 when attacked: fight | flee | concede | ask`` and, for every legion
  without its own, ``standing when attacked: ...``.  Fight: make no proposal and fight;
  flee only where fleeing is legal (otherwise the game waits).
- ``standing no concede`` (``standing concede ask`` undoes it): proceed at every battle
  window where only he could concede.
- ``standing strikes: auto | ask``: each character strikes the target it is likeliest
  to kill (rangestrikes too), at its full strike number; damage carries over only where
  it kills more.
- ``standing muster best | ask`` and ``muster Rd01 troll if able`` (``standing muster
  Rd01 ask`` undoes it): at his muster step each legion musters the named creature if
  it can, else (with ``best``) the strongest it can; with ``best`` the muster step ends.
  Without ``best`` it ends only once none of his legions may muster any more: a legion
  that cannot have its named creature, or has none named, is left to him.
- ``standing summon never | best | ask``: decline to summon, or summon the best lord
  when exactly one legion can give it.

``decide_for`` is the one function that turns them into a command at a state, using
``rules.legal.legal_commands`` (the core's answer to "what may he do now") and firing
only where the order answers the decision exactly.  Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from moderator.orders.errors import OrderError
from moderator.rules import commands as cmd
from moderator.rules.battlefield import Fighter
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import Variant

CODE = "E-STANDING"
ASK = "ask"
_ATTACKED = re.compile(
    r"^(?:(?P<marker>[a-z]{2}\d{2})\s+)?when\s+attacked\s*:?\s*(?P<what>fight|flee|concede|ask)$"
)
_MUSTER_IF = re.compile(r"^muster\s+(?P<marker>[a-z]{2}\d{2})\s+(?P<creature>[a-z]+)\s+if\s+able$")
_MUSTER_ASK = re.compile(r"^muster\s+(?P<marker>[a-z]{2}\d{2})\s+ask$")
USAGE = (
    "standing orders: 'standing when attacked: fight', 'standing Rd01 when attacked: flee', "
    "'standing no concede', 'standing strikes: auto', 'standing muster best', "
    "'muster Rd01 troll if able', 'standing summon best' (or 'never'); 'ask' undoes one"
)


@dataclass(slots=True)
class Standing:
    """A player's standing orders, read from his lines (later lines win)."""

    attacked: dict[str, str] = field(default_factory=dict)  # marker or "*" -> what
    no_concede: bool = False
    strikes_auto: bool = False
    muster_best: bool = False
    muster: dict[str, str] = field(default_factory=dict)  # marker -> creature
    summon: str = ASK

    def lines(self) -> list[str]:
        """The orders as the player would write them, for his report."""
        out = [
            f"standing {'' if m == '*' else m + ' '}when attacked: {w}"
            for m, w in sorted(self.attacked.items())
        ]
        out += ["standing no concede"] if self.no_concede else []
        out += ["standing strikes: auto"] if self.strikes_auto else []
        out += ["standing muster best"] if self.muster_best else []
        out += [f"muster {m} {c.lower()} if able" for m, c in sorted(self.muster.items())]
        out += [f"standing summon {self.summon}"] if self.summon != ASK else []
        return out


def is_standing(line: str) -> bool:
    """Whether ``line`` is a standing order (well written or not)."""
    text = line.strip().lower()
    return text.startswith("standing") or bool(re.match(r"^muster\s+\S+\s+\S+\s+if\s+able$", text))


def _key(line: str) -> str:
    """What a line is about: a later line with the same key replaces it."""
    text = _body(line)
    if found := _ATTACKED.match(text):
        return f"attacked:{found.group('marker') or '*'}"
    if found := (_MUSTER_IF.match(text) or _MUSTER_ASK.match(text)):
        return f"muster:{found.group('marker')}"
    if text in ("no concede", "concede ask"):
        return "concede"
    return text.replace(":", " ").split()[0] if text else text


def _body(line: str) -> str:
    text = " ".join(line.strip().lower().split())
    return text.removeprefix("standing").strip()


def read(lines: Iterable[str], variant: Variant) -> Standing:
    """
    The standing orders ``lines`` give, in order, with creatures named as ``variant``
    (the game's) names them.

    Raises:
        OrderError: a line that is not a standing order, with what may be written.
    """
    standing = Standing()
    for line in lines:
        _apply(standing, line, variant)
    return standing


def merged(kept: Sequence[str], new: Iterable[str], variant: Variant) -> tuple[str, ...]:
    """The stored lines after ``new`` ones: each replaces the earlier of its kind, and
    ``ask`` lines only remove (raises OrderError for an unreadable line)."""
    out = {_key(line): line.strip() for line in kept}
    for line in new:
        read([line], variant)  # checks it
        key = _key(line)
        out.pop(key, None)
        if not _body(line).endswith(ASK):
            out[key] = line.strip()
    return tuple(out.values())


def _apply(standing: Standing, line: str, variant: Variant) -> None:
    text = _body(line)
    if found := _ATTACKED.match(text):
        marker, what = (found.group("marker") or "*").title(), found.group("what")
        if what == ASK:
            standing.attacked.pop(marker, None)
        else:
            standing.attacked[marker] = what
    elif text in ("no concede", "concede ask"):
        standing.no_concede = text == "no concede"
    elif text in ("strikes: auto", "strikes auto", "strikes: ask", "strikes ask"):
        standing.strikes_auto = text.endswith("auto")
    elif text in ("muster best", "muster ask"):
        standing.muster_best = text == "muster best"
    elif found := _MUSTER_IF.match(text):
        creature = found.group("creature")
        known = {c.lower(): c for c in variant.creatures}
        if creature.rstrip("s") in known:
            creature = creature.rstrip("s")
        if creature not in known:
            raise OrderError(CODE, f"there is no creature called '{creature}'", line)
        standing.muster[found.group("marker").title()] = known[creature]
    elif found := _MUSTER_ASK.match(text):
        standing.muster.pop(found.group("marker").title(), None)
    elif m := re.match(r"^summon\s*:?\s*(never|best|ask)$", text):
        standing.summon = m.group(1)
    else:
        raise OrderError(CODE, f"'{line.strip()}' is not a standing order: {USAGE}", line)


# -- firing -------------------------------------------------------------------------------


def decide_for(state: GameState, standing: Standing) -> cmd.Command | None:
    """
    The command ``standing`` gives for the decision the game waits on, or None when it
    does not answer that decision exactly (then the game waits for the player).
    """
    player = to_act(state)
    if player is None:
        return None
    legal = legal_commands(state)
    if state.step is Step.NEGOTIATE:
        return _attacked(state, player, standing, legal)
    if state.step is Step.SUMMON:
        return _summon(state, standing, legal)
    if state.step is Step.MUSTER and player == state.active:
        return _muster(state, standing, legal)
    if state.step is Step.BATTLE and state.battle is not None:
        return _battle(state, standing, legal)
    return None


def reason(state: GameState, standing: Standing, command: cmd.Command) -> str:
    """The standing order (as the player would write it) that gave ``command`` at
    ``state`` (``decide_for``'s answer), for telling its owner."""
    eng = state.engagement
    if state.step is Step.NEGOTIATE and eng is not None:
        marker = eng.defender if eng.defender in standing.attacked else "*"
        where = "" if marker == "*" else f"{marker} "
        return f"standing {where}when attacked: {standing.attacked[marker]}"
    if state.step is Step.SUMMON:
        return f"standing summon {standing.summon}"
    if state.step is Step.MUSTER:
        wish = standing.muster.get(getattr(command, "marker", ""))
        if isinstance(command, cmd.Muster) and command.creature == wish:
            return f"muster {command.marker} {wish.lower()} if able"
        if standing.muster_best:
            return "standing muster best"
        return "; ".join(f"muster {m} {c.lower()} if able" for m, c in sorted(standing.muster.items()))
    if isinstance(command, cmd.Proceed):
        return "standing no concede"
    return "standing strikes: auto"


def _of(legal: list[cmd.Command], kind: type[cmd.Command]) -> list[cmd.Command]:
    return [c for c in legal if isinstance(c, kind)]


def _attacked(
    state: GameState, player: str, standing: Standing, legal: list[cmd.Command]
) -> cmd.Command | None:
    eng = state.engagement
    if eng is None or player != eng.defender_player:
        return None
    what = standing.attacked.get(eng.defender, standing.attacked.get("*"))
    if what == "fight":
        found = _of(legal, cmd.Fight) or _of(legal, cmd.NoMore)
    elif what == "flee":
        found = _of(legal, cmd.Flee)
    elif what == "concede":
        found = _of(legal, cmd.Concede)
    else:
        return None
    return found[0] if found else None


def _summon(state: GameState, standing: Standing, legal: list[cmd.Command]) -> cmd.Command | None:
    if standing.summon == "never":
        return next(iter(_of(legal, cmd.Decline)), None)
    if standing.summon != "best":
        return None
    offers = [c for c in legal if isinstance(c, cmd.Summon)]
    if not offers:
        return None
    power = {name: state.variant.creatures[name].power for name in {c.lord for c in offers}}
    best = max(power.values())
    top = [c for c in offers if power[c.lord] == best]
    return top[0] if len(top) == 1 else None  # which legion gives it: his choice


def _muster(state: GameState, standing: Standing, legal: list[cmd.Command]) -> cmd.Command | None:
    """A conditional muster decides its own legion only; the step ends (``done``) only
    with ``muster best``, or when no legion of his may muster any more: while one may,
    that legion's muster is his choice (its own order named what it cannot have)."""
    musters = [c for c in legal if isinstance(c, cmd.Muster)]
    markers = sorted({c.marker for c in musters})
    for marker in markers:
        named = [c for c in musters if c.marker == marker and c.creature == standing.muster.get(marker)]
        if named:
            return named[0]
    if standing.muster_best and markers:
        creatures = state.variant.creatures
        return max(
            (c for c in musters if c.marker == markers[0]),
            key=lambda c: (creatures[c.creature].power * creatures[c.creature].skill, c.creature),
        )
    if markers or not (standing.muster_best or standing.muster):
        return None
    return next(iter(_of(legal, cmd.Done)), None)


def _battle(state: GameState, standing: Standing, legal: list[cmd.Command]) -> cmd.Command | None:
    battle = state.battle
    assert battle is not None
    step = battle.step
    if standing.no_concede and {type(c) for c in legal} == {cmd.Proceed, cmd.Concede}:
        return _of(legal, cmd.Proceed)[0]
    if not standing.strikes_auto:
        return None
    if step == "carry":
        return _carry(state, legal)
    if step not in ("strike", "counterstrike"):
        return None
    strikes = [c for c in legal if isinstance(c, cmd.Strike | cmd.Rangestrike)]
    if not strikes:
        return next(iter(_of(legal, cmd.Done)), None)
    by_hex = {f.hex: f for f in battle.fighters if f.hex is not None and not f.slain}
    striker = min(c.striker for c in strikes)
    return max(
        (c for c in strikes if c.striker == striker),
        key=lambda c: _worth(c, by_hex),
    )


def _worth(
    strike: cmd.Strike | cmd.Rangestrike, by_hex: Mapping[str, Fighter]
) -> tuple[float, float, int, int]:
    """How good a strike is: the chance it kills, then the hits it is expected to do,
    then the target's power; a lower strike number than needed (to carry) loses."""
    target, striker = by_hex.get(strike.target), by_hex.get(strike.striker)
    number = strike.strike_number or 4
    p = (7 - number) / 6
    if isinstance(strike, cmd.Strike) and strike.dice:
        dice = strike.dice
    else:  # a rangestrike rolls half the striker's power
        dice = max(1, (striker.power if striker else 2) // 2)
    room = target.remaining if target else 1
    kill = sum(math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(room, dice + 1))
    return (round(kill, 6), round(dice * p, 6), target.power if target else 0, -number)


def _carry(state: GameState, legal: list[cmd.Command]) -> cmd.Command | None:
    """Carry damage only where it kills more; otherwise carry nowhere."""
    battle = state.battle
    assert battle is not None
    carries = [c for c in legal if isinstance(c, cmd.Carry)]
    if not carries or battle.carry is None:
        return None
    by_hex = {f.hex: f for f in battle.fighters if f.hex is not None and not f.slain}
    _, _, excess, _ = battle.carry

    def kills(carry: cmd.Carry) -> tuple[int, int]:
        left, dead = excess, 0
        for hex_ in carry.targets:
            f = by_hex.get(hex_)
            if f is None:
                continue
            if left >= f.remaining:
                dead += 1
            left -= min(left, f.remaining)
        return dead, -len(carry.targets)

    return max(carries, key=kills)
