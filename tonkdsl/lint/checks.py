"""The lint checks. Each has a stable code, a severity, a message in a player's words and the
locations of every line involved.

| code | severity | what it finds |
|---|---|---|
| pack-cannot-deal | error | more cards are dealt than the pack holds |
| deal-win-odds | note | the exact odds of each automatic win per dealt hand |
| deal-win-impossible | error | an automatic win no hand can meet |
| deal-win-always | error | an automatic win every hand meets |
| deal-win-frequent | warning | an automatic win in more than 5% of hands |
| deal-win-overlap | warning | hands that meet two automatic wins of the same priority |
| values-threshold | warning | a high-hand threshold below what the card values allow |
| ending-undefined | error | a way a hand can end with no rule for it |
| ending-impossible | warning | an ending that can never happen |
| rule-for-disabled | warning | a rule about something the ruleset turned off |
| payout-negative | error | a payout amount that is a negative number |
| winner-pays | error | a payout from the winners of the same ending |
| never-fired | warning | (with --simulate) a rule that never fired |
| winner-loses | error | (with --simulate) a winner who lost money |
| extends-noop | warning | an override that repeats what the extended ruleset says |
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Iterable

from tonkdsl.diagnostics import Diagnostic, LoadError, Path
from tonkdsl.lint.odds import OddsTable, compute
from tonkdsl.loader import display_name, load_doc, read_doc, resolve_name
from tonkdsl.merge import Doc, is_id_list
from tonkdsl.ruleset import Ruleset, build
from tonkdsl.schema_check import validate
from tonkdsl.yamlsrc import Source, load_yaml_file

FREQUENT = 0.05
CODES = {
    "pack-cannot-deal": "The pack cannot serve the deal",
    "deal-win-odds": "Odds of an automatic win per dealt hand",
    "deal-win-impossible": "An automatic win no hand can meet",
    "deal-win-always": "An automatic win every hand meets",
    "deal-win-frequent": "An automatic win in more than 5% of hands",
    "deal-win-overlap": "Automatic wins that overlap with no conflict policy",
    "values-threshold": "Card values at odds with a threshold",
    "ending-undefined": "A way to end a hand with no rule",
    "ending-impossible": "An ending that can never happen",
    "rule-for-disabled": "A rule about something the ruleset turned off",
    "payout-negative": "A negative payout amount",
    "winner-pays": "A winner who pays",
    "never-fired": "A rule that never fired in simulation",
    "winner-loses": "A winner who lost money in simulation",
    "extends-noop": "An override that changes nothing",
}


@dataclass
class LintReport:
    ruleset: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    odds: OddsTable | None = None

    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]


class _Linter:
    def __init__(self, doc: Doc, rs: Ruleset, root: Source) -> None:
        self.doc, self.rs, self.data, self.root = doc, rs, doc.data, root
        self.out: list[Diagnostic] = []

    def where(self, path: Path) -> tuple[str, int, int]:
        src, spath = self.doc.origin(path)
        line, col = src.locate(spath)
        return (src.file, line, col)

    def add(self, code: str, severity: str, message: str, path: Path, *also: Path, hint: str = "") -> None:
        d = self.doc.diagnostic(code, message, path, hint=hint)
        related = tuple(dict.fromkeys(self.where(p) for p in also))
        root = self.root
        if d.file != root.file:
            # The line is inherited: point at the file being linted too (its 'extends').
            line, col = root.locate(("extends",))
            related = ((root.file, line, col),) + tuple(r for r in related if r != (root.file, line, col))
        self.out.append(Diagnostic(d.code, d.message, d.file, d.line, d.column, d.path, severity,
                                   d.source_line, d.hint, related))

    def has(self, *path: Any) -> bool:
        node: Any = self.data
        for p in path:
            if isinstance(node, dict) and p in node:
                node = node[p]
            else:
                return False
        return True

    def rule_index(self, rule_id: str) -> int:
        rules = self.data.get("deal_wins", {}).get("rules", [])
        return next(i for i, r in enumerate(rules) if r.get("id") == rule_id)

    # --- checks -----------------------------------------------------------------------------
    def pack(self) -> None:
        rs = self.rs
        need = rs.players_max * rs.hand_size + (1 if rs.upcard else 0)
        if need > len(rs.pack):
            up = " + the upcard" if rs.upcard else ""
            self.add("pack-cannot-deal", "error",
                     f"the pack has {len(rs.pack)} cards, but {rs.players_max} players x {rs.hand_size} cards{up} "
                     f"need {need}", ("players", "max"), ("deal", "hand_size"), ("pack", "ranks"),
                     hint=f"allow at most {(len(rs.pack) - (1 if rs.upcard else 0)) // rs.hand_size} players")

    def deal_wins(self) -> OddsTable | None:
        rs = self.rs
        if not rs.deal_wins or rs.hand_size > 12:
            return None
        table = compute(rs)
        for odds in table.odds:
            path: Path = ("deal_wins", "rules", self.rule_index(odds.rule), "when")
            self.add("deal-win-odds", "note", f"'{odds.rule}': {odds.describe()}", path)
            if odds.hands is None:
                continue
            if odds.hands == 0:
                self.add("deal-win-impossible", "error",
                         f"no hand of {rs.hand_size} cards can meet '{odds.rule}' with this pack and these values "
                         f"(hands count {table.min_count} to {table.max_count})", path, ("pack", "values"))
            elif odds.hands == odds.total:
                self.add("deal-win-always", "error", f"every hand meets '{odds.rule}': no hand would be played",
                         path)
            elif odds.share > FREQUENT:
                self.add("deal-win-frequent", "warning",
                         f"'{odds.rule}' wins on the deal in {odds.share:.1%} of hands ({odds.describe()}): "
                         f"more than {FREQUENT:.0%} of hands are not played", path, ("deal", "hand_size"))
        priorities = {r.id: r.priority for r in rs.deal_wins}
        for a, b, n in table.overlaps:
            if priorities[a] == priorities[b]:
                self.add("deal-win-overlap", "warning",
                         f"{n:,} hands meet both '{a}' and '{b}', which have the same priority: which one is paid "
                         "is left to their order in the file", ("deal_wins", "rules", self.rule_index(a)),
                         ("deal_wins", "rules", self.rule_index(b)),
                         hint="give them different 'priority' values (the higher is paid)")
        for r in rs.deal_wins:
            literals = [int(x) for x in re.findall(r"\b\d+\b", r.when.source)]
            high = [x for x in literals if x >= 40]
            if high and "count" in r.when.source and table.max_count > max(high) + 2:
                self.add("values-threshold", "warning",
                         f"'{r.id}' is about high hands ({', '.join(map(str, high))}), but with these card values "
                         f"a hand of {rs.hand_size} cards can count up to {table.max_count}", ("deal_wins", "rules", self.rule_index(r.id), "when"),
                         ("pack", "values"))
        return table

    def endings(self) -> None:
        rs = self.rs
        e = rs.endings
        if "stock" in rs.draw_from and rs.stock_exhausted is not None and "stock_exhausted" not in e:
            self.add("ending-undefined", "error",
                     "the stock can run out, but the ruleset says nothing about an exhausted stock "
                     "(the hand would be dead)", ("stock", "exhausted") if self.has("stock") else ("endings",),
                     hint="add endings.stock_exhausted (who wins, who pays), or void_if: true for a dead hand")
        if "stock" in rs.draw_from and rs.stock_exhausted is None:
            self.add("ending-undefined", "error", "the ruleset does not say when the stock is exhausted",
                     ("endings",), hint="add stock: {exhausted: draw_from_empty}")
        drop_possible = rs.drop_allowed.source.strip() != "false"
        for kind in ("drop_won", "drop_caught"):
            if drop_possible and kind not in e:
                self.add("ending-undefined", "error", f"a player may drop, but there is no rule for '{kind}'",
                         ("turn", "drop", "allowed"))
        min_meld = min(rs.book_min, rs.run_min)
        hits = rs.hit_books or rs.hit_runs
        if rs.hand_size + 1 < min_meld and not hits:
            for kind in ("tonk_out", "out_on_discard"):
                if kind in e:
                    self.add("ending-impossible", "warning",
                             f"'{kind}' can never happen: a hand holds at most {rs.hand_size + 1} cards, the smallest "
                             f"spread is {min_meld} cards, and spreads cannot be hit", ("endings", kind),
                             ("deal", "hand_size"), ("melds",))
        for kind, ending in e.items():
            for j, t in enumerate(ending.payouts):
                path: Path = ("endings", kind, "payouts", j)
                if re.fullmatch(r"\s*-\s*\d+\s*(\*.*)?", t.amount.source):
                    self.add("payout-negative", "error", f"the payout '{t.id}' is a negative amount "
                             f"({t.amount.source}); swap 'from' and 'to' instead", path + ("amount",))
                if t.payers.source.strip() == ending.winners.source.strip():
                    self.add("winner-pays", "error", f"in '{kind}', the payout '{t.id}' is paid by the winners "
                             f"({ending.winners.source})", path + ("from",), ("endings", kind, "winners"))

    def disabled(self) -> None:
        rs = self.rs
        no_hits = not rs.hit_books and not rs.hit_runs
        for name, spec in (self.data.get("counters") or {}).items():
            for j, ev in enumerate(spec.get("events", [])):
                if ev.get("on") == "spread_hit" and no_hits and rs.slapping is None:
                    self.add("rule-for-disabled", "warning",
                             f"the counter '{name}' changes when a spread is hit, but spreads cannot be hit",
                             ("counters", name, "events", j), ("hits",))
        if rs.wild_in_melds and not any(rs.pack.wild):
            self.add("rule-for-disabled", "warning", "wild cards may stand in spreads, but the pack has no wild card",
                     ("melds", "wild_cards"), ("pack",), hint="list them in pack.wild, e.g. [2, JK]")
        if rs.jokers_in_melds and not any(s is None for s in rs.pack.suits):
            self.add("rule-for-disabled", "warning", "jokers may be part of spreads, but the pack has no joker",
                     ("melds", "jokers_in_melds"), ("pack",))
        if rs.slapping is not None and no_hits:
            self.add("rule-for-disabled", "warning", "slapping plays a discard onto a spread, but spreads cannot be hit",
                     ("slapping",), ("hits",))
        if rs.hits_per_turn is not None and no_hits:
            self.add("rule-for-disabled", "warning", "a limit on hits per turn, but spreads cannot be hit",
                     ("hits", "max_cards_per_turn"), ("hits",))
        if rs.hold_except is not None and (rs.hold_allowed is None or rs.hold_allowed.source.strip() == "true"):
            self.add("rule-for-disabled", "warning", "an exception to holding spreads, but holding is allowed anyway",
                     ("melds", "hold", "except"), ("melds", "hold", "allowed"))

    def run(self) -> list[Diagnostic]:
        self.pack()
        self.deal_wins()
        self.endings()
        self.disabled()
        return self.out


def _noop_overrides(path: FsPath, allow_paths: Iterable[FsPath]) -> list[Diagnostic]:
    """Lines of a file that set what the ruleset it extends already says."""
    src = load_yaml_file(path)
    data = src.data
    if not isinstance(data, dict) or not isinstance(data.get("extends"), str):
        return []
    parent = read_doc(resolve_name(data["extends"], path.parent), allow_paths=allow_paths)
    out: list[Diagnostic] = []

    def walk(child: Any, base: Any, cpath: Path) -> None:
        if isinstance(child, dict) and isinstance(base, dict):
            for key, value in child.items():
                if cpath == () and key in ("extends", "remove", "name", "description"):
                    continue
                if key == "id" or key not in base:
                    continue
                walk(value, base[key], cpath + (key,))
        elif isinstance(child, list) and is_id_list(child) and is_id_list(base):
            ids = {x["id"]: x for x in base}
            for j, item in enumerate(child):
                if item["id"] in ids:
                    walk(item, ids[item["id"]], cpath + (j,))
        elif child == base and cpath:
            shown = ("true" if child else "false") if isinstance(child, bool) else repr(child)
            d = src.diagnostic("extends-noop", f"'{'.'.join(str(p) for p in cpath)}' is already {shown} in "
                               f"'{data['extends']}': this line changes nothing", cpath, key=True)
            out.append(Diagnostic(d.code, d.message, d.file, d.line, d.column, d.path, "warning", d.source_line))
    walk(data, parent.data, ())
    return out


def _root_source(doc: Doc, path: FsPath) -> Source:
    """The Source of the file being linted (named as in every other diagnostic)."""
    for src, _ in doc.origins.values():
        if FsPath(src.file).resolve() == path.resolve() or src.file == str(path):
            return src
    return load_yaml_file(path, display_name(path))


def lint(ref: str | FsPath, *, allow_paths: Iterable[FsPath] = (), simulate: int = 0, seed: int = 0) -> LintReport:
    """Lint a ruleset; raises :class:`LoadError` when it cannot be read or is not valid."""
    doc = load_doc(ref, allow_paths=allow_paths)
    problems = validate(doc)
    if problems:
        raise LoadError(problems)
    rs, problems = build(doc)
    if problems or rs is None:
        raise LoadError(problems)
    path = ref if isinstance(ref, FsPath) else resolve_name(ref)
    root = _root_source(doc, path)
    linter = _Linter(doc, rs, root)
    diags = linter.run()
    diags += _noop_overrides(path, allow_paths)
    if simulate:
        from tonkdsl.lint.fired import never_fired

        diags += never_fired(linter, simulate, seed)
    order = {"error": 0, "warning": 1, "note": 2}
    diags.sort(key=lambda d: (order.get(d.severity, 3), d.file, d.line, d.column))
    return LintReport(str(ref), diags, None)


__all__ = ["CODES", "LintReport", "lint"]
