"""How a run of the kit is reported: each failure as it happens, the summary, and the JSON and JUnit XML
files of ``fly-rules conform --report``.

A failing case is printed as a block an engine's author can act on::

    FAIL fly-ace-of-spades-wins-led-trump-ace [FLY-7.3 FLY-8.3]
      why: The A♠ played to a led trump ace takes the trick, ...
      options: {"players": 3}
      position: fly - 2 8H 7C8C9CTCAH/7D8D9DKHAS/JCQCKCAC7H ...
      moves: stand, stand, stand, play AH, play AS, play 7H
      trick_winners: expected [1], got [0]

the case's id and the rule IDs it covers, why it exists, its options (the rules' values that differ from
the defaults), what it asks, then one line per difference, a wrong refusal first and in one line. An
engine fault is ``FAULT`` and the case's id with the reason on the same line; a difference the
known-failures list expects is ``KNOWN``; a listed case that now passes is ``FIXED``. Nothing an engine
sends is shown longer than :func:`~.wire.echo` allows, so a report never grows with an engine's output.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

if TYPE_CHECKING:  # the runner imports this module
    from fly_rules.conformance.capabilities import Capabilities
    from fly_rules.conformance.runner import KitRun, Result

__all__ = ["FORMATS", "REPORT_VERSION", "as_json", "as_junit", "show", "summary", "write"]

FORMATS: Final = ("json", "junit")
"""The formats of ``--report FORMAT FILE``."""
REPORT_VERSION: Final = 1
"""The version of the JSON report's layout."""

_TAGS: Final = {"failed": "FAIL", "fault": "FAULT", "known": "KNOWN", "fixed": "FIXED"}


def _header(result: Result) -> str:
    covers = f" [{' '.join(result.covers)}]" if result.covers else ""
    return f"{_TAGS[result.status]} {result.id}{covers}"


def show(result: Result, out: TextIO) -> None:
    """Print ``result`` if it is not a plain pass or skip: its header, then for a failure its context and
    differences, indented."""
    if result.status not in _TAGS:
        return
    if result.status in ("fault", "fixed"):
        print(f"{_header(result)}: {result.reason}", file=out)
        if result.status == "fault":
            _context(result, out)
        return
    print(_header(result), file=out)
    _context(result, out)
    for line in result.details:
        print(f"  {line}", file=out)


def _context(result: Result, out: TextIO) -> None:
    for name, value in result.context:
        lines = value.splitlines() or [""]
        if len(lines) == 1:
            print(f"  {name}: {lines[0]}", file=out)
            continue
        print(f"  {name}:", file=out)
        for line in lines[:40]:
            print(f"    {line}", file=out)
        if len(lines) > 40:
            print(f"    … ({len(lines) - 40} more lines)", file=out)


def _counts(results: list[Result]) -> str:
    counted = Counter(result.status for result in results)
    words = {
        "passed": "passed",
        "failed": "failed",
        "fault": "engine faults",
        "known": "known failures",
        "fixed": "known failures now passing",
        "skipped": "skipped",
        "not run": "not run",
    }
    always = ("passed", "failed")
    return ", ".join(f"{counted[s]} {w}" for s, w in words.items() if counted[s] or s in always)


def summary(run: KitRun, capabilities: Capabilities | None, out: TextIO) -> None:
    """The last lines of a run: the engine, the counts of cases and of perft positions, why cases were
    skipped, the run's own problems, and the verdict with its exit code."""
    if capabilities is not None:
        games = ", ".join(sorted(capabilities.games)) or "none"
        kinds = ", ".join(sorted(capabilities.kinds)) or "none"
        options = "every option" if capabilities.options is None else "the options it lists"
        commands = ", ".join(sorted(capabilities.commands)) or "neither perft nor divide"
        print(
            f"engine: {capabilities.engine} (protocol {capabilities.protocol}): games {games}; kinds {kinds}; "
            f"{options}; {commands}",
            file=out,
        )
    for group, title in (("vectors", "vectors"), ("perft", "perft positions")):
        results = [result for result in run.results if result.group == group]
        if not results:
            continue
        print(f"{title}: {_counts(results)}", file=out)
        reasons = Counter(result.reason for result in results if result.status in ("skipped", "not run"))
        for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0])):
            print(f"  {count} {reason}", file=out)
    if run.unselected:
        print(f"{run.unselected} cases and perft positions not selected (--id, --rule)", file=out)
    if run.restarts:
        print(f"the engine was started again {run.restarts} times", file=out)
    for problem in run.problems:
        print(f"problem: {problem}", file=out)
    verdict = {0: "conformant", 1: "not conformant", 3: "the engine or the run failed"}[run.exit_code]
    print(f"result: {verdict} (exit code {run.exit_code})", file=out)


_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 cannot hold."""


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _plain(result: Result) -> dict[str, Any]:
    return {
        "id": result.id,
        "group": result.group,
        "game": result.game,
        "kind": result.kind,
        "status": result.status,
        "reason": result.reason,
        "covers": list(result.covers),
        "details": list(result.details),
        "context": dict(result.context),
        "seconds": round(result.seconds, 4),
    }


def as_json(run: KitRun) -> str:
    """The run as one JSON document: the engine's hello, the summary by status, every result."""
    document = {
        "report": "fly_rules conformance",
        "version": REPORT_VERSION,
        "exit_code": run.exit_code,
        "hello": run.hello,
        "restarts": run.restarts,
        "unselected": run.unselected,
        "problems": run.problems,
        "summary": {
            group: dict(Counter(result.status for result in run.results if result.group == group))
            for group in ("vectors", "perft")
        },
        "results": [_plain(result) for result in run.results],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def as_junit(run: KitRun) -> str:
    """The run as JUnit XML: one test suite for the vectors and one for perft, one test case a result
    (``failure`` for a difference, ``error`` for a fault or a case not run, ``skipped`` for a skip)."""
    suites = ET.Element("testsuites", name="fly_rules conformance")
    for group in ("vectors", "perft"):
        results = [result for result in run.results if result.group == group]
        counted = Counter(result.status for result in results)
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=group,
            tests=str(len(results)),
            failures=str(counted["failed"]),
            errors=str(counted["fault"] + counted["not run"]),
            skipped=str(counted["skipped"] + counted["known"]),
            time=f"{sum(r.seconds for r in results):.3f}",
        )
        for result in results:
            case = ET.SubElement(
                suite, "testcase", name=result.id, classname=f"{group}.{result.game}", time=f"{result.seconds:.3f}"
            )
            body = "\n".join([*(f"{k}: {v}" for k, v in result.context), *result.details])
            if result.status == "failed":
                ET.SubElement(case, "failure", message=_xml(result.reason)).text = _xml(body)
            elif result.status in ("fault", "not run"):
                ET.SubElement(case, "error", message=_xml(result.reason)).text = _xml(body)
            elif result.status in ("skipped", "known"):
                ET.SubElement(case, "skipped", message=_xml(result.reason or "known failure"))
            if result.covers:
                ET.SubElement(case, "system-out").text = "covers: " + " ".join(result.covers)
    if run.problems:
        suites.set("problems", _xml("; ".join(run.problems)))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write(run: KitRun, form: str, path: Path) -> None:
    """Write the report of ``run`` in ``form`` (one of :data:`FORMATS`) to ``path``."""
    text = as_json(run) if form == "json" else as_junit(run)
    path.write_text(text, encoding="utf-8")
