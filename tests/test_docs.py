"""The docs name every expression name and function the engine offers."""
from tonkdsl.language.expr.compiler import _FUNCTIONS
from tonkdsl.language.names import CARD_ATTRS, CARD_SETS, FUNCTIONS, GLOBALS, PLAYER_ATTRS, ROLES
from conftest import ROOT


def test_expression_docs_cover_every_name() -> None:
    text = (ROOT / "docs" / "expressions.md").read_text()
    for name in [*GLOBALS, *PLAYER_ATTRS, *CARD_ATTRS, *ROLES, *CARD_SETS]:
        assert f"`{name}`" in text or f"`{name}` (" in text, name
    for fn in (*_FUNCTIONS, *FUNCTIONS):
        assert f"`{fn}(" in text, fn


def test_readme_quick_start_has_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    lines = [line for line in block.strip().splitlines() if line.strip()]
    assert len(lines) == 2
    assert "[test]" in lines[1] and "pytest" in lines[1]


def test_rulesets_doc_does_not_call_running_keys_unrun() -> None:
    text = (ROOT / "docs" / "rulesets.md").read_text()
    section = text.split("### Not run yet", 1)[1]
    assert "the engine does not run them" not in section  # scoring, sessions, slapping, holds all run
    assert "`turn.discard.required:\nfalse`" in section or "turn.discard.required" in section
