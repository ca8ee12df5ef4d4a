"""A misplay allowed, then punished (issue 76, one file each), one module (tonkdsl/interpreter/
rules/misplay.py): a drop the drop condition does not allow is offered and not refused; the
player pays the penalty, then forfeits (sits out), plays face up, or plays on; money is conserved,
every hand ends and every offered action applies."""
from __future__ import annotations

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import IllegalAction
from tonkdsl.interpreter.view import observation
from tonkdsl.tools.scenario import load_scenario

RULES = TESTS / "variations" / "x76-misplay.yaml"
GOLDEN = TESTS / "scenarios" / "x76-bad-drop-forfeits.yaml"


def _state(tmp_path=None, then: str | None = None):
    scn = load_scenario(GOLDEN)
    if then is not None:
        path = tmp_path / "then.yaml"
        path.write_text(f"extends: {RULES}\nname: Then\nturn:\n  drop:\n    misplay:\n      penalty: 2 * stake\n"
                        f"      then: {then}\n", encoding="utf-8")
        scn.ruleset = load_ruleset(path, allow_paths=[TESTS])
    return scn.new_state()


def test_the_bad_drop_is_offered_and_forfeits_after_the_penalty() -> None:
    state = _state()
    assert "drop" in [str(a) for a in state.legal_actions()]
    state.apply("drop")
    assert [(p.payer, p.payee, p.amount) for p in state.paid] == [(0, 1, 2), (0, 2, 2)]
    assert state.sitting_out == 1 and state.current_player() == 1 and not state.is_terminal()


def test_face_up_shows_the_hand_and_the_turn_goes_on(tmp_path) -> None:
    state = _state(tmp_path, "face_up")
    state.apply("drop")
    assert not state.is_terminal() and state.current_player() == 0
    shown = observation(state, 1).shown[0]
    assert sorted(state.pack.names[c] for c in shown) == ["2H", "3C", "5S", "KH", "QD"]
    state.apply("draw stock")  # she plays on


def test_play_on_costs_the_penalty_alone(tmp_path) -> None:
    state = _state(tmp_path, "play_on")
    state.apply("drop")
    assert state.current_player() == 0 and state.sitting_out == 0 and len(state.paid) == 2
    with pytest.raises(IllegalAction):
        state.apply("discard KH")  # the turn goes on from its start: a draw comes first


def test_without_the_rule_the_bad_drop_is_refused(tmp_path) -> None:
    path = tmp_path / "strict.yaml"
    path.write_text(f"extends: {RULES}\nname: Strict\nremove: [turn.drop.misplay]\n", encoding="utf-8")
    scn = load_scenario(GOLDEN)
    scn.ruleset = load_ruleset(path, allow_paths=[TESTS])
    state = scn.new_state()
    assert "drop" not in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalAction) as refused:
        state.apply("drop")
    assert str(refused.value) == "you may not drop now (the ruleset's drop condition 'count <= 10' is false)"


@pytest.mark.parametrize("seed", range(30))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    assert list(check_hand(load_ruleset(RULES), 2 + seed % 3, seed)) == []
