"""The web app (Starlette): three pages and their JSON answers.

=====================  ==========================================================
route                  what
=====================  ==========================================================
``GET /``              the Advise page
``GET /review``        the Review page
``GET /chart``         the Chart page
``POST /api/advise``   the Advise form's JSON -> ``{"job": id}`` or a field error
``POST /api/review``   the Review form's JSON -> ``{"job": id}`` or a field error
``GET /api/job/{id}``  a job's state, progress and answer (or its field error)
``GET /api/chart``     every cell of the call chart
``GET /api/chart/{i}`` one cell's numbers, interval and rules
=====================  ==========================================================

A refusal is ``{"field": name, "error": message}`` with status 422 (or in the job, when the
API refuses while answering); nothing a browser sends stops the server.
"""

from __future__ import annotations

import json
from importlib.resources import files

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from . import answers
from .forms import FieldError, advise_args, review_args
from .jobs import Jobs

#: the largest request body read, in bytes (a record is a few kB; the Review page says so)
MAX_BODY = 400_000
STATIC = files("kalooki_sim.serve") / "static"


def _page(name: str) -> str:
    shell = (STATIC / "shell.html").read_text(encoding="utf-8")
    body = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    return shell.replace("{{body}}", body).replace(f'data-page="{name}"',
                                                    f'data-page="{name}" aria-current="page"')


def _refuse(field: str, message: str, status: int = 422) -> JSONResponse:
    return JSONResponse({"field": field, "error": message}, status_code=status)


async def _json(request: Request, field: str):
    body = await request.body()
    if len(body) > MAX_BODY:
        raise FieldError(field, f"the request is {len(body):,} bytes; give at most "
                         f"{MAX_BODY:,} (a hand's record is a few thousand)")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise FieldError(field, "the request is not JSON") from None
    if not isinstance(data, dict):
        raise FieldError(field, "the request is not a JSON object of the form's fields")
    return data


def create_app(warm: bool = False) -> Starlette:
    """The app: pages, answers and a job table of its own (one per app).

    Parameters
    ----------
    warm : bool
        Queue a tiny advice first, so the compiled kernels are loaded before the first
        question (``kalooki serve`` does).

    Returns
    -------
    starlette.applications.Starlette
    """
    jobs = Jobs()

    def page(name):
        async def show(request: Request):
            return HTMLResponse(_page(name))
        return show

    async def asset(request: Request):
        name = request.path_params["name"]
        types = {"js": "text/javascript", "css": "text/css"}
        ext = name.rsplit(".", 1)[-1]
        if ext not in types or "/" in name or name.startswith("."):
            return Response("not found", status_code=404)
        f = STATIC / name
        if not f.is_file():
            return Response("not found", status_code=404)
        return Response(f.read_text(encoding="utf-8"), media_type=types[ext])

    async def advise(request: Request):
        try:
            kw = advise_args(await _json(request, "hand"))
        except FieldError as e:
            return _refuse(e.field, str(e))
        return JSONResponse({"job": jobs.submit("advise", lambda job: answers.advise_answer(kw))})

    async def review(request: Request):
        try:
            args = review_args(await _json(request, "record"))
        except FieldError as e:
            return _refuse(e.field, str(e))
        return JSONResponse({"job": jobs.submit("review",
                                                lambda job: answers.review_answer(args))})

    async def job(request: Request):
        j = jobs.get(request.path_params["jid"])
        if j is None:
            return JSONResponse({"error": "no such job (the server keeps the last "
                                 f"{200} answers)"}, status_code=404)
        return JSONResponse(j)

    async def record_format(request: Request):
        from ..report.site import GUIDE_DIR, markdown_html

        md = (GUIDE_DIR / "record.md").read_text(encoding="utf-8")
        shell = (STATIC / "shell.html").read_text(encoding="utf-8")
        return HTMLResponse(shell.replace("{{body}}", markdown_html(md, terms=False)))

    async def chart(request: Request):
        return JSONResponse({"cells": answers.chart_cells()})

    async def cell(request: Request):
        try:
            return JSONResponse(answers.chart_cell(int(request.path_params["i"])))
        except FieldError as e:
            return _refuse(e.field, str(e))

    routes = [Route("/", page("advise")), Route("/review", page("review")),
              Route("/chart", page("chart")), Route("/format", record_format),
              Route("/static/{name}", asset),
              Route("/api/advise", advise, methods=["POST"]),
              Route("/api/review", review, methods=["POST"]),
              Route("/api/job/{jid}", job), Route("/api/chart", chart),
              Route("/api/chart/{i:int}", cell)]
    if warm:
        jobs.submit("warm-up", lambda job: answers.advise_answer(dict(
            hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", card="6♦", contract=1, discarder=1,
            rollouts=4, seed=0)))
    app = Starlette(routes=routes)
    app.state.jobs = jobs
    return app
