import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_terminal_summary(terminalreporter):
    """Say how many tests skipped for want of the evaluation corpus, and how to give it."""
    from grader.core.resources import CORPUS_VARIABLE
    from support import SHARED
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "evaluation corpus" in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} test{'s' if len(skipped) != 1 else ''} skipped: the evaluation corpus is not at "
            f"{SHARED} (set {CORPUS_VARIABLE} to its folder, or put it at ../shared/corpus)")
