"""Hostile and broken input: every limit gives its named diagnostic, nothing hangs, nothing runs.

Also a hypothesis fuzz suite over the loader, the expression language and scenario files: every
input ends in success or diagnostics, never a traceback, each case bounded in time.
"""
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tonkdsl import LoadError, load_ruleset, load_scenario, replay
from tonkdsl.language.expr import ExprError, compile_expr
from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.loader import MAX_EXTENDS_DEPTH
from tonkdsl.language.names import make_names
from tonkdsl.language.yamlsrc import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, parse_yaml
from conftest import TESTS

FUZZ = settings(deadline=30_000, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def diag(exc_info) -> str:
    return exc_info.value.diagnostics[0].render()


def test_alias_bomb(write) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefgh"):
        prev = "abcdefgh"[i]
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    p = write("bomb.yaml", "\n".join(lines) + "\n")
    t0 = time.perf_counter()
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert time.perf_counter() - t0 < 10
    assert f"error[limit-yaml-nodes]: the document expands to more than {MAX_NODES:,} nodes (MAX_NODES)" in diag(info)


def test_recursive_alias(write) -> None:
    with pytest.raises(LoadError) as info:
        load_ruleset(write("r.yaml", "a: &a [*a]\n"))
    assert "error[yaml-recursive]: a recursive YAML alias is not allowed" in diag(info)


def test_deep_nesting(write) -> None:
    with pytest.raises(LoadError) as info:
        load_ruleset(write("r.yaml", "name: " + "[" * 10_000 + "]" * 10_000 + "\n"))
    assert f"r.yaml:1:{6 + MAX_DEPTH + 1}: error[limit-yaml-depth]: the document nests deeper than {MAX_DEPTH} " \
           "levels (MAX_DEPTH)" in diag(info)


def test_deep_block_nesting() -> None:
    text = "".join("  " * i + "k:\n" for i in range(2000))
    with pytest.raises(LoadError) as info:
        parse_yaml(text, "deep.yaml")
    assert "limit-yaml-depth" in diag(info)


def test_huge_file(write) -> None:
    p = write("big.yaml", "name: x\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert "error[limit-file-size]" in diag(info) and "(MAX_FILE_BYTES)" in diag(info)


def test_python_tags_never_run(write, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    p = write("r.yaml", f"name: !!python/object/apply:os.system ['touch {marker}']\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert "yaml-tag" in diag(info) and not marker.exists()


def test_extends_chain_too_long(write) -> None:
    write("r0.yaml", "extends: standard\nname: r0\n")
    for i in range(1, MAX_EXTENDS_DEPTH + 2):
        write(f"r{i}.yaml", f"extends: r{i - 1}.yaml\nname: r{i}\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(Path(write("top.yaml", f"extends: r{MAX_EXTENDS_DEPTH + 1}.yaml\nname: top\n")))
    assert f"'extends' chains more than {MAX_EXTENDS_DEPTH} files (MAX_EXTENDS_DEPTH)" in diag(info)


def test_extends_outside_the_folder(write) -> None:
    write("secret.yaml", "extends: standard\nname: s\n")
    p = write("sub/r.yaml", "extends: ../secret.yaml\nname: r\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert "error[extends-outside]" in diag(info) and "--allow-path" in diag(info)


def test_extends_absolute_path_refused(write) -> None:
    p = write("r.yaml", "extends: /etc/passwd.yaml\nname: r\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert "error[extends-outside]" in diag(info)


NAMES = make_names(["actor"], [], subject=True)


@pytest.mark.parametrize("text,code,words", [
    ("1" + " + 1" * 200, "limit-expr-size", "(MAX_EXPR_NODES) is 400"),
    ("1" + " " * 10_000, "limit-expr-length", "(MAX_EXPR_CHARS)"),
    ("not " * 60 + "true", "limit-expr-depth", "(MAX_EXPR_DEPTH)"),
    ("9999999999999", "limit-expr-number", "(MAX_NUMBER)"),
    ("10 ^ 10 ^ 10", "limit-expr-number", "(MAX_NUMBER)"),
])
def test_expression_limits(text: str, code: str, words: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(text, NAMES)
    assert info.value.code == code and words in info.value.message


def test_enormous_range_is_an_eval_error() -> None:
    from tonkdsl.interpreter.engine import deal

    state = deal(load_ruleset("standard"), 2, seed=0)
    from tonkdsl.language.names import EvalContext

    f = compile_expr("count in 0..stake * 100000000", NAMES)
    with pytest.raises(EvalError, match=r"MAX_RANGE"):
        f(EvalContext(state, actor=0))


def test_expressions_cannot_reach_python() -> None:
    for text in ("__import__('os')", "self.__class__", "open", "eval(1)", "hand.__len__", "[].append"):
        with pytest.raises(ExprError):
            compile_expr(text, NAMES)


def test_pack_and_hand_limits(write) -> None:
    p = write("r.yaml", "extends: standard\nname: big\npack: {jokers: 50}\ndeal: {hand_size: 40}\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    text = "\n".join(d.render() for d in info.value.diagnostics)
    assert "'jokers' must be at most 8, not 50" in text and "'hand_size' must be at most 13, not 40" in text


# --- fuzzing ------------------------------------------------------------------------------
VALID = (Path(__file__).parent / "scenarios" / "s13-drop-caught.yaml").read_text()


@FUZZ
@given(st.text(max_size=120))
def test_fuzz_expressions(text: str) -> None:
    try:
        compile_expr(text, NAMES)
    except ExprError as exc:
        assert exc.message and exc.line >= 1 and exc.column >= 1


EXPR_ATOMS = ["count", "hand", "others", "players", "stake", "1", "49", "J", "10S", "(", ")", "[", "]", ",", "+",
              "-", "*", "/", "^", "..", "==", "<=", "in", "not", "and", "or", "where", "min(", "count(", "rank",
              ".count", "nearest_left(", "true"]


@FUZZ
@given(st.lists(st.sampled_from(EXPR_ATOMS), max_size=25))
def test_fuzz_expression_shapes(parts: list[str]) -> None:
    try:
        compile_expr(" ".join(parts), NAMES)
    except ExprError as exc:
        assert exc.message


def _mutations() -> st.SearchStrategy[str]:
    lines = VALID.splitlines()
    idx = st.integers(0, len(lines) - 1)
    junk = st.sampled_from(["", "  - Bob drop", "hands: 3", "players: []", "ruleset: nope", "  Al: [ZZ]",
                            "actions: {x: 1}", "stock: [AS, AS]", "expect: [1]", "dealer: Nobody", "seed: x",
                            "upcard: JK", "  - Al hit AS on 9", "deals: [1]", "&a [*a]", "\t", "stake: -3"])
    return st.lists(st.tuples(idx, junk), max_size=4).map(
        lambda edits: "\n".join(_apply_edits(lines, edits)) + "\n")


def _apply_edits(lines: list[str], edits: list[tuple[int, str]]) -> list[str]:
    out = list(lines)
    for i, text in edits:
        out[i % len(out)] = text
    return out


@FUZZ
@given(_mutations())
def test_fuzz_scenarios(tmp_path_factory, text: str) -> None:
    p = tmp_path_factory.mktemp("fuzz") / "s.yaml"
    p.write_text(text)
    try:
        result = replay(load_scenario(p))
    except LoadError as exc:
        assert exc.diagnostics and all(d.message for d in exc.diagnostics)
        return
    assert result.to_json()


@FUZZ
@given(st.binary(max_size=300))
def test_fuzz_binary_files(tmp_path_factory, data: bytes) -> None:
    p = tmp_path_factory.mktemp("fuzz") / "r.yaml"
    p.write_bytes(data)
    try:
        load_ruleset(p)
    except LoadError as exc:
        assert exc.diagnostics


RULESET_TEXT = (TESTS / "variations" / "v17-slapping.yaml").read_text()


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(
    ["allowed: count +", "priority: never", "extends: v17-slapping.yaml", "slapping: 3", "hits: {books: 7}",
     "name:", "  when: dropper", "remove: [a.b]", "counters: {w: {initial: 0, events: [{on: fly, target: x}]}}",
     "deal: {hand_size: 0}", "pack: {ranks: []}", "endings: {tonk_out: {winners: 3}}"])), max_size=4))
def test_fuzz_mutated_rulesets(tmp_path_factory, edits: list[tuple[int, str]]) -> None:
    d = tmp_path_factory.mktemp("fuzz")
    (d / "v17-slapping.yaml").write_text(RULESET_TEXT)
    p = d / "r.yaml"
    p.write_text("\n".join(_apply_edits(["extends: v17-slapping.yaml", "name: fuzz"] + RULESET_TEXT.splitlines()[3:],
                                        edits)) + "\n")
    try:
        load_ruleset(p)
    except LoadError as exc:
        assert exc.diagnostics


def test_hostile_paths_and_values_get_plain_located_errors(tmp_path: Path) -> None:
    import os
    from tonkdsl.language.diagnostics import clip_line
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(LoadError) as info:  # a FIFO (or a device) is refused, never read (it would hang)
        load_ruleset(fifo)
    assert info.value.diagnostics[0].code == "file-not-regular"
    big = tmp_path / "digits.yaml"
    big.write_text("ruleset: standard\nplayers: [A, B]\nstake: " + "9" * 5000 + "\nactions: []\n")
    with pytest.raises(LoadError) as info:
        load_scenario(big)
    assert "a number of more than 4,300 digits" in info.value.diagnostics[0].message
    many = tmp_path / "many.yaml"
    many.write_text("ruleset: standard\nplayers: [" + ", ".join(f"P{i}" for i in range(1000)) + "]\nactions: []\n")
    with pytest.raises(LoadError) as info:  # one error: the rest of the file means nothing for 1000 players
        load_scenario(many)
    assert [d.message for d in info.value.diagnostics] == ["this ruleset is for 2 to 8 players, not 1000"]
    shown, caret = clip_line("x" * 20_000, 10_000)
    assert len(shown) <= 126 and shown.startswith("...") and shown.endswith("...") and caret == 63


def test_sums_are_bounded_and_a_written_zero_divisor_is_refused() -> None:
    from tonkdsl.interpreter.engine import deal
    with pytest.raises(ExprError, match="by a written 0: a division by zero"):
        compile_expr("stake / 0", NAMES)
    big = compile_expr("sum(1 .. 100000) * 100000000", NAMES)
    state = deal(load_ruleset("standard"), 2, seed=1)
    from tonkdsl.language.names import EvalContext
    with pytest.raises(EvalError, match="MAX_NUMBER"):
        big.fn(EvalContext(state, 0))
    with pytest.raises(EvalError, match="MAX_NUMBER"):
        compile_expr("sum([999999999999, 999999999999])", NAMES).fn(EvalContext(state, 0))


def test_the_cost_of_an_expression_is_bounded_when_it_loads(write) -> None:
    nested = "count(players where count > 0)"
    for _ in range(11):  # players^12 evaluations of the innermost condition per check
        nested = f"count(players where {nested} > 0)"
    p = write("nested.yaml", f"extends: standard\nturn:\n  drop: {{allowed: '{nested} > 0'}}\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert "error[limit-expr-cost]" in diag(info) and "the limit (MAX_EXPR_COST) is 200,000" in diag(info)
    p = write("sum.yaml", "extends: standard\ndeal_wins:\n  rules:\n"
                          "    - {id: big, when: 'sum(1 .. 1000000) > count', pays: stake}\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert "one evaluation of this expression may take 1,000,006 steps" in diag(info)
    # Two levels over the players are an ordinary rule and load.
    assert compile_expr("count(players where count(others where count < 10) > 0)", NAMES).cost < 2_000


def test_lint_odds_stop_at_their_budget(write) -> None:
    from tonkdsl.tools.lint.odds import MAX_ODDS_STEPS, compute
    p = write("slow.yaml", "extends: standard\ndeal_wins:\n  rules:\n"
                           "    - {id: big, when: 'sum(1 .. 100000) > count', pays: stake}\n")
    table = compute(load_ruleset(p))
    big = next(o for o in table.odds if o.rule == "big")
    assert big.hands is None and f"more than {MAX_ODDS_STEPS:,} steps (MAX_ODDS_STEPS)" in big.reason


# --- files that other files name, output paths, long names (issue 22) ----------------------
def _scenario(ruleset: str) -> str:
    return f"ruleset: {ruleset}\nplayers: [a, b]\ndealer: a\nseed: 1\nactions: []\n"


def test_a_scenario_reads_a_ruleset_only_where_extends_may(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from tonkdsl.cli import main
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "s.yaml").write_text(_scenario("/etc/passwd"))
    res = CliRunner().invoke(main, ["replay", str(tmp_path / "sub" / "s.yaml")])
    assert res.exit_code == 2 and "error[ruleset-outside]" in res.output and "root:" not in res.output
    # With --allow-path the file is read, and since it is not a ruleset none of its lines is shown.
    res = CliRunner().invoke(main, ["replay", "--allow-path", "/etc", str(tmp_path / "sub" / "s.yaml")])
    assert res.exit_code == 2 and "error[not-a-ruleset]" in res.output and "root:" not in res.output
    # A configuration file in the working folder: YAML, but not a ruleset: no value echoed.
    conf = tmp_path / "conf.yaml"
    conf.write_text("password: hunter2\nuser: ann\n")
    (tmp_path / "sub" / "s.yaml").write_text(_scenario("../conf.yaml"))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        res = CliRunner().invoke(main, ["replay", "sub/s.yaml"])
    finally:
        os.chdir(cwd)
    assert res.exit_code == 2 and "error[not-a-ruleset]" in res.output and "hunter2" not in res.output


def test_a_named_file_with_a_yaml_error_shows_no_line(write) -> None:
    write("secret.yaml", "token: [abc\n")
    p = write("r.yaml", "extends: secret.yaml\nname: r\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    assert "yaml-syntax" in diag(info) and "abc" not in diag(info)


def test_output_paths_are_checked_before_the_work(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from tonkdsl.cli import main
    run = CliRunner().invoke
    res = run(main, ["explain", "standard", "-o", str(tmp_path / "no" / "x.txt")])
    assert res.exit_code == 2 and "does not exist" in res.output
    res = run(main, ["explain", "standard", "-o", str(tmp_path / "x.html")])
    assert res.exit_code == 2 and "names a HTML file, but --format is text: add --format html" in res.output
    res = run(main, ["simulate", "standard", "-n", "5", "--plot", str(tmp_path / "x.jpg")])
    assert res.exit_code == 2 and "must end in .png or .svg" in res.output
    (tmp_path / "old.txt").write_text("old")
    res = run(main, ["explain", "standard", "-o", str(tmp_path / "old.txt")])
    assert res.exit_code == 0 and f"replaces the existing file {tmp_path / 'old.txt'}" in res.output
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("args", [["validate", "{L}.yaml"], ["validate", "{L}"], ["replay", "{L}.yaml"],
                                  ["simulate", "{L}"], ["lint", "{L}.yaml"], ["explain", "{L}"],
                                  ["diff", "standard", "{L}.yaml"], ["check", "{L}.yaml"], ["new", "{L}"],
                                  ["explain", "standard", "-o", "{L}.txt"], ["play", "--resume", "{L}.yaml"]])
def test_names_longer_than_the_file_system_takes(args: list[str], tmp_path: Path) -> None:
    from click.testing import CliRunner
    from tonkdsl.cli import main
    long = "a" * 300
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        res = CliRunner().invoke(main, [a.replace("{L}", long) for a in args])
    finally:
        os.chdir(cwd)
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit), res.exception


def test_a_rule_that_fails_in_replay_is_a_ruleset_error(write) -> None:
    from click.testing import CliRunner
    from tonkdsl.cli import main
    write("r.yaml", "extends: standard\nendings:\n  drop_won:\n    payouts:\n"
                    "      - {id: drop-won, from: others, to: dropper, amount: stake / (count - count)}\n")
    s = write("s.yaml", "ruleset: r.yaml\nplayers: [a, b]\ndealer: b\nhands: {a: [2S, 3S, 4S, 5S, 6S], "
                        "b: [KS, KH, 9D, QS, 8H]}\nactions: [a drop]\n")
    res = CliRunner().invoke(main, ["replay", str(s), "--json"])
    err = __import__("json").loads(res.output)["error"]
    assert res.exit_code == 1 and err["kind"] == "ruleset" and err["message"].startswith("the ruleset failed:")
    res = CliRunner().invoke(main, ["replay", str(s)])
    assert "ruleset error at action 1 (a drop): the ruleset failed:" in res.output and "is illegal" not in res.output


def test_messages_name_keys_plainly(write) -> None:
    p = write("r.yaml", 'extends: standard\npack: {values: {"Q\\0S": 25}}\n'
                        'bonuses: [{id: "a b", on: drew, from: others, to: actor, amount: stake}]\n')
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    text = "\n".join(d.render() for d in info.value.diagnostics)
    assert "\x00" not in text and '$.pack.values["Q\\u0000S"]' in text
    assert "'id' cannot be 'a b'" in text and "^[" not in text  # no raw regular expression
    p = write("m.yaml", "name: x\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    missing = [d.message for d in info.value.diagnostics if d.code == "schema-missing-key"]
    assert len(missing) == len(set(missing)) and "the ruleset needs the key 'pack'" in missing


def test_list_types_are_named_in_plain_plurals() -> None:
    from tonkdsl.language.expr.types import NUM, list_of
    assert list_of(list_of(NUM)).name == "list of lists of numbers"
    with pytest.raises(ExprError) as info:
        compile_expr("count([[1], [2]]) + [[1]]", NAMES)
    assert "numberss" not in str(info.value)
