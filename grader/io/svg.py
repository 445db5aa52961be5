"""A small SVG canvas for grid boards: cell fills, glyphs, lines and highlights.

Highlight roles (shared by every genre and by the reports):
target = what the step decided, premise = what it used, region = the area it looked at.
"""
from __future__ import annotations

from typing import Iterable

from grader.core.model import Cell

ROLE_COLOURS = {"target": "#f4b400", "premise": "#4285f4", "region": "#9fd89f",
                "mistake": "#e53935"}


class Canvas:
    def __init__(self, rows: int, cols: int, cell: int = 32, margin: int = 8):
        self.rows, self.cols, self.cell, self.margin = rows, cols, cell, margin
        self.back: list[str] = []
        self.items: list[str] = []

    def xy(self, cell: Cell) -> tuple[float, float]:
        """Top-left corner of a cell."""
        return self.margin + cell.c * self.cell, self.margin + cell.r * self.cell

    def centre(self, cell: Cell) -> tuple[float, float]:
        x, y = self.xy(cell)
        return x + self.cell / 2, y + self.cell / 2

    def fill(self, cell: Cell, colour: str, opacity: float = 1.0) -> None:
        x, y = self.xy(cell)
        self.back.append(f'<rect x="{x}" y="{y}" width="{self.cell}" height="{self.cell}" '
                         f'fill="{colour}" fill-opacity="{opacity}"/>')

    def highlight(self, cells: Iterable[Cell], role: str) -> None:
        for cell in cells:
            x, y = self.xy(cell)
            colour = ROLE_COLOURS[role]
            self.items.append(f'<rect class="hl-{role}" x="{x + 2}" y="{y + 2}" width="{self.cell - 4}" '
                              f'height="{self.cell - 4}" fill="none" stroke="{colour}" stroke-width="3"/>')

    def text(self, cell: Cell, s: str, colour: str = "#000", size: float = 0.6, dy: float = 0.0) -> None:
        """Text centred in a cell (dy: how far below the centre, in cells)."""
        from html import escape     # html's entity table is large: only a drawing needs it
        x, y = self.centre(cell)
        y += dy * self.cell
        self.items.append(f'<text x="{x}" y="{y}" font-size="{self.cell * size:.1f}" fill="{colour}" '
                          f'text-anchor="middle" dominant-baseline="central" '
                          f'font-family="sans-serif">{escape(s)}</text>')

    def arrow(self, x: float, y: float, dx: float, dy: float, length: float, colour: str = "#000",
              width: float = 2.0) -> None:
        """An arrow centred at (x, y) pointing along (dx, dy), `length` long (in cells), with an
        open head of two strokes at 45 degrees."""
        norm = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / norm, dy / norm
        half, head = self.cell * length / 2, self.cell * length * 0.35
        tip_x, tip_y = x + ux * half, y + uy * half
        self.line(x - ux * half, y - uy * half, tip_x, tip_y, colour, width)
        for sx, sy in ((-ux - uy, -uy + ux), (-ux + uy, -uy - ux)):
            self.line(tip_x, tip_y, tip_x + sx * head / 1.42, tip_y + sy * head / 1.42, colour, width)

    def circle(self, cell: Cell, radius: float, fill: str, stroke: str = "none") -> None:
        x, y = self.centre(cell)
        self.items.append(f'<circle cx="{x}" cy="{y}" r="{self.cell * radius:.1f}" fill="{fill}" '
                          f'stroke="{stroke}" stroke-width="2"/>')

    def cross(self, cell: Cell, colour: str = "#888") -> None:
        x, y = self.centre(cell)
        d = self.cell * 0.12
        self.items.append(f'<path d="M{x - d},{y - d}L{x + d},{y + d}M{x - d},{y + d}L{x + d},{y - d}" '
                          f'stroke="{colour}" stroke-width="2"/>')

    def edge_cross(self, x1: float, y1: float, x2: float, y2: float, size: float) -> None:
        """A small red × at the middle of an edge: no line may use it."""
        mx, my, d = (x1 + x2) / 2, (y1 + y2) / 2, size
        self.items.append(f'<path d="M{mx - d},{my - d}L{mx + d},{my + d}M{mx - d},{my + d}'
                          f'L{mx + d},{my - d}" stroke="#c62828" stroke-width="1.5"/>')

    def dot(self, cell: Cell, colour: str = "#888") -> None:
        self.circle(cell, 0.06, colour)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = "#000",
             width: float = 3.0) -> None:
        self.items.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                          f'stroke-width="{width}" stroke-linecap="round"/>')

    def to_svg(self, grid_lines: bool = True) -> str:
        w = self.cols * self.cell + 2 * self.margin
        h = self.rows * self.cell + 2 * self.margin
        lines = []
        if grid_lines:
            m, s = self.margin, self.cell
            for r in range(self.rows + 1):
                lines.append(f'<line x1="{m}" y1="{m + r * s}" x2="{m + self.cols * s}" y2="{m + r * s}" '
                             f'stroke="#999" stroke-width="1"/>')
            for c in range(self.cols + 1):
                lines.append(f'<line x1="{m + c * s}" y1="{m}" x2="{m + c * s}" y2="{m + self.rows * s}" '
                             f'stroke="#999" stroke-width="1"/>')
        body = "".join(['<rect width="100%" height="100%" fill="#fff"/>'] + self.back + lines + self.items)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}">{body}</svg>')
