"""The player to move's own actions, step by step (turn.in_turn, issue 30): each rule narrows an
action at a step of the turn, the refusal quotes it, taking the action names it in the rules
fired, and a ruleset without such rules plays exactly as before."""
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from tonkdsl.interpreter.rules.in_turn import InTurn
from tonkdsl import load_ruleset
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction, State
from conftest import TESTS
from legality import check_hand
from test_turn_flow import placed

VAR = TESTS / "variations"
STEPS = VAR / "x30-in-turn-steps.yaml"
COMBO = VAR / "combo-in-turn-eat-claim.yaml"


def to_top(state: State, *names: str) -> None:
    """Put these cards on top of the stock, the first drawn first."""
    for name in reversed(names):
        card = next(c for c in state.stock if state.pack.names[c] == name)
        state.stock.remove(card)
        state.stock.append(card)


def kinds(state: State) -> set[type]:
    return {type(a) for a in state.legal_actions()}


def play_round(state: State) -> None:
    """Each player draws from the stock and discards the card drawn, once round the table."""
    for _ in range(state.num_players):
        state.apply("draw stock")
        state.apply(A.Discard(state.pack.names[state.hands[state.current][-1]]))


def test_a_drop_before_drawing_is_offered_on_the_first_turn_only() -> None:
    state = placed(STEPS, 3, {0: ["AH", "2C", "3D", "4S", "5D"]})
    assert A.Drop in kinds(state)  # 15, and her first turn
    play_round(state)
    assert state.current == 0 and state.count(0) == 15
    assert A.Drop not in kinds(state)
    with pytest.raises(IllegalAction) as exc:
        state.apply("drop")
    assert str(exc.value) == ("you may not drop now (the ruleset's rule 'tonk-before-drawing-first-turn-only': "
                              "'turns == 1' is false)")
    state.apply("draw stock")  # after the draw the knock is offered (before the discard)
    assert A.Drop in kinds(state)


def test_the_discard_is_taken_only_from_the_second_round() -> None:
    state = placed(STEPS, 2, {0: ["9H", "9C", "3D", "KS", "QD"]})
    assert A.DrawDiscard not in kinds(state) and A.DrawStock in kinds(state)
    assert state.why_illegal(A.DrawDiscard()) == ("you may not take the discard now (the ruleset's rule "
                                                  "'no-pickup-first-round': 'round >= 2' is false)")
    play_round(state)
    assert state.round_number == 2 and A.DrawDiscard in kinds(state)


def test_a_spread_rule_reads_the_spread_books_now_runs_later() -> None:
    state = placed(STEPS, 2, {0: ["5H", "6H", "8C", "8D", "KS"]})
    to_top(state, "7H")
    state.apply("draw stock")  # 7H: the run 5H 6H 7H, no book yet
    spreads = [a for a in state.legal_actions() if isinstance(a, A.Spread)]
    assert spreads == []
    assert state.why_illegal(A.Spread(("5H", "6H", "7H"))) == (
        "you may not lay a spread now (the ruleset's rule 'runs-from-round-two': 'is_book(spread) or round >= 2' "
        "is false)")
    state.apply("discard KS")
    state.apply("draw stock")  # Bob's turn: he throws the card he drew
    state.apply(A.Discard(state.pack.names[state.hands[1][-1]]))
    state.apply("draw stock")  # Ann's second turn: round 2, runs may be laid
    assert A.Spread(("5H", "6H", "7H")) in state.legal_actions()


def test_a_refused_action_leaves_the_hand_as_it_was() -> None:
    state = placed(STEPS, 3, {0: ["AH", "2C", "3D", "4S", "5D"]})
    play_round(state)
    before = state.clone()
    with pytest.raises(IllegalAction):
        state.apply("drop")
    assert (state.hands, state.stock, state.rules_taken, state.phase) == (
        before.hands, before.stock, before.rules_taken, before.phase)


def test_an_action_a_rule_guards_is_named_in_the_rules_fired() -> None:
    state = placed(STEPS, 3, {0: ["AH", "2C", "3D", "4S", "5D"]})
    state.apply("drop")
    out = state.outcome()
    assert out is not None and "tonk-before-drawing-first-turn-only" in out.fired
    assert "no-pickup-first-round" not in out.fired


def test_a_hit_rule_reads_the_owner_of_the_spread() -> None:
    state = placed(COMBO, 2, {0: ["5H", "6H", "7H", "KC", "QD"], 1: ["8H", "2S", "3S", "9D", "JC"]})
    to_top(state, "AC", "4D")
    state.apply("draw stock")
    state.apply("spread 5H 6H 7H")
    state.apply("discard KC")
    state.apply("draw stock")  # Bob draws: nobody eats KC
    assert not any(isinstance(a, A.Hit) for a in state.legal_actions())  # Ann's run, in round 1
    assert state.why_illegal(A.Hit(("8H",), 1)) == (
        "you may not hit spread 1 now (the ruleset's rule 'own-spreads-first-round': 'owner == actor or "
        "round >= 2' is false)")


def test_a_claim_rule_holds_the_bonus_back_until_its_condition() -> None:
    state = placed(COMBO, 2, {0: ["AH", "AC", "AD", "KS", "QD"]})
    to_top(state, "9C")
    state.apply("draw stock")
    assert A.Claim not in kinds(state)  # three aces, but no spread laid yet
    assert state.why_illegal(A.Claim()) == (
        "you may not claim now (the ruleset's rule 'call-aces-after-a-spread': 'spreads >= 1' is false)")


@pytest.mark.parametrize("ref", ["standard", "seattle", VAR / "x15-knock-before-discard.yaml"])
def test_without_rules_of_the_turn_no_action_is_guarded(ref: Any) -> None:
    rs = load_ruleset(ref)
    assert InTurn.build(rs) is None and State(rs, 2, 0, 1).melds.guards == {}


def test_a_card_that_must_be_spread_at_once_is_not_offered_where_a_rule_forbids_the_spread(write: Any) -> None:
    base = f"""extends: {TESTS.parent / 'rulesets' / 'standard.yaml'}
name: Use the discard at once
turn:
  draw: {{discard_must_be_used: true}}
"""
    rule = """  in_turn:
    - {id: spreads-from-round-two, do: spread, at: [after_draw], when: round >= 2}
"""
    offered = {}
    for name, text in (("plain", base), ("ruled", base + rule)):
        state = placed(write(f"{name}.yaml", text), 2, {0: ["5H", "6H", "9C", "KS", "QD"]})
        at = next(i for i, c in enumerate(state.stock) if state.pack.names[c] == "7H")
        state.discard_pile.append(state.stock.pop(at))
        offered[name] = A.DrawDiscard in kinds(state)
    # 7H makes the run 5H 6H 7H; where no spread may be laid in the first round, taking it would
    # leave Ann holding a card she must spread and cannot: it is not offered.
    assert offered == {"plain": True, "ruled": False}


# Rules of turn.in_turn drawn at random over rulesets whose turns differ (a card taken that must
# be spread at once, a knock after the draw, a bonus paid on claim, eating): a legal action
# exists until the hand ends and every legal action applies (tests/legality.py).
_BASES = ["v15-discard-must-be-used.yaml", "x15-knock-before-discard.yaml", "x30-claim-bonus.yaml",
          "x15-eating.yaml", "v14-hit-ends-turn.yaml"]
_CONDITIONS = ["round >= 2", "turns % 2 == 1", "count <= 20", "spreads >= 1", "stock >= 20", "false"]
_STEP_KINDS = [("turn_start", "drop"), ("turn_start", "draw_discard"), ("turn_start", "claim"),
               ("after_draw", "spread"), ("after_draw", "hit"), ("after_draw", "drop"), ("after_draw", "claim")]


@settings(max_examples=150)
@given(base=st.sampled_from(_BASES),
       rules=st.lists(st.tuples(st.sampled_from(_STEP_KINDS), st.sampled_from(_CONDITIONS)), min_size=1, max_size=4),
       seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_rules_of_the_turn_keep_every_hand_playable(tmp_path_factory: Any, base: str, rules: list[Any],
                                                           seed: int, players: int) -> None:
    lines = [f"extends: {VAR / base}", "name: Random rules of the turn", "turn:", "  in_turn:"]
    for j, ((at, do), when) in enumerate(rules):
        lines.append(f"    - {{id: r{j}, do: {do}, at: [{at}], when: '{when}'}}")
    path = tmp_path_factory.mktemp("in_turn") / "rules.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rs = load_ruleset(path)
    for hand in range(5):  # several hands a ruleset: a ruleset is the costly draw
        assert list(check_hand(rs, players, (seed + hand) % 2**32)) == [], hand


def test_an_eater_is_asked_about_the_turn_they_will_play_in(write: Any) -> None:
    # Spreads only on one's first turn: Cy has had no turn yet when Ann discards 7H, and eating
    # it gives her her first: the rule is read as it will be when she plays, so she may eat it
    # for 5H 6H 7H (asked before the eat, turns == 0 would refuse it).
    path = write("eat-first.yaml", f"""extends: {VAR / 'x15-eating.yaml'}
name: Eat to spread on your first turn only
turn:
  in_turn:
    - {{id: spreads-first-turn, do: spread, at: [after_draw], when: turns == 1}}
""")
    state = placed(path, 3, {0: ["7H", "9C", "KS", "QD", "JD"], 2: ["5H", "6H", "2C", "KC", "QC"]})
    state.apply("draw stock")
    state.apply("discard 7H")
    assert A.Eat in {type(a) for a in state.legal_actions(2)}
    state.apply("eat", 2)
    assert state.current == 2 and A.Spread(("5H", "6H", "7H")) in state.legal_actions()
