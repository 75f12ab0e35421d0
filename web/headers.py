"""The headers every answer of the web server carries (docs/activity.md, "Headers and limits
of every answer").

The Content-Security-Policy allows what the built page loads and nothing else: its scripts and
stylesheets (``page/dist/assets``), the start-up script and stylesheet the build writes inside
``index.html`` (on that file's answer, by the sha256 of each, computed from the file served:
:func:`inline_sources`), images from itself and ``data:`` (the favicon is
``data:,``; the cards are inline SVG), and requests and the websocket to its own origin; no
fonts (the page uses the system's), no plugins, no forms, no ``<base>``. Inside Discord that
origin is ``https://<application id>.discordsays.com`` (Discord's proxy), named as well as
``'self'`` so the policy holds where the page's document ends up with an opaque origin.

``frame-ancestors`` names who may show the page in a frame: Discord's web and desktop
clients (``discord.com``, ``ptb.discord.com``, ``canary.discord.com`` and the other hosts of
``discord.com``, and the older ``discordapp.com`` ones; the Embedded App SDK accepts messages
from exactly these parents), the application's own ``discordsays.com`` host and the page's
own origin (a pop-out, ``make web``). Anyone else framing the backend's own host is refused.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass

SERVER = "cardtable"  # the Server header: no product version

DISCORD_FRAMES = (
    "https://discord.com",
    "https://*.discord.com",
    "https://discordapp.com",
    "https://*.discordapp.com",
)


def proxy_origin(client_id: str | None) -> str | None:
    """The origin Discord serves the Activity from (its proxy), when the application is known."""
    return f"{client_id}.discordsays.com" if client_id else None


# An element's text as the browser hashes it: all between the opening and the closing tag.
INLINE_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
INLINE_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.DOTALL | re.IGNORECASE)
SOURCE = re.compile(r"\bsrc\s*=", re.IGNORECASE)


@dataclass(frozen=True)
class Inline:
    """The CSP sources (``'sha256-…'``) of a document's inline scripts and stylesheets."""

    scripts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()


def _sha256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def inline_sources(html: str) -> Inline:
    """The hashes that allow ``html``'s inline ``<script>`` and ``<style>`` elements, and
    nothing else (a script with a ``src`` is its file's, allowed by its origin)."""
    scripts = [body for attrs, body in INLINE_SCRIPT.findall(html) if not SOURCE.search(attrs)]
    styles = INLINE_STYLE.findall(html)
    return Inline(
        tuple(dict.fromkeys(map(_sha256, scripts))), tuple(dict.fromkeys(map(_sha256, styles)))
    )


def content_security_policy(client_id: str | None, inline: Inline = Inline()) -> str:
    host = proxy_origin(client_id)
    own = ["'self'", *([f"https://{host}"] if host else [])]
    sockets = [f"wss://{host}"] if host else []
    directives = [
        "default-src 'none'",
        f"script-src {' '.join([*own, *inline.scripts])}",
        f"style-src {' '.join([*own, *inline.styles])}",
        f"img-src {' '.join([*own, 'data:'])}",
        f"connect-src {' '.join([*own, *sockets])}",
        "base-uri 'none'",
        "form-action 'none'",
        f"frame-ancestors {' '.join([*own, *DISCORD_FRAMES])}",
    ]
    return "; ".join(directives)


def security_headers(client_id: str | None) -> dict[str, str]:
    """The headers set on every answer (the Server header apart)."""
    return {
        "Content-Security-Policy": content_security_policy(client_id),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
