"""Find a conformance case for each option value no case of ``tests/vectors.toml`` shows yet, and print it as an
``[[option]]`` entry to add there.

    python scripts/find_option_case.py                 # every option value without a case
    python scripts/find_option_case.py fly tie_break   # one option (each of its changed values)

A case is searched for by random play from seeded deals: the first position and moves at which the outcome
under the value differs from the outcome under the option's default (or under the context the option needs,
such as ``stop_mode="end_of_deal"`` for ``tie_break``). ``scripts/conformance_vectors.py`` proves it again.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fly_rules import dreyfus, fly  # noqa: E402
from fly_rules.cards import DECK_48  # noqa: E402
from fly_rules.conformance.answers import answer, rules_of  # noqa: E402
from fly_rules.dreyfus.deal import contract_of  # noqa: E402
from fly_rules.engine import shuffled  # noqa: E402
from fly_rules.notation import position_of  # noqa: E402
from fly_rules.notation.position import _option as _text  # noqa: E402

GENERATOR = ROOT / "scripts" / "conformance_vectors.py"
Case = dict[str, Any]

DEAL_OPTIONS = {
    ("fly", "deal_packets"),
    ("fly", "deck_size"),
    ("dreyfus", "deal_packet_size"),
    ("dreyfus", "contract_cycle"),
}
"""Options shown by a deal case (the rest show in play but one)."""
PURCHASE_OPTIONS = {("dreyfus", "forgot_record_penalty")}
"""Options shown by a purchase case."""


def _generator() -> Any:
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("conformance_vectors", GENERATOR)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _policy(rng: random.Random, legal: list[str], fold: float) -> str:
    """A random action, folding with probability ``fold`` when allowed, standing often."""
    if "fold" in legal and rng.random() < fold:
        return "fold"
    if "stand" in legal and rng.random() < 0.3:
        return "stand"
    return rng.choice(legal)


def _deal_case(game: str, spec: dict[str, Any], seed: int) -> Case:
    players = 4 if game == "fly" else 3
    full = {"players": players, **spec} if game == "fly" else spec
    rules: Any = rules_of(game, full)
    deck = rules.deck if game == "fly" else DECK_48
    case: Case = {"id": "", "game": game, "kind": "deal", "rules": full}
    case |= {"pack": " ".join(str(c) for c in shuffled(deck, seed, 0)), "dealer": seed % players}
    if game == "dreyfus":
        case["deal_number"] = seed % 7
    return case


def _random_play(game: str, spec: dict[str, Any], seed: int, rng: random.Random) -> Case | None:
    if game == "fly":
        players = 7 if seed % 3 == 0 else 4 if seed % 3 == 1 else 3
        full = {"players": players, **spec}
        try:
            rules: Any = rules_of("fly", full)
        except ValueError:
            return None
        fields = fly.new_match(rules, seed=seed, dealer=seed % players).deal.start_fields()
        fields["records"] = [rng.choice([1, 2, 3, 6, 11, 25, 25, 25, 25]) for _ in range(players)]
        position = position_of(fly.new_deal(rules, **fields))
    else:
        full = dict(spec)
        rules = rules_of("dreyfus", full)
        fields = dreyfus.new_match(rules, seed=seed, dealer=seed % 3).deal.start_fields()
        number = rng.randrange(6)
        lower = [max(0, rules.target_lower - rng.choice([10, 5, 3, 2, 1])) for _ in range(3)]
        upper = [rng.choice([0, 3, 12]) for _ in range(3)]
        deal = dreyfus.new_deal(
            rules,
            fields["hands"],
            fields["talon"],
            contract_of(rules, number),
            seed % 3,
            upper,
            lower,
            deal_number=number,
        )
        position = position_of(deal)
    case: Case = {"id": "", "game": game, "kind": "play", "rules": full, "position": position, "moves": []}
    fold = rng.choice([0.0, 0.3, 0.8])
    for _ in range(200):
        got = answer({"cmd": "legal", **{k: case[k] for k in ("game", "rules", "position", "moves")}})
        legal = got.get("legal", [])
        if not legal:
            break
        case["moves"].append(_policy(rng, legal, fold))
    return case


def search_option(generator: Any, game: str, name: str, value: Any, tries: int = 300) -> Case:
    """The first position and moves, from seeded deals played at random, where ``name=value`` changes the outcome."""
    spec_extra = {**generator.CONTEXT.get((game, name), {}), name: value}
    for seed in range(tries):
        rng = random.Random(f"{game}:{name}:{value}:{seed}")
        if (game, name) in PURCHASE_OPTIONS:
            case: Case | None = {"id": "", "game": game, "kind": "purchase", "rules": spec_extra}
            case |= {"bought": 2, "recorded_before_lead": False}  # type: ignore[operator]
        elif (game, name) in DEAL_OPTIONS:
            case = _deal_case(game, spec_extra, seed)
        else:
            case = _random_play(game, spec_extra, seed, rng)
        if case is None:
            continue
        if case["kind"] != "play":
            if generator.differs_from_default(case, name):
                return case
            continue
        for length in range(len(case["moves"]) + 1):
            prefix = {**case, "moves": case["moves"][:length]}
            if generator.differs_from_default(prefix, name):
                return prefix
    raise SystemExit(f"{game} {name}={value!r}: no case found that changes the outcome")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"


def _token(text: str) -> str:
    if text in ("stand", "fold"):
        return text[0]
    verb, _, cards = text.partition(" ")
    return {"exchange": "x", "play": "p", "swap-trump": "w"}[verb] + cards.replace(" ", "")


def entry_text(case: Case, name: str, value: Any) -> str:
    """The ``[[option]]`` entry of a found case, as TOML."""
    slug = re.sub(r"[^a-z0-9]+", "-", f"{name}-{_text(value)}".lower()).strip("-")
    short = "drf" if case["game"] == "dreyfus" else "fly"
    lines = ["[[option]]", f'id = "{short}-option-{slug}"', f'game = "{case["game"]}"', f'shows = "{name}"']
    if case["kind"] != "play":
        lines.append(f'kind = "{case["kind"]}"')
    lines.append(f"rules = {_toml(case['rules'])}")
    for key in ("position", "pack", "dealer", "deal_number", "bought", "recorded_before_lead"):
        if key in case:
            lines.append(f"{key} = {_toml(case[key])}")
    if case["kind"] == "play":
        lines.append(f'moves = "{" ".join(map(_token, case["moves"]))}"')
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Print an entry for each option value (of the game and option named, or every one) without a case."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", nargs="?", choices=("fly", "dreyfus"))
    parser.add_argument("option", nargs="?")
    args = parser.parse_args(argv)
    generator = _generator()
    data = tomllib.loads(generator.DATA.read_text(encoding="utf-8"))
    written = generator.catalogue_cases() + [generator.written_case(e) for e in data.get("case", [])]
    shown = {(e.get("game", "fly"), e["shows"], json.dumps(e["rules"][e["shows"]])) for e in data.get("option", [])}
    for game in (args.game,) if args.game else ("fly", "dreyfus"):
        for name, value in generator.option_values(game):
            if (args.option and name != args.option) or (game, name, json.dumps(value)) in shown:
                continue
            if not args.option and any(
                c["game"] == game and c["rules"].get(name) == value and generator.differs_from_default(c, name)
                for c in written
            ):
                continue
            print(entry_text(search_option(generator, game, name, value), name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
