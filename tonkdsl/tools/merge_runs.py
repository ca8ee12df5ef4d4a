"""``tonk merge``: the ``tonk simulate --json`` results of several runs added up into one report.

Each run's JSON keeps its integer tallies (``tally``): added up, they give exactly the report one
run of all those hands would print, intervals included. Runs merge when they simulated the same
rulesets with the same bots, players and stake; each ruleset's runs must have different seeds
(the same seed plays the same hands, which would count twice)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from tonkdsl.tools.simulate import summary
from tonkdsl.tools.stats import Tally


class MergeError(ValueError):
    """Runs that cannot be added up, with the reason in a player's words."""


@dataclass
class Merged:
    bots: list[str]
    players: int
    stake: int
    seeds: list[int]
    results: list[tuple[str, str, dict[str, Any]]]  # (ruleset as given, its name, summary), as simulate's

    def to_json(self) -> dict[str, Any]:
        return {"seeds": self.seeds, "bots": self.bots, "players": self.players, "stake": self.stake,
                "hands": self.results[0][2]["hands"] if self.results else 0,
                "rulesets": [{"ruleset": ref, "name": name, **data} for ref, name, data in self.results]}


def merge(runs: Sequence[tuple[str, dict[str, Any]]]) -> Merged:
    """Add up ``runs`` (each: where it was read, its JSON). Raises :class:`MergeError`."""
    if not runs:
        raise MergeError("no runs to merge")
    first_file, first = runs[0]
    key = _settings(first_file, first)
    totals: dict[str, Tally] = {}
    names: dict[str, str] = {}
    never: dict[str, set[str]] = {}
    extra: dict[str, dict[str, Any]] = {}
    seeds: dict[str, dict[int, str]] = {}
    for file, doc in runs:
        if _settings(file, doc) != key:
            raise MergeError(f"{file} ran {_said(_settings(file, doc))}, but {first_file} ran {_said(key)}: "
                             "only runs of the same bots, players and stake add up")
        seed = int(doc.get("seed", 0))
        entries = doc.get("rulesets")
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise MergeError(f"{file} is not the output of tonk simulate --json (its 'rulesets' is not a list of results)")
        for entry in entries:
            ref = str(entry.get("ruleset"))
            if "tally" not in entry:
                raise MergeError(f"{file}: the result of {ref} has no tally (written by an older tonk simulate "
                                 "--json): run it again")
            if seed in seeds.setdefault(ref, {}):
                raise MergeError(f"{file} and {seeds[ref][seed]} both ran {ref} with seed {seed}: the same hands "
                                 "would count twice (give each run its own --seed)")
            seeds[ref][seed] = file
            try:
                tally = Tally.from_json(entry["tally"])
            except ValueError as exc:
                raise MergeError(f"{file}: {ref}: {exc}") from None
            if ref in totals:
                totals[ref].add(tally)
                never[ref] &= set(entry.get("never_paid") or [])
            else:
                totals[ref], names[ref] = tally, str(entry.get("name", ref))
                never[ref] = set(entry.get("never_paid") or [])
                extra[ref] = {k: entry[k] for k in ("pot",) if k in entry}
    results = []
    for ref, tally in totals.items():
        data = summary(tally)
        data["never_paid"] = sorted(never[ref])
        data.update(extra[ref])
        data["tally"] = tally.to_json()
        results.append((ref, names[ref], data))
    all_seeds = sorted({s for by_seed in seeds.values() for s in by_seed})
    return Merged(list(key[0]), key[1], key[2], all_seeds, results)


def _settings(file: str, doc: Any) -> tuple[tuple[str, ...], int, int]:
    if not isinstance(doc, dict) or "rulesets" not in doc or "bots" not in doc:
        raise MergeError(f"{file} is not the output of tonk simulate --json")
    return tuple(map(str, doc["bots"])), int(doc.get("players", 0)), int(doc.get("stake", 1))


def _said(key: tuple[tuple[str, ...], int, int]) -> str:
    bots, players, stake = key
    return f"{players} players ({', '.join(bots)}) at stake {stake}"
