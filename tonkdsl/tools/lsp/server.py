"""``tonk lsp``: the language server, over stdio (pygls and lsprotocol, the 'lsp' extra).

It answers from :mod:`tonkdsl.tools.lsp.analysis` and only turns the answers into LSP messages:
diagnostics as the file is typed (debounced; validate first, then static lint, or for a
scenario its replay as ``tonk check`` compares it, in a worker thread so that a slow lint never
holds up typing), hover, completion, go to definition and the
quick fix of every "did you mean".
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from tonkdsl import __version__
from tonkdsl.tools.lsp import analysis
from tonkdsl.tools.lsp.analysis import Finding

# How long typing must pause before the file is checked again: short enough that the findings
# follow within a second (validate and lint of a five-card ruleset take about 0.4 s), long
# enough that a burst of keystrokes is checked once.
DEBOUNCE_SECONDS = 0.25

_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
             "note": types.DiagnosticSeverity.Information}
_KIND = {"key": types.CompletionItemKind.Property, "name": types.CompletionItemKind.Variable,
         "attribute": types.CompletionItemKind.Field, "function": types.CompletionItemKind.Function,
         "keyword": types.CompletionItemKind.Keyword, "card": types.CompletionItemKind.Constant,
         "value": types.CompletionItemKind.Value}


class TonkLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("tonk-lsp", __version__)
        self.pending: dict[str, asyncio.Task[None]] = {}
        # One worker: checks run one at a time, in the order typed, off the protocol's thread.
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tonk-lsp-check")


server = TonkLanguageServer()


# --- positions: the editor counts UTF-16 code units, Python counts characters --------------------

def _to_char(line: str, units: int) -> int:
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def _to_units(line: str, chars: int) -> int:
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in line[:chars])


def _position(lines: list[str], at: tuple[int, int]) -> types.Position:
    row = lines[at[0]] if at[0] < len(lines) else ""
    return types.Position(line=at[0], character=_to_units(row, at[1]))


def _range(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> types.Range:
    return types.Range(start=_position(lines, start), end=_position(lines, end))


def _cursor(text: str, pos: types.Position) -> tuple[int, int]:
    lines = text.split("\n")
    row = lines[pos.line] if pos.line < len(lines) else ""
    return pos.line, _to_char(row, pos.character)


def _open_texts(ls: LanguageServer, but: str) -> dict[Path, str]:
    """The other open files' unsaved texts: a file that extends an open file sees it as typed."""
    out: dict[Path, str] = {}
    for uri, doc in ls.workspace.text_documents.items():
        path = to_fs_path(uri)
        if uri != but and path is not None and uri.startswith("file:"):
            out[Path(path)] = doc.source
    return out


def _doc(ls: LanguageServer, uri: str) -> tuple[Path, str] | None:
    path = to_fs_path(uri)
    if path is None or not uri.startswith("file:"):
        return None
    return Path(path), ls.workspace.get_text_document(uri).source


# --- diagnostics --------------------------------------------------------------------------------

def _diagnostic(lines: list[str], f: Finding) -> types.Diagnostic:
    related = []
    for file, line, col, message in f.related:
        target = Path(file)
        if target.is_file():
            at = types.Position(line=max(line - 1, 0), character=max(col - 1, 0))
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=from_fs_path(str(target.resolve())) or "", range=types.Range(start=at, end=at)),
                message=message))
    return types.Diagnostic(range=_range(lines, f.start, f.end), message=f.message, severity=_SEVERITY.get(
        f.severity, types.DiagnosticSeverity.Information), code=f.code, source="tonk",
        related_information=related or None)


def _publish(ls: LanguageServer, uri: str, version: int | None, text: str, found: list[Finding]) -> None:
    lines = text.split("\n")
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, version=version, diagnostics=[_diagnostic(lines, f) for f in found]))


async def _check(ls: TonkLanguageServer, uri: str, delay: float) -> None:
    await asyncio.sleep(delay)
    opened = _doc(ls, uri)
    if opened is None:
        return
    path, text = opened
    version = ls.workspace.get_text_document(uri).version
    others = _open_texts(ls, uri)
    loop = asyncio.get_running_loop()

    def current() -> bool:
        return ls.workspace.get_text_document(uri).version == version

    quick = await loop.run_in_executor(ls.worker, partial(analysis.findings, path, text, lint=False,
                                                          open_texts=others))
    if not current():
        return
    _publish(ls, uri, version, text, quick)
    if any(f.severity == "error" for f in quick) or analysis.file_kind(analysis.safe_data(text)) is None:
        return  # lint reads valid rulesets (and a scenario is replayed) only: what validate said is all there is
    full = await loop.run_in_executor(ls.worker, partial(analysis.findings, path, text, lint=True,
                                                         open_texts=others))
    if current():
        _publish(ls, uri, version, text, full)


def _schedule(ls: TonkLanguageServer, uri: str, delay: float) -> None:
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.pending[uri] = asyncio.ensure_future(_check(ls, uri, delay))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: TonkLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    _schedule(ls, params.text_document.uri, 0.0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: TonkLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    _schedule(ls, params.text_document.uri, DEBOUNCE_SECONDS)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: TonkLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    _schedule(ls, params.text_document.uri, 0.0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TonkLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    task = ls.pending.pop(params.text_document.uri, None)
    if task is not None:
        task.cancel()
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


# --- hover, completion, definition, code actions ------------------------------------------------

def _asked(ls: TonkLanguageServer, params: types.HoverParams | types.CompletionParams | types.DefinitionParams
           ) -> tuple[Any, ...] | None:
    """The arguments of an analysis question at the cursor: path, text, line, column, open files."""
    opened = _doc(ls, params.text_document.uri)
    if opened is None:
        return None
    path, text = opened
    line, col = _cursor(text, params.position)
    return path, text, line, col, _open_texts(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: TonkLanguageServer, params: types.HoverParams) -> types.Hover | None:
    asked = _asked(ls, params)
    said = None if asked is None else analysis.hover(*asked)
    if said is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=said))


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[".", " ", "("]))
def completion(ls: TonkLanguageServer, params: types.CompletionParams) -> types.CompletionList:
    asked = _asked(ls, params)
    found = [] if asked is None else analysis.completions(*asked)
    items = [types.CompletionItem(label=c.label, kind=_KIND.get(c.kind), detail=c.detail or None,
                                  sort_text=f"{i:04d}") for i, c in enumerate(found)]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: TonkLanguageServer, params: types.DefinitionParams) -> types.Location | None:
    asked = _asked(ls, params)
    found = None if asked is None else analysis.definition(*asked)
    if found is None:
        return None
    target = found.file.read_text(encoding="utf-8").split("\n")
    at = _position(target, (found.line, found.col))
    return types.Location(uri=from_fs_path(str(found.file.resolve())) or "", range=types.Range(start=at, end=at))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_action(ls: TonkLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    opened = _doc(ls, params.text_document.uri)
    if opened is None:
        return []
    _, text = opened
    lines = text.split("\n")
    actions = []
    for d in params.context.diagnostics:
        if d.source != "tonk":
            continue
        start, end = _cursor(text, d.range.start), _cursor(text, d.range.end)
        edit = analysis.did_you_mean_fix(text, start, end, d.message)
        if edit is None:
            continue
        change = types.TextEdit(range=_range(lines, edit.start, edit.end), new_text=edit.text)
        actions.append(types.CodeAction(title=edit.title, kind=types.CodeActionKind.QuickFix, diagnostics=[d],
                                        is_preferred=True,
                                        edit=types.WorkspaceEdit(changes={params.text_document.uri: [change]})))
    return actions


def run(**_: Any) -> None:
    """Serve one editor over stdin and stdout until it says exit."""
    server.start_io()
