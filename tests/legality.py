"""The generic legality property (issue 28), as OpenSpiel's random simulation test states it:
in every state a hand reaches there is a legal action until the end, every legal action
applies, no rule fails at play, and nobody but the player to move acts outside an asking.

Run (tests/test_legal_actions.py) over every shipped ruleset, every recipe of docs/recipes.md
and every house-rule variant below, every recipe and variant laid over every shipped ruleset,
and every pair of recipes and variants laid together (issue 80: not only the turn's)."""
from __future__ import annotations

import copy
import os
import re
from pathlib import Path
from typing import Any, Iterator

import yaml

from tonkdsl.language.diagnostics import LoadError
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.language.yamlsrc import parse_yaml
from tonkdsl.tools import legality

ROOT = Path(__file__).resolve().parent.parent


def recipes() -> dict[str, tuple[str, dict[str, Any]]]:
    """Each YAML recipe of docs/recipes.md that is a ruleset: title -> (section, document)."""
    text = (ROOT / "docs" / "recipes.md").read_text(encoding="utf-8")
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    section = title = ""
    for block in re.split(r"^(##+ .*)$", text, flags=re.M):
        if block.startswith("## "):
            section = block[3:].strip()
        elif block.startswith("### "):
            title = block[4:].strip()
        else:
            for body in re.findall(r"```yaml\n(.*?)```", block, flags=re.S):
                doc = parse_yaml(body, title).data  # the project's reading ('on' is a key, not true)
                if isinstance(doc, dict) and "extends" in doc and title not in found:
                    found[title] = (section, doc)
    return found


# House-rule settings that players paste beside the recipes, from the catalog's variations and
# from tables' reports (issue 74): each combined with every shipped game and every recipe below,
# as the recipes are. Each stranded a player once (no legal action, or one refused).
VARIANTS: dict[str, dict[str, Any]] = {
    "Spreads may not be held (V2)": {"extends": "standard", "melds": {"hold": {"allowed": "false"}}},
    "The discard taken must be used (V15)": {"extends": "standard", "turn": {"draw": {"discard_must_be_used": True}}},
    "Eating, the card played later": {"extends": "standard", "turn": {"eat": {
        "allowed": "true", "spread_at_once": False, "order": "discarder_left"}}},
    "Folding at the start of any turn": {"extends": "standard", "turn": {"out_of_turn": [
        {"id": "fold", "do": "fold", "at": ["turn_start"]}]}, "endings": {"others_folded": {
            "winners": "actor", "payouts": [{"id": "last-in", "from": "folded", "to": "actor", "amount": "stake"}]}}},
    "Calling a low hand": {"extends": "standard", "bonuses": [
        {"id": "call-low", "on": "claim", "when": "count <= 10", "from": "others", "to": "actor", "amount": "stake"}]},
    "Slapping a discard onto a spread (V17)": {"extends": "standard", "slapping": {
        "allowed": "true", "priority": "first", "extra_discard": True}},
    "Four natural cards in every spread, and a joker": {"extends": "standard", "pack": {"jokers": 1, "values": {"JK": 0}},
                                                          "melds": {"min_natural": 4}},
}


def merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``extra``'s sections laid over ``base`` (mappings merged, anything else replaced)."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if key in ("extends", "name"):
            continue
        if key == "remove":
            out["remove"] = list(dict.fromkeys([*(out.get("remove") or []), *value]))
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def artifacts(name: str) -> Path:
    """test-artifacts/NAME, one folder per pytest-xdist worker: each worker writes the same files
    at collection, and one must never read another's half-written file."""
    folder = Path(__file__).resolve().parent.parent / "test-artifacts" / name / os.environ.get(
        "PYTEST_XDIST_WORKER", "main")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def targets(folder: Path) -> dict[str, Path | str]:
    """Every shipped ruleset, every recipe, every recipe laid over every shipped ruleset, and
    every pair of recipes (and variants) laid together, written to ``folder`` (once per run:
    the test modules that read them share them)."""
    if folder not in _MADE:
        _MADE[folder] = _targets(folder)
    return _MADE[folder]


_MADE: dict[Path, dict[str, Path | str]] = {}


def _targets(folder: Path) -> dict[str, Path | str]:
    from tonkdsl.language.resources import shipped_ruleset_names

    found: dict[str, Path | str] = {name: name for name in shipped_ruleset_names()}
    book = recipes()
    book.update((title, ("Variants", doc)) for title, doc in VARIANTS.items())

    def write(name: str, doc: dict[str, Any]) -> Path:
        path = folder / f"{len(found):03d}.yaml"
        path.write_text(yaml.safe_dump({**doc, "name": name[:60]}, sort_keys=False), encoding="utf-8")
        return path
    for title, (_, doc) in book.items():
        found[title] = write(title, doc)
    recipe_titles = list(book)
    pairs = [(base, other) for i, base in enumerate(recipe_titles) for other in recipe_titles[i + 1:]]
    for name in shipped_ruleset_names():  # every recipe laid over every shipped game
        book[name] = ("Shipped", {"extends": name})
        pairs += [(name, recipe) for recipe in recipe_titles]
    for base, flow in pairs:
        if f"{flow} + {base}" in found:
            continue  # the same two laid the other way round
        name = f"{base} + {flow}"
        doc = merged(book[base][1], book[flow][1])
        found[name] = path = write(name, doc)
        try:
            LOADED[name] = load_ruleset(path)
            continue
        except LoadError as exc:  # a removal of the flow's that the base never had: left out
            gone = {d.path for d in exc.diagnostics if d.code == "extends-remove"}
            doc["remove"] = [r for i, r in enumerate(doc.get("remove") or []) if f"$.remove[{i}]" not in gone]
            path.write_text(yaml.safe_dump({**doc, "name": name[:60]}, sort_keys=False), encoding="utf-8")
        try:
            LOADED[name] = load_ruleset(path)
        except LoadError as exc:  # two that do not fit: refused at load, with located diagnostics
            REFUSED[name] = sorted({d.code for d in exc.diagnostics})
            del found[name]
    return found


# Two laid together that the loader refuses (a recipe's payouts in a points game, a rule about the
# upcard over a deal that turns none up, a recipe that removes a payout another patches), with
# the codes of its diagnostics: the test says which may be.
REFUSED: dict[str, list[str]] = {}
LOADED: dict[str, Ruleset] = {}  # the combinations as targets() loaded them (loading is half the run's time)


def check_hand(rs: Ruleset, players: int, seed: int, tries: int = 6, bot: str = "random") -> Iterator[str]:
    """Play one hand (the product's legality check, tonkdsl.tools.legality); yield what breaks."""
    for finding in legality.check_hand(rs, players, seed, bot=bot, tries=tries):
        yield str(finding)
