"""The rules/ folder (the difficulty table and the rule files), read as package data.

The folder stays at the top of the repository and ships inside the package as `grader.rules`
(pyproject.toml maps one to the other), so a checkout, an editable install and a wheel all
read it here, through importlib.resources, never from a path beside the source.
"""
from __future__ import annotations

from importlib.resources import files

RULES_PACKAGE = "grader.rules"


def rules_text(name: str) -> str:
    """The text of one file of rules/, such as 'levels.yaml'."""
    return files(RULES_PACKAGE).joinpath(name).read_text(encoding="utf-8")


def rules_origin(name: str) -> str:
    """How messages name a file of rules/ (the same wherever it is installed)."""
    return f"rules/{name}"
