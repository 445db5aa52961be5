"""The technique catalogue: every genre's techniques by level, with the entry of
../shared/spec/heuristics-catalogue.txt each one implements (or none, for our own additions)."""
from __future__ import annotations

from grader.app.report.document import Document, Heading, Para, table

LEVEL_KEY = (
    "Levels follow the catalogue's key: 1 trivial, one cell and its neighbours; 2 a short search "
    "nearby; 3 a larger area, possibly the whole board; 4 a whole-board search, possibly "
    "exponential; 5 a hypothesis followed by a greedy fill. A technique marked (uniqueness) assumes "
    "the puzzle has one solution and is left out when the exact solver finds otherwise. A catalogue "
    "entry that starts with * is one the catalogue's own solver left unimplemented.")


def build() -> Document:
    from grader.genres import all_genres
    from grader.core.registry import REGISTRY
    blocks: list = [Para.of(LEVEL_KEY)]
    for genre in sorted(all_genres(), key=lambda g: g.name):
        rows = [(h.level, h.info.name + (" (uniqueness)" if h.info.uses_uniqueness else ""), h.id,
                 h.info.catalogue or "our addition")
                for h in REGISTRY.for_genre(genre.name)]
        blocks += [Heading(2, f"{genre.title} ({len(rows)} techniques)", genre.name),
                   table(("level", "technique", "id", "catalogue entry"), rows)]
    return Document("Techniques by genre and level", tuple(blocks))
