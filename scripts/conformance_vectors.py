"""Write the conformance vectors: ``specs/conformance/vectors.jsonl``, ``digests.json`` and ``shuffle.json``,
from the cases of ``tests/vectors.toml`` and the worked examples of ``tests/catalogue.toml``.

    python scripts/conformance_vectors.py           # regenerate; fails if a case's outcome changed
                                                    # while the game's RULES_VERSION did not
    python scripts/conformance_vectors.py --check   # only check that the files are what it writes

The data says what each case asks and why; the expected outcomes are this engine's answers
(fly_rules.conformance.answers), and the digests keep each outcome per game and rules version, so
that an outcome cannot change without ``RULES_VERSION`` changing. Before it writes, the generator
checks the cases: every rule of the spec has a case, and two where its behaviour can differ; every
option value is shown by a case whose outcome it changes (proved: the same case under the option's
default gives another outcome); every case's moves reach the code of each rule it claims, and each
deliberate bug of tests/conformance/mutants.py is caught by a case claiming its rule
(tests/conformance/reach.py); each position carries exactly its rules' options. A new option value
gets its case from ``scripts/find_option_case.py``.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import tomllib
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fly_rules import dreyfus, fly  # noqa: E402
from fly_rules.cards import DECK_48, Card  # noqa: E402
from fly_rules.conformance.answers import answer, rules_of  # noqa: E402
from fly_rules.conformance.vectors import DIGESTS, VECTORS, digest, outcome  # noqa: E402
from fly_rules.notation import dump_history, parse_position, position_of  # noqa: E402
from fly_rules.notation.games import option_value, options_of, parse_action, rules_version  # noqa: E402
from fly_rules.notation.position import _option as _text  # noqa: E402  (an option's value as a position writes it)
from fly_rules.spec import load_rules  # noqa: E402

KIT = ROOT / "specs" / "conformance"
DATA = ROOT / "tests" / "vectors.toml"
Case = dict[str, Any]
_RULES = load_rules(ROOT / "specs")

# ------------------------------------------------------------------ positions and moves


def fly_position(spec: dict[str, Any], entry: dict[str, Any]) -> str:
    """The dealt position of a Fly case's ``hands``, ``trump``, ``dealer``, ``records`` and ``stock`` (the rest
    of the deck in canonical order unless given)."""
    rules: Any = rules_of("fly", spec)
    hands, trump, stock = entry["hands"], entry["trump"], entry.get("stock")
    if stock is None:
        used = {Card.parse(c) for hand in hands for c in hand.split()} | {Card.parse(trump)}
        stock = " ".join(str(card) for card in rules.deck if card not in used)
    deal = fly.new_deal(
        rules,
        hands=list(hands),
        trump_card=trump,
        stock=stock,
        dealer=entry.get("dealer", 0),
        records=entry.get("records"),
    )
    return position_of(deal)


def dreyfus_position(spec: dict[str, Any], entry: dict[str, Any]) -> str:
    """The dealt position of a Dreyfus case: the hands and talon of the seeded deal of ``seed``, with its
    ``contract`` (default spades), ``dealer``, records ``upper`` and ``lower`` and deal ``number``."""
    rules: Any = rules_of("dreyfus", spec)
    dealer = entry.get("dealer", 0)
    fields = dreyfus.new_match(rules, seed=entry["seed"], dealer=dealer).deal.start_fields()
    contract = entry.get("contract", "S")
    deal = dreyfus.new_deal(
        rules,
        fields["hands"],
        fields["talon"],
        None if contract == "NT" else contract,
        dealer,
        entry.get("upper", (0, 0, 0)),
        entry.get("lower", (0, 0, 0)),
        deal_number=entry.get("number", 0),
    )
    return position_of(deal)


_TOKEN = re.compile(r"^(s|f|x(?:[2-9TJQKA][CDHS])+|p[2-9TJQKA][CDHS]|w[2-9TJQKA][CDHS])$")


def move_text(token: str) -> str:
    """A position-notation move (REC-5.2) as action text (REC-3.2)."""
    if not _TOKEN.match(token):
        raise ValueError(f"not a move: {token!r}")
    if token in ("s", "f"):
        return "stand" if token == "s" else "fold"
    cards = [token[i : i + 2] for i in range(1, len(token), 2)]
    verb = {"x": "exchange", "p": "play", "w": "swap-trump"}[token[0]]
    if verb == "exchange":
        cards = [str(c) for c in sorted(Card.parse(c) for c in cards)]
    return f"{verb} {' '.join(cards)}"


def expand_moves(case: Case, moves: str) -> list[str]:
    """``moves`` (position-notation tokens, space separated) as action texts; ``*`` is the first legal
    action in the kit's order, ``*N`` the first legal action N times over, ``^`` the last legal action."""
    texts: list[str] = []

    def legal() -> list[str]:
        request = {"cmd": "legal", **{k: case[k] for k in ("game", "rules", "position")}, "moves": texts}
        listed: list[str] = answer(request)["legal"]
        return listed

    for token in moves.split():
        if token == "^":
            texts.append(legal()[-1])
        elif token.startswith("*"):
            for _ in range(int(token[1:] or 1)):
                texts.append(legal()[0])
        else:
            texts.append(move_text(token))
    return texts


# ------------------------------------------------------------------ the cases of the data file


def _rules_spec(entry: dict[str, Any], game: str) -> dict[str, Any]:
    spec = {**entry.get("rules", {}), **entry.get("options", {})}
    if game == "fly" and "hands" in entry:
        spec = {"players": len(entry["hands"]), **spec}
    return spec


def _pack(entry: dict[str, Any], game: str, spec: dict[str, Any]) -> str:
    pack = entry["pack"]
    if pack not in ("deck", "reversed deck"):
        return str(pack)
    rules: Any = rules_of(game, spec)
    cards = list(rules.deck if game == "fly" else DECK_48)
    return " ".join(str(c) for c in (reversed(cards) if pack == "reversed deck" else cards))


_INPUTS = ("seed", "deal_number", "dealer", "bought", "recorded_before_lead", "upper", "lower", "winner")


def written_case(entry: dict[str, Any]) -> Case:
    """A ``[[case]]`` or ``[[option]]`` of the data file as a case (its moves expanded)."""
    game = entry.get("game", "fly")
    kind = entry.get("kind", "play")
    spec = _rules_spec(entry, game)
    case: Case = {"id": entry["id"], "game": game, "kind": kind, "rules": spec}
    if kind == "play":
        if "position" in entry:
            case["position"] = entry["position"]
        else:
            case["position"] = (fly_position if game == "fly" else dreyfus_position)(spec, entry)
        case["moves"] = expand_moves(case, entry.get("moves", ""))
    elif kind == "deal":
        case |= {"pack": _pack(entry, game, spec), "dealer": entry["dealer"]}
        if "deal_number" in entry:
            case["deal_number"] = entry["deal_number"]
    else:
        case |= {name: entry[name] for name in _INPUTS if name in entry}
    if "why" in entry:
        case |= {"why": entry["why"], "covers": list(entry["covers"])}
    return case


def history_cases(entries: list[dict[str, Any]]) -> list[Case]:
    """The ``[[history]]`` cases: an explicit deal's canonical history, or another's text changed."""
    texts: dict[str, str] = {}
    cases = []
    for entry in entries:
        if "from" in entry:
            text = texts[entry["from"]]
            for old, new in entry.get("replace", ()):
                assert text.count(old) == 1, (entry["id"], old)
                text = text.replace(old, new)
            text += entry.get("append", "")
        else:
            rules = fly.FlyRules(players=len(entry["hands"]))
            deal = fly.new_deal(
                rules, hands=entry["hands"], trump_card=entry["trump"], stock=entry["stock"], dealer=entry["dealer"]
            )
            start = deal.start_fields()
            for token in entry["moves"].split():
                deal = deal.apply(parse_action(move_text(token)))
            text = dump_history(deal, start=start)
        texts[entry["id"]] = text
        cases.append(
            {
                "id": entry["id"],
                "game": "fly",
                "kind": "history",
                "rules": {"players": 3},
                "text": text,
                "why": entry["why"],
                "covers": list(entry["covers"]),
            }
        )
    return cases


# ------------------------------------------------------------------ the catalogue

_TEST_RULE = re.compile(r"::test_(fly|drf|card|rec)_(\d+)_(\d+)([a-z]?)_")


def catalogue_cases() -> list[Case]:
    """Every worked example of tests/catalogue.toml as a case: its dealt position and all its moves."""
    data = tomllib.loads((ROOT / "tests" / "catalogue.toml").read_text(encoding="utf-8"))
    cases = []
    for number, example in enumerate(data["example"], start=1):
        found = _TEST_RULE.search(example["test"])
        assert found, example["test"]
        prefix, section, rule, letter = found.groups()
        rule_id = f"{prefix.upper()}-{section}.{rule}{letter}"
        slug = re.sub(r"[^a-z0-9]+", "-", example["title"].lower()).strip("-")[:48].strip("-")
        head = {
            "id": f"catalogue-{number:02d}-{slug}",
            "why": f"Catalogue: {example['title']}.",
            "covers": [rule_id],
            "catalogue": example["test"],
        }
        if "position" not in example:  # a settlement worked out from final records
            upper, lower, winner = _settle_arguments(example["expect"][0][0])
            settle = {"upper": list(upper), "lower": list(lower), "winner": winner}
            cases.append({**head, "game": "dreyfus", "kind": "settle", "rules": {}, **settle})
            continue
        fields = example["position"].split(" ")
        game = fields[0]
        moves = [] if fields[7] == "-" else fields[7].split(",")
        moves += example.get("moves", "").split()
        options = {} if fields[1] == "-" else dict(item.split("=") for item in fields[1].split(";"))
        spec: dict[str, Any] = {name: _plain(value) for name, value in options.items()}
        if game == "fly":
            spec = {"players": len(fields[4].split("/")), **spec}
        start = _dealt([*fields[:7], "-", "?", *fields[9:]])
        moved = {"position": start, "moves": [move_text(m) for m in moves]}
        cases.append({**head, "game": game, "kind": "play", "rules": spec, **moved})
    return cases


def _settle_arguments(expression: str) -> tuple[Any, Any, Any]:
    """The records and winner of a catalogue expectation ``dreyfus.settle(RULES, UPPER, LOWER, WINNER)``."""
    inner = expression.removeprefix("dreyfus.settle(").removesuffix(")")
    parts = [p for p in re.split(r",?\s*dreyfus\.DreyfusRules\([^)]*\),?\s*", inner) if p.strip()]
    upper, lower, winner = ast.literal_eval(parts[0])
    return upper, lower, winner


def _plain(value: str) -> Any:
    if value.startswith("["):
        return [_plain(v) for v in value[1:-1].split(",") if v]
    if value in ("true", "false"):
        return value == "true"
    return int(value) if value.isdigit() else value


def _dealt(fields: list[str]) -> str:
    """The dealt position of a position's fields, the turn filled in."""
    for turn in range(8):
        text = " ".join([*fields[:8], str(turn), *fields[9:]])
        try:
            parse_position(text)
        except ValueError:
            continue
        return text
    raise ValueError(f"no turn fits {fields}")


# ------------------------------------------------------------------ the option values

CONTEXT: dict[tuple[str, str], dict[str, Any]] = {
    ("fly", "tie_break"): {"stop_mode": "end_of_deal"},
    ("fly", "start_record"): {"stop_mode": "end_of_deal"},
    ("fly", "ace_no_trick_penalty_trumps"): {"ace_rank": "below_jack"},
    ("dreyfus", "revoke_upper_penalty"): {"revoke_mode": "penalize"},
    ("dreyfus", "revoke_penalty_per"): {"revoke_mode": "penalize"},
    ("dreyfus", "revoke_adds_undertricks"): {"revoke_mode": "penalize"},
    ("dreyfus", "shortfall_floor_zero"): {"settlement": "net_of_winner_upper"},
}
"""Options whose effect needs another option set: the value is proved against this context, not the default."""
CHANGED: dict[str, dict[str, list[Any]]] = {
    "fly": {
        "deck_size": [32, 48, 52],
        "deal_packets": [[3, 2]],
        "max_exchange": [3],
        "total_exchange_cap": [4],
        "start_record": [10],
        "trick_value": [2],
        "ace_bonus": [3],
        "ace_bonus_trumps": [5],
        "remise": [3],
        "ace_no_trick_penalty": [4],
        "ace_no_trick_penalty_trumps": [4],
        "max_deals": [1],
    },
    "dreyfus": {
        "par_tricks": [3],
        "target_lower": [5],
        "contract_cycle": [["H", "NT"]],
        "deal_packet_size": [4],
        "fosk_ranks": [[3, 4, 5, 6, 7, 8]],
        "max_deals": [1],
        "revoke_upper_penalty": [5],
        "forgot_record_penalty": [5],
    },
}
"""The changed value shown of each numeric option (every other is a Literal or a bool)."""


def option_values(game: str) -> Iterator[tuple[str, Any]]:
    """Every option value to show: each Literal value and bool other than the default, each numeric option at a
    changed value."""
    import attrs  # noqa: PLC0415

    cls: Any = fly.FlyRules if game == "fly" else dreyfus.DreyfusRules
    default: Any = cls() if game == "dreyfus" else cls(players=4)
    choices = getattr(cls, "_CHOICES", {})
    for field in attrs.fields(cls):
        name = field.name
        if not field.init or name == "players" or name.startswith("_"):
            continue
        current = option_value(getattr(default, name))
        if name in CHANGED[game]:
            values = CHANGED[game][name]
        elif name == "trump_duty":
            values = ["overtrump", "overtrump_or_free"]
        elif isinstance(current, bool):
            values = [not current]
        elif name in choices:
            values = [option_value(v) for v in choices[name] if v != getattr(default, name)]
        else:
            literal = field.type if isinstance(field.type, str) else ""
            values = [v for v in re.findall(r"[\"']([a-z_]+)[\"']", literal) if v != current]
        if not values:
            raise ValueError(f"{game} option {name}: no changed value to show")
        for value in values:
            yield name, value


def _without_option(case: Case, name: str, context: dict[str, Any]) -> Case:
    """The same case under the default value of ``name`` (the context kept); the position rewritten for those rules."""
    spec = {k: v for k, v in case["rules"].items() if k != name} | context
    other = {**case, "rules": spec}
    if case["kind"] == "play":
        other["position"] = _rewrite_options(case["game"], case["position"], spec)
    return other


def _rewrite_options(game: str, position: str, spec: dict[str, Any]) -> str:
    rules: Any = rules_of(game, spec)
    fields = position.split(" ")
    fields[1] = ";".join(f"{k}={_text(v)}" for k, v in options_of(rules).items()) or "-"
    return " ".join(fields)


def differs_from_default(case: Case, name: str) -> bool:
    """Whether the case's outcome changes when option ``name`` takes its default value (the proof)."""
    other = _without_option(case, name, CONTEXT.get((case["game"], name), {}))
    try:
        return outcome(other, answer) != outcome(case, answer)
    except ValueError:  # the position cannot even be written under the default: the outcomes differ
        return True


def option_rules(game: str, name: str) -> list[str]:
    """The rules whose Options field names ``name``."""
    prefix = "FLY-" if game == "fly" else "DRF-"
    found = [r.id for r in _RULES.values() if r.id.startswith(prefix) and any(f"`{name}`" in o for o in r.options)]
    fallback = {"max_deals": "FLY-10.1" if game == "fly" else "DRF-8.3"}
    return found or [fallback[name]]


def option_case(entry: dict[str, Any]) -> Case:
    """An ``[[option]]`` of the data file: the case, with the why and covers of the option it shows."""
    case = written_case(entry)
    game, name = case["game"], entry["shows"]
    value = case["rules"][name]
    context = CONTEXT.get((game, name), {})
    given = f" (with {', '.join(f'{k}={_text(v)}' for k, v in context.items())})" if context else ""
    case["why"] = (
        f"{name}={_text(value)}{given} changes this outcome: the same {case['kind']} under "
        f"{name}'s default gives another."
    )
    case["covers"] = option_rules(game, name)
    case["options"] = [f"{name}={_text(value)}"]
    return case


def show_options(written: list[Case], found: list[Case]) -> None:
    """Mark the first written case that shows each option value; every other value needs a found case.

    Raises:
        SystemExit: an option value has no case, or a found case does not change its outcome.
    """
    shown = {(c["game"], option) for c in found for option in c["options"]}
    for case in found:
        name = case["options"][0].partition("=")[0]
        if not differs_from_default(case, name):
            raise SystemExit(f"{case['id']}: its outcome is the same under {name}'s default")
    missing = []
    for game in ("fly", "dreyfus"):
        for name, value in option_values(game):
            text = f"{name}={_text(value)}"
            if (game, text) in shown:
                continue
            showing = next(
                (
                    c
                    for c in written
                    if c["game"] == game and c["rules"].get(name) == value and differs_from_default(c, name)
                ),
                None,
            )
            if showing is None:
                missing.append(f"{game} {text}")
            else:
                showing.setdefault("options", []).append(text)
    if missing:
        raise SystemExit(f"no case shows {', '.join(missing)}: run scripts/find_option_case.py")


# ------------------------------------------------------------------ checks and writing


def check_coverage(cases: list[Case], coverage: dict[str, dict[str, str]]) -> list[str]:
    """What is missing: every active rule has a case unless ``coverage["outside"]`` says why the kit cannot
    test it, and two unless ``coverage["single"]`` says why one is enough (each reason given once, and only
    for a rule it fits)."""
    counted = Counter(rule for case in cases for rule in case["covers"])
    active = {r for r, rule in _RULES.items() if not rule.retired}
    outside, single = coverage.get("outside", {}), coverage.get("single", {})
    problems = []
    missing = sorted(active - set(counted) - set(outside))
    if missing:
        problems.append(f"rules with no case: {' '.join(missing)}")
    once = sorted(r for r in active if counted[r] == 1 and r not in single)
    if once:
        problems.append(
            f"rules with one case (add one, or say in [coverage.single] why one is enough): {' '.join(once)}"
        )
    stale = sorted(r for r in single if counted[r] != 1) + sorted(r for r in outside if counted[r])
    if stale:
        problems.append(f"[coverage] excuses rules it does not fit: {' '.join(stale)}")
    return problems


def _check_position(case: Case) -> None:
    """A play case's position carries exactly its rules' options (REC-5.2), so an engine may read either."""
    if case["kind"] != "play":
        return
    try:
        deal: Any = parse_position(case["position"])
        rules: Any = rules_of(case["game"], case["rules"])
    except ValueError:
        return  # a refused position or rules: the case is about that refusal
    if options_of(deal.rules) != options_of(rules):
        raise SystemExit(f"{case['id']}: the position's options are not those of its rules")


def all_cases(data: dict[str, Any] | None = None) -> list[Case]:
    """Every case, with its rules version and expected outcome, in file order.

    Raises:
        SystemExit: a check of the cases fails.
    """
    from tests.conformance import reach  # noqa: PLC0415 - the checks are the test suite's

    data = data if data is not None else tomllib.loads(DATA.read_text(encoding="utf-8"))
    written = (
        catalogue_cases() + [written_case(e) for e in data.get("case", [])] + history_cases(data.get("history", []))
    )
    found = [option_case(e) for e in data.get("option", [])]
    show_options(written, found)
    cases = written + found
    seen: set[str] = set()
    finished = []
    for case in cases:
        if case["id"] in seen:
            raise SystemExit(f"two cases are named {case['id']}")
        seen.add(case["id"])
        _check_position(case)
        expected = outcome(case, answer)
        assert "error" not in expected, (case["id"], expected)
        if "refused" in expected and expected["refused"]["rule"] not in case["covers"]:
            case["covers"].append(expected["refused"]["rule"])
        ordered = {
            "id": case["id"],
            "rules_version": rules_version(case["game"]),
            "game": case["game"],
            "kind": case["kind"],
            "rules": case["rules"],
        }
        ordered |= {k: v for k, v in case.items() if k not in ordered and k not in ("why", "covers", "options")}
        ordered |= {"why": case["why"], "covers": sorted(set(case["covers"]))}
        if case.get("options"):
            ordered["options"] = sorted(set(case["options"]))
        ordered["expected"] = expected
        finished.append(ordered)
    coverage = data.get("coverage", {})
    problems = check_coverage(finished, coverage) + reach.problems(finished, coverage.get("untraced", {}))
    if problems:
        raise SystemExit("the cases do not test what they claim:\n  " + "\n  ".join(problems))
    return finished


def updated_digests(cases: list[Case], stored: dict[str, dict[str, dict[str, str]]]) -> dict[str, Any]:
    """The digests with this run's added; a changed outcome under an unchanged rules version is an error."""
    digests = json.loads(json.dumps(stored))
    changed = []
    for case in cases:
        by_id = digests.setdefault(case["game"], {}).setdefault(str(case["rules_version"]), {})
        new = digest(case["expected"])
        if by_id.get(case["id"], new) != new:
            changed.append(case["id"])
        by_id[case["id"]] = new
    if changed:
        raise SystemExit(
            "the outcome of these cases changed while RULES_VERSION did not (bump it, then rerun): " + " ".join(changed)
        )
    return digests


SHUFFLE_TEXTS = (
    "fly_rules:7:0",
    "fly_rules:0:0",
    "fly_rules:-42:1",
    "fly_rules:Муха:3",
    "fly_rules:7:-1",
    "fly_rules:7:first-dealer",
)
"""The seed texts whose generators shuffle.json shows (REC-6.2)."""


def shuffle_vectors() -> str:
    """The text of shuffle.json: for a few seed texts, the key's length and the generator's first outputs, and the
    shuffle of 32, 36, 48 and 52 positions (REC-6.1, REC-6.3, REC-6.4), from CPython's ``random`` as REC-6 says."""
    import hashlib  # noqa: PLC0415
    import random  # noqa: PLC0415

    generators = []
    for text in SHUFFLE_TEXTS:
        data = text.encode("utf-8")
        whole = int.from_bytes(data + hashlib.sha512(data).digest(), "big")
        generator = random.Random(text)
        generators.append(
            {
                "text": text,
                "key_words": (whole.bit_length() + 31) // 32,
                "first_words": [generator.getrandbits(32) for _ in range(8)],
            }
        )
    shuffles = []
    for text in SHUFFLE_TEXTS[:4]:
        for cards in (32, 36, 48, 52):
            order = list(range(cards))
            random.Random(text).shuffle(order)
            shuffles.append({"text": text, "cards": cards, "order": order})
    document = {
        "about": "The seeded shuffle of specs/records.md section 6: each generator's key length and first outputs, "
        "and positions 0 to cards-1 shuffled (scripts/conformance_vectors.py).",
        "generators": generators,
        "shuffles": shuffles,
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def rendered(cases: list[Case]) -> tuple[str, str]:
    """The text of vectors.jsonl and of digests.json for ``cases``."""
    text = "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases)
    digest_path = KIT / DIGESTS
    stored = json.loads(digest_path.read_text(encoding="utf-8")) if digest_path.exists() else {}
    return text, json.dumps(updated_digests(cases, stored), indent=1, sort_keys=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate (or with --check compare) the vectors and digests."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the files are up to date")
    args = parser.parse_args(argv)
    cases = all_cases()
    text, digest_text = rendered(cases)
    files = ((KIT / VECTORS, text), (KIT / DIGESTS, digest_text), (KIT / "shuffle.json", shuffle_vectors()))
    if args.check:
        stale = [p.name for p, t in files if not p.exists() or p.read_text(encoding="utf-8") != t]
        if stale:
            print(f"out of date: {', '.join(stale)} (run scripts/conformance_vectors.py)")
            return 1
        print(f"{len(cases)} cases up to date")
        return 0
    KIT.mkdir(parents=True, exist_ok=True)
    for path, written in files:
        path.write_text(written, encoding="utf-8")
    covered = {r for c in cases for r in c["covers"]}
    options = sum(len(c.get("options", [])) for c in cases)
    print(f"{len(cases)} cases, {len(covered)} rule IDs covered, {options} option values shown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
