"""The guard that fails a test whose outbox job raised (tests/failed_jobs.py)."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from delivery.outbox import Outbox
from tests.failed_jobs import MARKER, OUTBOX_LOG, FailedJobs, failed_job_lines, verdict


async def _broken() -> None:
    raise AttributeError("'Stub' object has no attribute 'edit_message'")


async def _refused() -> None:
    raise aiohttp.ClientError("connection reset")


@pytest.mark.failing_jobs
async def test_a_job_that_raises_is_seen_and_a_request_given_up_is_not() -> None:
    watch = FailedJobs()
    logger = logging.getLogger(OUTBOX_LOG)
    logger.addHandler(watch)
    try:
        outbox = Outbox(retry_delays=())
        results = [outbox.put("dm", "hand", _broken), outbox.put("ch", "table", _refused)]
        await outbox.idle()
    finally:
        logger.removeHandler(watch)
    assert [result.result() for result in results] == [False, False]  # both skipped
    failed = watch.failed()
    assert len(failed) == 1
    assert "hand" in failed[0] and "edit_message" in failed[0]


def test_the_verdict_fails_a_test_unless_it_fails_jobs_on_purpose() -> None:
    assert verdict([], on_purpose=False) is None
    assert verdict(["job x failed"], on_purpose=True) is None
    why = verdict(["job x failed", "job y failed"], on_purpose=False)
    assert why is not None and "job x failed" in why and "1 more" in why


def test_only_the_outbox_errors_of_a_bot_log_count() -> None:
    log = "\n".join(
        [
            "2026-12-06 08:33:00,742 WARNING delivery.outbox: Discord refused x in lane y: 403",
            "2026-12-06 08:33:00,743 ERROR delivery.outbox: job ('hand', 3, 1) in lane dm failed",
            "Traceback (most recent call last):",
            "2026-12-06 08:33:00,744 ERROR discordkit.sync: Global command sync refused",
            "2026-12-06 08:33:00,745 ERROR delivery.outboxes: another logger",
        ]
    )
    assert failed_job_lines(log) == [log.splitlines()[1]]


def test_the_marker_is_registered(pytestconfig: pytest.Config) -> None:
    assert any(line.startswith(f"{MARKER}:") for line in pytestconfig.getini("markers"))
