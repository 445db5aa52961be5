"""The wheel holds what the grader reads: every package, and every data file (rules/ among
them, shipped as grader.rules). .ci/run builds the wheel and grades from a fresh venv; these
checks catch a forgotten declaration without building anything."""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import yaml

from grader.core.resources import rules_text

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def package_dir(name: str) -> Path:
    mapped = SETUPTOOLS.get("package-dir", {})
    return ROOT / mapped[name] if name in mapped else ROOT / name.replace(".", "/")


def test_every_source_folder_is_a_listed_package():
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for top in ("grader", "heuristics") for p in (ROOT / top).rglob("*.py")
               if "__pycache__" not in p.parts}
    listed = set(SETUPTOOLS["packages"])
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert all(package_dir(name).is_dir() for name in listed)


def test_every_data_file_is_declared():
    declared = SETUPTOOLS["package-data"]
    missing = []
    for name in SETUPTOOLS["packages"]:
        folder = package_dir(name)
        for f in folder.iterdir():
            if not f.is_file() or f.suffix in (".py", ".pyc") or f.name == "README.md":
                continue
            # declared by its package, or by the parent with a sub-folder pattern (genres/*.lp)
            parent, _, child = name.rpartition(".")
            if not any(fnmatch.fnmatch(f.name, pattern) for pattern in declared.get(name, ())) and \
                    not any(fnmatch.fnmatch(f"{child}/{f.name}", pattern) for pattern in declared.get(parent, ())):
                missing.append(str(f.relative_to(ROOT)))
    assert missing == [], "declare these in [tool.setuptools.package-data]"


def test_rules_are_read_as_package_data():
    assert SETUPTOOLS["package-dir"]["grader.rules"] == "rules"
    assert set(yaml.safe_load(rules_text("levels.yaml"))) >= {"labels", "unsolved"}
    assert "edge-arrow" in yaml.safe_load(rules_text("arrows.yaml"))
