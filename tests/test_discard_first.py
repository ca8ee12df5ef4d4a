"""Discarding before drawing (issue 76, other turn shapes), one module
(tonkdsl/interpreter/rules/discard_first.py) on the turn's step DRAW_LAST: the turn offers its
plays from the start and no draw, after the discard only the draw from the stock, which ends the
turn; a player who ate the discard does not draw again; what is refused says why; the stock
running out at that draw ends the hand; lint, the rules sheet and tonk diff say it."""
from __future__ import annotations

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import IllegalAction, deal
from tonkdsl.interpreter.table import DRAW_LAST, START
from tonkdsl.tools.explain import explain
from tonkdsl.tools.lint import lint
from tonkdsl.tools.scenario import load_scenario

RULES = TESTS / "variations" / "x76-discard-first.yaml"
GOLDEN = TESTS / "scenarios" / "x76-discard-then-draw.yaml"


def _state(rs=None):
    scenario = load_scenario(GOLDEN)
    if rs is None:
        return scenario.new_state()
    return deal(rs, len(scenario.players), seed=scenario.seed, dealer=scenario.dealer, stake=scenario.stake,
                layout=scenario.layout)


def _names(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def test_the_turn_begins_with_its_plays_and_no_draw() -> None:
    state = _state()
    offered = _names(state)
    assert "spread 7S 8S 9S" in offered and "discard KD" in offered and "drop" in offered
    assert not any(a.startswith("draw") for a in offered)
    with pytest.raises(IllegalAction) as refused:
        state.apply("draw stock")
    assert str(refused.value) == ("in this ruleset you draw at the end of your turn: play and discard first, "
                                  "then 'draw stock'")


def test_after_the_discard_only_the_draw_is_left_and_it_ends_the_turn() -> None:
    state = _state()
    state.apply("spread 7S 8S 9S")
    assert state.phase != START and "drop" not in _names(state)  # the start's drop is gone once a card is played
    state.apply("discard KD")
    assert state.phase == DRAW_LAST and _names(state) == ["draw stock"]
    with pytest.raises(IllegalAction) as refused:
        state.apply("discard 2H")
    assert str(refused.value) == "you have discarded: draw from the stock to end your turn ('draw stock')"
    state.apply("draw stock")
    assert state.current_player() == 1 and state.phase == START
    assert sorted(state.pack.names[c] for c in state.hands[0]) == ["2H", "3C"]


def test_a_refused_play_at_the_start_leaves_the_turn_at_its_start() -> None:
    state = _state()
    with pytest.raises(IllegalAction):
        state.apply("spread 7S 8S KD")
    assert state.phase == START and "drop" in _names(state)


def test_a_player_who_ate_the_discard_does_not_draw_again(write) -> None:
    path = write("eat.yaml", f"extends: {RULES}\nname: Discard first, with eating\nturn:\n  eat:\n"
                 "    allowed: 'true'\n")
    rs = load_ruleset(path, allow_paths=[RULES.parent])
    state = _state(rs)
    state.apply("discard 9S")
    state.apply("draw stock")  # the window after Ann's discard opens once she has drawn
    assert "eat" in [str(a) for a in state.legal_actions(1)]
    state.apply("eat", 1)
    assert state.current_player() == 1 and "9S" in [state.pack.names[c] for c in state.hands[1]]
    stock = len(state.stock)
    state.apply("discard KH")
    # No second draw for Bob: his turn is over, and Ann is asked whether she eats his KH.
    assert len(state.stock) == stock and len(state.hands[1]) == 5
    assert state.current_player() == 0 and "eat" in _names(state)


def test_the_first_player_who_does_not_draw_on_the_first_turn_does_not_draw_after_it(write) -> None:
    path = write("first.yaml", f"extends: {RULES}\nname: Discard first, the opener keeps six\nturn:\n"
                 "  first_turn: no_draw\n")
    rs = load_ruleset(path, allow_paths=[RULES.parent])
    state = _state(rs)
    state.apply("discard KD")
    assert state.current_player() == 1 and state.phase == START
    state.apply("discard KH")
    assert state.phase == DRAW_LAST  # from the second turn on, the draw comes last


@pytest.mark.parametrize("seed", range(30))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    rs = load_ruleset(RULES)
    assert list(check_hand(rs, 2 + seed % 3, seed)) == []
    assert list(check_hand(rs, 2 + seed % 3, seed, bot="greedy")) == []


def _codes(path) -> list[tuple[str, str]]:
    return [(d.code, d.severity) for d in lint(path).diagnostics if d.severity != "note"]


def test_lint_says_the_discard_pile_is_never_drawn_from_in_turn(write) -> None:
    both = write("both.yaml", "extends: standard\nname: Discard first, both sources\nturn:\n  discard_first: {}\n")
    report = [d for d in lint(both).diagnostics if d.severity != "note"]
    assert [(d.code, d.severity) for d in report] == [("rule-for-disabled", "warning")]
    assert "the discard pile is never drawn from in one's turn" in report[0].message
    assert _codes(RULES) == []


def test_lint_warns_that_a_card_drawn_at_once_never_is_when_the_draw_ends_the_turn(write) -> None:
    path = write("both.yaml", f"extends: {RULES}\nname: Discard first, drawn at once\ndrawn_at_once: {{}}\n")
    found = [d for d in lint(path).diagnostics if d.code == "rule-for-disabled"]
    assert [d.message for d in found] == ["drawn_at_once is about the card drawn from the stock, but here the draw "
                                          "ends the turn (a turn whose draw comes last): nothing is played after it"]
    # ... and the rules sheet does not describe a play after the draw that never comes
    rs = load_ruleset(path, allow_paths=[RULES.parent])
    assert "played at once" not in explain(rs, "text")
    assert "played at once" in explain(load_ruleset(TESTS / "variations" / "x76-drawn-at-once.yaml"), "text")


def test_the_rules_sheet_says_the_turn_in_its_order() -> None:
    sheet = explain(load_ruleset(RULES), "text")
    assert "Otherwise you play without drawing first." in sheet
    assert "You may lay spreads and hit spreads on the table, and then you discard one card face up." in sheet
    assert "The draw comes last: after your discard you draw the top card of the stock, and that ends your turn." \
        in sheet
    assert "Otherwise you take" not in sheet and "by discarding one card" not in sheet


def test_lint_warns_of_a_rule_out_of_turn_asked_after_a_draw_that_ends_the_turn(write) -> None:
    path = write("late.yaml", f"extends: {RULES}\nname: Discard first, a drop after the draw\nturn:\n  out_of_turn:\n"
                 "    - {id: late-drop, do: drop, at: [after_draw], when: count <= 10}\n")
    found = [d for d in lint(path).diagnostics if d.code == "rule-for-disabled"]
    assert [(d.message, d.line) for d in found] == [
        ("'late-drop' is asked after the player to move draws, but here the draw ends the turn (a turn whose draw "
         "comes last): at after_draw it is never asked", 5)]
    fine = write("fine.yaml", f"extends: {RULES}\nname: Discard first, a drop after the discard\nturn:\n  out_of_turn:\n"
                 "    - {id: late-drop, do: drop, at: [after_discard], when: count <= 10}\n")
    assert not [d for d in lint(fine).diagnostics if d.code == "rule-for-disabled"]


def test_the_steps_of_ones_own_turn_are_said_in_the_turns_order(write) -> None:
    path = write("steps.yaml", f"extends: {RULES}\nname: Discard first, step by step\nturn:\n  in_turn:\n"
                 "    - {id: no-early-drop, do: drop, at: [turn_start], when: turns >= 2}\n"
                 "    - {id: one-spread, do: spread, at: [after_draw], when: spreads_this_turn == 0}\n")
    rs = load_ruleset(path, allow_paths=[RULES.parent])
    sheet = explain(rs, "text")
    assert "- no-early-drop: at the start of your turn, you may drop only when you have had at least 2 turns." in sheet
    assert ("- one-spread: as you play, before your discard, you may lay a spread only when you have laid no "
            "spreads this turn.") in sheet
    assert "after drawing" not in sheet and "before drawing" not in sheet
    assert list(check_hand(rs, 3, 1)) == [] and list(check_hand(rs, 2, 4, bot="greedy")) == []
