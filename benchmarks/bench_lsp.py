"""How fast `tonk lsp` follows typing: seconds from an edit to the findings of validate and lint.

    python benchmarks/bench_lsp.py [--edits 10] [--ruleset standard]

Starts `python -m tonkdsl lsp`, opens a five-card ruleset extending RULESET, and alternately
breaks and mends a deal win's condition; for each edit, the time until the server publishes
the findings of that version (validate's error for the broken one, lint's findings for the
mended one). Prints each, then the median and the worst. Needs the 'lsp' extra.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

GOOD = "extends: {base}\nname: Bench\ndeal_wins:\n  rules:\n    - id: big\n      when: count >= 49\n      pays: stake\n"


async def run(edits: int, base: str) -> None:
    published: list[types.PublishDiagnosticsParams] = []
    client = LanguageClient("bench", "1")

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def got(params: types.PublishDiagnosticsParams) -> None:
        published.append(params)

    async def wait(version: int, code_wanted: str | None) -> None:
        while True:
            for p in published:
                codes = [d.code for d in p.diagnostics]
                if p.version == version and (code_wanted in codes if code_wanted else "expr-type" not in codes):
                    if code_wanted or any(d.source == "tonk" for d in p.diagnostics) or not p.diagnostics:
                        return
            await asyncio.sleep(0.005)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.yaml"
        good = GOOD.format(base=base)
        bad = good.replace("count >= 49", "cuont >= 49")
        path.write_text(good, encoding="utf-8")
        await client.start_io(sys.executable, "-m", "tonkdsl", "lsp")
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
        client.initialized(types.InitializedParams())
        uri = from_fs_path(str(path)) or ""
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=good)))
        await wait(1, None)
        times: list[float] = []
        for version in range(2, edits + 2):
            broken = version % 2 == 1
            published.clear()
            start = time.monotonic()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=bad if broken else good)]))
            # The mended file's last message is lint's (after validate's): wait for the lint one.
            await wait(version, "expr-type" if broken else None)
            if not broken:
                while not any(p.version == version and p.diagnostics for p in published):
                    await asyncio.sleep(0.005)
            times.append(time.monotonic() - start)
            print(f"edit {version - 1:>2} ({'broken' if broken else 'mended'}): findings after {times[-1]:.2f} s")
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    print(f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s over {len(times)} edits "
          f"(0.25 s of it is the pause the server waits for before checking)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--ruleset", default="standard", help="the shipped ruleset the file extends")
    args = parser.parse_args()
    asyncio.run(run(args.edits, args.ruleset))


if __name__ == "__main__":
    main()
