"""Signed, short-lived sessions of the live table's viewers (docs/activity.md).

A session is ``v1.<payload>.<signature>``, both base64url without padding: the payload is
``{"u": user id, "n": name, "e": expiry}`` as JSON, the signature HMAC-SHA256 over
``v1.<payload>`` with a key derived from the application's OAuth2 client secret. Every process
of a deployment has that secret, so a session signed by one is accepted by all, and nothing
needs storing. A forged, altered or expired session reads as None; so does one whose expiry is
not a whole number of unix seconds (JSON's ``NaN``, ``Infinity`` or a fraction) or lies further
ahead than a session lasts (a session signed before LIVE_SESSION_MINUTES was lowered).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

SESSION_SECONDS = 15 * 60
VERSION = "v1"
SKEW_SECONDS = 60  # clocks of a deployment's processes may differ by this much
_KEY_LABEL = b"card-table live-table sessions v1"
_MAX_USER_DIGITS = 20  # a snowflake is below 2**64


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who a session belongs to, and until when (unix seconds)."""

    user_id: int
    name: str
    expires: int


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def whole_number(value: object) -> int | None:
    """``value`` if it is a JSON integer: never a bool, a float (``NaN`` and ``Infinity``
    included) or a string."""
    return value if type(value) is int else None


class Sessions:
    """Signs and reads sessions; ``clock`` (unix seconds) is injected for tests."""

    def __init__(
        self,
        secret: str,
        *,
        seconds: float = SESSION_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not secret:
            raise ValueError("sessions need a secret")
        self._key = hmac.new(secret.encode(), _KEY_LABEL, hashlib.sha256).digest()
        self.seconds = seconds
        self._clock = clock

    def now(self) -> float:
        return self._clock()

    def left(self, expires: int) -> int:
        """Whole seconds until ``expires`` (0 once it has passed)."""
        return max(0, int(expires - self._clock()))

    def _sign(self, signed: str) -> str:
        return _b64(hmac.new(self._key, signed.encode("ascii"), hashlib.sha256).digest())

    def issue(self, user_id: int, name: str) -> str:
        expires = int(self._clock() + self.seconds)
        payload = json.dumps({"u": str(user_id), "n": name, "e": expires}, separators=(",", ":"))
        signed = f"{VERSION}.{_b64(payload.encode())}"
        return f"{signed}.{self._sign(signed)}"

    def read(self, session: object) -> Viewer | None:
        """The session's viewer, or None: not a string, not ours, altered, or expired."""
        if not isinstance(session, str) or session.count(".") != 2 or len(session) > 2048:
            return None
        version, payload, signature = session.split(".")
        if version != VERSION:
            return None
        expected = self._sign(f"{version}.{payload}")
        if not hmac.compare_digest(expected.encode(), signature.encode("ascii", "replace")):
            return None
        try:
            data = json.loads(_unb64(payload))
            user, name, expires = data["u"], data["n"], whole_number(data["e"])
        except (ValueError, KeyError, TypeError, binascii.Error):
            return None
        if not isinstance(user, str) or not user.isascii() or not user.isdigit():
            return None
        if len(user) > _MAX_USER_DIGITS or not isinstance(name, str) or expires is None:
            return None
        now = self._clock()
        if not now < expires <= now + self.seconds + SKEW_SECONDS:
            return None
        return Viewer(int(user), name, expires)
