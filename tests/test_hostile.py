"""Hostile and broken input, third round (issue 28): every limit is checked before anything is
built, and what a file says never takes the program past its documented limits."""
from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl import LoadError, load_ruleset
from tonkdsl.cli import main
from tonkdsl.language.cards import MAX_PACK_CARDS, Pack


@pytest.mark.parametrize("pack, words", [
    ("decks: 100000", "'decks' must be at most 4, not 100000"),
    ("jokers: 18446744073709551616\n  values: {JK: 0}", "'jokers' must be at most 8, not 18446744073709551616"),
])
def test_a_pack_past_its_limits_is_refused_before_it_is_built(write, pack: str, words: str) -> None:
    path = write("big.yaml", f"extends: standard\nname: Big\npack:\n  {pack}\n")
    tracemalloc.start()
    try:
        with pytest.raises(LoadError) as exc:
            load_ruleset(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [d.code for d in exc.value.diagnostics] == ["schema-range"]
    assert words in exc.value.diagnostics[0].message
    assert peak < 20_000_000  # 100,000 decks built took 1.26 GB


def test_the_pack_itself_refuses_to_grow_past_its_limit() -> None:
    with pytest.raises(ValueError, match=f"more than {MAX_PACK_CARDS} \\(MAX_PACK_CARDS\\)"):
        Pack.build(["A"] * 13, ["C", "D", "H", "S"], 8, {"A": 1, "JK": 0}, ["A"], [], decks=5)
