"""A job of the publisher's outbox that raises is logged and skipped (delivery/outbox.py: a
bug in one job must not stop its lane), so a test whose bot hit such a bug would still pass:
a stub missing a method the job calls, a message the job could not build. Every test fails
on one instead: tests/conftest.py watches the outbox's log in the test's own process, and
tests/e2e/conftest.py reads the bot process's log when it stops. A test that makes a job
fail on purpose says so with ``@pytest.mark.failing_jobs``.

Only the outbox's errors count: its warnings (Discord refused a request, a retry given up)
are the bot behaving as meant.
"""

from __future__ import annotations

import logging
import re

OUTBOX_LOG = "delivery.outbox"
MARKER = "failing_jobs"
# A line of the bot process's log (runtime.launcher.LOG_FORMAT: time, level, logger, message).
_FAILED_LINE = re.compile(rf" ERROR {re.escape(OUTBOX_LOG)}: ")


class FailedJobs(logging.Handler):
    """Keeps every error the outbox logs while attached to its logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def failed(self) -> list[str]:
        return [_described(record) for record in self.records]


def _described(record: logging.LogRecord) -> str:
    error = record.exc_info[1] if record.exc_info else None
    return record.getMessage() if error is None else f"{record.getMessage()}: {error!r}"


def verdict(failed: list[str], *, on_purpose: bool) -> str | None:
    """Why the test fails (None: it does not): ``failed``, what failed in it."""
    if not failed or on_purpose:
        return None
    return f"an outbox job failed: {failed[0]}" + (
        f" (and {len(failed) - 1} more)" if failed[1:] else ""
    )


def failed_job_lines(log_text: str) -> list[str]:
    """The lines of a bot process's log where an outbox job failed."""
    return [line for line in log_text.splitlines() if _FAILED_LINE.search(line)]
