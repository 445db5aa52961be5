"""The Starlette app of `grader play`: the page, its static files and the JSON API.

    GET  /                     the page (/?puzzle=<reference>&genre=<g> opens one directly)
    GET  /api/genres           the genres and their titles
    GET  /api/corpus           the corpus puzzles by id
    GET  /api/puzzle/<id>      one corpus puzzle's text
    POST /api/open | render | grade | hint | check | why | path | pzprv3    (grader.web.api)

Every refused request is a 4xx with {"error": "one line"}.
"""
from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from grader.web.corpus import Corpus, default_folder
from grader.web.session import MAX_BODY_BYTES
from grader.web.workers import Workers

STATIC = Path(__file__).parent / "static"
POSTS = ("open", "render", "grade", "hint", "check", "why", "path", "pzprv3")


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request) -> Any:
    """The body as JSON, refused past MAX_BODY_BYTES before it is all read."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise HTTPException(413, f"the request body is {declared} bytes: at most {MAX_BODY_BYTES}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise HTTPException(413, f"the request body is over {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks).decode("utf-8"))
    except UnicodeDecodeError:
        raise HTTPException(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise HTTPException(400, f"the request body is not JSON: {exc.msg} at line {exc.lineno} "
                                 f"column {exc.colno}") from None
    except RecursionError:
        raise HTTPException(400, "the request body is nested too deeply") from None


def create_app(workers: int = 2, seconds: float = 10.0, corpus_folder: Path | None = None,
               grace: float = 2.0) -> Starlette:
    """workers: solver processes (0: threads, for tests); seconds: a solve's time budget;
    grace: how long past 1.5 x seconds a request waits before answering 'no hint within'."""
    corpus = Corpus(corpus_folder if corpus_folder is not None else default_folder())
    pool: dict[str, Workers] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette):
        pool["workers"] = Workers(workers, seconds, grace)
        try:
            yield
        finally:
            pool.pop("workers").close()

    async def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "page.html", media_type="text/html")

    async def genres(request: Request) -> JSONResponse:
        from grader.genres import all_genres
        return JSONResponse([{"genre": g.name, "title": g.title, "tatham": g.has_tatham}
                             for g in all_genres()])

    async def corpus_list(request: Request) -> JSONResponse:
        return JSONResponse(corpus.listing())

    async def corpus_puzzle(request: Request) -> JSONResponse:
        pid = request.path_params["pid"]
        text = corpus.text(pid)
        if text is None:
            return error(404, f"no corpus puzzle '{pid[:80]}' (GET /api/corpus lists them)")
        return JSONResponse({"id": pid, "genre": pid.split("/")[0], "puzzle": text})

    def post(name: str):
        async def handler(request: Request) -> JSONResponse:
            body = await read_json(request)
            status, data = await pool["workers"].run(name, body)
            return JSONResponse(data, status_code=status)
        return handler

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        detail = exc.detail if exc.status_code not in (404, 405) or exc.detail not in (
            "Not Found", "Method Not Allowed") else {
            404: f"no such page or API call: {request.url.path[:100]}",
            405: f"{request.method} is not allowed on {request.url.path[:100]}"}[exc.status_code]
        return error(exc.status_code, str(detail))

    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        return error(500, f"internal error: {type(exc).__name__}")

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [Route("/", page), Route("/favicon.ico", no_icon), Route("/api/genres", genres), Route("/api/corpus", corpus_list),
              Route("/api/puzzle/{pid:path}", corpus_puzzle),
              *(Route(f"/api/{name}", post(name), methods=["POST"]) for name in POSTS),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={HTTPException: http_error, Exception: internal_error})
