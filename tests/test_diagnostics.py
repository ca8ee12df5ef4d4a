"""Common mistakes in ruleset files give one clear, located diagnostic (exact messages)."""
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from tonkdsl import LoadError, load_ruleset


def problems(path: Path) -> list[str]:
    with pytest.raises(LoadError) as info:
        load_ruleset(path)
    return [d.render().splitlines()[0] for d in info.value.diagnostics]


def test_misspelled_key_did_you_mean(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\ndeal:\n  hand_sise: 7\n")
    assert problems(p) == [
        f"{p}:4:3: error[schema-unknown-key]: unknown key 'hand_sise' in 'deal' (did you mean 'hand_size'?)"
        " (at $.deal.hand_sise)"
    ]


def test_misspelled_top_level_key(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nhits_rules: {}\n")
    assert problems(p) == [
        f"{p}:3:1: error[schema-unknown-key]: unknown key 'hits_rules' at the top level (did you mean 'hits'?)"
        " (at $.hits_rules)"
    ]


def test_wrong_type(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nhits:\n  books: maybe\n")
    assert problems(p) == [
        f"{p}:4:10: error[schema-type]: 'books' must be true or false, not 'maybe' (at $.hits.books)"
    ]


def test_wrong_enum_value(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nhits:\n  spreads: owm\n")
    assert problems(p) == [
        f"{p}:4:12: error[schema-value]: 'spreads' cannot be 'owm' (did you mean 'own'?); choose one of: "
        "any, own, others (at $.hits.spreads)"
    ]


def test_unknown_name_in_expression_points_inside(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nturn:\n  drop:\n    allowed: turns > 1 and cout < 10\n")
    assert problems(p) == [
        f"{p}:5:28: error[expr-type]: unknown name 'cout' (did you mean 'count'?) "
        "(in 'turns > 1 and cout < 10') (at $.turn.drop.allowed)"
    ]


def test_syntax_error_in_expression(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nturn:\n  drop:\n    allowed: count = 5\n")
    assert problems(p) == [
        f"{p}:5:20: error[expr-syntax]: a single '=' is not allowed; compare with '==' "
        "(in 'count = 5') (at $.turn.drop.allowed)"
    ]


def test_syntax_error_in_quoted_expression_column(write) -> None:
    p = write("r.yaml", 'extends: standard\nname: X\nturn:\n  drop:\n    allowed: "count <= "\n')
    (msg,) = problems(p)
    assert msg.startswith(f"{p}:5:24: error[expr-syntax]: the expression ends too early")


def test_wrong_type_in_expression(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nturn:\n  drop:\n    allowed: count + 1\n")
    assert problems(p) == [
        f"{p}:5:14: error[expr-type]: this should be a boolean, but it is a number (in 'count + 1')"
        " (at $.turn.drop.allowed)"
    ]


def test_wrong_arity(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nturn:\n  drop:\n    allowed: min(hand, hand) < 3\n")
    (msg,) = problems(p)
    assert "min() takes exactly one argument, got 2" in msg and ":5:14:" in msg


def test_role_not_available_here(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nturn:\n  drop:\n    allowed: dropper.count < 5\n")
    (msg,) = problems(p)
    assert "'dropper' is not known here: 'dropper' is the player who dropped (drop endings only)" in msg


def test_every_problem_is_reported_not_just_the_first(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\ndeal:\n  hand_sise: 7\nturn:\n  drop:\n"
                        "    allowed: cout < 3\n    wins_if: count <\n")
    msgs = problems(p)
    assert len(msgs) == 3
    assert [m.split(": ")[0] for m in msgs] == [f"{p}:4:3", f"{p}:7:14", f"{p}:8:21"]


def test_yaml_syntax_error(write) -> None:
    p = write("r.yaml", "name: [unclosed\n")
    (msg,) = problems(p)
    assert msg.startswith(f"{p}:2:1: error[yaml-syntax]: YAML syntax error")


def test_python_tag_refused(write) -> None:
    p = write("r.yaml", "name: !!python/object/apply:os.system ['echo hi']\n")
    (msg,) = problems(p)
    assert "error[yaml-tag]: the tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed" in msg


def test_extends_cycle(write) -> None:
    write("a.yaml", "extends: b.yaml\nname: A\n")
    b = write("b.yaml", "extends: a.yaml\nname: B\n")
    (msg,) = problems(b)
    assert "error[extends-cycle]: 'extends' goes round in a circle: b.yaml -> a.yaml -> b.yaml" in msg


def test_extends_outside_folder_refused(tmp_path: Path, write) -> None:
    write("outside.yaml", "extends: standard\nname: O\n")
    inner = write("sub/r.yaml", "extends: ../outside.yaml\nname: R\n")
    (msg,) = problems(inner)
    assert "error[extends-outside]" in msg and "pass --allow-path DIR" in msg
    rs = load_ruleset(inner, allow_paths=[tmp_path])
    assert rs.name == "R"


def test_remove_unknown_entry_did_you_mean(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nremove: [deal_wins.rules.tonk-49-5]\n")
    (msg,) = problems(p)
    assert "nothing to remove at 'deal_wins.rules.tonk-49-5': no entry with id 'tonk-49-5' " \
           "(did you mean 'tonk-49-50'?)" in msg


def test_remove_and_merge_by_id(write) -> None:
    p = write("r.yaml", "extends: speno\nname: X\nremove: [deal_wins.rules.tonk-49-50]\n"
                        "deal_wins:\n  rules:\n    - id: tonk-15-or-less\n      pays: 3 * stake\n")
    rs = load_ruleset(p)
    assert [r.id for r in rs.deal_wins] == ["tonk-15-or-less"]
    assert rs.deal_wins[0].pays.source == "3 * stake"
    assert rs.deal_wins[0].when.source == "count <= 15"


def test_error_in_inherited_list_entry_points_at_child_line(write) -> None:
    p = write("r.yaml", "extends: speno\nname: X\ndeal_wins:\n  rules:\n    - id: tonk-15-or-less\n"
                        "      pays: 3 * stak\n")
    (msg,) = problems(p)
    assert msg.startswith(f"{p}:6:17: error[expr-type]: unknown name 'stak' (did you mean 'stake'?)")


def test_feature_not_run_yet_is_an_error_not_ignored(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nturn:\n  discard: {required: false}\n")
    (msg,) = problems(p)
    assert "error[not-supported-yet]: turns that end without a discard" in msg


@given(st.text(max_size=200))
def test_any_text_gives_a_ruleset_or_diagnostics(tmp_path_factory, text: str) -> None:
    p = tmp_path_factory.mktemp("fuzz") / "r.yaml"
    p.write_text(text, encoding="utf-8")
    try:
        load_ruleset(p)
    except LoadError as exc:
        assert exc.diagnostics and all(d.message for d in exc.diagnostics)


YAML_BITS = ["extends: standard", "name: X", "deal:", "  hand_size: 7", "  hand_size: -1", "turn:",
             "  drop:", "    allowed: count <", "    allowed: (((", "    wins_if: 1..10", "hits: 3",
             "  books: [", "remove: [x.y]", "counters:", "  waiting: {initial: 0, events: []}",
             "endings:", "  tonk_out: {winners: actor}", "  - a", "pack: {ranks: [A]}", "&a [*a]"]


@given(st.lists(st.sampled_from(YAML_BITS), max_size=12))
def test_mutated_rulesets_give_diagnostics_not_tracebacks(tmp_path_factory, lines: list[str]) -> None:
    p = tmp_path_factory.mktemp("fuzz") / "r.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        load_ruleset(p)
    except LoadError as exc:
        assert exc.diagnostics


def test_a_list_of_choices_too_long_says_the_cap(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\npack:\n  wild: [2]\n  wild_value: [0, 1, 5, 10, 15]\n")
    assert problems(p) == [
        f"{p}:5:15: error[schema-too-long]: 'wild_value' lists 5 items; at most 4 are allowed (at $.pack.wild_value)"
    ]
    p = write("r.yaml", "extends: standard\nname: X\npack:\n  values: {A: [1, 5, 9, 11, 14]}\n")
    assert problems(p) == [
        f"{p}:4:15: error[schema-too-long]: 'A' lists 5 items; at most 4 are allowed (at $.pack.values.A)"
    ]


def test_jokers_without_a_value_are_found_at_the_jokers_line(write) -> None:
    p = write("r.yaml", "extends: standard\nname: X\npack:\n  jokers: 2\n")
    assert problems(p) == [
        f"{p}:4:11: error[pack-value-missing]: the rank JK has no value: add it to pack.values (a pack with "
        "jokers needs one) (at $.pack.jokers)"
    ]


def test_load_error_survives_a_worker_process(write) -> None:
    """simulate's and tournament's workers send a bad file's error back pickled: it arrives whole."""
    import pickle

    p = write("r.yaml", "extends: standard\nname: X\ndeal:\n  hand_sise: 7\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    back = pickle.loads(pickle.dumps(info.value))
    assert back.diagnostics == info.value.diagnostics
    assert str(back) == str(info.value)
