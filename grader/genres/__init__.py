"""The genre registry. Each genre module registers one Genre; its heuristics are plugins."""
from __future__ import annotations

import functools
import importlib
import pkgutil
import threading
from typing import Callable

from grader.core.model import Puzzle
from grader.core.genre import Genre
from grader.core.registry import REGISTRY

_GENRES: dict[str, Genre] = {}
_ALIASES: dict[str, str] = {}
_BROKEN: dict[str, str] = {}      # module -> why it failed to load
_TRIED: set[str] = set()           # genre packages imported (or tried) so far
_LOADED = False
_STARTED = False
_LOCK = threading.RLock()          # batch workers may load genres from several threads


def register(genre: Genre) -> Genre:
    if genre.name in _GENRES:
        raise ValueError(f"genre {genre.name!r} registered twice")
    for key in (genre.name, *genre.aliases):
        if key in _ALIASES:
            raise ValueError(f"genre alias {key!r} already names {_ALIASES[key]!r}")
        _ALIASES[key] = genre.name
    if "genre" in vars(genre.puzzle_type):
        raise ValueError(f"{genre.puzzle_type.__name__} already belongs to {genre.puzzle_type.genre}")
    genre.puzzle_type.genre = genre      # every puzzle holds its genre: no lookups by name
    _GENRES[genre.name] = genre
    return genre


def _load() -> None:
    """Import every genre's model (each registers its GENRE); its techniques are plugins the
    technique registry loads when they are first asked for (grader.core.registry).

    A module that fails to load is recorded in `broken()` and left out, so one broken plugin
    cannot take the others down; tests assert that nothing is broken."""
    global _LOADED, _STARTED
    if _LOADED:
        return
    with _LOCK:           # other threads wait here until loading is complete
        if _LOADED or _STARTED:
            return        # a genre module asking for genres while this thread loads them
        _STARTED = True
        _load_all()
        _LOADED = True


def _load_all() -> None:
    for package in _packages():
        _load_one(package)


def _load_one(package: str) -> None:
    if package in _GENRES or package in _BROKEN or package in _TRIED:
        return
    _TRIED.add(package)
    try:
        importlib.import_module(f"{__name__}.{package}.model")     # registers its GENRE
    except Exception as exc:  # noqa: BLE001 - reported by broken() and `grader genres`
        _BROKEN[package] = f"{type(exc).__name__}: {exc}"
        for key in [k for k, v in _ALIASES.items() if v == package]:
            del _ALIASES[key]
        _GENRES.pop(package, None)


def broken() -> dict[str, str]:
    """Genres whose model or techniques failed to load, with the reason."""
    _load()
    for name in _GENRES:
        REGISTRY.load(name)
    return {**_BROKEN, **REGISTRY.broken}


def all_genres() -> list[Genre]:
    _load()
    return [_GENRES[k] for k in sorted(_GENRES)]


def find(test: Callable[[Genre], bool], guess: str = "") -> Genre | None:
    """The first genre that passes `test`: those `guess` (a URL's puzzle type, a janko folder)
    may name first, then the others by name. Genres are imported one at a time until one
    passes, so a command on one puzzle need not import the other twelve."""
    with _LOCK:
        first = _named(guess.lower().replace("_", "-")) if guess else []
        for package in [*first, *(p for p in _packages() if p not in first)]:
            _load_one(package)
            g = _GENRES.get(package)
            if g is not None and test(g):
                return g
    return None


def get(name: str) -> Genre | None:
    """The genre a name or alias names. It loads the genre that name belongs to alone (a
    command on one puzzle need not import the other twelve); a name no genre lists loads
    them all."""
    wanted = name.lower().replace("_", "-")
    with _LOCK:
        if wanted not in _ALIASES and not _LOADED:
            for package in _named(wanted):
                _load_one(package)
    if wanted not in _ALIASES:
        _load()
    key = _ALIASES.get(wanted)
    return _GENRES.get(key) if key else None


@functools.cache      # the installed genre packages do not change while we run
def _packages() -> tuple[str, ...]:
    return tuple(sorted(info.name for info in pkgutil.iter_modules(__path__)
                        if info.ispkg and not info.name.startswith("_")))


def _named(wanted: str) -> list[str]:
    """The genre packages a name may stand for: the one of that name, else those whose
    __init__ lists it among their names (ALIASES, PUZZLINK_PIDS, JANKO_NAMES), so that no
    model is imported to find out."""
    packages = _packages()
    if wanted in packages:
        return [wanted]
    out = []
    for package in packages:
        try:
            names = vars(importlib.import_module(f"{__name__}.{package}"))
        except Exception:  # noqa: BLE001 - _load_one records why, when the genre is loaded
            continue
        if any(wanted == n.lower() for key in ("ALIASES", "PUZZLINK_PIDS", "JANKO_NAMES") for n in names.get(key, ())):
            out.append(package)
    return out
