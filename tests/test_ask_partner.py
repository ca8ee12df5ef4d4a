"""Asking one's partner before a drop (issue 76, other actions out of turn), one module
(tonkdsl/interpreter/rules/ask_partner.py): 'ask' is offered where the drop is, once a turn; the
partner alone is asked and nobody else may act meanwhile; yes makes the drop at once, no or a pass
forbids it this turn; with required, a drop needs a yes. Every hand ends and every offered action
applies."""
from __future__ import annotations

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import IllegalAction
from tonkdsl.tools.scenario import load_scenario

RULES = TESTS / "variations" / "x76-ask-partner.yaml"
GOLDEN = TESTS / "scenarios" / "x76-partner-says-yes.yaml"


def _state():
    return load_scenario(GOLDEN).new_state()


def test_the_question_is_offered_where_the_drop_is() -> None:
    state = _state()
    plays = [str(a) for a in state.legal_actions()]
    assert "ask" in plays and "drop" in plays


def test_only_the_partner_answers_and_nobody_else_acts_meanwhile() -> None:
    state = _state()
    state.apply("ask")
    assert state.current_player() == 2  # Cat
    assert [str(a) for a in state.legal_actions()] == ["yes", "no", "pass"]
    with pytest.raises(IllegalAction) as asker:
        state.apply("drop", player=0)
    assert str(asker.value) == "it is not your turn: out of turn you may play only an answer you are offered"
    with pytest.raises(IllegalAction):
        state.apply("yes", player=1)  # Bob is not asked


@pytest.mark.parametrize("answer", ["no", "pass"])
def test_no_or_a_pass_forbids_the_drop_this_turn(answer: str) -> None:
    state = _state()
    state.apply("ask")
    state.apply(answer)
    assert state.current_player() == 0 and not state.is_terminal()
    plays = [str(a) for a in state.legal_actions()]
    assert "drop" not in plays and "ask" not in plays and "draw stock" in plays
    with pytest.raises(IllegalAction) as refused:
        state.apply("drop")
    assert str(refused.value) == "your partner said no: you may not drop this turn"


def test_the_answer_binds_only_this_turn() -> None:
    state = _state()
    for line in ("ask", "no", "draw stock", "discard 10C"):
        state.apply(line)
    for _ in range(3):  # Bob, Cat and Dan draw and throw what they drew
        state.apply("draw stock")
        state.apply(f"discard {state.pack.names[state.hands[state.current][-1]]}")
    assert state.current_player() == 0 and "ask" in [str(a) for a in state.legal_actions()]


def test_required_a_drop_needs_a_yes(tmp_path) -> None:
    path = tmp_path / "required.yaml"
    path.write_text(f"extends: {RULES}\nname: Only with a yes\nturn:\n  drop:\n    ask_partner: {{required: true}}\n",
                    encoding="utf-8")
    scn = load_scenario(GOLDEN)
    scn.ruleset = load_ruleset(path, allow_paths=[TESTS])
    state = scn.new_state()
    plays = [str(a) for a in state.legal_actions()]
    assert "ask" in plays and "drop" not in plays
    with pytest.raises(IllegalAction) as refused:
        state.apply("drop")
    assert str(refused.value) == "ask your partner first ('ask'): you may drop only with their yes"
    state.apply("ask")
    state.apply("yes")
    outcome = state.outcome()
    assert outcome is not None and outcome.end == "drop_won" and "ask_partner" in outcome.fired


@pytest.mark.parametrize("seed", range(30))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    rs = load_ruleset(RULES)
    assert list(check_hand(rs, 4, seed)) == []
