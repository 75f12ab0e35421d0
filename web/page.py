"""The table page's files (``page/dist/``, built by ``make page``) at ``/``.

Only names a build makes are looked up: path segments of letters, digits, ``_``, ``-`` and
``.``, none empty, none starting with a dot. Any other path (a NUL byte, ``..``, a hidden
file, a backslash) is a 404 like a missing file, before the file system is asked.

How long a browser keeps a file: the build's files under ``assets/`` carry a hash of their
content in their names (a new build names them anew), so they are kept a year and never asked
for again (``immutable``); anything else, ``index.html`` first, is asked for again each time
(``no-cache``) with its ETag and Last-Modified (aiohttp's FileResponse sets both and answers
304 Not Modified to a matching ``If-None-Match`` or ``If-Modified-Since``), so a reload costs
one request of a few hundred bytes and still gets a new build's names at once. A ``.gz`` beside
a file is sent to a browser that accepts gzip (``Vary: Accept-Encoding``).

``index.html`` holds the start-up script and stylesheet (page/vite.config.ts): its answer (a
304 too, whose headers replace the kept ones) carries a Content-Security-Policy that allows
them by their sha256, computed from the file on disk (again whenever it changes), so a new
build is allowed at once and nothing else inline ever is.
"""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp import web

from web.headers import content_security_policy, inline_sources

PAGE = Path(__file__).resolve().parent.parent / "page" / "dist"
NOT_BUILT = "The table page is not built: run make page"
HASHED = "assets"  # the folder of the build's content-named files
KEPT = "public, max-age=31536000, immutable"
ASKED_AGAIN = "no-cache"
SEGMENT = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")


class PageFiles:
    """``client_id``: the application's, named in the policy as web/server.py names it."""

    def __init__(self, folder: Path = PAGE, client_id: str | None = None) -> None:
        self.folder = folder
        self.client_id = client_id
        self._policy: tuple[tuple[int, int], str] | None = None  # (mtime, size), policy

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.get("/", self.handle), web.get("/{path:.+}", self.handle)]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        index = self.folder / "index.html"
        if not index.is_file():
            return web.Response(status=503, text=NOT_BUILT)
        wanted = request.match_info.get("path", "") or "index.html"
        target = self.file(wanted)
        if target is None:
            raise web.HTTPNotFound()
        headers = {"Cache-Control": cache_control(wanted)}
        if target.name == "index.html":
            headers["Content-Security-Policy"] = self.policy(target)
        return web.FileResponse(target, headers=headers)

    def policy(self, index: Path) -> str:
        """The Content-Security-Policy of ``index``, its inline elements' hashes included."""
        stat = index.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        if self._policy is None or self._policy[0] != key:
            html = index.read_text(encoding="utf-8")
            self._policy = (key, content_security_policy(self.client_id, inline_sources(html)))
        return self._policy[1]

    def file(self, wanted: str) -> Path | None:
        """The built file at ``wanted`` (a path relative to the build), or None."""
        parts = wanted.split("/")
        if len(parts) > 8 or not all(SEGMENT.fullmatch(part) for part in parts):
            return None
        try:
            root = self.folder.resolve()
            target = root.joinpath(*parts).resolve()
            if not target.is_relative_to(root) or not target.is_file():
                return None
        except (OSError, ValueError):
            return None
        return target


def cache_control(wanted: str) -> str:
    """The Cache-Control of the built file at ``wanted`` (a path relative to the build)."""
    return KEPT if wanted.split("/", 1)[0] == HASHED and "/" in wanted else ASKED_AGAIN
