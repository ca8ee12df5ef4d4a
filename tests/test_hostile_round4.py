"""Hostile and broken input, fourth round (issue 74), outside the table's server (tests/
test_serve_hostile.py) and the saves (tests/test_saves_hostile.py): money with a pot on other
score sheets, files (a deal larger than the pack, witness folders, starter folders), the
OpenSpiel game's parameters and what its legal actions may tell, a table file that shares
secrets, bot workers that break or think too long, and lint on a hand that may never end."""
from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
import pytest
from click.testing import CliRunner

from tonkdsl import LoadError, load_ruleset
from tonkdsl.cli import main
from tonkdsl.tools.lint import lint
from tonkdsl.tools.simulate import Spec, run, summary

POT = "pot: {ante: stake}\nendings:\n  drop_won:\n    payouts: [{id: takes-pot, from: pot, to: dropper, amount: pot}]\n"


def test_a_pot_on_a_points_sheet_is_refused_where_it_is_written(write) -> None:
    # It filled a pot from nothing that never paid (317 left after 200 hands).
    path = write("p.yaml", "extends: hoyle-tunk\nname: Hoyle with a pot\n" + POT)
    with pytest.raises(LoadError) as exc:
        load_ruleset(path)
    (d,) = exc.value.diagnostics
    assert (d.code, d.line, d.path) == ("pot-without-money", 3, "$.pot")
    assert d.message == ("a pot holds money, but scoring.sheet is points: no money changes hands, so the antes "
                         "would fill a pot that nothing pays out")


def test_a_units_sheet_with_a_pot_loses_no_money(write) -> None:
    # Each payout was rounded down to whole units: money disappeared.
    path = write("u.yaml", "extends: washington-state\nname: Units with a pot\n" + POT)
    tally = run(Spec(str(path), ("greedy",) * 3, 7), 300)
    data = summary(tally)
    assert sum(s["net"] for s in data["seats"]) + data["pot_left"] == 0


def test_a_deal_larger_than_the_pack_is_refused_before_play(write) -> None:
    path = write("d.yaml", "extends: standard\nname: Twelve each\ndeal: {hand_size: 12}\n")
    want = f"error: {path} cannot be dealt to 5 players: the pack has 52 cards; 5 players x 12 cards + the upcard need 61"
    res = CliRunner().invoke(main, ["play", str(path), "--players", "5"], input="quit\n")
    assert res.exit_code == 2 and want in res.output and "Traceback" not in res.output
    match = write("m.yaml", f"extends: {path.name}\nname: Twelve each, a match\nplayers: {{min: 5, max: 5}}\n"
                  "session: {eliminate_when: total >= 100}\nscoring: {sheet: points}\n")
    report = lint(match)  # played as a match by lint: a finding, no traceback
    assert [d.code for d in report.errors()] == ["pack-cannot-deal"]


def test_witnesses_never_go_through_a_link_nor_replace_a_file_of_yours(tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    lint("standard", witness=folder)
    names = sorted(p.name for p in folder.iterdir())
    outside = tmp_path / "mine.txt"
    outside.write_text("my notes", encoding="utf-8")
    (folder / names[0]).unlink()
    (folder / names[0]).symlink_to(outside)
    (folder / names[1]).write_text("my own file", encoding="utf-8")
    report = lint("standard", witness=folder)
    notes = [d.message for d in report.diagnostics if d.message.startswith("not written:")]
    assert sorted(notes) == sorted(f"not written: {folder / n} is a link or a file that is not a witness of tonk "
                                   "lint; it was left as it is (remove it, or give --witness another folder)"
                                   for n in names[:2])
    assert outside.read_text(encoding="utf-8") == "my notes"
    assert (folder / names[1]).read_text(encoding="utf-8") == "my own file"


def test_two_rules_whose_ids_read_alike_get_two_witness_files() -> None:
    from tonkdsl.tools.lint.witness import Target, _file_name

    long = "a" * 85
    assert _file_name(Target(f"rule:{long}x", "", ())) != _file_name(Target(f"rule:{long}y", "", ()))
    assert _file_name(Target("rule:x.y", "", ())) != _file_name(Target("rule:x-y", "", ()))
    assert _file_name(Target("rule:plain-id", "", ())) == "rule-plain-id.yaml"  # unchanged where nothing is lost


def test_tonk_new_keeps_your_own_schema_file_and_says_why_a_folder_cannot_be_made(tmp_path: Path) -> None:
    mine = tmp_path / "ruleset.schema.json"
    mine.write_text('{"$id": "mine"}', encoding="utf-8")
    res = CliRunner().invoke(main, ["new", "house", "--dir", str(tmp_path)])
    assert res.exit_code == 2 and f"{mine} exists already (use --force to overwrite)" in res.output
    assert mine.read_text(encoding="utf-8") == '{"$id": "mine"}' and not (tmp_path / "house.yaml").exists()
    res = CliRunner().invoke(main, ["schema", "--write", str(tmp_path)])
    assert res.exit_code == 2 and "exists and is not tonkdsl's schema: it was left as it is" in res.output
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    res = CliRunner().invoke(main, ["new", "z", "--dir", str(tmp_path / "afile" / "sub")])
    assert res.exit_code == 2 and "error: cannot write into" in res.output and "Not a directory" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    # An older copy of our own schema is still brought up to date without --force.
    ours = tmp_path / "ours"
    ours.mkdir()
    (ours / "ruleset.schema.json").write_text(json.dumps({"$id": "https://tonkdsl.invalid/schema/ruleset.schema.json"}),
                                              encoding="utf-8")
    assert CliRunner().invoke(main, ["new", "house", "--dir", str(ours)]).exit_code == 0


@pytest.mark.parametrize("option", ["--turn-time", "--bot-delay"])
def test_nan_is_not_a_number_of_seconds(option: str) -> None:
    res = CliRunner().invoke(main, ["serve", "standard", option, "nan"])
    assert res.exit_code == 2 and f"Invalid value for '{option}': 'nan' is not a number of seconds" in res.output


def test_a_hand_whose_discard_must_always_be_taken_is_said_to_may_never_end(write) -> None:
    path = write("t.yaml", "extends: standard\nname: Always take it\nturn: {draw: {must_take: \"true\"}}\n")
    report = lint(path)
    (d,) = [d for d in report.diagnostics if d.code == "hand-may-not-end"]
    assert d.severity == "warning" and d.line == 3 and d.path == "$.turn.draw.must_take"


def test_a_table_file_whose_seats_share_a_secret_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="tonk serve needs the 'serve' extra")
    from tonkdsl.tools.serve import make_game
    from tonkdsl.tools.serve.room import IdentityError, Room

    table = tmp_path / "g.yaml.table"
    table.write_text(json.dumps({"table": "abc", "code": "code1", "seats": [
        {"name": "Player1", "token": "same", "claimed": True}, {"name": "Player2", "token": "same", "claimed": True}]}),
        encoding="utf-8")
    game = make_game("standard", seats=2, bots=(), names=(), stake=1, hands=None, seed=1, save=None, resume=None)
    with pytest.raises(IdentityError, match="two seats share one secret"):
        Room(game, identity_path=table)


def test_a_broken_worker_pool_is_replaced_and_a_slow_decision_is_given_up() -> None:
    pytest.importorskip("starlette", reason="tonk serve needs the 'serve' extra")
    from tonkdsl.tools.serve import make_game
    from tonkdsl.tools.serve.app import Thinkers
    from tonkdsl.tools.serve.room import Room

    game = make_game("standard", seats=2, bots=("greedy",), names=(), stake=1, hands=None, seed=8, save=None,
                     resume=None)
    room = Room(game, lobby=False)
    while not room.bot_to_play():
        state = room.game.state
        assert state is not None
        room.act(room.seats[0], str(state.legal_actions()[0]))
    thinkers = Thinkers(1, 1)

    async def decisions() -> list[tuple[str | None, bool]]:
        out = [await thinkers.decide(room.bot_turn())]
        assert thinkers.pool is not None
        for process in list(thinkers.pool._processes.values()):  # a worker killed (the OOM killer, a kill -9)
            os.kill(process.pid, 9)
        time.sleep(0.5)
        out.append(await thinkers.decide(room.bot_turn()))  # the broken pool: decided at the table
        out.append(await thinkers.decide(room.bot_turn()))  # a new pool thinks again
        thinkers.limit = 0.0  # a decision that takes far too long
        out.append(await thinkers.decide(room.bot_turn()))
        return out
    try:
        first, broken, again, slow = asyncio.run(decisions())
    finally:
        thinkers.close()
    assert first[0] is not None and broken == (None, False) and again == first and slow == (None, True)
    room.bot_step(None, quick=True)
    assert room.log[-2] == "Greedy1 took too long to think: a quick move instead."


def test_the_openspiel_game_refuses_a_stake_of_zero() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    import tonkdsl.tools.openspiel  # noqa: F401  (registers python_tonk)

    with pytest.raises(pyspiel.SpielError, match="the stake is a whole number from 1 to 1,000,000, not 0"):
        pyspiel.load_game("python_tonk", {"stake": 0})


def test_a_demand_is_offered_on_public_facts_only(write) -> None:
    # The demand window used to be offered only when the top discard fitted the hidden hand of the
    # player to move: the offer told the others, and OpenSpiel's ISMCTS crashed (KeyError) on it.
    from tonkdsl.interpreter.engine import deal

    rs = load_ruleset(Path(__file__).parent / "variations" / "x30-demand.yaml")
    fits = []
    for seed in range(20):
        state = deal(rs, 2, seed=seed, dealer=1)  # the upcard is the top discard as Ann's first turn starts
        mover = state.current
        assert state.current_player() == 1 - mover  # Bob is asked, whatever Ann holds
        assert [str(a) for a in state.legal_actions()] == ["demand", "pass"]
        fits.append(state.discard_fits(mover))
    assert any(fits) and not all(fits)  # hands the upcard fits and hands it does not


def test_ismcts_plays_the_demand_recipe_through() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    import tonkdsl.tools.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tonk", {"ruleset": str(Path(__file__).parent / "variations" / "x30-demand.yaml")})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.5, 20, random_state=rng)
    for _ in range(3):  # (it crashed in 3 of 12 hands: each hand asks about a demand at every turn)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
            else:
                state.apply_action(bot.step(state))
        assert sum(state.returns()) == pytest.approx(0)


def test_a_lone_surrogate_is_refused_where_it_is_written(write) -> None:
    # "\udc80" in a ruleset's name gave tracebacks in validate, explain, diff, simulate, tournament and
    # play, and a 500 on tonk serve's rules page.
    path = write("s.yaml", 'extends: standard\nname: "Ann\\udc80s table"\n')
    for command in (["validate", str(path)], ["explain", str(path)], ["simulate", str(path), "-n", "1"]):
        res = CliRunner().invoke(main, command)
        assert res.exit_code == 2, command
        assert ("s.yaml:2:7: error[yaml-value]: cannot read this value: it holds \\udc80, a lone surrogate, which is "
                "not a character (write the character itself)") in res.output


def test_allow_path_reaches_the_ruleset_argument_of_play_simulate_explain_and_tournament(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # The extends-outside error named --allow-path, which play and serve applied to a save only,
    # and simulate and explain did not have.
    (tmp_path / "base").mkdir()
    (tmp_path / "mine").mkdir()
    (tmp_path / "base" / "b.yaml").write_text("extends: standard\nname: Base\n", encoding="utf-8")
    (tmp_path / "mine" / "m.yaml").write_text("extends: ../base/b.yaml\nname: Mine\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "mine")
    for command, stdin in ((["play", "m.yaml"], "quit\n"), (["simulate", "m.yaml", "-n", "5"], None),
                           (["explain", "m.yaml"], None), (["tournament", "m.yaml", "-n", "2", "--bots",
                                                           "random,greedy", "--workers", "2"], None)):
        refused = CliRunner().invoke(main, command, input=stdin)
        assert refused.exit_code == 2 and "error[extends-outside]" in refused.output, command
        allowed = CliRunner().invoke(main, [*command, "--allow-path", "../base"], input=stdin)
        assert allowed.exit_code == 0, (command, allowed.output)
