"""A Document as one self-contained HTML file: inline CSS and SVG, no scripts, no network."""
from __future__ import annotations

from html import escape

from tabulate import tabulate

from grader.io.svg import ROLE_COLOURS
from grader.app.report.document import (Bars, Boards, Document, Facts, Heading, Link, Para,
                                        StepBlock, Steps, Table)

LEVEL_COLOURS = {0: "#9e9e9e", 1: "#43a047", 2: "#7cb342", 3: "#fb8c00", 4: "#e53935", 5: "#8e24aa"}
ROLE_WORDS = {"target": "decided by the step", "premise": "what it uses", "region": "where it looks"}

CSS = """
body { font-family: Georgia, 'DejaVu Serif', serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.7em; border-bottom: 2px solid #333; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: .2em 1.2em; }
dl.facts dt { font-weight: bold; } dl.facts dd { margin: 0; }
table { border-collapse: collapse; margin: .6em 0; font-family: 'DejaVu Sans', sans-serif; font-size: .9em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
.boards { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: flex-start; }
figure { margin: 0; } figcaption { font-size: .85em; color: #555; text-align: center; }
section.step { border-top: 1px solid #ddd; padding: .6em 0; }
section.step.bottleneck { background: #fff8e1; }
.step h3 { font-size: 1.05em; margin: .2em 0; font-family: 'DejaVu Sans', sans-serif; }
.badge { display: inline-block; color: #fff; border-radius: .8em; padding: 0 .6em; font-size: .85em; }
.effect { color: #555; font-size: .9em; }
.legend span.key { display: inline-block; width: 1em; height: 1em; border: 3px solid; vertical-align: middle;
                   margin: 0 .3em 0 1em; }
.bar { background: #5c6bc0; height: 1em; display: inline-block; vertical-align: middle; }
"""


def _spans(para: Para) -> str:
    return "".join(f'<a href="#{escape(s.anchor)}">{escape(s.text)}</a>' if isinstance(s, Link)
                   else escape(s) for s in para.spans)


def _table(t: Table) -> str:
    return tabulate([[str(v) for v in row] for row in t.rows], headers=list(t.headers),
                    tablefmt="html", disable_numparse=True)


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


def render(doc: Document) -> str:
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
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(doc.title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
