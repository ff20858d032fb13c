"""
Every event type serializes and deserializes to an equal value: through the codec and
JSON text, and through the event store on SQLite and PostgreSQL.  The field values are
generated from each event's type hints, so a new event type or field is covered as
soon as it is added to ``EVENT_TYPES``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import types
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.rules.codec import decode, encode
from moderator.rules.events import EVENT_TYPES, Event
from moderator.schedule.record import GameRecord
from moderator.store import EventStore
from moderator.testing.stores import open_store

EVENT_CLASSES = sorted(EVENT_TYPES.values(), key=lambda cls: cls.TYPE)


def values(hint: Any) -> st.SearchStrategy[Any]:
    """Values of the type ``hint`` names."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([values(arg) for arg in args])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers()
    if hint is str:
        return st.text(max_size=12)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(values(args[0]), max_size=4).map(tuple)
    if origin is tuple:
        return st.tuples(*(values(arg) for arg in args))
    if origin is frozenset:
        return st.frozensets(values(args[0]), max_size=4)
    raise AssertionError(f"no strategy for event field type {hint!r}")


def events_of(cls: type[Event]) -> st.SearchStrategy[Event]:
    hints = typing.get_type_hints(cls)
    fields = {f.name: values(hints[f.name]) for f in dataclasses.fields(cls)}
    return st.builds(cls, **fields)


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.TYPE)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_codec_round_trip(cls: type[Event], data: st.DataObject) -> None:
    event = data.draw(events_of(cls))
    record = json.loads(json.dumps(encode(event)))
    assert (record["type"], record["version"]) == (cls.TYPE, cls.VERSION)
    assert decode(record) == event


_games = itertools.count()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared_store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('codec') / 'events.sqlite'}"
    else:
        url = request.getfixturevalue("postgres_url")
    with open_store(url, snapshot_every=10**9) as store:
        yield store


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.TYPE)
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_store_round_trip(shared_store: EventStore, cls: type[Event], data: st.DataObject) -> None:
    events = data.draw(st.lists(events_of(cls), min_size=1, max_size=3))
    game_id = f"codec-{next(_games)}"
    with shared_store.transaction() as tx:
        tx.create_game(game_id, GameRecord())
        tx.append(game_id, 0, events)
    assert shared_store.load(game_id) == events
