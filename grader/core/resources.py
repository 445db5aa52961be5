"""Where the grader's data is: the rules/ folder (the difficulty table and the rule files),
read as package data, and the evaluation corpus, read at run time only.

The folder stays at the top of the repository and ships inside the package as `grader.rules`
(pyproject.toml maps one to the other), so a checkout, an editable install and a wheel all
read it here, through importlib.resources, never from a path beside the source.
"""
from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path
from typing import Any

RULES_PACKAGE = "grader.rules"


def rules_text(name: str) -> str:
    """The text of one file of rules/, such as 'levels.yaml'."""
    return files(RULES_PACKAGE).joinpath(name).read_text(encoding="utf-8")


def rules_yaml(name: str) -> Any:
    """A YAML file of rules/, parsed with libyaml's loader where PyYAML has it (several times
    faster: every command reads the difficulty table and its genre's technique table)."""
    import yaml
    return yaml.load(rules_text(name), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def rules_origin(name: str) -> str:
    """How messages name a file of rules/ (the same wherever it is installed)."""
    return f"rules/{name}"


# --- the evaluation corpus ---------------------------------------------------------------
# Published puzzles this project may read but never ship: found where $GRADER_CORPUS says,
# else at ../shared/corpus (beside the checkout, as the design lays it out).
CORPUS_VARIABLE = "GRADER_CORPUS"


def evaluation_corpus(*beside: Path) -> Path:
    """The evaluation corpus folder: $GRADER_CORPUS when set, else the first ../shared/corpus
    that exists, seen from the current folder and from each of `beside`. It may be absent:
    callers check, and say so (tests skip)."""
    named = os.environ.get(CORPUS_VARIABLE)
    if named:
        return Path(named).expanduser()
    candidates = [base.resolve().parent / "shared" / "corpus" for base in (Path.cwd(), *beside)]
    return next((c for c in candidates if c.is_dir()), candidates[0])
