"""The spreads lint lists (lint/spreads.py) are exactly those the engine's meld rules allow."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from tonkdsl.interpreter.melds import table_for
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools.lint import lint
from tonkdsl.tools.lint.spreads import Spreads

LINT = Path(__file__).parent / "lint"


def _by_names(rs: Ruleset, spreads: tuple[tuple[int, ...], ...]) -> set[tuple[str, ...]]:
    names = rs.pack.names
    return {tuple(sorted(names[c] for c in sp)) for sp in spreads}


@pytest.mark.parametrize("name", ["standard", "chicago"])
def test_listed_spreads_are_every_spread_of_up_to_four_cards(name: str) -> None:
    # Every set of at most 4 cards the engine accepts as a book or a run is listed, and nothing
    # else is (chicago: wild deuces and jokers, min_natural and max_wild at their defaults).
    rs = load_ruleset(name)
    pack, melds = table_for(rs, 2)
    brute = set()
    for k in range(2, 5):
        for combo in combinations(range(len(pack)), k):
            if melds.is_book(combo) or melds.is_run(combo):
                brute.add(tuple(sorted(pack.names[c] for c in combo)))
    listed, _ = Spreads(rs, held=4).spreads(2)
    assert _by_names(rs, listed) == brute


def test_a_book_of_five_needs_two_decks() -> None:
    one = Spreads(load_ruleset("standard"))
    got, words = one.profiles(2, ["is_book(spread)", "count(spread)"])
    assert max(n for book, n in got if book) == 4
    assert "books of 3 to 4 cards" in words
    two = Spreads(load_ruleset(str(LINT / "clean" / "five-of-a-kind-two-decks.yaml")))
    got, _ = two.profiles(2, ["is_book(spread)", "count(spread)"])
    assert (True, 5) in got


def test_a_hit_spread_is_of_a_kind_hits_allow() -> None:
    rs = load_ruleset(str(LINT / "bonus-hit-book.yaml"))
    got, words = Spreads(rs, hit=True).profiles(2, ["is_book(spread)", "count(spread)"])
    assert {book for book, _ in got} == {False}
    assert min(n for _, n in got) == 4  # a run of 3 just hit holds 4
    assert "hits: books false" in words


def test_a_possible_spread_bonus_is_not_flagged_and_an_impossible_one_says_why() -> None:
    diags = lint(LINT / "bonus-five-of-a-kind.yaml").diagnostics
    never = [d for d in diags if d.code == "condition-never"]
    assert len(never) == 1 and never[0].line == 7
    assert "books of 3 to 4 cards" in never[0].message
    assert not [d for d in lint(LINT / "clean" / "five-of-a-kind-two-decks.yaml").diagnostics if d.severity != "note"]
