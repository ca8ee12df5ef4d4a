"""Hostile and broken input, third round (issue 28): every limit is checked before anything is
built, and what a file says never takes the program past its documented limits."""
from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl import LoadError, load_ruleset
from tonkdsl.cli import main
from tonkdsl.language.cards import MAX_PACK_CARDS, Pack


@pytest.mark.parametrize("pack, words", [
    ("decks: 100000", "'decks' must be at most 4, not 100000"),
    ("jokers: 18446744073709551616\n  values: {JK: 0}", "'jokers' must be at most 8, not 18446744073709551616"),
])
def test_a_pack_past_its_limits_is_refused_before_it_is_built(write, pack: str, words: str) -> None:
    path = write("big.yaml", f"extends: standard\nname: Big\npack:\n  {pack}\n")
    tracemalloc.start()
    try:
        with pytest.raises(LoadError) as exc:
            load_ruleset(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [d.code for d in exc.value.diagnostics] == ["schema-range"]
    assert words in exc.value.diagnostics[0].message
    assert peak < 20_000_000  # 100,000 decks built took 1.26 GB


def test_the_pack_itself_refuses_to_grow_past_its_limit() -> None:
    with pytest.raises(ValueError, match=f"more than {MAX_PACK_CARDS} \\(MAX_PACK_CARDS\\)"):
        Pack.build(["A"] * 13, ["C", "D", "H", "S"], 8, {"A": 1, "JK": 0}, ["A"], [], decks=5)


def test_the_cards_a_seat_can_be_dealt_are_bounded_when_the_file_loads(write) -> None:
    path = write("extra.yaml", "extends: standard\nname: Extra\ndeal:\n  extra_cards:\n"
                 "    - {to: dealer, cards: 11}\n    - {to: dealer, cards: 11}\n    - {to: dealer, cards: 7}\n")
    with pytest.raises(LoadError) as exc:
        load_ruleset(path)
    d = exc.value.diagnostics[0]
    assert (d.code, d.line) == ("limit-seat-cards", 5)
    assert d.message.startswith("a seat may be dealt 5 + 11 + 11 + 7 = 34 cards")
    assert "more than 13 (MAX_SEAT_CARDS)" in d.message


def test_a_meld_search_over_more_cards_than_it_takes_is_refused(write) -> None:
    cards = ", ".join(f"{r}{s}" for s in "SH" for r in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q"])
    path = write("dw.yaml", f"extends: standard\nname: Deadwood\nturn:\n  drop:\n"
                 f"    allowed: count(deadwood([{cards}])) >= 0\n")
    with pytest.raises(LoadError) as exc:
        load_ruleset(path)
    d = exc.value.diagnostics[0]
    assert d.code == "limit-expr-cost"
    assert "deadwood() is given 24 cards; it takes at most 16 (MAX_MELD_CARDS)" in d.message


def test_a_meld_search_met_in_play_over_too_many_cards_is_a_ruleset_error() -> None:
    from tonkdsl.interpreter.engine import deal
    from tonkdsl.language.expr.compiler import EvalError
    from tonkdsl.language.names import FUNCTIONS, EvalContext

    state = deal(load_ruleset("standard"), 4, seed=1)
    search = FUNCTIONS["deadwood"][2]
    assert len(search(EvalContext(state), tuple(range(16)))) >= 0  # 16 cards: searched
    with pytest.raises(EvalError, match="deadwood\\(\\) was given 17 cards; it takes at most 16"):
        search(EvalContext(state), tuple(range(17)))


def test_a_match_stopped_at_the_cap_is_reported_as_capped_not_won(write) -> None:
    path = write("endless.yaml", "extends: standard\nname: Endless\nsession:\n  eliminate_when: total <= -1000000\n")
    res = CliRunner().invoke(main, ["simulate", str(path), "-n", "1", "--players", "2", "--json"])
    assert res.exit_code == 0, res.output
    found = json.loads(res.output)["rulesets"][0]["matches"]
    assert found["capped"] == 1 and [w["wins"] for w in found["wins"]] == [0, 0]
    text = CliRunner().invoke(main, ["simulate", str(path), "-n", "1", "--players", "2"]).output
    assert "1 of 1 matches (Endless) stopped at the cap of 1,000 hands (MAX_MATCH_HANDS)" in text


def test_money_past_its_limit_is_a_plain_error(write) -> None:
    path = write("big.yaml", "extends: standard\nname: Big\nsession:\n  hands: 3\n"
                 "  big_one: {last_hands: 1, multiplier: 100000}\n")
    with pytest.raises(LoadError) as exc:
        load_ruleset(path)
    assert "'multiplier' must be at most 1000" in exc.value.diagnostics[0].message
    path = write("pot.yaml", "extends: standard\nname: Doubling\npot:\n  ante: pot * 8 + stake\nsession:\n"
                 "  hands: 100\nendings:\n  drop_won:\n    payouts:\n"
                 "      - {id: one-from-the-pot, from: pot, to: dropper, amount: 1}\n")
    res = CliRunner().invoke(main, ["simulate", str(path), "-n", "100", "--players", "2"])
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    assert "(MAX_MONEY)" in res.output or "(MAX_NUMBER)" in res.output


def test_a_negative_cap_stops_the_hand_and_lint_says_why(write) -> None:
    path = write("cap.yaml", "extends: standard\nname: Cap\nlimits:\n  most_lost: 0 - stake\n")
    res = CliRunner().invoke(main, ["simulate", str(path), "-n", "50", "--players", "2"])
    assert res.exit_code == 1, res.output
    assert "limits.most_lost '0 - stake' is -1: a cap on what a hand costs or brings cannot be below 0" in res.output
    res = CliRunner().invoke(main, ["lint", str(path)])
    assert "error[amount-not-positive]: the cap '0 - stake' is never more than 0" in res.output


def test_control_characters_from_a_file_never_reach_the_terminal(write) -> None:
    path = write("esc.yaml", 'extends: standard\nname: "Friendly\\e]0;pwned\\a\\e]52;c;ZWNobyBoaQ==\\a rules"\n')
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert res.exit_code == 0
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "valid (Friendly?]0;pwned??]52;c;ZWNobyBoaQ==? rules)" in res.output
    for command in (["explain", str(path)], ["lint", str(path)], ["simulate", str(path), "-n", "5"]):
        out = CliRunner().invoke(main, command).output
        assert "\x1b" not in out and "\x07" not in out, command


def _saved_game(tmp_path: Path) -> Path:
    save = tmp_path / "g.yaml"
    res = CliRunner().invoke(main, ["play", "standard", "--players", "2", "--seed", "5", "--save", str(save)],
                             input="s\n1\nquit\n")
    assert res.exit_code == 0, res.output
    return save


def test_resuming_a_game_in_a_folder_that_cannot_be_written_is_refused_up_front(tmp_path: Path, monkeypatch) -> None:
    import os

    save = _saved_game(tmp_path)
    before = save.read_bytes()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == tmp_path else real(p, mode))
    res = CliRunner().invoke(main, ["play", "--resume", str(save)], input="s\n")
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert "error: --resume: the game is saved to the file it continues after every move" in res.output
    assert "permission denied; pass --save FILE to save it elsewhere" in res.output
    assert save.read_bytes() == before


def test_a_save_whose_deal_cannot_be_dealt_gets_a_located_error(tmp_path: Path) -> None:
    from tonkdsl.tools.play import resume_game

    save = _saved_game(tmp_path)
    import yaml
    doc = yaml.safe_load(save.read_text())
    doc["deals"][0]["hands"]["You"] = ["JK", *doc["deals"][0]["hands"]["You"][1:]]  # no joker in this pack
    save.write_text(yaml.safe_dump(doc, sort_keys=False))
    with pytest.raises(LoadError) as exc:
        resume_game(save)
    d = exc.value.diagnostics[0]
    assert d.line > 0 and d.path.startswith("$.deals[0]")


def test_a_hand_of_thirteen_is_dealt_and_fourteen_or_thirteen_and_an_extra_card_are_refused(write) -> None:
    # A rummy hand of 13 (issue 76) fits MAX_SEAT_CARDS; a 14th card does not, dealt or extra.
    from tonkdsl.interpreter.engine import deal
    ok = write("thirteen.yaml", "extends: standard\nname: Thirteen\nplayers: {min: 2, max: 3}\n"
               "deal: {hand_size: 13}\ndeal_wins: {rules: []}\n")
    state = deal(load_ruleset(ok), 3, seed=1)
    assert [len(h) for h in state.hands] == [13, 13, 13] and len(state.stock) == 52 - 39 - 1
    for name, text, code in (("fourteen.yaml", "deal: {hand_size: 14}\n", "schema-range"),
                             ("extra.yaml", "deal: {hand_size: 13, extra_cards: [{to: dealer, cards: 1}]}\n",
                              "limit-seat-cards")):
        bad = write(name, "extends: standard\nname: Too many\nplayers: {min: 2, max: 3}\n" + text)
        with pytest.raises(LoadError) as exc:
            load_ruleset(bad)
        assert exc.value.diagnostics[0].code == code
