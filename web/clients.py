"""Who sent a request: the connection's address, or, when that connection comes from a
trusted proxy (TRUSTED_PROXIES: the balancer in front of the bot), the address the proxy put
in ``X-Forwarded-For``.

``X-Forwarded-For`` lists the addresses a request passed, the client's first; each proxy
appends the address it was reached from. So the list is read from its right end: addresses of
trusted proxies are skipped, and the first one that is not trusted is the client. A header
from an untrusted connection is ignored whole, so nobody can choose the address their limits
are counted under by sending the header themselves.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

UNKNOWN = "unknown"


class Clients:
    """Reads a request's client address; ``trusted``: addresses or networks of proxies."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self._trusted: tuple[Network, ...] = tuple(
            ipaddress.ip_network(t, strict=False) for t in trusted
        )

    def _is_trusted(self, address: Address | None) -> bool:
        return address is not None and any(address in net for net in self._trusted)

    def address(self, request: web.BaseRequest) -> str:
        """The client's address as text (``unknown`` when the connection has none)."""
        peer = _parse(request.remote)
        if peer is None:
            return UNKNOWN
        if not self._is_trusted(peer):
            return str(peer)
        hops: list[str] = []
        for header in request.headers.getall("X-Forwarded-For", []):
            hops.extend(part.strip() for part in header.split(","))
        client: Address = peer
        for hop in reversed(hops):
            parsed = _parse(hop)
            if parsed is None:
                break  # garbage from before the first trusted proxy: stop at what we know
            client = parsed
            if not self._is_trusted(parsed):
                break
        return str(client)


def _parse(text: str | None) -> Address | None:
    if not text:
        return None
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
