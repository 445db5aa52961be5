"""A Document as one self-contained HTML file: inline CSS and SVG, no scripts, no network
(or, for a set of reports, with the CSS linked from one file)."""
from __future__ import annotations

from html import escape
from importlib.resources import files

from grader.io.svg import ROLE_COLOURS
from grader.app.report.document import (Bars, Boards, Document, Facts, Heading, Link, Para,
                                        StepBlock, Steps, Table)

LEVEL_COLOURS = {0: "#9e9e9e", 1: "#43a047", 2: "#7cb342", 3: "#fb8c00", 4: "#e53935", 5: "#8e24aa"}
ROLE_WORDS = {"target": "decided by the step", "premise": "what it uses", "region": "where it looks"}

# One stylesheet, package data: inlined by default so that a report is one file; a set of
# reports (reports/make.py) links it instead of repeating it in every file.
CSS = (files("grader.app.report") / "report.css").read_text(encoding="utf-8")


def _spans(para: Para) -> str:
    return "".join(f'<a href="#{escape(s.anchor)}">{escape(s.text)}</a>' if isinstance(s, Link)
                   else escape(s) for s in para.spans)


def _cells(tag: str, values) -> str:
    return "<tr>" + "".join(f"<{tag}>{escape(str(v))}</{tag}>" for v in values) + "</tr>"


def _table(t: Table) -> str:
    # One line like every other block: a table is read in a browser, so no padding to align it.
    return (f"<table><thead>{_cells('th', t.headers)}</thead>"
            f"<tbody>{''.join(_cells('td', row) for row in t.rows)}</tbody></table>")


def _figure(board) -> str:
    drawing = board.svg or f"<pre>{escape(board.text)}</pre>"
    return f'<figure>{drawing}<figcaption>{escape(board.caption)}</figcaption></figure>'


def _badge(level: int) -> str:
    return f'<span class="badge" style="background:{LEVEL_COLOURS.get(level, "#555")}">L{level}</span>'


def _step(s: StepBlock) -> str:
    cls = "step bottleneck" if s.bottleneck else "step"
    return (f'<section class="{cls}" id="{s.anchor}"><h3>Step {s.number} {_badge(s.level)} '
            f'{escape(s.technique)}</h3><p>{escape(s.text)}</p>'
            f'<p class="effect">Result: {escape(s.effect)}.</p>'
            f'<div class="boards">{_figure(s.before)}{_figure(s.after)}</div></section>')


def _legend() -> str:
    keys = "".join(f'<span class="key" style="border-color:{ROLE_COLOURS[role]}"></span>{escape(words)}'
                   for role, words in ROLE_WORDS.items())
    return f'<p class="legend">Highlights:{keys}</p>'


def render(doc: Document, stylesheet: str | None = None) -> str:
    """The page, with the stylesheet inlined, or linked at the URL `stylesheet`."""
    body = [f"<h1>{escape(doc.title)}</h1>"]
    for b in doc.blocks:
        if isinstance(b, Heading):
            anchor = f' id="{escape(b.anchor)}"' if b.anchor else ""
            body.append(f"<h{b.level}{anchor}>{escape(b.text)}</h{b.level}>")
            if doc.legend and b.anchor == "path":
                body.append(_legend())
        elif isinstance(b, Para):
            body.append(f"<p>{_spans(b)}</p>")
        elif isinstance(b, Facts):
            body.append('<dl class="facts">' + "".join(f"<dt>{escape(n)}</dt><dd>{escape(v)}</dd>"
                                                       for n, v in b.items) + "</dl>")
        elif isinstance(b, Table):
            body.append(_table(b))
        elif isinstance(b, Bars):
            top = max((n for _, n in b.rows), default=0) or 1
            rows = "".join(f'<tr><td>{escape(label)}</td><td>{n}</td><td><span class="bar" '
                           f'style="width:{round(300 * n / top)}px"></span></td></tr>' for label, n in b.rows)
            body.append(f"<table><tr><th></th><th>count</th><th></th></tr>{rows}</table>")
        elif isinstance(b, Boards):
            body.append('<div class="boards">' + "".join(_figure(x) for x in b.boards) + "</div>")
        elif isinstance(b, Steps):
            body.extend(_step(s) for s in b.steps)
    style = (f'<link rel="stylesheet" href="{escape(stylesheet)}">' if stylesheet
             else f"<style>\n{CSS}</style>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(doc.title)}</title>{style}</head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
