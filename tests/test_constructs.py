"""Each turn construct lives in one module of tonkdsl/interpreter/rules/ (issue 80): its schema,
actions, effects, sheet sentences and lint findings. These tests hold every registered
construct to that, so that a construct added later is held to it too."""
from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from tonkdsl.interpreter.actions import parse_action
from tonkdsl.interpreter.rules import RULES, plan_for
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.resources import schema_path, shipped_ruleset_names
from tonkdsl.tools.explain import explain

ROOT = Path(__file__).resolve().parent.parent


def _code(path: Path) -> str:
    """The code of a module without its comments and docstrings."""
    out, prev = [], None
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.COMMENT:
            continue
        if tok.type == tokenize.STRING and (prev is None or prev.type in (
                tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.NL)):
            prev = tok
            continue  # a docstring
        out.append(tok.string)
        if tok.type != tokenize.NL:
            prev = tok
    return " ".join(out)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.key)
def test_a_construct_is_named_only_by_its_module_and_the_registry(rule) -> None:
    module = Path(__import__(rule.__module__, fromlist=["_"]).__file__).resolve()
    word = re.compile(rule.named, re.I)  # 'slap' for slapping
    naming = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tonkdsl").rglob("*.py")
                    if p.resolve() != module and word.search(_code(p)))
    assert naming == ["tonkdsl/interpreter/rules/__init__.py"]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.key)
def test_the_shipped_schema_holds_each_constructs_fragment(rule) -> None:
    node = json.loads(schema_path().read_text(encoding="utf-8"))
    for part in rule.key.split("."):
        node = node["properties"][part]
    assert node == rule.schema


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.key)
def test_a_construct_not_used_is_not_built_and_says_nothing(rule) -> None:
    for name in shipped_ruleset_names():
        rs = load_ruleset(name)
        data = rs.data
        for part in rule.key.split("."):
            data = data.get(part) if isinstance(data, dict) else None
        if data is not None:
            continue
        assert rule.build(rs) is None
        assert not any(isinstance(r, rule) for r in plan_for(rs).rules)
        assert rule.sheet(rs, lambda text, subject="actor": text, frozenset()) == []


@pytest.mark.parametrize("rule", [r for r in RULES if r.kinds], ids=lambda r: r.key)
def test_a_constructs_actions_read_back_as_written(rule) -> None:
    texts = rule.action_texts(["8S", "JK"], 2) + [u for u in rule.usage if "<" not in u]
    assert texts and all(text.split()[0] in rule.verbs for text in texts)
    for text in texts:
        action = parse_action(text)
        assert type(action) in rule.kinds and str(action) == text


def test_slapping_speaks_only_where_it_is_used(tmp_path) -> None:
    path = tmp_path / "slaps.yaml"
    path.write_text("extends: standard\nname: Slaps\nslapping: {allowed: 'count > 5', priority: next_player}\n",
                    encoding="utf-8")
    sheet = explain(load_ruleset(path), "text")
    assert ("Slapping: when a discard could extend a spread, only the next player in turn may play it there "
            "(when the player's count is more than 5), and then discards an extra card; the discarder who slaps their own "
            "card gets no extra discard. The card is dead once the next player draws.") in " ".join(sheet.split())
    assert "Slapping" not in explain(load_ruleset("standard"), "text")
