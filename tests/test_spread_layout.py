"""A spread as a player lays it out (MeldRules.layout, shown at the `tonk serve` table): a run in
its order with each wild card where it stands and the card it replaces, a book with its wild
cards as the book's rank. Exact examples, then every spread of random hands with wild cards."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings, strategies as st

from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import deal
from tonkdsl.interpreter.melds import RUN, MeldRules
from conftest import TESTS

WRAPPING_WILD = """
extends: chicago
name: Chicago, runs turn the corner
pack:
  run_wraps: true
"""


def _melds(ref: str | Path) -> MeldRules:
    return deal(load_ruleset(ref), 2, seed=1).melds


def _laid(m: MeldRules, *names: str) -> list[tuple[str, str | None]]:
    taken: list[int] = []
    for n in names:
        taken.append(m.pack.find(n, taken))
    return [(m.pack.names[c], stands) for c, stands in m.layout(taken)]


def test_wild_cards_stand_where_they_replace_a_card() -> None:
    m = _melds("chicago")  # the 2s and two jokers are wild
    assert _laid(m, "3H", "2H", "5H") == [("3H", None), ("2H", "4H"), ("5H", None)]
    assert _laid(m, "2S", "3H", "4H") == [("3H", None), ("4H", None), ("2S", "5H")]  # above while the order lasts
    assert _laid(m, "KH", "QH", "2C") == [("2C", "JH"), ("QH", None), ("KH", None)]  # below at its top
    assert _laid(m, "3H", "2H", "JK", "6H") == [("3H", None), ("2H", "4H"), ("JK", "5H"), ("6H", None)]
    assert _laid(m, "AH", "2H", "3H") == [("AH", None), ("2H", "2H"), ("3H", None)]  # a wild deuce as itself
    assert _laid(m, "7S", "7H", "2D") == [("7S", None), ("7H", None), ("2D", "7")]  # a book: the rank
    assert _laid(m, "5S", "5H", "5D") == [("5S", None), ("5H", None), ("5D", None)]  # nothing wild: as laid


def test_a_run_that_turns_the_corner_starts_where_it_starts(tmp_path: Path) -> None:
    f = tmp_path / "wrap.yaml"
    f.write_text(WRAPPING_WILD.replace("extends: chicago", f"extends: {TESTS.parent / 'rulesets' / 'chicago.yaml'}"))
    m = _melds(f)
    assert _laid(m, "AH", "KH", "2S") == [("KH", None), ("AH", None), ("2S", "2H")]
    assert _laid(m, "QH", "AH", "JK") == [("QH", None), ("JK", "KH"), ("AH", None)]


@st.composite
def _hands(draw: Any) -> list[int]:
    return draw(st.lists(st.integers(0, 53), min_size=7, max_size=9, unique=True))


@settings(max_examples=80)
@given(_hands())
def test_every_spread_laid_out_is_its_cards_with_each_wild_card_named(hand: list[int]) -> None:
    m = _melds("chicago")
    pack = m.pack
    hand = [c for c in hand if c < len(pack)]
    for combo in m.spreads_in(hand):
        laid = m.layout(combo)
        assert sorted(c for c, _ in laid) == sorted(combo)
        naturals = [c for c in combo if not m.wild[c]]
        if not naturals or all(not m.wild[c] for c in combo):
            assert all(stands is None for _, stands in laid)
            continue
        assert all((stands is None) == (not m.wild[c]) for c, stands in laid)
        if m.kind(combo) == RUN:  # as the engine reads the spread (a book first when it is both)
            # The run read with each wild card as what it stands for: one suit, places in a row.
            shown = [pack.names[c] if stands is None else stands for c, stands in laid]
            suits = {name[-1] for name in shown}
            places = [pack.run_places[pack.find(name)][0] for name in shown]
            assert len(suits) == 1 and places == list(range(places[0], places[0] + len(places)))
        else:
            assert {stands for _, stands in laid if stands} == {pack.ranks[naturals[0]]}


def test_the_terminal_shows_a_wild_card_where_it_stands() -> None:
    import io

    from tonkdsl.interpreter import actions as A
    from tonkdsl.interpreter.view import observation
    from tonkdsl.tools.screen import Screen

    # The first hand of a Chicago table of two with seed 6 (test_serve's): the player to move
    # draws and spreads JD KD with the 2H.
    state = deal(load_ruleset("chicago"), 2, seed=3207296026000306913, dealer=0)
    mover = state.current_player()
    state.apply(A.parse_action("draw stock"), player=mover)
    state.apply(A.parse_action("spread JD KD 2H"), player=mover)
    out = io.StringIO()
    Screen(out, colour=False).show_turn(observation(state, mover), ["Ann", "Bob"], state.legal_actions(), [0, 0],
                                        None)
    assert f"  spread 1 ({['Ann', 'Bob'][mover]}): JD 2H=QD KD" in out.getvalue().splitlines()
