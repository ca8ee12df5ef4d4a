"""The generic legality property (issue 28), as OpenSpiel's random simulation test states it:
in every state a hand reaches there is a legal action until the end, and every legal action
applies. Run over every shipped ruleset, every recipe of docs/recipes.md, and every pair of a
turn-flow recipe and a cards-and-counts recipe combined (tests/test_legal_actions.py)."""
from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, Iterator

import yaml

from tonkdsl.interpreter.engine import IllegalAction, deal
from tonkdsl.language.diagnostics import LoadError
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.rng import Rng
from tonkdsl.language.yamlsrc import parse_yaml
from tonkdsl.language.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
MAX_STEPS = 3000


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


def targets(folder: Path) -> dict[str, Path | str]:
    """Every shipped ruleset, every recipe, and every turn-flow recipe laid over every
    cards-and-counts recipe and over every other turn-flow recipe, written to ``folder``."""
    from tonkdsl.language.resources import shipped_ruleset_names

    found: dict[str, Path | str] = {name: name for name in shipped_ruleset_names()}
    book = recipes()

    def write(name: str, doc: dict[str, Any]) -> Path:
        path = folder / f"{len(found):03d}.yaml"
        path.write_text(yaml.safe_dump({**doc, "name": name[:60]}, sort_keys=False), encoding="utf-8")
        return path
    for title, (_, doc) in book.items():
        found[title] = write(title, doc)
    flows = [t for t, (section, _) in book.items() if section == "Turn flow"]
    bases = [t for t, (section, _) in book.items() if section in ("Cards and counts", "Turn flow")]
    for name in shipped_ruleset_names():  # each shipped game with each turn-flow recipe too
        book[name] = ("Shipped", {"extends": name})
        bases.append(name)
    for flow in flows:
        for base in bases:
            if base == flow:
                continue
            name = f"{base} + {flow}"
            doc = merged(book[base][1], book[flow][1])
            found[name] = path = write(name, doc)
            try:
                load_ruleset(path)
            except LoadError as exc:  # a removal of the flow's that the base never had: left out
                gone = {d.path for d in exc.diagnostics if d.code == "extends-remove"}
                doc["remove"] = [r for i, r in enumerate(doc.get("remove") or []) if f"$.remove[{i}]" not in gone]
                path.write_text(yaml.safe_dump({**doc, "name": name[:60]}, sort_keys=False), encoding="utf-8")
            if book[base][0] == "Shipped":
                try:
                    load_ruleset(path)
                except LoadError:  # a recipe that speaks of payouts this game does not have (a points game)
                    SKIPPED.append(name)
                    del found[name]
            else:
                try:
                    load_ruleset(path)
                except LoadError as exc:  # a rule about the upcard over a deal without one: refused, as meant
                    if {d.code for d in exc.diagnostics} != {"upcard-missing"}:
                        raise
                    NO_UPCARD.append(name)
                    del found[name]
    return found


SKIPPED: list[str] = []  # shipped games that a turn-flow recipe does not fit (said by the test)
NO_UPCARD: list[str] = []  # a recipe that reads the upcard over one that turns none up (refused at load)


def check_hand(rs: Ruleset, players: int, seed: int, tries: int = 6) -> Iterator[str]:
    """Play one random hand; yield what breaks the property (nothing when it holds). In each
    state up to ``tries`` legal actions besides the one played are applied to a clone."""
    rng = Rng(seed)
    state = deal(rs, players, seed=seed, dealer=seed % players)
    for step in range(MAX_STEPS):
        if state.is_terminal():
            return
        legal = list(state.legal_actions())
        if not legal:
            yield f"step {step}: no legal action in phase {state.phase} for seat {state.current_player()}"
            return
        checked = [rng.choice(legal) for _ in range(min(tries, len(legal)))]
        for action in dict.fromkeys(checked):
            trial = state.clone()
            try:
                trial.apply(action)
            except IllegalAction as exc:
                yield f"step {step}: the legal action '{action}' is refused: {exc}"
                return
        state.apply(checked[0])
    yield f"the hand did not end in {MAX_STEPS} actions"
