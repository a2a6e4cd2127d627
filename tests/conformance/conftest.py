"""The conformance kit's tests: the generator script loaded as a module, the cases loaded once."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent


def load_script(name: str) -> ModuleType:
    """A script of ``scripts/`` (or ``benchmarks/`` when named so) imported as a module."""
    path = ROOT / f"{name}.py"
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR: Any = load_script("scripts/conformance_vectors")
