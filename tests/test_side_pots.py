"""Several pots (issue 76): side_pots beside the game pot, each won its own way. A side pot is
paid from and to by its name, read by its name in expressions, antes at the deal, pays at most
what it holds and carries over from hand to hand; money is conserved with every pot counted."""
from __future__ import annotations

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import deal
from tonkdsl.interpreter.greedy import greedy_bot
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import observation
from tonkdsl.language.diagnostics import LoadError
from tonkdsl.language.rng import Rng
from tonkdsl.tools.lint import lint
from tonkdsl.tools.scenario import load_scenario, replay

RULES = TESTS / "variations" / "x76-side-pots.yaml"
GOLDEN = TESTS / "scenarios" / "x76-tonk-takes-both-pots.yaml"


def _write(tmp_path, text: str):
    path = tmp_path / "pots.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_going_out_takes_both_pots_and_the_replay_names_them() -> None:
    result = replay(load_scenario(GOLDEN))
    data = result.to_json()
    assert data["side_pots"] == {"tonk_pot": 0} and data["pot"] == 0
    assert [(p["from"], p["to"], p["amount"]) for p in data["payments"]][-2:] == [("pot", "Ann", 2),
                                                                                   ("tonk_pot", "Ann", 2)]


def test_a_drop_leaves_the_tonk_pot_to_ride_and_the_session_carries_it() -> None:
    rs = load_ruleset(RULES)
    session = Session(rs, 3, hands=12)
    rides = 0
    while not session.is_over():
        before = list(session.side_pots)
        state = session.start_hand(seed=40 + session.index)
        assert state.side_pots_start == tuple(before)  # what was left rides into the next hand
        while not state.is_terminal():
            seat = state.current_player()
            state.apply(greedy_bot(observation(state, seat), state.legal_actions(), Rng(seat)))
        out = state.outcome()
        assert out is not None
        assert sum(out.payouts) + out.pot_change + sum(out.side_pot_change) == 0
        if out.end != "tonk_out" and out.end not in ("redeal",):
            rides += state.side_pots[0] > before[0]
        session.finish_hand(state)
    assert rides > 0  # the tonk pot grew while nobody tonked
    assert sum(session.ledger) + session.pot + sum(session.side_pots) == 0


def test_a_side_pot_pays_at_most_what_it_holds(tmp_path) -> None:
    rs = load_ruleset(_write(tmp_path, f"""extends: {RULES}
name: Greedy tonk pot
endings:
  tonk_out:
    payouts:
      - {{id: takes-the-tonk-pot, from: tonk_pot, to: actor, amount: 100 * stake}}
"""), allow_paths=[TESTS])
    scn = load_scenario(GOLDEN)
    scn.ruleset = rs
    state = scn.new_state()
    for _, action, _ in scn.actions:
        state.apply(action)
    out = state.outcome()
    assert out is not None and [p.amount for p in out.payments if p.rule == "takes-the-tonk-pot"] == [2]
    assert state.side_pots == [0]


def test_an_expression_reads_a_side_pot_by_its_name(tmp_path) -> None:
    rs = load_ruleset(_write(tmp_path, f"""extends: {RULES}
name: The tonk pot grows
turn:
  drop:
    allowed: tonk_pot >= 0 and count <= 10
"""), allow_paths=[TESTS])
    state = deal(rs, 2, seed=3)
    assert state.side_pots == [2] and state._test(rs.drop_allowed, 0) == (state.count(0) <= 10)


@pytest.mark.parametrize("name, said", [("stock", "a word of the rules language"),
                                        ("count", "a word of the rules language")])
def test_a_side_pot_may_not_take_a_name_the_language_has(tmp_path, name: str, said: str) -> None:
    path = _write(tmp_path, f"""extends: standard
name: Bad name
side_pots:
  - {{id: {name}, ante: 1}}
endings:
  tonk_out:
    payouts:
      - {{id: takes-it, from: pot, to: actor, amount: 1}}
""")
    with pytest.raises(LoadError) as refused:
        load_ruleset(path)
    assert f"the side pot '{name}' is named with {said}: expressions could not tell them apart" in str(refused.value)


def test_lint_refuses_a_side_pot_nobody_wins(tmp_path) -> None:
    path = _write(tmp_path, """extends: standard
name: A pot that only grows
side_pots:
  - {id: kitty, ante: 1}
""")
    found = [(d.code, d.message) for d in lint(path).diagnostics if d.code == "pot-never-won"]
    assert found == [("pot-never-won", "money goes into the side pot 'kitty', but no payout takes from it: it "
                      "only grows")]


@pytest.mark.parametrize("seed", range(30))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    assert list(check_hand(load_ruleset(RULES), 2 + seed % 3, seed)) == []
