"""The live table's sessions: signed, short-lived; a forged, altered or expired one is refused."""

from __future__ import annotations

import base64
import json

from web.sessions import Sessions


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_session_reads_back_as_its_user_until_it_expires() -> None:
    clock = Clock()
    sessions = Sessions("secret", seconds=900, clock=clock)
    token = sessions.issue(123456789012345678, "alice")
    viewer = sessions.read(token)
    assert viewer is not None and viewer.user_id == 123456789012345678 and viewer.name == "alice"
    clock.now += 899
    assert sessions.read(token) is not None
    clock.now += 2
    assert sessions.read(token) is None


def test_another_deployments_session_is_refused() -> None:
    token = Sessions("their secret").issue(1, "mallory")
    assert Sessions("our secret").read(token) is None
    assert Sessions("their secret").read(token) is not None


def test_an_altered_payload_is_refused() -> None:
    sessions = Sessions("secret")
    version, payload, signature = sessions.issue(1, "alice").split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["u"] = "2"  # someone else, signature kept
    forged = base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
    assert sessions.read(f"{version}.{forged}.{signature}") is None
    assert sessions.read(f"{version}.{payload}.{signature}") is not None


def test_garbage_is_refused() -> None:
    sessions = Sessions("secret")
    for junk in (None, 5, "", "v1", "v1.a.b", "v2.a.b", "x" * 5000, {"u": 1}):
        assert sessions.read(junk) is None
