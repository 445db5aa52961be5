"""The JSON API's handlers: each takes the request body (a dict) and returns the answer (a
dict), raising ApiError for a request it refuses. They run in the server's worker pool
(grader.web.workers), each worker with its own cache of puzzles (grader.web.session)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from grader.core.errors import InputError, one_line
from grader.core.explain import sentence
from grader.core.model import State
from grader.web import geometry
from grader.web.session import ApiError, Cache, Entry, genre_text, marks_of

STAGES = ("nudge", "technique", "explain", "answer")
CACHE = Cache()


def configure(seconds: float) -> None:
    """Set the time budget of this worker's solves (seconds)."""
    CACHE.seconds = seconds


def _entry(body: dict[str, Any]) -> Entry:
    if "puzzle" not in body:
        raise ApiError(400, "the request has no 'puzzle': give a puzz.link URL, a Simon Tatham "
                            "game ID (with 'genre'), native YAML or a pzprv3 board")
    return CACHE.get(body["puzzle"], body.get("genre"))


def _names(entry: Entry, items: Sequence[Any]) -> list[str]:
    genre = entry.puzzle.genre
    return [str(i) if not isinstance(i, int) else genre.var_name(entry.puzzle, i) for i in items]


def _board(entry: Entry, state: State, highlights: Sequence[tuple[str, Sequence[Any]]] = ()
           ) -> dict[str, Any]:
    """The board as the page shows it: the SVG, the exact state and the genre's marks text."""
    genre = entry.puzzle.genre
    return {"svg": genre.render_svg(entry.puzzle, state, [(r, list(i)) for r, i in highlights if i]),
            "state": list(state.cands), "marks": genre_text(entry, state),
            "solved": solved(entry, state)}


def solved(entry: Entry, state: State) -> bool:
    from grader.core.hints import finished, mistakes
    solution = entry.known()[0]
    if solution is None or mistakes(entry.puzzle, state, solution):
        return False
    return state.complete or finished(entry.puzzle, state, solution)


def open_puzzle(body: dict[str, Any]) -> dict[str, Any]:
    entry = _entry(body)
    puzzle, genre = entry.puzzle, entry.puzzle.genre
    state = marks_of(entry, body)
    origin = puzzle.meta.origin if puzzle.meta.origin != "puzzle" else ""   # a URL or game ID
    return {"genre": genre.name, "title": genre.title, "id": puzzle.meta.id or puzzle.meta.title or origin,
            "input": geometry.INPUT_KIND.get(genre.name, "cells"), "grid": geometry.layout(puzzle),
            "targets": entry.targets(),
            "choices": {t["var"]: geometry.choices(puzzle, t["var"]) for t in entry.targets()},
            "values": [yes for yes, _ in genre.value_phrases], "pzprv3": pzprv3_written(genre.name),
            **_board(entry, state)}


def pzprv3_written(genre: str) -> bool:
    from grader.io.pzprv3.write import supported
    return supported(genre)


def render(body: dict[str, Any]) -> dict[str, Any]:
    """The board after the player's actions: [{"op": "cycle"|"set"|"clear"|"line"|"link", ...}]."""
    entry = _entry(body)
    state = marks_of(entry, body)
    actions = body.get("actions") or []
    if not isinstance(actions, list) or len(actions) > 500:
        raise ApiError(400, "'actions' must be a list of at most 500 actions")
    for action in actions:
        state = apply_action(entry, state, action)
    return _board(entry, state)


def apply_action(entry: Entry, state: State, action: Any) -> State:
    from grader.web.actions import apply
    if not isinstance(action, dict):
        raise ApiError(400, "each action must be an object like {\"op\": \"cycle\", \"var\": 3}")
    return apply(entry, state, action)


def grade(body: dict[str, Any]) -> dict[str, Any]:
    """The same JSON as `grader grade --json`."""
    return _entry(body).analysis().row(with_levels=True)


def _stage(body: dict[str, Any]) -> str:
    stage = body.get("stage") or "nudge"
    if stage not in STAGES:
        raise ApiError(400, f"unknown stage '{one_line(str(stage), 40)}': expected one of {', '.join(STAGES)}")
    return stage


def hint(body: dict[str, Any]) -> dict[str, Any]:
    """The same JSON as `grader hint --json`, plus the cells to highlight and the board; at the
    answer stage, the board with the step (or the correction of the wrong mark) applied."""
    from grader.core.hints import hint as next_hint
    entry = _entry(body)
    stage = _stage(body)
    state = marks_of(entry, body)
    h = next_hint(entry.puzzle, state, stage, budget=entry.budget, known=entry.known())
    out = h.to_json()
    roles = _hint_roles(h, stage)
    out["highlight"] = {role: _names(entry, items) for role, items in roles}
    out["cells"] = sorted({n for _, names in out["highlight"].items() for n in names})
    after = state
    if stage == "answer" and h.kind == "step" and h.step is not None:
        after = h.step.deduction.apply(state)
    elif stage == "answer" and h.kind == "mistake" and h.vars:
        solution = entry.known()[0]
        if solution is not None:
            var = h.vars[0]
            after = State(tuple(solution.cands[v] if v == var else m for v, m in enumerate(state.cands)))
    out["view"] = _board(entry, after, roles)
    return out


def _hint_roles(h: Any, stage: str) -> list[tuple[str, Sequence[Any]]]:
    """What each stage shows: the region (nudge), the region and clue cells (technique), the
    cells the explanation uses and what it decides (explain, answer); a wrong mark in red."""
    if h.kind == "mistake":
        return [("mistake", h.vars[:1] if stage != "nudge" else h.vars)]
    d = h.step.deduction if h.step is not None else None
    if d is None:
        return []
    region = list(d.region) + list(d.cells)
    if stage == "nudge":
        return [("region", region or list(d.targets))]
    if stage == "technique":
        return [("region", region), ("premise", list(d.premises))]
    return [("region", region), ("premise", list(d.premises)), ("target", list(d.targets))]


def check(body: dict[str, Any]) -> dict[str, Any]:
    """The same JSON as `grader check --json` for a board file: the number of solutions and
    whether the player's marks are solved, have a mistake or are unfinished."""
    from grader.app.answers import judge_board
    from grader.core.hints import mistakes
    from grader.io.pzprv3 import Read
    entry = _entry(body)
    state = marks_of(entry, body)
    result = entry.exact()
    puzzle = entry.puzzle
    out: dict[str, Any] = {"solutions": result.verdict.value}
    if result.solution is not None:
        out["solution"] = puzzle.genre.answer_json(puzzle, result.solution)
    solution = entry.known()[0]
    status, broken, wrong = judge_board(puzzle, Read(puzzle, state), solution)
    if status == "unfinished" and solved(entry, state):
        status = "solved"
    out["board"] = {"status": status, "broken": broken, "wrong": wrong}
    wrong_vars = mistakes(puzzle, state, solution)
    out["cells"] = wrong
    out["text"] = check_text(status, broken, wrong)
    out["view"] = _board(entry, state, [("mistake", wrong_vars)])
    return out


def check_text(status: str, broken: list[str], wrong: list[str]) -> str:
    if broken:
        return "A rule is broken: " + "; ".join(broken[:3]) + "."
    if wrong:
        shown = ", ".join(wrong[:8]) + (f" and {len(wrong) - 8} more" if len(wrong) > 8 else "")
        return f"{len(wrong)} mark{'s are' if len(wrong) != 1 else ' is'} wrong: {shown}."
    return {"solved": "Solved: every mark is right.",
            "unfinished": "No mark is wrong so far."}.get(status, status)


def why(body: dict[str, Any]) -> dict[str, Any]:
    """The same JSON as `grader hint --why CELL --json`, plus its text, cells and board."""
    from grader.app.answers import why_answer
    entry = _entry(body)
    cell = body.get("cell")
    if not isinstance(cell, str):
        raise ApiError(400, "'cell' must be a cell like r3c4")
    state = marks_of(entry, body)
    data, text, used = why_answer(entry.puzzle, state, cell, budget=entry.budget, what="cell",
                                  known=entry.known())
    out = dict(data, text=text, cells=_names(entry, used))
    out["view"] = _board(entry, state, [("premise", used[1:]), ("target", used[:1])])
    return out


def path(body: dict[str, Any]) -> dict[str, Any]:
    """The solve path `grader explain` prints: every step without `step`; with `step` (0 = the
    start), that step and the board after it, what it decided highlighted."""
    entry = _entry(body)
    trace = entry.analysis().trace
    steps = list(trace.states())
    wanted = body.get("step")
    if wanted is None:
        return {"status": trace.status.value, "count": len(steps),
                "steps": [_step_json(entry, s) for s, _, _ in steps]}
    if not isinstance(wanted, int) or isinstance(wanted, bool) or not 0 <= wanted <= len(steps):
        raise ApiError(400, f"'step' must be a whole number from 0 to {len(steps)}")
    if wanted == 0:
        return {"step": 0, "count": len(steps), "text": "The start.", "view": _board(entry, trace.start)}
    step, _, after = steps[wanted - 1]
    d = step.deduction
    roles = [("region", list(d.region) + list(d.cells)), ("premise", list(d.premises)),
             ("target", list(d.targets))]
    return {**_step_json(entry, step), "count": len(steps), "view": _board(entry, after, roles)}


def _step_json(entry: Entry, step: Any) -> dict[str, Any]:
    return {"step": step.number, "level": step.level, "technique": step.heuristic.id,
            "name": step.heuristic.name, "text": sentence(step),
            "cells": _names(entry, step.deduction.targets)}


def board_file(body: dict[str, Any]) -> dict[str, Any]:
    """The puzzle and the marks as a pzprv3 board file, for puzz.link's File > Open."""
    from grader.io.pzprv3.write import write
    entry = _entry(body)
    return {"pzprv3": write(entry.puzzle, marks_of(entry, body))}


HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "open": open_puzzle, "render": render, "grade": grade, "hint": hint, "check": check,
    "why": why, "path": path, "pzprv3": board_file}


def call(name: str, body: Any) -> tuple[int, dict[str, Any]]:
    """(HTTP status, JSON) of one handler, every failure a one-line error (never a traceback)."""
    if not isinstance(body, dict):
        return 400, {"error": "the request body must be a JSON object"}
    try:
        return 200, HANDLERS[name](body)
    except ApiError as exc:
        return exc.status, {"error": one_line(exc.message, 600)}
    except InputError as exc:
        return 400, {"error": one_line(str(exc), 600)}
    except RecursionError:
        return 400, {"error": "the input is nested too deeply"}
    except Exception as exc:   # a bug of ours: one line for the page, no traceback
        return 500, {"error": one_line(f"internal error: {type(exc).__name__}: {exc}", 600)}
