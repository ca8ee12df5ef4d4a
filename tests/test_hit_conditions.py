"""hits.allowed reads the cards of a hit (issue 76): 'spread' is the spread as the hit leaves it,
'hit' the cards hit. The hits offered are exactly those the condition lets through, a hit it
refuses says why, and the check holds for slaps and for a discard that must go into a spread."""
from __future__ import annotations

import pytest

from tonkdsl import load_ruleset
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction
from conftest import TESTS
from legality import check_hand
from test_turn_flow import placed

RULES = TESTS / "variations" / "x76-hits-see-the-cards.yaml"


def _after_anns_spread():
    state = placed(RULES, 2, {0: ["7S", "7H", "2C", "KD", "9H"], 1: ["7D", "2D", "QC", "QS", "5H"]}, dealer=1)
    state.apply("draw stock")
    state.apply("spread 7S 7H 2C")  # two naturals and a wild card
    state.apply(f"discard {state.pack.names[state.hands[0][-1]]}")
    state.apply("draw stock")
    return state


def test_a_hit_that_would_leave_as_many_wild_cards_as_naturals_is_not_offered_and_is_refused() -> None:
    state = _after_anns_spread()
    hits = {str(a) for a in state.legal_actions() if isinstance(a, A.Hit)}
    assert "hit 7D on 1" in hits  # three naturals, one wild card
    assert not any(h.startswith("hit 2D") for h in hits)  # two of each: refused
    with pytest.raises(IllegalAction, match=r"you may not hit spread 1 now \(the ruleset's hit condition "
                                            r"'count\(spread where is_wild\) < count\(spread where not is_wild\)' "
                                            r"is false\)"):
        state.apply("hit 2D on 1")
    state.apply("hit 7D on 1")
    assert [state.pack.names[c] for c in state.spreads[0].cards].count("7D") == 1


def test_the_name_hit_is_the_cards_hit(tmp_path) -> None:
    rules = tmp_path / "one-card.yaml"
    rules.write_text(f"extends: {RULES}\nname: One card a hit\nhits:\n  allowed: \"count(hit) == 1\"\n")
    rs = load_ruleset(rules, allow_paths=[TESTS])
    assert rs.hit_allowed is not None and rs.hit_allowed.names_used >= {"hit"}
    state = placed(rules, 2, {0: ["7S", "7H", "7C", "KD", "9H"], 1: ["8S", "9S", "10S", "JS", "QS"]}, dealer=1)
    state.apply("draw stock")
    state.apply("spread 7S 7H 7C")
    state.apply(f"discard {state.pack.names[state.hands[0][-1]]}")
    state.apply("draw stock")
    state.apply("spread 8S 9S 10S")
    hits = {str(a) for a in state.legal_actions() if isinstance(a, A.Hit)}
    assert "hit JS on 2" in hits and all(len(h.split()) == 4 for h in hits)  # one card a hit
    with pytest.raises(IllegalAction, match="hit condition 'count\\(hit\\) == 1' is false"):
        state.apply("hit JS QS on 2")


@pytest.mark.parametrize("seed", range(30))
def test_every_hand_ends_with_a_legal_action_at_each_step_and_each_offered_hit_applies(seed: int) -> None:
    check_hand(load_ruleset(RULES), 3, seed)


def test_a_joker_is_not_taken_beside_its_twin_when_the_twin_could_then_go_nowhere() -> None:
    """Found by the property test: Bob holds one joker and the discard is the other. Neither may
    be discarded after the draw (not the card taken, nor its twin), so he must play both out;
    the taken joker fits spread 2 (2 wild cards to 3 naturals), but then its twin fits nowhere
    (3 to 3). Taking the discard is refused, and the hand plays on to its end."""
    from test_properties import play, ruleset

    state, history = play(ruleset(RULES), 2, 3_210_233_709, 68, True)
    assert state.is_terminal() and "1 draw discard" not in history[-2:]
