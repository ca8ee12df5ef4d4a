"""In every state a hand reaches there is a legal action until the end, and every legal action
applies (issue 28): over every shipped ruleset, every recipe, and every turn-flow recipe laid
over every cards-and-counts and turn-flow recipe (tests/legality.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from legality import NO_UPCARD, SKIPPED, check_hand, targets
from tonkdsl import load_ruleset
from tonkdsl.language.resources import rulesets_dir

FOLDER = Path(__file__).resolve().parent / ".." / "test-artifacts" / "legality"
FOLDER.mkdir(parents=True, exist_ok=True)
TARGETS = targets(FOLDER)
SEEDS = range(8)


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_there_is_always_a_legal_action_and_every_legal_action_applies(name: str) -> None:
    rs = load_ruleset(TARGETS[name], allow_paths=[FOLDER, rulesets_dir()])
    for players in sorted({rs.players_min, min(rs.players_max, 4) if rs.players_max >= 4 else rs.players_max}):
        if players < rs.players_min:
            continue
        for seed in SEEDS:
            problems = list(check_hand(rs, players, seed))
            assert not problems, f"{name}, {players} players, seed {seed}: {problems[0]}"


def test_every_recipe_pair_is_a_valid_ruleset() -> None:
    # Only a shipped game may not fit a turn-flow recipe (the knock recipe's caught payouts in a
    # points game): every recipe fits every other.
    assert all(name.split(" + ")[0] in __import__("tonkdsl.language.resources", fromlist=["x"]).shipped_ruleset_names()
               for name in SKIPPED), SKIPPED
    assert len(SKIPPED) <= 2, SKIPPED
    # A rule about the upcard cannot be laid over a deal that turns no card up: the loader refuses
    # exactly those pairs (upcard-missing), and no other recipe pair is refused.
    assert NO_UPCARD and all("A rule about the upcard" in name for name in NO_UPCARD), NO_UPCARD


@pytest.mark.parametrize("flow, base, players, seed", [
    # Found by this property: after a drop declared before the discard, the card taken from the
    # discard pile (eaten, or to be used at once) could be neither spread nor discarded.
    ("Knocking after the draw, with one more turn for everyone", "Eating the discard", 2, 2),
    ("Knocking after the draw, with one more turn for everyone", "Eating the discard", 2, 5),
])
def test_pinned_cases(flow: str, base: str, players: int, seed: int) -> None:
    rs = load_ruleset(TARGETS[f"{base} + {flow}"], allow_paths=[FOLDER, rulesets_dir()])
    assert not list(check_hand(rs, players, seed))


@pytest.mark.parametrize("players, seed", [(6, 16), (8, 0)])
def test_eating_a_card_whose_twins_are_all_one_holds_is_offered_only_when_it_fits(write, players: int,
                                                                                    seed: int) -> None:
    # Found by this property: at big-table (two decks, the card taken may not be discarded), a
    # player holding 3D 3D ate the other 3D and had no legal action left.
    path = write("eat.yaml", "extends: big-table\nname: Eating at a big table\nturn:\n  eat:\n"
                 "    allowed: 'true'\n    order: discarder_left\n")
    assert not list(check_hand(load_ruleset(path), players, seed))
