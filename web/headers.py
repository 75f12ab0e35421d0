"""The headers every answer of the web server carries (docs/activity.md, "Headers and limits
of every answer").

The Content-Security-Policy allows what the built page loads and nothing else: its script and
stylesheet (``page/dist/assets``), images from itself and ``data:`` (the favicon is
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


def content_security_policy(client_id: str | None) -> str:
    host = proxy_origin(client_id)
    own = ["'self'", *([f"https://{host}"] if host else [])]
    sockets = [f"wss://{host}"] if host else []
    directives = [
        "default-src 'none'",
        f"script-src {' '.join(own)}",
        f"style-src {' '.join(own)}",
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
