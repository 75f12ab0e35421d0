"""The page's files: what a build makes is served; any other path is a 404 that logs nothing."""

from __future__ import annotations

import base64
import gzip
import hashlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from web.page import PageFiles
from web.server import WebServer


@pytest.fixture
async def base(tmp_path: Path) -> AsyncIterator[str]:
    build = tmp_path / "dist"
    (build / "assets").mkdir(parents=True)
    (build / "index.html").write_text("<!doctype html>")
    (build / "index.html.gz").write_bytes(gzip.compress(b"<!doctype html>"))
    (build / "assets" / "index-Ab_1.js").write_text("x")
    (build / ".secret").write_text("no")
    (tmp_path / "outside.txt").write_text("no")
    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(PageFiles(build).routes())
    await server.start()
    try:
        yield f"http://127.0.0.1:{server.bound_port}"
    finally:
        await server.stop()


async def test_built_files_are_served(base: str) -> None:
    async with aiohttp.ClientSession() as http:
        for path in ("/", "/index.html", "/assets/index-Ab_1.js"):
            async with http.get(base + path) as response:
                assert response.status == 200, path


@pytest.mark.parametrize(
    "path",
    [
        "/index.html%00.js",
        "/%00",
        "/assets/%00/x",
        "/..%2foutside.txt",
        "/assets/..%2F..%2Foutside.txt",
        "/.secret",
        "/assets//index-Ab_1.js",
        "/a%5Cb",
        "/assets",
        "/" + "a/" * 20 + "b",
        "/" + "a" * 300,
    ],
)
async def test_a_path_that_cannot_be_a_file_is_a_quiet_404(
    base: str, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with aiohttp.ClientSession() as http, http.get(base + path) as response:
        assert response.status == 404
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_hashed_assets_are_kept_and_the_index_is_asked_for_again(base: str) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(base + "/assets/index-Ab_1.js") as response:
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        for path in ("/", "/index.html"):
            async with http.get(base + path) as response:
                assert response.headers["Cache-Control"] == "no-cache", path
                assert response.headers["ETag"] and response.headers["Last-Modified"], path


@pytest.mark.parametrize("encoding", ["gzip", "identity"])
async def test_a_reload_of_an_unchanged_index_is_a_304(base: str, encoding: str) -> None:
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        sent = {"Accept-Encoding": encoding}
        async with http.get(base + "/", headers=sent) as first:
            etag, modified = first.headers["ETag"], first.headers["Last-Modified"]
        for asked in ({"If-None-Match": etag}, {"If-Modified-Since": modified}):
            async with http.get(base + "/", headers={**sent, **asked}) as again:
                assert again.status == 304, asked
                assert await again.read() == b""
                assert again.headers["Cache-Control"] == "no-cache"
        async with http.get(base + "/", headers={**sent, "If-None-Match": '"other"'}) as changed:
            assert changed.status == 200
            assert await changed.read()


async def test_a_gzip_beside_a_file_is_sent_to_who_accepts_it(base: str) -> None:
    sent = {"Accept-Encoding": "gzip"}
    async with (
        aiohttp.ClientSession(auto_decompress=False) as http,
        http.get(base + "/", headers=sent) as response,
    ):
        assert response.headers["Content-Encoding"] == "gzip"
        assert response.headers["Vary"] == "Accept-Encoding"
        assert gzip.decompress(await response.read()) == b"<!doctype html>"


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def directive(policy: str, name: str) -> list[str]:
    found = [d.split() for d in policy.split("; ") if d.split()[0] == name]
    assert len(found) == 1, policy
    return found[0][1:]


async def test_the_index_allows_its_own_inline_script_and_style_only(tmp_path: Path) -> None:
    build = tmp_path / "dist"
    build.mkdir()
    script, style = 'console.log("a")', "p{color:red}"
    html = (
        f'<script type="module">{script}</script><style>{style}</style><script src="x.js"></script>'
    )
    (build / "index.html").write_text(html)
    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(PageFiles(build, client_id="1234").routes())
    await server.start()
    base = f"http://127.0.0.1:{server.bound_port}"
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/") as first:
                policy, etag = first.headers["Content-Security-Policy"], first.headers["ETag"]
            own = ["'self'", "https://1234.discordsays.com"]
            assert directive(policy, "script-src") == [*own, sha256(script)]
            assert directive(policy, "style-src") == [*own, sha256(style)]
            assert directive(policy, "default-src") == ["'none'"]
            async with http.get(base + "/", headers={"If-None-Match": etag}) as again:
                assert again.status == 304
                assert again.headers["Content-Security-Policy"] == policy  # kept with the copy
            (build / "index.html").write_text(html.replace('"a"', '"bb"'))  # a new build
            async with http.get(base + "/") as rebuilt:
                changed = rebuilt.headers["Content-Security-Policy"]
            assert directive(changed, "script-src") == [*own, sha256(script.replace("a", "bb"))]
            async with http.get(base + "/health") as other:
                assert "sha256" not in other.headers["Content-Security-Policy"]
    finally:
        await server.stop()
