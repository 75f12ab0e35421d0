"""The web edge's settings: TRUSTED_PROXIES and LIVE_SESSION_MINUTES."""

from __future__ import annotations

import pytest

from settings import Settings, SettingsError


def _settings(**extra: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "x", **extra})


def test_defaults_trust_no_proxy_and_sessions_last_fifteen_minutes() -> None:
    settings = _settings()
    assert settings.trusted_proxies == ()
    assert settings.live_session_seconds == 15 * 60


def test_trusted_proxies_are_addresses_and_networks() -> None:
    settings = _settings(TRUSTED_PROXIES="127.0.0.1, 172.16.0.0/12,::1")
    assert settings.trusted_proxies == ("127.0.0.1", "172.16.0.0/12", "::1")


def test_a_trusted_proxy_that_is_no_address_is_named() -> None:
    with pytest.raises(SettingsError, match=r"TRUSTED_PROXIES.*'balancer'"):
        _settings(TRUSTED_PROXIES="127.0.0.1,balancer")


@pytest.mark.parametrize("minutes", ["0", "-3", "nan", "inf", "2000", "soon"])
def test_a_session_length_out_of_range_is_named(minutes: str) -> None:
    with pytest.raises(SettingsError, match="LIVE_SESSION_MINUTES"):
        _settings(LIVE_SESSION_MINUTES=minutes)


def test_a_session_length_in_minutes() -> None:
    assert _settings(LIVE_SESSION_MINUTES="2").live_session_seconds == 120
