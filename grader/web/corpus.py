"""The puzzles of a corpus folder by id (`akari/lightup-7x7b20s2d0-grader-1`): the page lists
them and opens one by its id, so no file path from a request is ever opened."""
from __future__ import annotations

import os
from pathlib import Path


SUFFIXES = (".yaml", ".yml")


def default_folder() -> Path | None:
    """$GRADER_PLAY_CORPUS, else corpus/ beside the package (a checkout), else ./corpus."""
    env = os.environ.get("GRADER_PLAY_CORPUS")
    for folder in ([Path(env)] if env else []) + [Path(__file__).resolve().parents[2] / "corpus",
                                                  Path.cwd() / "corpus"]:
        if folder.is_dir():
            return folder
    return None


class Corpus:
    def __init__(self, folder: Path | None):
        self.files: dict[str, Path] = {}
        if folder is None:
            return
        for path in sorted(folder.glob("*/*")):
            if path.suffix.lower() in SUFFIXES and path.is_file() and not path.name.startswith("."):
                self.files[f"{path.parent.name}/{path.stem}"] = path

    def listing(self) -> list[dict[str, str]]:
        return [{"id": pid, "genre": pid.split("/")[0]} for pid in self.files]

    def text(self, pid: str) -> str | None:
        """The puzzle's YAML, or None when no puzzle has this id."""
        path = self.files.get(pid)
        return path.read_text(encoding="utf-8") if path is not None else None
