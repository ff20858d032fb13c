"""
``moderator.records.record`` against ``@dataclass(frozen=True, slots=True)``: the same
class written both ways behaves the same (issue 28 made the rules' events, commands and
state records, so that a command line's start does not compile six methods a class).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from moderator.records import record, replace
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.state import GameState


def frozen(kw_only: bool) -> Callable[[type], Any]:
    return dataclass(frozen=True, slots=True, kw_only=kw_only)


def recorded(kw_only: bool) -> Callable[[type], Any]:
    return record(kw_only=kw_only)


MAKERS = pytest.mark.parametrize("make", [frozen, recorded], ids=["dataclass", "record"])


def pieces(make: Callable[[bool], Callable[[type], Any]]) -> tuple[Any, Any]:
    """A base and a keyword-only subclass, as the events are (names alike both ways)."""

    @make(False)
    class Piece:
        KIND: ClassVar[str] = "piece"
        name: str
        height: int = 1
        marks: tuple[str, ...] = ()
        notes: list[str] = field(default_factory=list, compare=False)
        weight: int = field(default=0, hash=False)

    @make(True)
    class Titan(Piece):
        score: int
        towers: frozenset[int] = frozenset()

    return Piece, Titan


def both() -> list[tuple[Any, Any]]:
    return [pieces(frozen), pieces(recorded)]


def test_a_record_is_built_repr_d_compared_and_hashed_as_a_frozen_dataclass() -> None:
    (dp, dt), (rp, rt) = both()
    for d, r in (
        (dp("Ogre"), rp("Ogre")),
        (dp("Ogre", 2, ("a",), ["x"], 5), rp("Ogre", 2, ("a",), ["x"], 5)),
        (dt("Titan", score=10), rt("Titan", score=10)),
        (dt("Titan", 3, towers=frozenset({100}), score=1), rt("Titan", 3, towers=frozenset({100}), score=1)),
    ):
        assert repr(d) == repr(r)
        assert hash(d) == hash(r)
        assert dataclasses.asdict(d) == dataclasses.asdict(r)
        assert dataclasses.astuple(d) == dataclasses.astuple(r)
        assert [f.name for f in dataclasses.fields(d)] == [f.name for f in dataclasses.fields(r)]
    assert rp.__match_args__ == dp.__match_args__ == ("name", "height", "marks", "notes", "weight")
    assert rt.__slots__ == dt.__slots__ and rp.__slots__ == dp.__slots__
    assert dataclasses.is_dataclass(rt) and rt.KIND == "piece"


@MAKERS
def test_records_are_equal_by_their_compared_fields_only_and_hash_without_unhashed(
    make: Callable[[bool], Callable[[type], Any]],
) -> None:
    piece, titan = pieces(make)
    assert piece("Ogre", notes=["a"]) == piece("Ogre", notes=["b"])  # notes: compare=False
    assert hash(piece("Ogre", weight=1)) == hash(piece("Ogre", weight=2))  # hash=False
    assert piece("Ogre", weight=1) != piece("Ogre", weight=2)  # ... but compared
    assert piece("Ogre") != piece("Troll")
    assert titan("Ann", score=1) != piece("Ann")  # another class is never equal
    assert piece("Ann").__eq__(titan("Ann", score=1)) is NotImplemented
    assert len({titan("Ann", score=1), titan("Ann", score=1), titan("Bob", score=1)}) == 2


@MAKERS
def test_a_record_refuses_assignment_and_deletion(
    make: Callable[[bool], Callable[[type], Any]],
) -> None:
    piece, titan = pieces(make)
    for thing in (piece("Ogre"), titan("Ann", score=1)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            thing.name = "Troll"
        with pytest.raises(dataclasses.FrozenInstanceError):
            del thing.name
        # no other attribute either (Python 3.11's frozen slotted dataclass says so with a
        # TypeError from its __setattr__'s super() call; a record with FrozenInstanceError)
        with pytest.raises((AttributeError, TypeError)):
            thing.other = 1
        assert not hasattr(thing, "__dict__")


@MAKERS
def test_a_record_takes_its_arguments_as_a_dataclass_does(
    make: Callable[[bool], Callable[[type], Any]],
) -> None:
    piece, titan = pieces(make)
    with pytest.raises(TypeError):
        piece()  # name is required
    with pytest.raises(TypeError):
        titan("Ann")  # score too
    with pytest.raises(TypeError):
        titan("Ann", 1, (), [], 0, 5)  # score is keyword-only
    with pytest.raises(TypeError):
        piece("Ogre", colour="red")
    first, second = piece("Ogre"), piece("Ogre")
    assert first.notes == [] and first.notes is not second.notes  # a fresh default
    given = ["kept"]
    assert piece("Ogre", notes=given).notes is given


@MAKERS
def test_replace_copy_and_pickle_keep_a_record(
    make: Callable[[bool], Callable[[type], Any]],
) -> None:
    _, titan = pieces(make)
    ann = titan("Ann", score=10, towers=frozenset({100}))
    moved = dataclasses.replace(ann, score=20)
    assert (moved.score, moved.towers, ann.score) == (20, frozenset({100}), 10)
    assert copy.copy(ann) == ann and copy.deepcopy(ann) == ann
    with pytest.raises(TypeError):
        dataclasses.replace(ann, colour="red")


@MAKERS
def test_records_replace_gives_what_dataclasses_replace_gives(
    make: Callable[[bool], Callable[[type], Any]],
) -> None:
    """The fold's cheaper ``replace`` (issue 28) against ``dataclasses.replace``: the same
    values, the same objects kept, keyword-only fields, errors for a wrong field."""
    piece, titan = pieces(make)
    notes = ["kept"]
    ann = titan("Ann", 2, ("a",), notes, 4, score=10, towers=frozenset({100}))
    ogre = piece("Ogre", notes=notes)
    for thing, changes in (
        (ann, {}), (ann, {"score": 20}), (ann, {"name": "Bob", "towers": frozenset()}),
        (ogre, {"height": 3}), (ogre, {"notes": ["new"], "weight": 9}),
    ):
        ours, theirs = replace(thing, **changes), dataclasses.replace(thing, **changes)
        assert type(ours) is type(theirs) is type(thing)
        assert repr(ours) == repr(theirs) and ours == theirs and hash(ours) == hash(theirs)
        assert ours.notes is theirs.notes  # kept, not made again by the default factory
        assert ours is not thing
    for wrong in ({"colour": "red"}, {"KIND": "other"}):
        with pytest.raises(TypeError):
            dataclasses.replace(ann, **wrong)
        with pytest.raises(TypeError):
            replace(ann, **wrong)
    with pytest.raises(TypeError):
        replace(object())


def test_records_replace_runs_post_init_and_falls_back_where_it_cannot_copy() -> None:
    seen = []

    @record
    class Checked:
        name: str

        def __post_init__(self) -> None:
            seen.append(self.name)
            if not self.name:
                raise ValueError("a name is needed")

    replace(Checked("a"), name="b")
    assert seen == ["a", "b"]
    with pytest.raises(ValueError, match="a name is needed"):
        replace(Checked("c"), name="")

    @dataclass(frozen=True)
    class Counted:  # a plain dataclass with a field __init__ does not take
        name: str
        count: int = field(default=0, init=False)

    with pytest.raises(ValueError):
        dataclasses.replace(Counted("x"), count=1)
    with pytest.raises(ValueError):
        replace(Counted("x"), count=1)
    assert replace(Counted("x"), name="y") == Counted("y")


def test_records_replace_of_the_rules_state_and_events_is_dataclasses_replace() -> None:
    state = GameState()
    created = ev.GameCreated(players=("Ann", "Bob"), variant="standard")
    for thing, changes in (
        (state, {"version": 7}), (created, {"players": ("Ann", "Bob", "Cy")}),
        (created, {"visible_to": frozenset({"Ann"})}),
    ):
        assert replace(thing, **changes) == dataclasses.replace(thing, **changes)
        assert repr(replace(thing, **changes)) == repr(dataclasses.replace(thing, **changes))


def test_events_commands_and_state_survive_pickling_and_deep_copies() -> None:
    created = ev.GameCreated(players=("Ann", "Bob"), variant="standard")
    split = cmd.Split(player="Ann", parent="Rd01", child=None, characters=("Ogre", "Ogre"))
    for thing in (created, split, GameState()):
        assert pickle.loads(pickle.dumps(thing)) == thing
        assert copy.deepcopy(thing) == thing
        assert repr(pickle.loads(pickle.dumps(thing))) == repr(thing)


def test_a_record_keeps_the_methods_its_class_defines_and_calls_post_init() -> None:
    seen = []

    @record
    class Shown:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7

        def __post_init__(self) -> None:
            seen.append(self.name)

    assert repr(Shown("Ogre")) == "<Ogre>" and Shown("a") == Shown("b")
    assert hash(Shown("x")) == 7 and seen == ["Ogre", "a", "b", "x"]


def test_a_record_in_the_wrong_order_fails_where_it_is_defined() -> None:
    with pytest.raises(TypeError, match="non-default argument 'height' follows default"):

        @record
        class Backwards:
            name: str = ""
            height: int

    with pytest.raises(TypeError):

        @record
        class OwnSetter:
            name: str

            def __setattr__(self, name: str, value: Any) -> None: ...


def test_defining_a_record_compiles_no_method_until_one_is_built() -> None:
    """The point of records (issue 28): a class costs nothing until it is built."""

    @record(kw_only=True)
    class Lazy:
        name: str
        height: int = 1

    first = Lazy.__dict__["__init__"]
    assert not first.__code__.co_filename.startswith("<record")
    assert Lazy(name="a") == Lazy(name="a", height=1)
    compiled = Lazy.__dict__["__init__"]
    assert compiled.__code__.co_filename.startswith("<record")
    assert compiled.__qualname__.endswith("Lazy.__init__")
    assert Lazy(height=2, name="b").height == 2


def _refusal(make: Callable[[], Any]) -> tuple[type[BaseException], str] | None:
    try:
        make()
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc)
    return None


def test_a_record_finds_its_fields_as_dataclasses_does_without_running_it() -> None:
    """Class variables (a string annotation or not, by any name of ``typing``) are no
    fields; a mutable default and a field without annotation are refused alike."""
    for make in (frozen(False), recorded(False)):

        class Counted:
            LIMIT: ClassVar[int] = 3
            OTHER: typing.ClassVar[str] = "x"
            name: str
            count: int = 0

        made = make(Counted)
        assert [f.name for f in dataclasses.fields(made)] == ["name", "count"]
        assert (made.LIMIT, made.OTHER, made("a").count) == (3, "x", 0)
        assert dataclasses.replace(made("a"), count=2) == made("a", 2)
        assert made.__dataclass_params__.frozen

    @dataclass(frozen=True, slots=True)
    class Plain:
        KIND: ClassVar[str] = "plain"
        name: str

    @record
    class OnPlain(Plain):  # a dataclass's class variable is no field of a record on it
        height: int = 0

    assert [f.name for f in dataclasses.fields(OnPlain)] == ["name", "height"]
    assert OnPlain("a", 2) == OnPlain("a", 2) and OnPlain.__slots__ == ("height",)

    def listed(make: Callable[[type], Any]) -> Callable[[], Any]:
        def define() -> Any:
            class Listed:
                names: list[str] = []  # noqa: RUF012 (the refusal is the point)

            return make(Listed)

        return define

    def unannotated(make: Callable[[type], Any]) -> Callable[[], Any]:
        def define() -> Any:
            class Bare:
                name = field(default="")

            return make(Bare)

        return define

    for case in (listed, unannotated):
        by_dataclass = _refusal(case(frozen(False)))
        by_record = _refusal(case(recorded(False)))
        assert by_dataclass is not None and by_record is not None
        assert by_record[0] is by_dataclass[0]


def test_a_record_refuses_init_vars_and_kw_only_markers() -> None:
    """A record takes every field in ``__init__``; ``kw_only=True`` says keyword-only."""
    with pytest.raises(TypeError, match="InitVar"):

        @record
        class Seeded:
            seed: dataclasses.InitVar[int]

    with pytest.raises(TypeError, match="KW_ONLY"):

        @record
        class Marked:
            name: str
            _: dataclasses.KW_ONLY
            height: int = 1
