"""Sphinx configuration for the fly_rules documentation.

Built strictly by ``scripts/test``: ``sphinx-build -n -W --keep-going`` (nitpicky, warnings are errors),
then ``-b doctest``. The rulebook pages and the API reference are generated at build time by
``docs/_ext/rulebook.py`` from ``specs/*.md``, the tests and the package's public modules.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

from sphinx.ext.autodoc.mock import mock  # type: ignore[attr-defined]  # re-exported from a private module

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))

import fly_rules  # noqa: E402


def _missing(name: str) -> bool:
    """Whether the library ``name`` cannot be imported here."""
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):
        return True


# Ray (240 MB) is only needed to run the simulation on a cluster: without it the API reference is built
# from a stand-in module (autodoc's mock), for the pages that import fly_rules.adapters.ray as for autodoc.
autodoc_mock_imports = [name for name in ("ray",) if _missing(name)]
_MOCKED = mock(autodoc_mock_imports)  # kept: a context manager collected would undo itself
_MOCKED.__enter__()  # for the whole build, as the rulebook imports every public module

project = "fly_rules"
author = "fly_rules developers"
copyright = "fly_rules developers, MIT licence"
release = fly_rules.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "rulebook",
    "cardtable",
    "sampledeal",
    "tryit",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "README.md"]
root_doc = "index"

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 0

nitpicky = True
# Names the strict build cannot resolve without network access (no intersphinx here): the standard
# library, attrs and Hypothesis types that appear in signatures.
nitpick_ignore_regex = [
    # the private named tuples under each game's deal and match (their own pages list what the fields mean)
    ("py:class", r"fly_rules\.(fly|dreyfus)\.(state|match)\._(Deal|Match)Fields"),
    ("py:class", r"(collections\.abc|typing|enum|re|pathlib|ast|random|argparse)\..*"),
    ("py:class", r"(Iterable|Iterator|Sequence|Hashable|Callable|Path|Final|Protocol|TypeVar|Pattern)(\[.*\])?"),
    ("py:class", r"(int|str|bool|object|tuple|list|dict|frozenset|set|float|bytes|type|None|ValueError)"),
    ("py:class", r"(enum\.)?(IntEnum|StrEnum|Enum)"),
    ("py:class", r"(hypothesis\.)?(strategies\.)?(st\.)?SearchStrategy(\[.*\])?"),
    ("py:class", r"attrs?\..*"),
    # private type variables (the engine protocol's, the registry's descriptor's, the OpenSpiel deal kind's)
    ("py:class", r"(fly_rules\.[\w.]+\.)?_[A-Z](_co|_contra)?"),
    ("py:obj", r"(fly_rules\.[\w.]+\.)?_[A-Z](_co|_contra)?"),
    # the adapters' third-party libraries (numpy arrays, OpenSpiel and PettingZoo base classes)
    ("py:class", r"(numpy|np|npt|pyspiel|pettingzoo|gymnasium)\..*"),
    # the table server's libraries (Starlette's app and sockets, the standard library's executors and locks)
    ("py:class", r"(starlette|concurrent\.futures|asyncio)\..*"),
    ("py:class", r"Player(\[.*\])?"),  # the registry's name for the engine's Bot protocol, in its annotations
    ("py:class", r"Floats"),  # the adapters' alias of a numpy array of float32
    ("py:class", r"Array"),  # the batch engine's alias of a numpy array
    ("py:class", r"fly_rules\.batch\._\w+\.\w+"),  # a batch engine's parts, in private modules (FlyBatch's bases)
    # The game modules, cited by docstrings before they land; once they exist, they resolve.
    ("py:mod", r"fly_rules\.(fly|dreyfus|records|cli)"),
]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"show-inheritance": True}  # members: listed per page by the generator
napoleon_google_docstring = True
napoleon_numpy_docstring = False

doctest_global_setup = "from fly_rules import *  # noqa: F403"
# Docstring examples are doctested by pytest (--doctest-modules); here only the pages' {doctest} blocks run.
doctest_test_doctest_blocks = ""

html_theme = "furo"
html_title = f"fly_rules {release}"
html_static_path = ["_static"]
html_css_files = ["rulebook.css"]
html_favicon = "_static/favicon.svg"  # a card with a spade: no page asks for a missing /favicon.ico
html_show_sourcelink = False


_COLON = "\uf8ff"  # a private-use character standing in for ':' while napoleon reads the docstring


def _hide_first_line_colons(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """Keep napoleon from reading ``Text: more`` at the start of an attribute docstring as ``type: text``.

    Our attributes carry annotations; their docstrings are prose, and many start with a colon phrase.
    """
    if what in {"attribute", "data", "property"} and lines:
        lines[0] = lines[0].replace(":", _COLON)


def _restore_colons(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """Put back the colons hidden by :func:`_hide_first_line_colons`, after napoleon has run."""
    lines[:] = [line.replace(_COLON, ":") for line in lines]


_CITATION = re.compile(r"\[((?:CARD|FLY|DRF|TRK|REC)-[0-9]+\.[0-9]+[a-z]?)\]")


def _link_citations(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """Turn a docstring's ``[ID]`` rule citation into a checked link to the rulebook."""
    lines[:] = [_CITATION.sub(r"[:rule:`\1`]", line) for line in lines]


with (DOCS / "versions.toml").open("rb") as _handle:
    ADDED = {name: added for added, names in tomllib.load(_handle)["added"].items() for name in names}
"""The version that added each public name, from ``versions.toml`` (checked by tests/docs/test_docstrings.py)."""


def _version_added(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """End the docstring of a public name with ``.. versionadded::``, unless it has one already."""
    if name in ADDED and not any("versionadded::" in line for line in lines):
        lines += ["", f".. versionadded:: {ADDED[name]}"]


def setup(app: object) -> None:
    """Connect the docstring hooks around napoleon's (priority 500)."""
    app.connect("autodoc-process-docstring", _hide_first_line_colons, priority=400)  # type: ignore[attr-defined]
    app.connect("autodoc-process-docstring", _restore_colons, priority=600)  # type: ignore[attr-defined]
    app.connect("autodoc-process-docstring", _link_citations, priority=700)  # type: ignore[attr-defined]
    app.connect("autodoc-process-docstring", _version_added, priority=800)  # type: ignore[attr-defined]
