"""digging (issue 76, other turn shapes): Rummy 500's dig, one module (tonkdsl/interpreter/rules/
digging.py). A card under the top of the discard pile is offered only where it can be played at
once; the cards above it come with it; the card dug for is played first; every hand ends, and
every offered action applies, alone and with the other recipes."""
from __future__ import annotations

import pytest

from tonkdsl import load_ruleset
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction
from tonkdsl.interpreter.rules.digging import Dig
from conftest import TESTS
from legality import check_hand
from tonkdsl.tools.scenario import load_scenario

RULES = TESTS / "variations" / "x76-digging.yaml"
GOLDEN = TESTS / "scenarios" / "x76-dig-for-the-nine.yaml"


def _before_the_dig():
    """The golden hand up to Ann's dig: the pile holds 9S, 4D, 5C (top)."""
    scn = load_scenario(GOLDEN)
    state = scn.new_state()
    for line in ("draw stock", "discard 4D", "draw stock", "discard 5C"):
        state.apply(line)
    return state


def test_only_a_card_that_can_be_played_at_once_is_offered() -> None:
    state = _before_the_dig()
    assert [a for a in state.legal_actions() if isinstance(a, Dig)] == [Dig("9S")]  # the 4D makes nothing
    with pytest.raises(IllegalAction) as refused:
        state.apply("dig 4D")
    assert str(refused.value) == "you may not dig for 4D: you could not play it at once"
    with pytest.raises(IllegalAction) as top:
        state.apply("dig 5C")
    assert str(top.value) == "5C is the top discard: take it with 'draw discard'"


def test_the_cards_above_come_along_and_the_card_dug_for_is_played_first() -> None:
    state = _before_the_dig()
    state.apply("dig 9S")
    names = sorted(state.pack.names[c] for c in state.hands[0])
    assert names == ["2H", "4D", "5C", "7S", "8S", "9S", "KD", "QC"] and state.discard_pile == []
    assert [str(a) for a in state.legal_actions()] == ["spread 7S 8S 9S"]
    with pytest.raises(IllegalAction) as refused:
        state.apply("discard KD")
    assert str(refused.value) == "play the 9S you dug for first: in a spread, or onto one"
    state.apply("spread 7S 8S 9S")
    assert any(isinstance(a, A.Discard) for a in state.legal_actions())


def test_a_dig_never_takes_more_than_the_ruleset_says() -> None:
    rs = load_ruleset(RULES)
    for seed in range(60):
        from tonkdsl.interpreter.engine import deal

        state = deal(rs, 3, seed=seed, dealer=0)
        while not state.is_terminal():
            legal = state.legal_actions()
            for a in legal:
                if isinstance(a, Dig):
                    pile = [state.pack.names[c] for c in state.discard_pile]
                    depth = len(pile) - max(i for i, n in enumerate(pile) if n == a.card)
                    assert depth <= 4 and len(state.hands[state.current]) + depth <= 13
            state.apply(next((a for a in legal if isinstance(a, Dig)), legal[seed % len(legal)]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_hand_ends_and_every_offered_action_applies(players: int) -> None:
    rs = load_ruleset(RULES)
    for seed in range(40):
        for bot in ("random", "greedy"):
            assert list(check_hand(rs, players, seed, bot=bot)) == []
