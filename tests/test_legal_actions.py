"""In every state a hand reaches there is a legal action until the end, every legal action
applies, no rule fails at play and nobody acts out of turn but when asked (issues 28, 74, 80):
over every shipped ruleset, recipe and house-rule variant, each recipe or variant laid over
every shipped ruleset, and every pair of recipes and variants (tests/legality.py, which runs
the product's legality check, tonkdsl.tools.legality)."""
from __future__ import annotations

from pathlib import Path

import pytest

import os
import re

from legality import artifacts, LOADED, REFUSED, check_hand, targets
from tonkdsl.tools import legality
from tonkdsl import load_ruleset
from tonkdsl.language.resources import rulesets_dir

FOLDER = artifacts("legality")
TARGETS = targets(FOLDER)
# The seeds each target plays at each table size (two sizes at most), with random bots and, on
# fewer seeds, greedy ones (who reach other states: the spreads laid, the drops): 8 and 2 in the
# README's run (1,134 rulesets, about 22,000 hands), 256 and 64 in the exploring profile, which
# finds the case pinned below at big-table's seed 217 by itself.
EXPLORE = os.environ.get("HYPOTHESIS_PROFILE") in ("explore", "thorough")
SEEDS = range(256 if EXPLORE else 8)
GREEDY_SEEDS = range(64 if EXPLORE else 2)


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_there_is_always_a_legal_action_and_every_legal_action_applies(name: str) -> None:
    rs = LOADED.get(name) or load_ruleset(TARGETS[name], allow_paths=[FOLDER, rulesets_dir()])
    for bot, seeds in (("random", SEEDS), ("greedy", GREEDY_SEEDS)):
        report = legality.check(rs, seeds=seeds, bots=(bot,), stop_after=1)
        assert report.ok, f"{name}: {report.findings[0]}"


def test_recipes_that_do_not_fit_together_are_refused_at_load_only_as_meant() -> None:
    # Laid together, two recipes may contradict each other; the loader then refuses the file with
    # located diagnostics, and only for these reasons: a recipe speaks of payouts a points game
    # (hoyle-tunk) or another recipe removed, brings a pot to a points game, reads the upcard of a
    # deal that turns none up, or puts an ace at both ends of runs that turn the corner.
    allowed = {"schema-missing-key", "pot-without-money", "upcard-missing", "pack-run-order"}
    assert all(set(codes) <= allowed for codes in REFUSED.values()), REFUSED
    assert all("upcard" in name for name, codes in REFUSED.items() if "upcard-missing" in codes)
    assert len(REFUSED) <= 19, sorted(REFUSED)  # (each pot recipe with each points game: 12 of them)


@pytest.mark.parametrize("flow, base, players, seed", [
    # Found by this property: after a drop declared before the discard, the card taken from the
    # discard pile (eaten, or to be used at once) could be neither spread nor discarded.
    ("Knocking after the draw, with one more turn for everyone", "Eating the discard", 2, 2),
    ("Knocking after the draw, with one more turn for everyone", "Eating the discard", 2, 5),
])
def test_pinned_cases(flow: str, base: str, players: int, seed: int) -> None:
    name = f"{base} + {flow}" if f"{base} + {flow}" in TARGETS else f"{flow} + {base}"
    rs = load_ruleset(TARGETS[name], allow_paths=[FOLDER, rulesets_dir()])
    assert not list(check_hand(rs, players, seed))


@pytest.mark.parametrize("players, seed", [(6, 16), (8, 0)])
def test_eating_a_card_whose_twins_are_all_one_holds_is_offered_only_when_it_fits(write, players: int,
                                                                                    seed: int) -> None:
    # Found by this property: at big-table (two decks, the card taken may not be discarded), a
    # player holding 3D 3D ate the other 3D and had no legal action left.
    path = write("eat.yaml", "extends: big-table\nname: Eating at a big table\nturn:\n  eat:\n"
                 "    allowed: 'true'\n    order: discarder_left\n")
    assert not list(check_hand(load_ruleset(path), players, seed))


STRANDING = Path(__file__).resolve().parent / "rulesets" / "stranding"


@pytest.mark.parametrize("name, players, seed", [
    # Issue 74: each of these passed validate and lint, then stranded a player at these seeds.
    ("claim-low-hoyle", 2, 12),  # claimed, then held only the card taken, which may not be discarded
    ("claim-low-hoyle", 3, 80),
    ("big-table-eat", 6, 217),  # the eaten card's twin went into the spread: the card eaten was left
    ("eat-and-must-use", 3, 0),  # eaten to be played later, but the card taken must be used
    ("eat-and-must-use", 3, 1),
    ("knock-then-must-lay", 3, 1),  # after a knock, the discard refused: a spread held
    ("knock-then-must-lay", 3, 8),
    ("min-natural-with-a-joker", 3, 10),  # a natural spread short of min_natural offered, then refused
    ("partners-who-fold", 4, 8),  # both opponents folded: min() of an empty list
    ("eat-fold-turn-start", 3, 15),  # those asked to fold at the eater's turn acted in it
])
def test_rules_that_stranded_a_player(name: str, players: int, seed: int) -> None:
    rs = load_ruleset(STRANDING / f"{name}.yaml")
    assert list(check_hand(rs, players, seed)) == []


@pytest.mark.parametrize("path", sorted(STRANDING.glob("*.yaml")), ids=lambda p: p.stem)
def test_rules_that_stranded_a_player_play_through_a_simulation(path: Path) -> None:
    # The command each file's comment gives, on fewer hands where the game is a long match.
    from click.testing import CliRunner
    from tonkdsl.cli import main

    players = re.search(r"--players (\d+)", path.read_text(encoding="utf-8"))
    assert players is not None
    args = ["simulate", str(path), "-n", "60", "--bots", "random", "--players", players.group(1), "--seed", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
