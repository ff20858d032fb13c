"""
Where a rules test applies: the variants whose facts hold for it (issue 27).

The rules suite runs each test that builds its game through the conftest's factories
under every shipped variant and the test variant, except where the test depends on a
fact a variant does not have.  Deciding this at collection keeps the report free of
skips and makes the choice a value a test can count (``test_variant_coverage.py``).

Two kinds of fact, both checked against the variant's own data:

- **Creatures**, found automatically: every character the test names in its code (the
  strings of its body and decorators, of the module constants it reads and of the
  test-module helpers it calls; not docstrings or comments).  A position naming an
  Ogre is no test of TitanPlus, which has none.  Should a test reach a creature some
  other way, the variant refuses the position ("unknown character"), so a miss fails
  loudly; ``needs(creatures=...)`` then declares it.
- **Declared** with ``@pytest.mark.needs(...)``: ``options={"name": value}`` (the
  variant's rule options have these values) and ``fought_on={land: battleland}`` (a
  battle at that land is fought on that battleland, with no die to choose it).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.rules.variant import Variant, load_variant

#: The fixtures through which a test plays in this run's variant (tests/rules/conftest.py).
FACTORIES = frozenset(
    {"variant_name", "variant", "make_position", "game_at", "new_game", "started"}
)


@dataclass(frozen=True)
class Needs:
    """What a test needs of a variant to say something true about it."""

    creatures: frozenset[str] = frozenset()
    options: Mapping[str, Any] = field(default_factory=dict)
    fought_on: Mapping[int, str] = field(default_factory=dict)

    def missing(self, variant: Variant) -> list[str]:
        """The facts ``variant`` lacks, each in words (empty: the test applies)."""
        lacks = [f"no {c}" for c in sorted(self.creatures) if c not in variant.creatures]
        for name, value in sorted(self.options.items()):
            have = getattr(variant.options, name)
            if have != value:
                lacks.append(f"option {name} is {have!r}, not {value!r}")
        for land, battleland in sorted(self.fought_on.items()):
            fought = _fought_on(variant, land)
            if fought != battleland:
                lacks.append(f"land {land} is fought on {fought}, not {battleland}")
        return lacks


def _fought_on(variant: Variant, land: int) -> str:
    choices = variant.battlelands_at(land)
    return choices[0] if len(choices) == 1 else "a battleland the defender's die chooses"


def spellings(variants: Iterable[str]) -> dict[str, str]:
    """Every way the variants spell a character (lower case) -> its name."""
    out: dict[str, str] = {}
    for name in variants:
        for kind in load_variant(name).creatures.values():
            for word in (kind.name, kind.plural, *kind.aliases):
                out[word.lower()] = kind.name
    return out


def named_creatures(function: Callable[..., Any], spelled: Mapping[str, str]) -> frozenset[str]:
    """The characters ``function`` names in its code and in the test helpers it uses."""
    found: set[str] = set()
    for text in _strings(function, set()):
        for word in _words(text):
            creature = spelled.get(word.lower())
            if creature is not None:
                found.add(creature)
    return frozenset(found)


def needs_of(
    function: Callable[..., Any], markers: Iterable[Any], spelled: Mapping[str, str]
) -> Needs:
    """The test's facts: its named creatures and its ``needs`` markers' declarations."""
    creatures = set(named_creatures(function, spelled))
    options: dict[str, Any] = {}
    fought_on: dict[int, str] = {}
    for marker in markers:
        unknown = set(marker.kwargs) - {"creatures", "options", "fought_on"}
        if marker.args or unknown:
            msg = f"needs takes creatures=, options=, fought_on=; got {marker.args} {unknown}"
            raise TypeError(msg)
        creatures.update(marker.kwargs.get("creatures", ()))
        options.update(marker.kwargs.get("options", {}))
        fought_on.update(marker.kwargs.get("fought_on", {}))
    return Needs(frozenset(creatures), options, fought_on)


def applicable(needs: Needs, variants: Iterable[str]) -> list[str]:
    """The variants, in order, that have every fact the test needs."""
    return [name for name in variants if not needs.missing(load_variant(name))]


# -- reading a test's code ------------------------------------------------------------------


def _words(text: str) -> Iterator[str]:
    word: list[str] = []
    for char in text + " ":
        if char.isalpha():
            word.append(char)
        elif word:
            yield "".join(word)
            word = []


def _strings(function: Callable[..., Any], seen: set[int]) -> Iterator[str]:
    """The strings of ``function`` and of the test helpers it calls, each helper once."""
    function = inspect.unwrap(function)
    if id(function) in seen:
        return
    seen.add(id(function))
    strings, helpers = _own(function)
    yield from strings
    for helper in helpers:
        yield from _strings(helper, seen)


#: function -> (its strings, the test helpers it names): each read once per session.
_OWN: dict[Callable[..., Any], tuple[tuple[str, ...], tuple[Callable[..., Any], ...]]] = {}
#: source file -> its top-level functions' syntax trees, by name.
_FILES: dict[str, dict[str, ast.AST]] = {}


def _own(function: Callable[..., Any]) -> tuple[tuple[str, ...], tuple[Callable[..., Any], ...]]:
    known = _OWN.get(function)
    if known is not None:
        return known
    tree = _tree(function)
    strings: list[str] = []
    helpers: list[Callable[..., Any]] = []
    if tree is not None:
        docstrings = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        scope = getattr(function, "__globals__", {})
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) not in docstrings:
                    strings.append(node.value)
            elif isinstance(node, ast.Name) and node.id in scope:
                value = scope[node.id]
                if inspect.isfunction(value) and _is_test_code(value):
                    helpers.append(value)
                else:
                    strings.extend(_values(value))
    _OWN[function] = (tuple(strings), tuple(helpers))
    return _OWN[function]


def _tree(function: Callable[..., Any]) -> ast.AST | None:
    """The function's syntax tree: from its file parsed once, or its own source if nested."""
    try:
        path = inspect.getsourcefile(function)
        if path is not None and function.__qualname__ == function.__name__:
            if path not in _FILES:
                with open(path, encoding="utf-8") as source:
                    module = ast.parse(source.read())
                _FILES[path] = {
                    node.name: node
                    for node in module.body
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                }
            node = _FILES[path].get(function.__name__)
            if node is not None:
                return node
        return ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return None


def _is_test_code(function: Callable[..., Any]) -> bool:
    module = getattr(function, "__module__", "") or ""
    return module.startswith("tests.") or module.endswith("conftest")


def _values(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _values(key)
            yield from _values(item)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _values(item)
