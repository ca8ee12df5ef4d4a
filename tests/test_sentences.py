"""Rules sheets read as English (issue 34): expressions drawn from the grammar are read into
sentences that keep agreement, possessives and units, and the sheet of every shipped ruleset,
variation and recipe is free of the faults users met ("whose the", "the player's turns", a
number right after another, a doubled word, "(s)", a sentence said twice)."""
import re

import pytest
from hypothesis import assume, given, settings, strategies as st

from tonkdsl import load_ruleset
from tonkdsl.language.expr import BOOL, NUM, PLAYER, ExprError, compile_expr, list_of
from tonkdsl.language.names import make_names
from tonkdsl.tools.explain import explain
from tonkdsl.tools.explain.words import payment, players, words
from conftest import ROOT, TESTS

PLAYERS = list_of(PLAYER)
NAMES = make_names(["actor", "dropper"], ["waiting"], subject=True, card_sets=["winners", "spread"])
SET_NAMES = make_names(["actor", "dropper"], ["waiting"], subject=False, card_sets=["winners"])

# Numbers that count things, with the word that must follow a written number of them.
QUANTITIES = {"cards": "card", "turns": "turn", "spreads": "spread", "spreads_this_turn": "spread",
              "hits": "card", "num_players": "player", "stock": "card", "discards": "card",
              "spreads_on_table": "spread"}
PLAYER_QUANTITIES = ["cards", "turns", "spreads", "spreads_this_turn", "hits"]
NUM_ATTRS = ["count", "dealt_count", "deadwood_count", "total", "payout", "low_count", "waiting", "seat"]
BOOL_ATTRS = ["out_by_spread", "is_dealer", "deal_win"]
ROLES = ["actor", "dropper", "dealer"]
OPS = ["==", "!=", "<", "<=", ">", ">="]

small = st.integers(0, 60).map(str)
roles = st.sampled_from(ROLES)
card_conds = st.sampled_from(["rank in [J, Q, K]", "is_joker", "not is_wild", "suit == H", "value >= 10",
                              "rank == A and suit != S"])
card_sets = st.one_of(st.just("hand"), roles.map(lambda r: f"{r}.hand"), st.just("spread"),
                      st.just("deadwood(hand)"),
                      st.tuples(st.sampled_from(["hand", "spread"]), card_conds).map(lambda t: f"{t[0]} where {t[1]}"))


def quantity_clause() -> st.SearchStrategy[tuple[str, str, str]]:
    """(source, the number written, its unit) for a number of things compared with a number."""
    who = st.one_of(st.just(""), roles.map(lambda r: r + "."))
    player = st.tuples(who, st.sampled_from(PLAYER_QUANTITIES)).map(lambda t: (t[0] + t[1], QUANTITIES[t[1]]))
    table = st.sampled_from(["num_players", "stock", "discards", "spreads_on_table"]).map(
        lambda q: (q, QUANTITIES[q]))
    counted = st.tuples(st.sampled_from(["hand", "spread"]), card_conds).map(
        lambda t: (f"count({t[0]} where {t[1]})", "card"))
    return st.tuples(st.one_of(player, table, counted), st.sampled_from(OPS), st.integers(0, 12)).map(
        lambda t: (f"{t[0][0]} {t[1]} {t[2]}", str(t[2]), t[0][1]))


num_terms = st.one_of(
    small,
    st.sampled_from(NUM_ATTRS),
    st.tuples(roles, st.sampled_from(NUM_ATTRS)).map(lambda t: f"{t[0]}.{t[1]}"),
    st.tuples(st.sampled_from(["min", "max", "sum"]), st.sampled_from(["players", "others", "winners", "lowest"]),
              st.sampled_from(NUM_ATTRS)).map(lambda t: f"{t[0]}({t[1]}.{t[2]})"),
    card_sets.map(lambda s: f"max_same_rank({s})"),
    card_sets.map(lambda s: f"sum({s})"),
    st.sampled_from(["min_count", "stake", "pot", "turn", "round"]),
)
numbers = st.recursive(num_terms, lambda inner: st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(
    lambda t: f"({t[0]} {t[1]} {t[2]})"), max_leaves=3)
atoms = st.one_of(
    quantity_clause().map(lambda t: t[0]),
    st.tuples(numbers, st.sampled_from(OPS), numbers).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
    st.sampled_from(BOOL_ATTRS),
    st.tuples(roles, st.sampled_from(BOOL_ATTRS)).map(lambda t: f"{t[0]}.{t[1]}"),
    st.tuples(roles, st.sampled_from(["winners", "others", "lowest"])).map(lambda t: f"{t[0]} in {t[1]}"),
    card_sets.map(lambda s: f"is_book({s})"),
    st.tuples(st.sampled_from(["QS", "JK"]), card_sets).map(lambda t: f"{t[0]} in {t[1]}"),
)
clauses = st.recursive(atoms, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    inner.map(lambda x: f"not {x}")), max_leaves=4)
item_conds = st.one_of(
    st.tuples(st.sampled_from(NUM_ATTRS), st.sampled_from(OPS), st.one_of(small, st.sampled_from(
        ["min_count", "dropper.count", "min(others.count)"]))).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
    quantity_clause().map(lambda t: t[0]),
    st.sampled_from(BOOL_ATTRS + ["not deal_win", "count(hand where is_joker) >= 1", "max_same_rank(hand) >= 3"]))
player_sets = st.tuples(st.sampled_from(["players", "others", "lowest", "winners"]),
                        st.lists(item_conds, max_size=2)).map(
    lambda t: t[0] + (" where " + " and ".join(t[1]) if t[1] else ""))


def compiles(source: str, names: object, kind: object) -> bool:
    try:
        compile_expr(source, names, kind)
        return True
    except ExprError:
        return False


PLURAL_NOUNS = r"turns|cards|hits|spreads|counts|totals|payouts"


def faults(text: str) -> list[str]:
    """What the issue's reader met, found in ``text``."""
    checks = {
        "unreadable": text.startswith("'") or "\x01" in text,
        "whose the": bool(re.search(r"\bwhose (the|a|every)\b", text)),
        "a plural with 'is'": any(m.group(1) != "of" for m in re.finditer(
            rf"([a-z]+) (?:the )?(?:other )?[a-z]+'s? (?:{PLURAL_NOUNS})(?: [a-z]+)* is\b", text)),
        "a counter not called one": bool(re.search(r"'s (waiting|locked)\b(?! counter)", text)),
        "doubled word": bool(re.search(r"\b([a-z]+) \1\b", text)),
        "number after number": bool(re.search(r"(?<![A-Z0-9])\d+ \d+(?![A-Z0-9])", text)),
        "(s)": "(s)" in text,
        "each after every": bool(re.search(r"\bevery\b[^.;]*\beach\b", text)),
    }
    return [k for k, v in checks.items() if v]


@given(clauses)
def test_every_condition_reads_as_a_sentence(source: str) -> None:
    assume(compiles(source, NAMES, BOOL))
    text = words(source)
    assert faults(text) == [], (source, text)


@given(numbers)
def test_every_number_reads_as_a_noun_phrase(source: str) -> None:
    assume(compiles(source, NAMES, NUM))
    text = words(source)
    assert faults(text) == [], (source, text)


@given(quantity_clause())
def test_a_number_of_things_is_said_with_its_unit(case: tuple[str, str, str]) -> None:
    source, n, unit = case
    assume(compiles(source, NAMES, BOOL))
    text = words(source)
    said = re.search(rf"\b(\d+|no) ({unit}s?)\b", text)
    assert said is not None, (source, text)
    number, noun = said.groups()
    assert noun == (unit if number == "1" else unit + "s"), (source, text)  # "1 card", "2 cards", "no cards"


@given(player_sets, player_sets, st.sampled_from(["stake", "2 * stake", "(dropper.count - payee.count) * stake"]))
def test_a_payment_reads_payer_amount_payee(payers_src: str, payees_src: str, amount_src: str) -> None:
    assume(compiles(payers_src, SET_NAMES, PLAYERS) and compiles(payees_src, SET_NAMES, PLAYERS))
    said, conds = payment(payers_src, payees_src, amount_src, 1)
    assert faults(said) == [] and all(faults(c) == [] for c in conds), (payers_src, payees_src, said)
    assert re.match(r"every |the ", said), said
    assert " pays " in said and " to " in said.split(" pays ", 1)[1]


@settings(max_examples=20)
@given(player_sets)
def test_a_condition_not_about_the_members_is_said_apart(base: str) -> None:
    source = f"{base} and num_players == 2" if " where " in base else f"{base} where num_players == 2"
    assume(compiles(source, SET_NAMES, PLAYERS))
    who, cond = players(source)
    assert cond is not None and cond.endswith("there are 2 players") and "players is 2" not in who, (source, who)


def test_the_issue_examples_read_well() -> None:
    assert players("players where num_players == 2") == ("every player", "there are 2 players")
    assert words("players where payout == min(players.payout)", None) == \
        "every player whose payout this hand is the lowest of the players' payouts this hand"
    assert words("min(players.dealt_count)", None) == "the lowest of the players' counts as dealt"
    assert words("turns > 1") == "the player has had more than 1 turn"
    assert words("locked == 0".replace("locked", "waiting")) == "the player's waiting counter is 0"
    assert words("actor in winners") == "the player is among the winners of the hand"
    assert words("turns == 1 and hits == 0") == "the player has had 1 turn and has hit no cards onto spreads"
    assert payment("players where max_same_rank(hand) >= 4", "pot", "stake", 1) == \
        ("every player who holds at least 4 cards of one rank puts 1 (the stake) into the pot", [])
    assert payment("others", "actor", "2 * stake", 1) == ("every other player pays 2 (2 x the stake) to the player", [])
    assert words("count", "scored") == "their count"


def sheets() -> list[tuple[str, str]]:
    paths = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((TESTS / "variations").glob("*.yaml"))
    return [(p.stem, explain(load_ruleset(p), "text", 1)) for p in paths] + [
        (p.stem, p.read_text()) for p in sorted((ROOT / "docs" / "recipe-sheets").glob("*.md"))]


@pytest.mark.parametrize("name,sheet", sheets(), ids=lambda x: x if len(x) < 60 else "")
def test_every_sheet_is_free_of_the_faults(name: str, sheet: str) -> None:
    ranks = r"\b(?:A|[2-9]|10|J|Q|K|JK)(?: (?:A|[2-9]|10|J|Q|K|JK)){2,}\b"  # the ranks listed: "A 2 3 ... K"
    for line in sheet.splitlines():
        if line.startswith(("A book", "#", "<!--")) or set(line) <= {"=", "-"}:
            continue  # card names: "7H 7H 7S"
        assert faults(re.sub(ranks, "RANKS", line)) == [], line
    for section in re.split(r"\n\n", sheet):
        said = [s for s in section.splitlines() if s.strip()]
        assert len(said) == len(set(said)) or section.count("Score sheet") > 1, section


@pytest.mark.parametrize("at", [["start"], ["before_discard"], ["instead_of_discard"], ["start", "before_discard"],
                                ["start", "instead_of_discard"], ["before_discard", "instead_of_discard"],
                                ["start", "before_discard", "instead_of_discard"]])
def test_every_drop_moment_is_said_once(tmp_path, at: list[str]) -> None:
    path = tmp_path / "drop.yaml"
    path.write_text(f"extends: standard\nname: Drops\nturn:\n  drop:\n    at: [{', '.join(at)}]\n")
    sheet = explain(load_ruleset(path), "text", 1)
    turn = sheet.split("A turn\n------\n")[1].split("\n\n")[0].splitlines()
    assert len(turn) == len(set(turn)) and sum("you may drop" in line for line in turn) == 1, turn
    said = next(line for line in turn if "you may drop" in line)
    assert ("before your discard" in said) == ("before_discard" in at and "instead_of_discard" not in at)
    assert all(faults(line) == [] for line in turn)
