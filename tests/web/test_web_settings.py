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


def test_the_table_is_offered_where_it_is_set_up_and_served_where_the_web_server_is() -> None:
    shard = _settings(DISCORD_CLIENT_ID="1", DISCORD_CLIENT_SECRET="s")
    assert shard.offers_activity and not shard.activity  # compose's shard bots
    worker = _settings(DISCORD_CLIENT_ID="1", DISCORD_CLIENT_SECRET="s", WEB_PORT="8080")
    assert worker.offers_activity and worker.activity
    assert not _settings(WEB_PORT="8080").offers_activity
