"""The table page's files (``page/dist/``, built by ``make page``) at ``/``."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

PAGE = Path(__file__).resolve().parent.parent / "page" / "dist"
NOT_BUILT = "The table page is not built: run make page"


class PageFiles:
    def __init__(self, folder: Path = PAGE) -> None:
        self.folder = folder

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.get("/", self.handle), web.get("/{path:.+}", self.handle)]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        index = self.folder / "index.html"
        if not index.is_file():
            return web.Response(status=503, text=NOT_BUILT)
        wanted = request.match_info.get("path", "") or "index.html"
        root = self.folder.resolve()
        target = (root / wanted).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(target)
