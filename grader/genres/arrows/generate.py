"""Make puzzles: `grader generate --genre arrows --size 6x6 [--arrows straight|diagonal] [--level N]`.

Japanese Arrows: lay a random arrow field (arrows that would point straight off the grid are
mostly turned inwards, so few cells are a trivial 0), let the exact solver fill it with a random
valid set of numbers, then add givens from that filling where the rules (up to the level asked
for) get stuck, until they solve it. Then drop every given the rules can do without. A puzzle
the rules solve from its givens has exactly one solution; the exact solver checks it again.
With --level N the rules may use complexity up to N and the puzzle must need N; otherwise
another field is tried.
"""
from __future__ import annotations

import random
from typing import Any

import attrs

from grader.core import exact
from grader.core.engine import Budget, Solver
from grader.core.errors import InputError
from grader.core.model import Meta, Puzzle
from grader.core.steps import Status

STRAIGHT = ((0, -1), (-1, 0), (0, 1), (1, 0))
DIAGONAL = STRAIGHT + ((-1, -1), (-1, 1), (1, 1), (1, -1))


@attrs.frozen
class Generated:
    puzzle: Puzzle
    level: int
    givens: int
    attempts: int


def arrow_field(rows: int, cols: int, kind: str, rng: random.Random) -> tuple[tuple[int, int], ...]:
    dirs = DIAGONAL if kind == "diagonal" else STRAIGHT
    out = []
    for r in range(rows):
        for c in range(cols):
            inside = [d for d in dirs if 0 <= r + d[0] < rows and 0 <= c + d[1] < cols]
            d = rng.choice(dirs)
            if d not in inside and rng.random() < 0.8:
                d = rng.choice(inside)
            out.append(d)
    return tuple(out)


def random_filling(puzzle: Puzzle, seed: int) -> tuple[int, ...] | None:
    """A random valid filling of an arrow field (no givens), from the exact solver."""
    import clingo

    genre = puzzle.genre
    ctl = clingo.Control(["1", "--warn=none", f"--seed={seed}", "--sign-def=rnd", "--rand-freq=0.3"])
    ctl.add("base", [], exact.program(puzzle))
    ctl.ground([("base", [])])
    found: list[Any] = []
    ctl.solve(on_model=lambda m: found.append(genre.state_from_model(puzzle, m.symbols(shown=True))))
    if not found:
        return None
    return tuple(m.bit_length() - 1 for m in found[0].cands)


def _solved(puzzle: Puzzle, max_level: int, seconds: float) -> tuple[bool, Any]:
    trace = Solver(puzzle, max_level=max_level, budget=Budget(max_seconds=seconds)).solve()
    return trace.status is Status.SOLVED, trace


def generate_arrows(rows: int, cols: int, kind: str = "straight", level: int | None = None,
                    seed: int = 0, attempts: int = 40, seconds: float = 60.0) -> Generated:
    from grader.genres.arrows.model import ArrowsPuzzle
    rng = random.Random(seed)
    max_level = level or 5
    for attempt in range(1, attempts + 1):
        dirs = arrow_field(rows, cols, kind, rng)
        base = ArrowsPuzzle(rows=rows, cols=cols, dirs=dirs, givens=(None,) * (rows * cols))
        filling = random_filling(base, rng.randrange(1 << 30))
        if filling is None:
            continue
        givens: list[int | None] = [None] * (rows * cols)
        while True:
            puzzle = attrs.evolve(base, givens=tuple(givens))
            ok, trace = _solved(puzzle, max_level, seconds)
            if ok:
                break
            open_ = [v for v in trace.final.undecided()] or [i for i, g in enumerate(givens) if g is None]
            cell = rng.choice(open_)
            givens[cell] = filling[cell]
        order = [i for i, g in enumerate(givens) if g is not None]
        rng.shuffle(order)
        for i in order:
            trial = list(givens)
            trial[i] = None
            if _solved(attrs.evolve(base, givens=tuple(trial)), max_level, seconds)[0]:
                givens = trial
        puzzle = attrs.evolve(base, givens=tuple(givens), solution=filling)
        ok, trace = _solved(puzzle, max_level, seconds)
        reached = max((s.level for s in trace.steps), default=0)
        if not ok or (level is not None and reached != level):
            continue
        if exact.solve(puzzle).verdict is not exact.Verdict.UNIQUE:
            continue  # cannot happen with sound rules; checked all the same
        return Generated(puzzle, reached, sum(g is not None for g in givens), attempt)
    raise InputError("generate", f"no {rows}x{cols} {kind} puzzle at level {level} in {attempts} "
                     "attempts (try another --seed or more --attempts)")


def parse_size(text: str) -> tuple[int, int]:
    """'6x6' -> (rows, cols): the first number is the number of columns, as in FORMATS.md."""
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise InputError("--size", f"'{text}' is not a size like 6x6") from None
    if not (2 <= w <= 10 and 2 <= h <= 10):
        raise InputError("--size", f"'{text}': each side must be 2 to 10 (numbers are single digits)")
    return h, w


def run(args: Any) -> dict[str, Any]:
    """The `generate` command: the native YAML of a new puzzle, with provenance."""
    from grader.io.native import dump
    from grader.genres import get
    g = get(args.genre)
    if g is None or g.name != "arrows":
        raise InputError("--genre", f"cannot generate '{args.genre}' puzzles (only arrows)")
    rows, cols = parse_size(args.size)
    if args.level is not None and not 1 <= args.level <= 5:
        raise InputError("--level", f"{args.level} is not a level 1-5")
    made = generate_arrows(rows, cols, args.arrows, args.level, args.seed, args.attempts)
    command = (f"grader generate --genre arrows --size {args.size} --arrows {args.arrows}"
               + (f" --level {args.level}" if args.level is not None else "") + f" --seed {args.seed}")
    from grader.core.analysis import analyse
    grade = analyse(made.puzzle, check_unique=False).grade
    meta = Meta(title=f"Japanese Arrows {cols}x{rows} {args.arrows}, level {made.level}",
                author="grader generator", provenance=command, licence="project's own",
                id=f"arrows-{cols}x{rows}-{args.arrows}-L{made.level}-s{args.seed}")
    puzzle = attrs.evolve(made.puzzle, meta=meta)
    doc = puzzle.genre.to_native(puzzle)
    doc["level"] = made.level
    doc["grade"] = grade.label
    return {"yaml": dump(doc), "level": made.level, "givens": made.givens, "attempts": made.attempts,
            "id": meta.id}
