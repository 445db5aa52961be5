"""A Document as Markdown for repositories: tables via tabulate, boards as text."""
from __future__ import annotations

from tabulate import tabulate

from grader.app.report.document import (Bars, Boards, Document, Facts, Heading, Link, Para, Steps,
                                        Table)

BAR_WIDTH = 40


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _spans(para: Para) -> str:
    return "".join(f"[{s.text}](#{s.anchor})" if isinstance(s, Link) else s for s in para.spans)


def _table(t: Table) -> str:
    return tabulate([[_cell(v) for v in row] for row in t.rows], headers=list(t.headers),
                    tablefmt="github", disable_numparse=True)


def render(doc: Document) -> str:
    out = [f"# {doc.title}", ""]
    for b in doc.blocks:
        if isinstance(b, Heading):
            out += [("#" * b.level) + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [_spans(b), ""]
        elif isinstance(b, Facts):
            out += [f"- **{name}**: {value}" for name, value in b.items] + [""]
        elif isinstance(b, Table):
            out += [_table(b), ""]
        elif isinstance(b, Bars):
            top = max((n for _, n in b.rows), default=0) or 1
            rows = [[label, n, "█" * round(BAR_WIDTH * n / top)] for label, n in b.rows]
            out += [tabulate(rows, headers=["", "count", ""], tablefmt="github", disable_numparse=True), ""]
        elif isinstance(b, Boards):
            for board in b.boards:
                out += [f"*{board.caption}*", "", "```", board.text, "```", ""]
        elif isinstance(b, Steps):
            rows = [[f'<a id="{s.anchor}"></a>{s.number}', f"L{s.level}", _cell(s.technique), _cell(s.text)]
                    for s in b.steps]
            out += [tabulate(rows, headers=["step", "level", "technique", "explanation"],
                             tablefmt="github", disable_numparse=True), ""]
    return "\n".join(out).rstrip() + "\n"
