"""bench/live_load.py: the REST calls of a burst counted by route and by whose channel."""

from __future__ import annotations

from bench.live_load import by_route
from tests.fakediscord import RecordedRequest

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def request(method: str, path: str, kind: str) -> RecordedRequest:
    return RecordedRequest(method, path, {}, None, 200, 0.0, kind=kind)


def test_a_channel_route_is_told_by_whose_channel_it_is() -> None:
    requests = [
        request("PATCH", "/channels/10/messages/1", EDIT),
        request("PATCH", "/channels/10/messages/1", EDIT),
        request("PATCH", "/channels/77/messages/2", EDIT),
        request("GET", "/applications/5/activity-instances/i-1", "GET /applications/x"),
        request("GET", "/nowhere", ""),
    ]
    assert by_route(requests, {10, 11}) == {
        f"{EDIT} (table channel)": 2,
        f"{EDIT} (DM channel)": 1,
        "GET /applications/x": 1,
        "GET /nowhere": 1,
    }
