"""Winning by exactly N cards melded (issue 76, one file each), written with going_out.allowed and
'laid': six cards laid go out; an empty hand with five laid does not end the hand."""
from __future__ import annotations

from conftest import TESTS
from tonkdsl.tools.scenario import load_scenario, replay

GOLDEN = TESTS / "scenarios" / "x76-out-with-exactly-six.yaml"


def test_six_laid_go_out() -> None:
    result = replay(load_scenario(GOLDEN))
    assert result.to_json()["end"] == "tonk_out"


def test_five_laid_and_a_discard_empty_the_hand_but_do_not_go_out(tmp_path) -> None:
    path = tmp_path / "five.yaml"
    path.write_text(f"""ruleset: {TESTS / "variations" / "x76-out-with-six-laid.yaml"}
players: [Ann, Bob]
dealer: Bob
hands:
  Ann: [5S, 6S, 7S, 8S, 2C]
  Bob: [KH, QD, JH, 10C, 2D]
upcard: 4C
stock: [9S, 3H]
actions:
  - Ann draw stock
  - Ann spread 5S 6S 7S 8S 9S
  - Ann discard 2C
""", encoding="utf-8")
    result = replay(load_scenario(path))
    data = result.to_json()
    assert data["end"] is None and data["next"] == "Bob" and result.state.hands[0] == []
