"""web/clients.py: whose X-Forwarded-For is believed."""

from __future__ import annotations

from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from multidict import CIMultiDict

from web.clients import Clients


def _request(peer: str, *forwarded: str) -> web.BaseRequest:
    headers = CIMultiDict[str]()
    for value in forwarded:
        headers.add("X-Forwarded-For", value)
    request = make_mocked_request("GET", "/", headers=headers)
    return request.clone(remote=peer)


def test_without_trusted_proxies_the_header_is_ignored() -> None:
    clients = Clients()
    assert clients.address(_request("203.0.113.7", "198.51.100.1")) == "203.0.113.7"


def test_a_trusted_proxy_names_the_client() -> None:
    clients = Clients(["127.0.0.1"])
    assert clients.address(_request("127.0.0.1", "198.51.100.1")) == "198.51.100.1"


def test_a_forged_first_hop_does_not_win_over_what_the_proxy_saw() -> None:
    clients = Clients(["10.0.0.0/8"])
    request = _request("10.0.0.2", "1.2.3.4, 198.51.100.9, 10.0.0.3")
    assert clients.address(request) == "198.51.100.9"


def test_several_headers_are_read_as_one_list() -> None:
    clients = Clients(["10.0.0.0/8"])
    request = _request("10.0.0.2", "1.2.3.4", "198.51.100.9")
    assert clients.address(request) == "198.51.100.9"


def test_garbage_in_the_header_stops_at_the_proxy_itself() -> None:
    clients = Clients(["127.0.0.1"])
    assert clients.address(_request("127.0.0.1", "not-an-address")) == "127.0.0.1"


def test_an_untrusted_peer_with_the_header_is_the_peer() -> None:
    clients = Clients(["127.0.0.1"])
    assert clients.address(_request("192.0.2.5", "127.0.0.1")) == "192.0.2.5"
