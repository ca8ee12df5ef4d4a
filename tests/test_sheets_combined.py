"""Rules sheets of recipes laid together say nothing false (issue 80): an action a ruleset turns
off is never offered in words, "never" is never printed as a condition, and an ending that
cannot come is not listed. Over every pair of recipes (tests/legality.py), and over every recipe
and shipped ruleset with one action turned off."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from legality import artifacts, LOADED, VARIANTS, merged, recipes, targets
from tonkdsl import load_ruleset
from tonkdsl.interpreter.rules import plan_for
from tonkdsl.interpreter.rules.base import DROPS_OUT_OF_TURN
from tonkdsl.language.resources import rulesets_dir, shipped_ruleset_names
from tonkdsl.tools.explain import explain

FOLDER = artifacts("legality")
NEVER_AS_CONDITION = re.compile(r"\b(when|if|unless|while) never\b", re.I)

# One action turned off, laid over every shipped ruleset and every recipe: what the sheet must
# then not say (a regular expression over the sheet's text, spaces made single), given the
# ruleset (a drop that lays its spreads still puts spreads on the table to hit and go out on; a
# drop out of turn is still a drop).
ENDS_OUT = r"|Going out without a discard|Going out on the final|Emptying your hand( by laying[^.]*)? ends"
TURNED_OFF = {
    "no spreads": ({"turn": {"spread": {"allowed": False}}},
                   lambda rs: r"may lay (a )?spreads?\b|they lay spreads" + ("" if rs.drop_lays_spreads else ENDS_OUT)),
    "no hits": ({"hits": {"allowed": "false"}}, lambda rs: r"You may hit|hit spreads on the table"),
    "no drop": ({"turn": {"drop": {"allowed": "false"}}},
                lambda rs: r"you may drop\b" + ("" if DROPS_OUT_OF_TURN in plan_for(rs).facts else
                                                r"|A drop that wins|A drop that is caught")),
    "no going out": ({"going_out": {"allowed": "false"}}, lambda rs: ENDS_OUT[1:]),
}


def _sheet(rs) -> str:
    return " ".join(explain(rs, "text").split())


def test_no_pair_of_recipes_prints_never_as_a_condition() -> None:
    found = targets(FOLDER)
    bad = {}
    for name, ref in found.items():
        rs = LOADED.get(name) or load_ruleset(ref, allow_paths=[FOLDER, rulesets_dir()])
        hit = NEVER_AS_CONDITION.search(_sheet(rs))
        if hit:
            bad[name] = hit.group(0)
    assert not bad, bad
    assert len(found) > 1000


def _bases() -> dict[str, dict]:
    out = {name: {"extends": name} for name in shipped_ruleset_names()}
    out.update((title, doc) for title, (_, doc) in recipes().items())
    out.update(VARIANTS)
    return out


@pytest.mark.parametrize("off", sorted(TURNED_OFF))
def test_an_action_turned_off_is_never_offered_in_words(off: str, tmp_path: Path) -> None:
    setting, forbidden = TURNED_OFF[off]
    checked = 0
    for title, base in _bases().items():
        doc = merged(base, setting)
        path = tmp_path / f"{checked}.yaml"
        path.write_text(yaml.safe_dump({"extends": base["extends"], **doc, "name": f"{title} ({off})"[:60]},
                                       sort_keys=False), encoding="utf-8")
        try:
            rs = load_ruleset(path, allow_paths=[rulesets_dir()])
        except Exception:  # a recipe the setting contradicts at load (said by the loader): nothing to print
            continue
        text = _sheet(rs)
        assert not NEVER_AS_CONDITION.search(text), (title, NEVER_AS_CONDITION.search(text).group(0))
        said = re.search(forbidden(rs), text)
        assert said is None, f"{title} ({off}): the sheet says '{said.group(0)}'"
        checked += 1
    assert checked >= 40
