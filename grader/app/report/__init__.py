"""Reports for editors: the solve path of one puzzle, or a summary of a batch of results.

    grader report PUZZLE --format md|html -o FILE
    grader report --corpus RESULTS --format md|html -o FILE
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from grader.core.errors import InputError
from grader.app.report.document import Document


def render(doc: Document, fmt: str, stylesheet: str | None = None) -> str:
    """Markdown, or HTML with its CSS inlined or linked at the URL `stylesheet`."""
    if fmt == "html":
        from grader.app.report.html import render as to_html
        return to_html(doc, stylesheet)
    from grader.app.report.markdown import render as to_markdown
    return to_markdown(doc)


def analysed(spec: str, *, genre: str | None = None, check_unique: bool = True,
             max_steps: int = 20000, max_seconds: float = 120.0):
    from grader.core.analysis import analyse
    from grader.core.engine import Budget
    from grader.io.read import load
    return analyse(load(spec, genre), budget=Budget(max_steps, max_seconds), check_unique=check_unique)


def puzzle_report(spec: str, fmt: str = "md", **options: Any) -> str:
    from grader.app.report.solve_path import build
    return render(build(analysed(spec, **options)), fmt)


def corpus_rows(results: str) -> list[dict[str, Any]]:
    """The rows of a results file; one without a single row is not a batch's results."""
    from grader.app.report.results import read_rows
    rows = read_rows(results)
    if not rows:
        raise InputError(results, "holds no batch rows: give the --db file or the JSON lines "
                         "that `grader batch` wrote")
    return rows


def corpus_report(results: str, fmt: str = "md") -> str:
    from grader.app.report.corpus import build
    return render(build(corpus_rows(results), results), fmt)


def run_report(args: argparse.Namespace) -> int:
    """Exit 0 for a report made, 1 for a puzzle the techniques did not solve or that has no or
    several solutions (the report is still written), 2 for bad input."""
    if bool(args.puzzle) == bool(args.corpus):
        raise InputError("report", "give either a PUZZLE or --corpus RESULTS")
    scale = None
    if getattr(args, "scale", None):
        if args.corpus:
            raise InputError("--scale", "goes with a PUZZLE's report (batch --scale puts the house "
                             "label in every row)")
        from grader.app.scale import load_scale
        scale = load_scale(args.scale)
    if args.format is None:
        args.format = "html" if (args.output or "").lower().endswith((".html", ".htm")) else "md"
    code, summary = 0, {}
    if args.corpus:
        from grader.app.report.corpus import build
        rows = corpus_rows(args.corpus)
        text = render(build(rows, args.corpus), args.format)
        summary = {"results": args.corpus, "puzzles": len(rows),
                   "status": dict(sorted(Counter(r["status"] for r in rows).items())),
                   "not_unique": sum(r.get("unique") is False for r in rows)}
    else:
        from grader.app.report.solve_path import build
        from grader.app.batch import grade_row
        a = analysed(args.puzzle, genre=args.genre, check_unique=not args.no_unique,
                     max_steps=args.max_steps, max_seconds=args.max_seconds)
        summary = grade_row(a)
        house = None
        if scale is not None:
            summary["house_label"] = house = scale.house_label(summary)
        text = render(build(a, house_label=house if scale is not None else None), args.format)
        not_one = a.uniqueness is not None and a.uniqueness.unique is False
        code = 0 if a.grade.status.value == "solved" and not not_one else 1
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise InputError(args.output, f"cannot write the report: {exc.strerror}") from None
    if args.json:   # the figures, and the report itself unless it went to a file
        print(json.dumps({**summary, "format": args.format, "output": args.output,
                          "report": None if args.output else text}, ensure_ascii=False))
    elif not args.output:
        sys.stdout.write(text)
    return code
