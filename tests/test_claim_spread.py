"""A claimable bonus that reads the spread just laid (issue 76, item 10): in a bonus on claim,
'spread' is the spread the claimant laid last this turn, as it is now; counters on spread_laid
and spread_hit read 'spread' too; elsewhere 'spread' is refused where it is written."""
from __future__ import annotations

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import IllegalAction
from tonkdsl.language.diagnostics import LoadError
from tonkdsl.tools.scenario import load_scenario

RULES = TESTS / "variations" / "x76-claim-the-spread.yaml"
GOLDEN = TESTS / "scenarios" / "x76-claim-the-four-just-laid.yaml"


def _after_the_draw():
    scn = load_scenario(GOLDEN)
    state = scn.new_state()
    state.apply("draw stock")
    return state


def test_the_claim_is_offered_once_the_four_are_laid_and_pays_at_once() -> None:
    state = _after_the_draw()
    assert "claim" not in [str(a) for a in state.legal_actions()]  # the kings are in hand, not laid
    with pytest.raises(IllegalAction) as early:
        state.apply("claim")
    assert str(early.value) == "there is nothing to claim now"
    state.apply("spread KS KH KD KC")
    assert "claim" in [str(a) for a in state.legal_actions()]
    state.apply("claim")
    assert [(p.rule, p.payer, p.payee, p.amount) for p in state.paid] == [("four-of-a-kind", 1, 0, 1)]


def test_a_spread_laid_in_an_earlier_turn_is_not_claimed_later() -> None:
    state = _after_the_draw()
    state.apply("spread KS KH KD KC")
    for line in ("discard 3C", "draw stock", "discard 8S", "draw stock"):
        state.apply(line)
    assert "claim" not in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalAction) as late:
        state.apply("claim")
    assert str(late.value) == "there is nothing to claim now"


def _load(tmp_path, text: str):
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path, allow_paths=[TESTS.parent / "rulesets"])


def test_a_counter_on_spread_laid_reads_the_spread(tmp_path) -> None:
    rs = _load(tmp_path, """
extends: standard
name: Books laid
counters:
  books:
    initial: 0
    events:
      - {on: spread_laid, target: actor, when: "is_book(spread)", add: 1}
""")
    scn = load_scenario(GOLDEN)
    scn.ruleset = rs
    state = scn.new_state()
    state.apply("draw stock")
    state.apply("spread KS KH KD KC")
    assert state.counters["books"] == [1, 0]


@pytest.mark.parametrize("on", ["drew", "discarded", "turn_start"])
def test_spread_is_refused_where_there_is_no_spread(tmp_path, on: str) -> None:
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, f"""
extends: standard
name: No spread here
bonuses:
  - {{id: four, on: {on}, when: "count(spread) == 4", from: others, to: actor, amount: stake}}
""")
    assert "'spread' is not known here" in str(refused.value)


@pytest.mark.parametrize("seed", range(40))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    rs = load_ruleset(RULES)
    assert list(check_hand(rs, 2 + seed % 3, seed)) == []
