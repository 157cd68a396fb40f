"""The page at ``/``, the table page at ``/play``, the API page at ``/docs`` and their files under ``/web/``
(hkcore/web)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.staticfiles import StaticFiles

router = APIRouter(include_in_schema=False)

#: the folder of the page's files (shipped inside the package)
WEB = Path(__file__).resolve().parent.parent.parent / "web"


class WebFiles(StaticFiles):
    """The page's files, each answer to be checked again before it is used from a cache."""

    def file_response(self, *args: Any, **kwargs: Any) -> Any:
        """The file's answer, with ``Cache-Control: no-cache``."""
        answer = super().file_response(*args, **kwargs)
        answer.headers["Cache-Control"] = "no-cache"
        return answer


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"})


@router.get("/")
def page() -> FileResponse:
    """The scoring page."""
    return _page("index.html")


@router.get("/play")
def play() -> FileResponse:
    """The table page: open a table, play a seat (its token in the URL's fragment)."""
    return _page("play.html")


@router.get("/docs")
def docs() -> FileResponse:
    """The API page (it reads /openapi.json)."""
    return _page("docs.html")


def web_files() -> WebFiles:
    """The ASGI app of ``/web/``."""
    return WebFiles(directory=WEB)
