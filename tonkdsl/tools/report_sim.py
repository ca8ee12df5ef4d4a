"""How ``tonk simulate`` shows its results: text with intervals, significance marks, plots."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from tonkdsl.interpreter.outcome import END_KINDS
from tonkdsl.interpreter.session import MAX_MATCH_HANDS
from tonkdsl.tools.stats import Z95, two_means, two_proportions
from tonkdsl.tools.tables import render, table

Result = tuple[str, str, dict[str, Any]]  # (ruleset as given, its name, summary)


def compare(results: Sequence[Result]) -> dict[str, list[str]]:
    """For each ruleset after the first: what differs from the first at the 95% level."""
    marks: dict[str, list[str]] = {}
    if len(results) < 2:
        return marks
    _, _, base = results[0]
    for ref, _, data in results[1:]:
        found = []
        for kind in END_KINDS:
            a, b = base["endings"][kind], data["endings"][kind]
            if abs(two_proportions(b["hands"], data["hands"], a["hands"], base["hands"])) > Z95:
                found.append(f"endings.{kind}")
        for sa, sb in zip(base["seats"], data["seats"]):
            if abs(two_means(sb["per_hand"], sb["ci95"][0], sa["per_hand"], sa["ci95"][0])) > Z95:
                found.append(f"seats.{sa['seat']}")
        la, lb = base["length"], data["length"]
        if abs(two_means(lb["mean"], lb["ci95"][0], la["mean"], la["ci95"][0])) > Z95:
            found.append("length")
        marks[ref] = found
    return marks


def _pct(share: float, ci: Sequence[float]) -> str:
    return f"{share:6.1%} [{ci[0]:.1%}, {ci[1]:.1%}]"


def render_text(results: Sequence[Result], marks: dict[str, list[str]], bots: Sequence[str], seed: int | str) -> str:
    """The report; ``seed``: the run's seed, or words for several ("seeds 1, 2", tonk merge)."""
    first = results[0][2]
    played = f"{first['hands']:,} hands"
    if "matches" in first:  # -n counts matches for a ruleset that plays them
        played = f"{first['matches']['matches']:,} matches ({played})"
    lines = [f"{played} per ruleset, {first['players']} players ({', '.join(bots)}), {seed if isinstance(seed, str) else f'seed {seed}'}; "
             "95% confidence intervals in brackets" + ("; * differs from the first ruleset" if len(results) > 1 else ""),
             ""]
    t = table(["", *(name for _, name, _ in results)])

    def mark(ref: str, key: str) -> str:
        return " *" if key in marks.get(ref, []) else ""

    def section(title: str) -> None:
        t.add_row(title, *("" for _ in results))

    section("ending")
    for kind in END_KINDS:
        if not any(d["endings"][kind]["hands"] for _, _, d in results):
            continue
        t.add_row(f"  {kind}", *(_pct(d["endings"][kind]["share"], d["endings"][kind]["ci95"]).strip()
                                 + mark(ref, "endings." + kind) for ref, _, d in results))
    section("money per hand, by seat")
    for i in range(first["players"]):
        t.add_row(f"  seat {i + 1}", *(f"{d['seats'][i]['per_hand']:+.3f} [{d['seats'][i]['ci95'][0]:+.3f}, "
                                        f"{d['seats'][i]['ci95'][1]:+.3f}]" + mark(ref, f"seats.{i + 1}")
                                        for ref, _, d in results))
    if any(s.get("score") for _, _, d in results for s in d["seats"]):  # a score sheet is kept
        section("score per hand, by seat")
        for i in range(first["players"]):
            cells = []
            for _, _, d in results:
                seat = d["seats"][i]
                lo, hi = seat.get("score_ci95", [0.0, 0.0])
                cells.append(f"{seat.get('score_per_hand', 0.0):+.3f} [{lo:+.3f}, {hi:+.3f}]")
            t.add_row(f"  seat {i + 1}", *cells)
    section("hand length (actions)")
    t.add_row("  mean, median, p90", *(f"{d['length']['mean']:.1f} [{d['length']['ci95'][0]:.1f}, "
                                       f"{d['length']['ci95'][1]:.1f}], {d['length']['median']}, {d['length']['p90']}"
                                       + mark(ref, "length") for ref, _, d in results))
    if any("matches" in d for _, _, d in results):
        section("matches won, by seat")
        for i in range(first["players"]):
            t.add_row(f"  seat {i + 1}", *(_pct(d["matches"]["wins"][i]["share"], d["matches"]["wins"][i]["ci95"]).strip()
                                            if "matches" in d else "-" for _, _, d in results))
        t.add_row("  match length, hands", *(
            f"{d['matches']['hands']['mean']:.1f} [{d['matches']['hands']['ci95'][0]:.1f}, "
            f"{d['matches']['hands']['ci95'][1]:.1f}], {d['matches']['hands']['median']}, {d['matches']['hands']['p90']}"
            if "matches" in d else "-" for _, _, d in results))
    lines.append(render(t))
    for ref, name, d in results:
        capped = d.get("matches", {}).get("capped")
        if capped:
            lines.append(f"  {capped:,} of {d['matches']['matches']:,} matches ({name}) stopped at the cap of "
                         f"{MAX_MATCH_HANDS:,} hands (MAX_MATCH_HANDS) before their end: nobody won them")
    for ref, name, d in results:
        pot = d.get("pot")
        if pot:
            length = pot["session_hands"]
            how = "the ruleset's sessions" if pot["set_by_ruleset"] else \
                f"sessions of {length} hands (the ruleset sets no session.hands; a table plays on)"
            lines.append(f"the pot ({name}) carries over from hand to hand within {how}; money left in it when "
                         f"the sessions ended: {d.get('pot_left', 0):,} in all, "
                         f"{d.get('pot_left', 0) / max(d['sessions'], 1):,.2f} a session")
    lines += _said_plainly(results)
    for ref, name, d in results:
        for what, found in ((f"rules that paid ({name})", d["rules"]), (f"score rules that scored ({name})",
                                                                         d.get("scored") or {})):
            if found:
                rules = table([what, "share of hands"])
                for rule, r in found.items():
                    rules.add_row(f"  {rule}", _pct(r["share"], r["ci95"]).strip())
                lines += ["", render(rules)]
        if not d["rules"] and not d.get("scored"):
            lines.append(f"rules that paid or scored ({name}): none in these hands")
    return "\n".join(lines)


def _said_plainly(results: Sequence[Result]) -> list[str]:
    """What a table of shares would let a reader miss: every hand ending the same way, and the
    rules of the ruleset that never paid (the bots never made them happen)."""
    lines = []
    for _, name, d in results:
        only = [k for k in END_KINDS if d["hands"] and d["endings"][k]["hands"] == d["hands"]]
        if only:
            lines.append(f"note ({name}): every hand ended the same way, {only[0]}: no other ending of the "
                         "ruleset happened; bots that play closer to people (--bots montecarlo or strong) may "
                         "reach the others")
        never = d.get("never_paid") or []
        if never and d["hands"]:
            lines.append(f"note ({name}): {len(never)} rule{'s' if len(never) != 1 else ''} never paid in these "
                         f"hands: {', '.join(never)}")
    return lines


def plot_results(results: Sequence[Result], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = [k for k in END_KINDS if any(d["endings"][k]["hands"] for _, _, d in results)]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(results)
    for j, (_, name, d) in enumerate(results):
        xs = [i + j * width for i in range(len(kinds))]
        shares = [d["endings"][k]["share"] for k in kinds]
        err = [[s - d["endings"][k]["ci95"][0] for k, s in zip(kinds, shares)],
               [d["endings"][k]["ci95"][1] - s for k, s in zip(kinds, shares)]]
        ax1.bar(xs, shares, width, yerr=err, label=name, capsize=2)
        seats = d["seats"]
        sx = [i + j * width for i in range(len(seats))]
        means = [s["per_hand"] for s in seats]
        serr = [[m - s["ci95"][0] for m, s in zip(means, seats)], [s["ci95"][1] - m for m, s in zip(means, seats)]]
        ax2.bar(sx, means, width, yerr=serr, label=name, capsize=2)
    ax1.set_xticks([i + width * (len(results) - 1) / 2 for i in range(len(kinds))], kinds, rotation=30, ha="right")
    ax1.set_ylabel("share of hands")
    ax1.set_title("How hands end (95% CI)")
    ax2.set_xticks([i + width * (len(results) - 1) / 2 for i in range(results[0][2]["players"])],
                   [f"seat {i + 1}" for i in range(results[0][2]["players"])])
    ax2.axhline(0, color="grey", linewidth=0.8)
    ax2.set_ylabel("money per hand (stakes)")
    ax2.set_title("Seat advantage (95% CI)")
    ax1.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
