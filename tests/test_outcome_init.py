"""Payment, Outcome, HandRecord, PlayerStats and TableSpread write their own __init__ (a native
store once compiled, see tonkdsl/interpreter/outcome.py and board.py): each must take the fields
as the dataclass's own __init__ would, in the same order with the same defaults; the frozen ones
stay frozen values."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest
from same_hands import record_samples

from tonkdsl.interpreter.board import PlayerStats, TableSpread
from tonkdsl.interpreter.outcome import Outcome, Payment
from tonkdsl.interpreter.session import HandRecord

CLASSES = [Payment, Outcome, HandRecord, PlayerStats, TableSpread]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_takes_the_fields_in_order_with_their_defaults(cls: type) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        assert f.default_factory is dataclasses.MISSING, f"{cls.__name__}.{f.name}: no default factories"
        want = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == want, f"{cls.__name__}.{f.name}: __init__ defaults to {p.default!r}, the field to {want!r}"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_stores_every_field(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = {f.name: (f"v{i}" if f.type == "str" else i + 1) for i, f in enumerate(fields)}
    obj = cls(**values)
    assert {f.name: getattr(obj, f.name) for f in fields} == values
    assert obj == cls(*values.values())
    if cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        assert hash(obj) == hash(cls(*values.values()))
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, fields[0].name, values[fields[0].name])


@pytest.mark.parametrize("record", record_samples(), ids=lambda r: type(r).__name__)
def test_copies_and_pickles_rebuild_the_same_record(record: object) -> None:
    # Compiled, a class with an __init__ of its own is copied by calling it with no arguments
    # unless it says how (board.by_fields): tests/same_hands.py checks the same under the
    # compiled build (its last line).
    assert {type(r) for r in record_samples()} == set(CLASSES)
    for twin in (copy.copy(record), copy.deepcopy(record), pickle.loads(pickle.dumps(record))):
        assert type(twin) is type(record) and twin == record and repr(twin) == repr(record)


def test_a_copy_of_the_stats_is_equal_and_apart() -> None:
    stats = PlayerStats(40, 1, 1, 2, 3, True)
    twin = stats.copy()
    assert twin == stats and twin is not stats
    twin.turns += 1
    assert stats.turns == 3
