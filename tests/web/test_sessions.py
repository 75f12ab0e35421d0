"""The live table's sessions: signed, short-lived; a forged, altered or expired one is refused."""

from __future__ import annotations

import base64
import json

from tests.clock import Clock
from web.sessions import Sessions, Viewer


def test_a_session_reads_back_as_its_user_until_it_expires() -> None:
    clock = Clock(1_000_000.0)
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


def _signed(sessions: Sessions, payload: str) -> str:
    """A session whose payload is ``payload`` verbatim, signed with the right key."""
    signed = f"v1.{base64.urlsafe_b64encode(payload.encode()).rstrip(b'=').decode()}"
    return f"{signed}.{sessions._sign(signed)}"


def test_an_expiry_is_read_only_as_a_whole_number() -> None:
    sessions = Sessions("secret", seconds=900, clock=Clock(1_000_000.0))
    good = _signed(sessions, '{"u":"1","n":"alice","e":1000100}')
    assert sessions.read(good) == Viewer(1, "alice", 1_000_100)
    for expiry in ("NaN", "Infinity", "-Infinity", "1000100.0", "1e6", '"1000100"', "true"):
        assert sessions.read(_signed(sessions, f'{{"u":"1","n":"a","e":{expiry}}}')) is None


def test_a_user_is_read_only_as_digits() -> None:
    sessions = Sessions("secret", seconds=900, clock=Clock(1_000_000.0))
    for user in ('"1_0"', '" 1"', '"-1"', '"１"', "1", '"' + "9" * 21 + '"'):
        assert sessions.read(_signed(sessions, f'{{"u":{user},"n":"a","e":1000100}}')) is None
    assert sessions.read(_signed(sessions, '{"u":"1","n":7,"e":1000100}')) is None


def test_an_expiry_further_ahead_than_a_session_lasts_is_refused() -> None:
    clock = Clock(1_000_000.0)
    long = Sessions("secret", seconds=3600, clock=clock).issue(1, "alice")
    short = Sessions("secret", seconds=600, clock=clock)
    assert short.read(long) is None  # signed before the sessions were shortened
    clock.now += 3600 - 600
    assert short.read(long) is not None
    assert short.left(1_003_100) == 100 and short.left(1_000_000) == 0
