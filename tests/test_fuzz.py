"""Fuzzing: mutated rulesets, scenarios and saved games never crash any command (issue 21).

The only acceptable failures are the documented ones: a file that is not valid gets located
diagnostics (a LoadError; exit status 2 from the commands), a rule that cannot be worked out
fails with a plain message (a RulesetError; exit status 1). Anything else (a traceback, another
exit status, a hang) fails the test. CI runs the bounded 'ci' profile; the long run is

    HYPOTHESIS_PROFILE=thorough python -m pytest tests/test_fuzz.py

and the number of cases run of each kind is printed at the end (tests/conftest.py).
"""
from __future__ import annotations

import copy
import resource
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings, strategies as st

from fuzzing import (ODD_REMOVALS, count, delete, expression_keys, expressions, get, places, put,
                     schema_limits, typed_expressions)
from tonkdsl import LoadError, load_ruleset, load_scenario, replay
from tonkdsl.cli import main
from tonkdsl.interpreter.engine import IllegalAction, RulesetError, deal
from tonkdsl.language.resources import rulesets_dir
from tonkdsl.language.rng import Rng
from conftest import EXAMPLES, TESTS

SOURCES = sorted(rulesets_dir().glob("*.yaml")) + sorted((TESTS / "variations").glob("*.yaml"))
SCENARIOS = sorted((TESTS / "scenarios").glob("*.yaml")) + sorted(EXAMPLES.glob("*.yaml"))
ALLOW = [TESTS, rulesets_dir()]
EXPRESSIONS = ["count", "count <= 10", "stake * 2", "others", "players where count > 3", "true",
               "max_same_rank(hand) >= 3", "sum(deadwood(hand))", "1 / 0", "count(others) ^ 70", "[1, 2]",
               "nearest_left(winners)", "pot", "totals", "(", "count ==", "QS in hand", "dealer",
               "others where count <= dropper.count", "count in [49, 50]", "2 * stake", "waiting == 0"]
OTHER_VALUES = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(), st.sampled_from(EXPRESSIONS),
                         st.lists(st.integers(0, 20), max_size=3),
                         st.dictionaries(st.sampled_from(["a", "id", "min"]), st.integers(0, 5), max_size=2))
MAX_ACTIONS = 3000
# A case that takes longer than this has hung, whatever the machine (they take well under a second).
FUZZ_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                               HealthCheck.function_scoped_fixture])


def _source_doc(source: Path) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(source.read_text())
    if str(doc.get("extends", "")).endswith(".yaml"):  # a path: made absolute, the mutant lives elsewhere
        doc["extends"] = str((source.parent / doc["extends"]).resolve())
    return doc


def _mutate(doc: dict[str, Any], data: Any, how: str) -> None:
    """One change somewhere in ``doc``: ``how`` says which kind."""
    spots = places(doc)
    if not spots:
        return
    where = data.draw(st.sampled_from(spots), label="where")
    if how == "delete":
        delete(doc, where)
    elif how == "other-type":
        put(doc, where, data.draw(OTHER_VALUES, label="value"))
    elif how == "same-kind":
        old = get(doc, where)
        if isinstance(old, bool):
            put(doc, where, not old)
        elif isinstance(old, int):
            put(doc, where, data.draw(st.integers(0, 14)))
        elif isinstance(old, str):
            put(doc, where, data.draw(st.sampled_from(EXPRESSIONS)))
    elif how == "limit":  # a number at or just past a limit of the schema or of the language
        numbers = [p for p in spots if isinstance(get(doc, p), int) and not isinstance(get(doc, p), bool)]
        put(doc, data.draw(st.sampled_from(numbers)) if numbers else where, data.draw(st.sampled_from(schema_limits())))
    elif how == "expression":  # an expression of the grammar in an expression field
        fields = [p for p in spots if isinstance(p[-1], str) and p[-1] in expression_keys()]
        put(doc, data.draw(st.sampled_from(fields)) if fields else where,
            data.draw(st.one_of(expressions(), typed_expressions())))
    elif how == "other-part":  # a part of the file moved somewhere else
        put(doc, where, copy.deepcopy(get(doc, data.draw(st.sampled_from(spots)))))
    elif how == "remove":
        doc["remove"] = data.draw(st.lists(st.one_of(st.sampled_from(ODD_REMOVALS), st.integers(), st.none()),
                                           min_size=1, max_size=3))


MUTATIONS = ["delete", "other-type", "same-kind", "same-kind", "limit", "expression", "other-part", "remove"]


def _cli(args: list[str], ok: tuple[int, ...]) -> Result:
    res = CliRunner().invoke(main, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), \
        f"tonk {' '.join(args)} raised {res.exception!r}\n{res.output}"
    assert res.exit_code in ok, f"tonk {' '.join(args)} exited {res.exit_code}\n{res.output}"
    assert "Traceback" not in res.output
    return res


def _play_and_replay(rs: Any, path: Path, seed: int) -> None:
    """Play one hand with random bots; write it as a scenario (seed and actions) and replay it:
    the replay must end the same way."""
    players = max(rs.players_min, min(3, rs.players_max))
    try:
        state = deal(rs, players, seed=seed)
    except (RulesetError, ValueError) as exc:  # a pack that cannot deal these players, said plainly
        assert str(exc)
        count("ruleset loaded; the deal is refused plainly")
        return
    rng = Rng(seed)
    names = [f"P{i}" for i in range(players)]
    lines = []
    try:
        for _ in range(MAX_ACTIONS):
            if state.is_terminal():
                break
            who = state.current_player()
            act = rng.choice(state.legal_actions())
            state.apply(act)
            lines.append(f"{names[who]} {act}")
    except IllegalAction:
        raise  # an action from legal_actions() must apply
    except RulesetError as exc:
        assert str(exc)
        count("ruleset loaded; a rule failed with a plain message")
        return
    count("ruleset loaded and a hand played")
    scenario = path.parent / "hand.yaml"
    scenario.write_text(yaml.safe_dump({"ruleset": path.name, "players": names, "dealer": names[-1], "seed": seed,
                                        "actions": lines}, sort_keys=False))
    try:
        result = replay(load_scenario(scenario, allow_paths=ALLOW))
    except LoadError as exc:  # e.g. a hand that ends on the deal cannot be written with actions
        assert exc.diagnostics
        return
    if result.error is None and state.is_terminal():
        assert result.state.outcome() == state.outcome(), "the replayed hand ended otherwise"
        count("played hand replayed as a scenario")


@FUZZ_SETTINGS
@given(source=st.sampled_from(SOURCES), data=st.data(), seed=st.integers(0, 2**16),
       hows=st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3))
def test_a_mutated_ruleset_gets_diagnostics_or_plays_and_replays(tmp_path_factory: Any, source: Path, data: Any,
                                                                  seed: int, hows: list[str]) -> None:
    doc = _source_doc(source)
    for how in hows:
        _mutate(doc, data, how)
    path = tmp_path_factory.mktemp("fuzz") / "mutant.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    try:
        rs = load_ruleset(path, allow_paths=ALLOW)
    except LoadError as exc:
        assert exc.diagnostics and all(d.message and d.code for d in exc.diagnostics)
        count("ruleset mutated; refused with diagnostics")
        return
    _play_and_replay(rs, path, seed)


@FUZZ_SETTINGS
@given(source=st.sampled_from(SOURCES), data=st.data(), how=st.sampled_from(MUTATIONS))
def test_every_command_on_a_mutated_ruleset_ends_in_a_documented_way(tmp_path_factory: Any, source: Path,
                                                                      data: Any, how: str) -> None:
    doc = _source_doc(source)
    _mutate(doc, data, how)
    path = tmp_path_factory.mktemp("cli") / "mutant.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    allow = [a for p in ALLOW for a in ("--allow-path", str(p))]
    res = _cli(["validate", str(path), *allow], (0, 2))
    _cli(["lint", str(path), *allow], (0, 1, 2))
    _cli(["explain", str(path)], (0, 2))
    _cli(["diff", str(source), str(path)], (0, 1, 2))
    count("commands run on a mutated ruleset (validate, lint, explain, diff)" if res.exit_code == 0 else
          "commands run on a refused mutant (validate, lint, explain, diff)")


@FUZZ_SETTINGS
@given(data=st.data(), length=st.integers(1, 4), seed=st.integers(0, 2**16))
def test_extends_chains_and_loops(tmp_path_factory: Any, data: Any, length: int, seed: int) -> None:
    folder = tmp_path_factory.mktemp("chain")
    names = [f"r{i}.yaml" for i in range(length)]
    for i, name in enumerate(names):
        # each file extends another of the chain (itself, a later one: loops), a shipped one or nothing
        parent = data.draw(st.sampled_from(names + ["standard", "speno", "missing.yaml", "../outside.yaml", None]))
        doc: dict[str, Any] = {"name": f"file {i}"}
        if parent is not None:
            doc["extends"] = parent
        if data.draw(st.booleans()):
            src = _source_doc(data.draw(st.sampled_from(SOURCES)))
            src.pop("extends", None)
            doc = {**src, **doc}
            _mutate(doc, data, data.draw(st.sampled_from(MUTATIONS)))
        (folder / name).write_text(yaml.safe_dump(doc, sort_keys=False))
    try:
        rs = load_ruleset(folder / names[0])
    except LoadError as exc:
        assert exc.diagnostics and all(d.message for d in exc.diagnostics)
        count("extends chain or loop; refused with diagnostics")
        return
    count("extends chain loaded")
    _play_and_replay(rs, folder / names[0], seed)


@FUZZ_SETTINGS
@given(source=st.sampled_from(SOURCES), data=st.data(), seed=st.integers(0, 2**16))
def test_grammar_expressions_in_every_expression_field(tmp_path_factory: Any, source: Path, data: Any,
                                                       seed: int) -> None:
    doc = _source_doc(source)
    fields = [p for p in places(doc) if isinstance(p[-1], str) and p[-1] in expression_keys()]
    if not fields:
        return
    for where in data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=2, unique=True)):
        put(doc, where, data.draw(st.one_of(expressions(), typed_expressions())))
    path = tmp_path_factory.mktemp("expr") / "mutant.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        rs = load_ruleset(path, allow_paths=ALLOW)
    except LoadError as exc:
        assert exc.diagnostics and all(d.line >= 1 for d in exc.diagnostics if d.file.endswith("mutant.yaml"))
        count("grammar expression; refused with located diagnostics")
        return
    _play_and_replay(rs, path, seed)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 200, f"one expression grew the process by {grown_mb:.0f} MB"


def _scenario_doc(source: Path) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(source.read_text())
    ref = str(doc.get("ruleset", ""))
    if ref.endswith(".yaml"):
        doc["ruleset"] = str((source.parent / ref).resolve())
    return doc


HUGE = "HUGE-NUMBER"  # written as a number of 4,400 digits (past Python's own guard)
SCENARIO_VALUES = st.one_of(st.sampled_from(["QS", "QS QS", "ZZ", "10X", "", "draw stock", "P9 drop", "x" * 300,
                                             "Nobody discard 2C", "drop drop", "spread", "hit QS on 99"]),
                            st.integers(-10, 10**6), st.none(), st.booleans(), st.lists(st.sampled_from(["QS", "2C"])))


@FUZZ_SETTINGS
@given(source=st.sampled_from(SCENARIOS), data=st.data(),
       hows=st.lists(st.sampled_from(["hands", "actions", "players", "stake", "anything", "delete"]),
                     min_size=1, max_size=3))
def test_a_mutated_scenario_replays_or_gets_diagnostics(tmp_path_factory: Any, source: Path, data: Any,
                                                        hows: list[str]) -> None:
    doc = _scenario_doc(source)
    deal = doc["deals"][0] if isinstance(doc.get("deals"), list) and doc["deals"] else doc
    for how in hows:
        if how == "hands" and isinstance(deal.get("hands"), dict) and deal["hands"]:
            who = data.draw(st.sampled_from(sorted(deal["hands"])))
            cards = deal["hands"][who]
            if isinstance(cards, list) and cards:
                i = data.draw(st.integers(0, len(cards) - 1))
                cards[i] = data.draw(st.sampled_from(["QS", "JK", "ZZ", "2C", cards[0], 7, None]))
        elif how == "actions" and isinstance(deal.get("actions"), list):
            acts = deal["actions"]
            op = data.draw(st.sampled_from(["drop", "swap", "insert", "garble"]))
            if acts and op == "drop":
                del acts[data.draw(st.integers(0, len(acts) - 1))]
            elif len(acts) > 1 and op == "swap":
                i = data.draw(st.integers(0, len(acts) - 2))
                acts[i], acts[i + 1] = acts[i + 1], acts[i]
            else:
                acts.insert(data.draw(st.integers(0, len(acts))), data.draw(SCENARIO_VALUES))
        elif how == "players" and isinstance(doc.get("players"), list):
            doc["players"] = data.draw(st.sampled_from([doc["players"][:-1], doc["players"] + ["Zed"],
                                                        doc["players"][::-1], ["Ann Lee", "Bob"], [], "Ann"]))
        elif how == "stake":
            doc["stake"] = data.draw(st.sampled_from([0, -1, 10**13, "two", None, HUGE]))
        elif how == "delete" and doc:
            doc.pop(data.draw(st.sampled_from(sorted(doc))))
        else:
            spots = places(doc)
            if spots:
                put(doc, data.draw(st.sampled_from(spots)), data.draw(SCENARIO_VALUES))
    path = tmp_path_factory.mktemp("scn") / "mutant.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False).replace(HUGE, "9" * 4400))
    try:
        result = replay(load_scenario(path, allow_paths=ALLOW))
    except LoadError as exc:
        assert exc.diagnostics and all(d.message for d in exc.diagnostics)
        count("scenario mutated; refused with diagnostics")
    else:
        count("scenario mutated; replayed" + (" to a refusal" if result.error else ""))
    allow = [a for p in ALLOW for a in ("--allow-path", str(p))]
    _cli(["replay", str(path), *allow], (0, 1, 2))
    _cli(["check", str(path), *allow], (0, 1, 2))


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: Any) -> str:
    """The text of a saved game two hands in: the human's moves made at random."""
    from tonkdsl.interpreter.view import observation
    from tonkdsl.tools.play import new_game
    path = tmp_path_factory.mktemp("save") / "game.yaml"
    game = new_game("standard", players=3, bots=["greedy"], stake=1, hands=3, seed=5, save=path)
    rng = Rng(5)
    for _ in range(2):
        state = game.start_hand()
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            act = rng.choice(legal) if seat == 0 else game.bot(seat)(observation(state, seat), legal, game.bot_rng())
            game.apply(seat, act)
        game.finish_hand()
    game.start_hand()
    return path.read_text()


@FUZZ_SETTINGS
@given(data=st.data(), how=st.sampled_from(["truncate", "edit", "edit", "delete-line", "duplicate-line"]))
def test_a_truncated_or_edited_save_is_refused_and_kept(tmp_path_factory: Any, saved_game: str, data: Any,
                                                        how: str) -> None:
    lines = saved_game.splitlines(keepends=True)
    if how == "truncate":
        text = saved_game[:data.draw(st.integers(0, len(saved_game) - 1))]
    elif how == "delete-line":
        i = data.draw(st.integers(0, len(lines) - 1))
        text = "".join(lines[:i] + lines[i + 1:])
    elif how == "duplicate-line":
        i = data.draw(st.integers(0, len(lines) - 1))
        text = "".join(lines[:i + 1] + lines[i:])
    else:
        doc = yaml.safe_load(saved_game)
        spot = data.draw(st.sampled_from(places(doc)))
        put(doc, spot, data.draw(SCENARIO_VALUES))
        text = yaml.safe_dump(doc, sort_keys=False)
    path = tmp_path_factory.mktemp("resume") / "game.yaml"
    path.write_text(text)
    res = CliRunner().invoke(main, ["play", "--resume", str(path)], input="quit\n")
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code in (0, 2), res.output
    if res.exit_code == 2:
        assert path.read_text() == text, "a refused save must be left as it was"
        count("saved game damaged; refused and kept")
    else:
        count("saved game edited harmlessly; resumed")
