"""`tonk lsp` as an editor sees it: a real LSP client (pygls's) talks to `python -m tonkdsl lsp`
over stdio. The answers' substance is checked on the analysis functions too, where a failure
names the case more plainly than a protocol exchange does."""
from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="tonk lsp needs the 'lsp' extra (pygls, lsprotocol)")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from tonkdsl.language.loader import load_ruleset, resolve_name  # noqa: E402
from tonkdsl.tools.explain.sheet import build as sheet  # noqa: E402
from tonkdsl.tools.lsp import analysis  # noqa: E402

MISTAKE = """extends: standard
name: Mine
deal_wins:
  rules:
    - id: big
      when: cuont >= 49
      pays: stake
"""
FIXED = MISTAKE.replace("cuont", "count")
KEY_TYPO = """extends: standard
name: Mine
turn:
  drpo: {allowed: true}
"""


class Session:
    """One server process and the client talking to it."""

    def __init__(self) -> None:
        self.client = LanguageClient("tonk-test", "1")
        self.diagnostics: dict[str, list[types.PublishDiagnosticsParams]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics.setdefault(params.uri, []).append(params)

    async def start(self, root: Path) -> types.InitializeResult:
        await self.client.start_io(sys.executable, "-m", "tonkdsl", "lsp")
        result = await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(root))))
        self.client.initialized(types.InitializedParams())
        return result

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path)) or ""
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def change(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    async def wait_for(self, uri: str, test: Any, timeout: float = 20.0) -> types.PublishDiagnosticsParams:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for params in self.diagnostics.get(uri, []):
                if test(params):
                    return params
            await asyncio.sleep(0.02)
        raise AssertionError(f"no diagnostics as expected for {uri}: {self.diagnostics.get(uri)}")


def _run(tmp_path: Path, body: Any) -> Any:
    async def main() -> Any:
        s = Session()
        await s.start(tmp_path)
        try:
            return await body(s)
        finally:
            await s.stop()
    return asyncio.run(main())


def _codes(p: types.PublishDiagnosticsParams) -> list[Any]:
    return [d.code for d in p.diagnostics]


def test_diagnostic_at_its_range_then_gone_after_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(MISTAKE, encoding="utf-8")

    async def body(s: Session) -> tuple[types.PublishDiagnosticsParams, types.PublishDiagnosticsParams, float]:
        uri = s.open(path, MISTAKE)
        first = await s.wait_for(uri, lambda p: "expr-type" in _codes(p))
        t0 = time.monotonic()
        s.change(uri, 2, FIXED)
        after = await s.wait_for(uri, lambda p: p.version == 2 and "expr-type" not in _codes(p))
        return first, after, time.monotonic() - t0

    first, after, seconds = _run(tmp_path, body)
    d = next(d for d in first.diagnostics if d.code == "expr-type")
    assert d.range.start == types.Position(line=5, character=12)
    assert d.range.end == types.Position(line=5, character=17)  # the word 'cuont'
    assert d.message.startswith("unknown name 'cuont' (did you mean 'count'?)")
    assert d.severity == types.DiagnosticSeverity.Error and d.source == "tonk"
    assert not [x for x in after.diagnostics if x.severity == types.DiagnosticSeverity.Error]
    # Within a second of the change in the run on its own; a loaded test machine gets slack.
    assert seconds < 10


def test_hover_of_a_rule_is_its_sheet_sentence(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(FIXED, encoding="utf-8")

    async def body(s: Session) -> types.Hover | None:
        uri = s.open(path, FIXED)
        return await s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=12)))

    got = _run(tmp_path, body)
    assert got is not None and isinstance(got.contents, types.MarkupContent)
    rs = load_ruleset(path)
    lines = [line for section in sheet(rs) for line in section.lines]
    assert "- big: when the player's count is at least 49, the player wins at once and the hand is not played; " \
           "each other player without an automatic win pays 1 (the stake)." in lines
    assert got.contents.value.split("\n\n")[0] == ("big: when the player's count is at least 49, the player wins "
                                                   "at once and the hand is not played; each other player without "
                                                   "an automatic win pays 1 (the stake).")


def test_completion_in_when_offers_count_and_not_dropper(tmp_path: Path) -> None:
    text = MISTAKE.replace("cuont >= 49", "co")
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")

    async def body(s: Session) -> Any:
        uri = s.open(path, text)
        return await s.client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=5, character=14)))

    got = _run(tmp_path, body)
    items = got.items if isinstance(got, types.CompletionList) else got
    labels = {i.label for i in items}
    assert "count" in labels and "others" in labels and "min" in labels
    assert "dropper" not in labels  # drop endings only: validate refuses it in deal_wins
    assert "partner" not in labels  # the players play alone here (sides-missing)


def test_go_to_definition_lands_on_the_shipped_line(tmp_path: Path) -> None:
    text = FIXED + "endings:\n  drop_won:\n    payouts:\n      - id: drop-won\n        amount: 2 * stake\n"
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")

    async def body(s: Session) -> Any:
        uri = s.open(path, text)
        return await s.client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=10, character=16)))

    got = _run(tmp_path, body)
    assert isinstance(got, types.Location)
    shipped = resolve_name("standard")
    assert got.uri == from_fs_path(str(shipped.resolve()))
    line = shipped.read_text(encoding="utf-8").split("\n")[got.range.start.line]
    assert "drop-won" in line and line[got.range.start.character:].startswith("drop-won")


def test_code_action_fixes_a_misspelt_key(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(KEY_TYPO, encoding="utf-8")

    async def body(s: Session) -> Any:
        uri = s.open(path, KEY_TYPO)
        published = await s.wait_for(uri, lambda p: "schema-unknown-key" in _codes(p))
        return await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=published.diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=list(published.diagnostics))))

    actions = _run(tmp_path, body)
    assert len(actions) == 1 and actions[0].title == "Replace 'drpo' with 'drop'"
    (edit,) = next(iter(actions[0].edit.changes.values()))
    lines = KEY_TYPO.split("\n")
    row = lines[edit.range.start.line]
    lines[edit.range.start.line] = row[:edit.range.start.character] + edit.new_text + row[edit.range.end.character:]
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text("\n".join(lines), encoding="utf-8")
    assert load_ruleset(fixed).name == "Mine"


# --- the analysis behind the answers ----------------------------------------------------------

def test_inherited_finding_is_said_at_the_extends_line(tmp_path: Path) -> None:
    parent = tmp_path / "base.yaml"
    parent.write_text("extends: standard\nname: Base\ndeal_wins:\n  rules:\n    - {id: x, when: cuont > 1, pays: 1}\n",
                      encoding="utf-8")
    child = tmp_path / "child.yaml"
    text = "# my table\nextends: base.yaml\nname: Child\n"
    (found,) = analysis.findings(child, text, lint=False)
    assert found.start == (1, 0) and found.code == "expr-type"
    assert found.message.startswith("in base.yaml:5:") or "base.yaml:5:" in found.message
    assert found.related and found.related[0][1:3] == (5, 21)


def test_unsaved_parent_is_read_as_typed(tmp_path: Path) -> None:
    parent = tmp_path / "base.yaml"
    parent.write_text("extends: standard\nname: Base\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    text = "extends: base.yaml\nname: Child\n"
    assert analysis.findings(child, text, lint=False) == []
    typed = {parent: "extends: standard\nname: Base\nturn: {drpo: 1}\n"}
    (found,) = analysis.findings(child, text, lint=False, open_texts=typed)
    assert found.code == "schema-unknown-key" and found.start == (0, 0)


def test_keys_completed_from_the_schema_as_typed(tmp_path: Path) -> None:
    text = "extends: standard\nname: Mine\nturn:\n  dr\n"
    got = analysis.completions(tmp_path / "mine.yaml", text, 3, 4)
    by_label = {c.label: c for c in got}
    assert {"drop", "draw", "discard"} <= set(by_label)
    assert by_label["drop"].kind == "key" and by_label["drop"].detail


def test_names_after_a_dot_are_the_attributes_of_that_type(tmp_path: Path) -> None:
    text = MISTAKE.replace("cuont >= 49", "count < min(others.")
    labels = [c.label for c in analysis.completions(tmp_path / "mine.yaml", text, 5, 31)]
    assert "count" in labels and "hand" in labels
    assert "rank" not in labels  # a card's attribute, not a player's


def test_hover_on_a_name_says_what_it_means_there(tmp_path: Path) -> None:
    text = MISTAKE.replace("cuont >= 49", "count < min(others.count)")
    said = analysis.hover(tmp_path / "mine.yaml", text, 5, 14)
    assert said is not None and said.startswith("`count` (the player the rule is about: `actor.count`)")
    said = analysis.hover(tmp_path / "mine.yaml", text, 5, 22)
    assert said == "`min()`: the smallest number (an empty list is an error)"


def test_file_kinds() -> None:
    assert analysis.file_kind({"extends": "standard"}) == "ruleset"
    assert analysis.file_kind({"ruleset": "standard", "actions": []}) == "scenario"
    assert analysis.file_kind({"version": 2}) is None


def test_a_scenario_is_checked_as_tonk_check_does(tmp_path: Path) -> None:
    text = ("ruleset: speno\nplayers: [Ann, Bob, Cy]\nhands:\n  Ann: [AH, 2H, 3C, 4D, 5S]\n"
            "  Bob: [KH, 3D, 4C, 5H, 9H]\n  Cy: [KD, 10D, JH, 10C, 3S]\nactions: []\nexpect:\n"
            "  end: initial_tonk\n  winners: [Bob]\n")
    path = tmp_path / "hand.yaml"
    assert analysis.findings(path, text, lint=False) == []  # it loads
    (found,) = analysis.findings(path, text, lint=True)
    assert (found.code, found.start, found.message) == (
        "scenario-mismatch", (7, 0), "tonk check: winners: expected ['Bob'], got ['Ann']")
    typo = analysis.findings(path, text.replace("actions:", "actoins:"), lint=False)
    assert [(f.code, f.start, f.end) for f in typo] == [("scenario-unknown-key", (6, 0), (6, 7)),
                                                         ("scenario-missing-key", (0, 0), (0, 7))]
    assert "expect" in {c.label for c in analysis.completions(path, text + "exp", 10, 3)}
    where = analysis.definition(path, text, 0, 11)
    assert where is not None and where.file == resolve_name("speno") and where.line == 0


@pytest.mark.parametrize("text, line, fixed", [
    ("extends: standard\nname: X\nturn:\n  drpo: {allowed: true}\n", 3, "  drop: {allowed: true}"),
    ("extends: standard\nname: X\nturn:\n  drop: {allowed: true, wins_if: count < mni(others.count)}\n", 3,
     "  drop: {allowed: true, wins_if: count < min(others.count)}"),
    ("extends: standard\nname: X\nremove: [endings.drop_caught.payouts.caught-lowest-colects]\n", 2,
     "remove: [endings.drop_caught.payouts.caught-lowest-collects]"),
    ("extends: standard\nname: X\nstock: {exhausted: draw_from_empy}\n", 2, "stock: {exhausted: draw_from_empty}"),
    ("extends: standrd\nname: X\n", 0, "extends: standard"),
], ids=["key", "function", "remove", "choice", "extends"])
def test_every_did_you_mean_is_a_fix_of_the_word_it_names(tmp_path: Path, text: str, line: int, fixed: str) -> None:
    (found,) = analysis.findings(tmp_path / "x.yaml", text, lint=False)
    edit = analysis.did_you_mean_fix(text, found.start, found.end, found.message)
    assert edit is not None and edit.start[0] == line
    row = text.split("\n")[line]
    assert row[:edit.start[1]] + edit.text + row[edit.end[1]:] == fixed
