"""``tonk new``: a starter ruleset with comments and the schema modeline, and a starter scenario."""
from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from tonkdsl.interpreter.actions import Hit
from tonkdsl.interpreter.engine import deal
from tonkdsl.interpreter.view import observation
from tonkdsl.language.diagnostics import Diagnostic, LoadError
from tonkdsl.language.loader import load_ruleset, resolve_name
from tonkdsl.language.resources import schema_path
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import greedy_bot
from tonkdsl.tools.scenario import load_scenario, replay

RULESET = """\
# yaml-language-server: $schema={schema}
# {title}: your neighborhood's rules of Tonk, written as changes to '{base}'.
# Check it with `tonk validate {file}` and `tonk lint {file}`; print it with `tonk explain {file}`.
# Every key is described by 'tonk docs reference'; expressions by 'tonk docs expressions'.
extends: {base}
name: {title}
description: Our house rules.

# Some common changes (remove the '#' to use one):

# deal:
#   hand_size: 7                        # seven cards each
#   upcard: false                       # no upcard

# deal_wins:
#   rules:
#     - id: low-hand                    # an automatic win on a low hand
#       when: count <= 13
#       pays: 2 * stake

# hits:
#   books: false                        # books cannot be hit

# turn:
#   drop:
#     wins_if: count <= min(others.count)   # only a lower count catches the dropper

# endings:
#   stock_exhausted:
#     void_if: true                     # an exhausted stock is a dead hand
"""


SCHEMA_NAME = "ruleset.schema.json"


def _is_our_schema(path: Path) -> bool:
    """Whether ``path`` is a copy of tonkdsl's schema (of any version): its ``$id`` is ours."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")[:2_000_000])
    except (OSError, ValueError, RecursionError):
        return False
    ours = json.loads(schema_path().read_text(encoding="utf-8"))["$id"]
    return isinstance(data, dict) and data.get("$id") == ours


def write_schema(folder: Path, *, force: bool = False) -> Path:
    """Copy the package's schema into ``folder`` (atomically; an older copy is replaced). A file
    of that name that is not tonkdsl's schema is the user's own: FileExistsError, unless
    ``force``."""
    target = folder / SCHEMA_NAME
    text = schema_path().read_text(encoding="utf-8")
    if target.exists() and not force and not _is_our_schema(target):
        raise FileExistsError(str(target))
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target)
    return target


def write_starter(name: str, base: str, folder: Path, *, force: bool = False) -> list[Path]:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        raise LoadError([Diagnostic("new-name", f"'{name}' is not a file name: use letters, digits, '-' and '_'")])
    load_ruleset(resolve_name(base))  # the base must exist and be valid
    folder.mkdir(parents=True, exist_ok=True)
    ruleset_path = folder / f"{name}.yaml"
    scenario_path = folder / f"{name}-hand.yaml"
    for p in (ruleset_path, scenario_path):
        if p.exists() and not force:
            raise FileExistsError(str(p))
    if (folder / SCHEMA_NAME).exists() and not force and not _is_our_schema(folder / SCHEMA_NAME):
        raise FileExistsError(str(folder / SCHEMA_NAME))
    title = name.replace("-", " ").replace("_", " ").title()
    # The schema is copied beside the ruleset and named relatively in its modeline: the editor
    # finds it offline, from this folder, whatever the machine or the virtual environment.
    schema = write_schema(folder, force=force)
    ruleset_path.write_text(RULESET.format(schema=f"./{schema.name}", title=title, base=base,
                                           file=ruleset_path.name), encoding="utf-8")
    scenario_path.write_text(_starter_scenario(ruleset_path, name), encoding="utf-8")
    load_scenario(scenario_path)  # what we wrote must be valid
    return [ruleset_path, scenario_path]


def _starter_scenario(ruleset_path: Path, name: str) -> str:
    """A golden hand: a seeded deal played by greedy bots, with what happened as 'expect'."""
    rs = load_ruleset(ruleset_path)
    players = ["Ann", "Bob", "Cy"][: max(rs.players_min, min(3, rs.players_max))]
    seed = 1
    state = deal(rs, len(players), seed=seed)
    actions: list[str] = []
    rng = Rng(seed)
    while not state.is_terminal() and len(actions) < 200:
        seat = state.current_player()
        # No hits: the first house rules people write often close books or runs to hits, and the
        # golden hand should still replay after them (docs/getting-started.md, step 3).
        legal = state.legal_actions()
        plain = [a for a in legal if not isinstance(a, Hit)]
        act = greedy_bot(observation(state, seat), plain or legal, rng)
        state.apply(act)
        actions.append(f"{players[seat]} {act}")
    data = {"ruleset": ruleset_path.name, "players": players, "seed": seed, "actions": actions}
    head = (f"# A golden hand for {ruleset_path.name}: a seeded deal and the actions played. `tonk check` compares\n"
            "# the result with 'expect'; fix the cards with 'hands:', 'upcard:' and 'stock:' to pin a rule down.\n")
    body = yaml.safe_dump(data, sort_keys=False, default_flow_style=False)
    path = ruleset_path.parent / f"{name}-hand.yaml"
    path.write_text(head + body, encoding="utf-8")
    result = replay(load_scenario(path)).to_json()
    expect = {k: result[k] for k in ("end", "winners", "payouts")}
    return head + body + yaml.safe_dump({"expect": expect}, sort_keys=False, default_flow_style=None)
