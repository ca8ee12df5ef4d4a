"""Sides (issue 30): partners never pay each other, a side keeps one total and wins together;
expressions name a player's side, partner, partners and opponents; lint and the sheet know them."""
from pathlib import Path

import pytest

from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import Layout, deal
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import observation
from tonkdsl.language.names import PLAYER_ATTRS, EvalContext
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import greedy_bot, hand_value
from tonkdsl.tools.explain import explain
from tonkdsl.tools.lint import lint
from conftest import TESTS, refused

VAR = TESTS / "variations"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(text)
    return path


def test_seats_sit_apart_by_side_and_name_their_partners_and_opponents() -> None:
    rs = load_ruleset(VAR / "x30-partners-match.yaml")  # six players, three sides of two
    assert rs.sides_for(6) == (0, 1, 2, 0, 1, 2)
    state = deal(rs, 6, seed=3)
    ctx = EvalContext(state, actor=1)
    names = {n: PLAYER_ATTRS[n][1] for n in ("side", "partner", "partners", "opponents")}
    assert names["side"](ctx, 1) == 1 and names["side"](ctx, 4) == 1
    assert names["partner"](ctx, 1) == 4 and names["partner"](ctx, 4) == 1
    assert names["partners"](ctx, 1) == (4,)
    assert names["opponents"](ctx, 1) == (0, 2, 3, 5)


def test_partners_never_pay_each_other_even_in_a_shared_amount(tmp_path: Path) -> None:
    path = write(tmp_path, f"""extends: {VAR / 'x30-partners.yaml'}
name: everyone shares
endings:
  drop_won:
    payouts:
      - {{id: shared, from: dropper, to: players, amount: 6 * stake, split: down}}
""")
    rs = load_ruleset(path)
    pack = rs.pack
    hands = {0: ["AC", "AD", "2C", "2D", "3C"], 1: ["KC", "KD", "QC", "7H", "6H"],
             2: ["KH", "KS", "QH", "5H", "4H"], 3: ["10C", "10D", "9C", "9D", "8C"]}
    state = deal(rs, 4, dealer=3, layout=Layout({s: [pack.find(c) for c in h] for s, h in hands.items()}))
    state.apply("drop")
    out = state.outcome()
    assert out is not None and out.end == "drop_won"
    # The dropper's 6 is shared by the two opponents only: 3 each, nothing to the partner.
    assert sorted((p.rule, p.payer, p.payee, p.amount) for p in out.payments if p.rule == "shared") == [
        ("shared", 0, 1, 3), ("shared", 0, 3, 3)]
    assert all(state.side_of[p.payer] != state.side_of[p.payee] for p in out.payments)


def play_match(ref: Path, seed: int) -> Session:
    rs = load_ruleset(ref)
    session = Session(rs, 6, dealer=0)
    while not session.is_over():
        state = session.start_hand(seed=seed + session.index)
        while not state.is_terminal():
            state.apply(greedy_bot(observation(state, state.current_player()), state.legal_actions(), Rng(seed)))
        record = session.finish_hand(state)
        side = rs.sides_for(6)
        # Partners go out together: an eliminated player's partner is out as well.
        for g in record.eliminated:
            assert all(p not in session.active for p in range(6) if side[p] == side[g])
    return session


@pytest.mark.parametrize("seed", [5, 11])
def test_a_side_keeps_one_total_goes_out_together_and_wins_the_match(seed: int) -> None:
    session = play_match(VAR / "x30-partners-match.yaml", seed)
    side = session.ruleset.sides_for(6)
    totals = session.totals()
    for g in range(6):
        assert totals[g] == sum(session.scores[p] for p in range(6) if side[p] == side[g])
    winners = session.settlement().winners
    assert len({side[g] for g in winners}) == 1 and sorted(winners) == sorted(session.active)
    assert len(winners) == 2 and session.why_over().endswith("one side is left")


def test_a_session_in_money_is_won_by_the_side_with_the_most(tmp_path: Path) -> None:
    path = write(tmp_path, f"extends: {VAR / 'x30-partners.yaml'}\nname: four hands\nsession: {{hands: 4}}\n")
    rs = load_ruleset(path)
    session = Session(rs, 4)
    while not session.is_over():
        state = session.start_hand(seed=20 + session.index)
        while not state.is_terminal():
            state.apply(greedy_bot(observation(state, state.current_player()), state.legal_actions(), Rng(1)))
        session.finish_hand(state)
    money = session.money()
    best = max(money[0] + money[2], money[1] + money[3])
    won = session.settlement().winners
    assert won in ([0, 2], [1, 3], [0, 1, 2, 3])
    assert all(money[g] + money[(g + 2) % 4] == best for g in won)
    assert sum(money) == 0


def test_a_seat_values_a_hand_by_its_side() -> None:
    out = Outcome("drop_won", (0,), (2, -1, 0, -1), (0, 0, 0, 0))
    assert hand_value(out, 2, False, False) == 0.0
    assert hand_value(out, 2, False, False, (0, 1, 0, 1)) == 2.0
    assert hand_value(out, 1, False, False, (0, 1, 0, 1)) == -2.0
    points = Outcome("stock_exhausted", (0,), (0,) * 4, (0,) * 4, scores=(0, 10, 4, 6))
    # Lowest wins: side 0 scored 4, side 1 scored 16; worth +12 to side 0.
    assert hand_value(points, 2, True, True, (0, 1, 0, 1)) == 12.0


def test_players_that_cannot_make_whole_sides_are_refused_where_they_are_written(tmp_path: Path) -> None:
    path = write(tmp_path, "extends: standard\nname: odd\nplayers: {min: 3, max: 5, sides: {size: 2}}\n")
    d = refused(path, "sides-players")
    assert d.message == ("3 players cannot play in sides of 2: every number of players from players.min to "
                         "players.max must make at least two whole sides")
    assert d.hint == "play with 4 or 6 or 8 players (players.min and players.max)"
    assert (d.line, d.column) == (3, 41)


def test_a_partner_named_where_players_play_alone_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "extends: standard\nname: alone\nturn:\n  drop:\n    wins_if: count < partner.count\n")
    d = refused(path, "sides-missing")
    assert d.message == "this rule reads 'partner', but the players play alone (players.sides is not set)"
    assert d.line == 5


def test_the_sheet_and_diff_say_the_sides() -> None:
    sheet = explain(load_ruleset(VAR / "x30-partners.yaml"), "text")
    assert ("The players play in sides of 2, partners sitting apart (with 4 players, seats 1 and 3; 2 and 4). "
            "Partners never pay each other; a side keeps one total, and wins or goes out of a match together."
            ) in sheet
    assert "The drop is won when your count is less than the lowest of your opponents' counts" in sheet
    assert "won by every opponent of the dropper whose count is the lowest of the dropper's opponents' counts" in sheet


def test_lint_knows_the_sides_a_seat_can_be_on(tmp_path: Path) -> None:
    path = write(tmp_path, f"extends: {VAR / 'x30-partners.yaml'}\nname: third side\n"
                 "turn:\n  drop:\n    allowed: side == 2\n")
    report = lint(path)
    (d,) = [d for d in report.diagnostics if d.code == "condition-never"]
    assert "'side == 2' can never hold" in d.message


def test_an_automatic_win_on_the_deal_is_not_paid_by_the_partner() -> None:
    rs = load_ruleset(VAR / "x30-partners.yaml")
    hands = {0: ["AC", "AD", "2C", "2D", "3C"], 1: ["KC", "KD", "QC", "QD", "9H"],
             2: ["KH", "KS", "QH", "5H", "4H"], 3: ["10C", "10D", "9C", "9D", "8C"]}
    state = deal(rs, 4, dealer=3, layout=Layout({s: [rs.pack.find(c) for c in h] for s, h in hands.items()}))
    out = state.outcome()
    assert out is not None and out.end == "initial_tonk" and out.winners == (1,)
    assert out.payouts == (-2, 4, -2, 0)  # seat 3 is seat 1's partner
