"""Mutated rulesets never crash the loader or the engine (issue 21, a first step).

Each case takes a shipped or test ruleset, replaces one to three values somewhere in it with
values of another kind (a number, text, a list, a mapping, a boolean, an empty value, an
expression) or deletes the keys, and
loads it: the only acceptable failure is a LoadError (located diagnostics). A mutant that loads
is played for one hand by random bots: the only acceptable failure there is a RulesetError (a
rule that fails with a plain message) or a refusal to deal (ValueError, as simulate reports).
"""
from pathlib import Path
from typing import Any

import yaml
from hypothesis import event, given, settings, strategies as st

from tonkdsl import LoadError, load_ruleset
from tonkdsl.engine import IllegalAction, RulesetError
from tonkdsl.resources import rulesets_dir
from tonkdsl.rng import Rng
from conftest import TESTS

SOURCES = sorted(rulesets_dir().glob("*.yaml")) + sorted((TESTS / "variations").glob("*.yaml"))
EXPRESSIONS = ["count", "count <= 10", "stake * 2", "others", "players where count > 3", "true",
               "max_same_rank(hand) >= 3", "sum(deadwood(hand))", "1 / 0", "count(others) ^ 70", "[1, 2]",
               "nearest_left(winners)", "pot", "totals", "(", "count ==", "QS in hand"]
OTHER_VALUES = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(), st.sampled_from(EXPRESSIONS),
                         st.lists(st.integers(0, 20), max_size=3), st.dictionaries(st.sampled_from(["a", "id", "min"]),
                                                                                   st.integers(0, 5), max_size=2))


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, prefix + (i,))
    return out


_DELETE, _SAME = object(), object()  # delete the key; a new value of the same kind as the old


def same_kind(old: Any, data: Any) -> Any:
    """A value like ``old``: another small number, the other boolean, another expression."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return data.draw(st.integers(0, 14))
    if isinstance(old, str):
        return data.draw(st.sampled_from(EXPRESSIONS + ["dealer", "others where count <= dropper.count",
                                                        "count in [49, 50]", "2 * stake", "waiting == 0"]))
    return old


def mutate(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    node = data
    for p in path[:-1]:
        node = node[p]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


@settings(deadline=None)
@given(source=st.sampled_from(SOURCES), data=st.data(), seed=st.integers(0, 2**16),
       changes=st.lists(st.one_of(OTHER_VALUES, st.just(_DELETE), st.just(_SAME), st.just(_SAME)),
                        min_size=1, max_size=3))
def test_a_mutated_ruleset_loads_with_diagnostics_or_plays(tmp_path_factory: Any, source: Path, data: Any,
                                                           seed: int, changes: list[Any]) -> None:
    doc = yaml.safe_load(source.read_text())
    if str(doc.get("extends", "")).endswith(".yaml"):  # a path: made absolute, the mutant lives elsewhere
        doc["extends"] = str((source.parent / doc["extends"]).resolve())
    mutated = doc
    for value in changes:  # one to three values replaced (or keys deleted), anywhere in the file
        places = paths(mutated)
        if not places:
            break
        where = data.draw(st.sampled_from(places))
        if value is _SAME:
            node = mutated
            for p in where:
                node = node[p]
            value = same_kind(node, data)
        mutated = mutate(mutated, where, value)
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "mutant.yaml"
    path.write_text(yaml.safe_dump(mutated, sort_keys=False))
    try:
        rs = load_ruleset(path, allow_paths=[TESTS, rulesets_dir()])
    except LoadError as exc:
        assert exc.diagnostics and all(d.message for d in exc.diagnostics)
        event("refused with diagnostics")  # --hypothesis-show-statistics counts the cases of each kind
        return
    players = max(rs.players_min, min(3, rs.players_max))
    try:
        state = rs.new_hand(players, seed=seed)
        rng = Rng(seed)
        for _ in range(3000):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    except IllegalAction:
        raise  # an action from legal_actions() must apply
    except (RulesetError, ValueError) as exc:
        assert str(exc)
        event("loaded; a rule failed with a plain message")
        return
    event("loaded and played")
