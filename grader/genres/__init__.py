"""The genre registry. Each genre module registers one Genre; its heuristics are plugins."""
from __future__ import annotations

import importlib
import pkgutil
import threading

from grader.core.model import Puzzle
from grader.core.genre import Genre

_GENRES: dict[str, Genre] = {}
_ALIASES: dict[str, str] = {}
_BROKEN: dict[str, str] = {}      # module -> why it failed to load
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
    _GENRES[genre.name] = genre
    return genre


def _load() -> None:
    """Import every genre module in this package (each registers its GENRE) and its techniques.

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
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        try:
            genre = getattr(importlib.import_module(f"{__name__}.{info.name}.model"), "GENRE", None)
            if genre is not None and genre.heuristics_module:
                importlib.import_module(genre.heuristics_module)
                from grader.core.probing import register_last_resort
                register_last_resort(genre.name)      # unless the genre has its own
        except Exception as exc:  # noqa: BLE001 - reported by broken() and `grader genres`
            _BROKEN[info.name] = f"{type(exc).__name__}: {exc}"
            for key in [k for k, v in _ALIASES.items() if v == info.name]:
                del _ALIASES[key]
            _GENRES.pop(info.name, None)


def broken() -> dict[str, str]:
    """Genre modules that failed to load, with the reason."""
    _load()
    return dict(_BROKEN)


def all_genres() -> list[Genre]:
    _load()
    return [_GENRES[k] for k in sorted(_GENRES)]


def get(name: str) -> Genre | None:
    _load()
    key = _ALIASES.get(name.lower().replace("_", "-"))
    return _GENRES.get(key) if key else None


def genre_of(puzzle: Puzzle) -> Genre:
    g = get(puzzle.genre)
    if g is None:
        raise KeyError(puzzle.genre)
    return g
