"""The journal of deferred clicks: what a new process finds of the last one's unanswered ones."""

from __future__ import annotations

from pathlib import Path

from delivery.pending import PendingClick, PendingClicks


def test_unanswered_clicks_are_found_by_the_next_process_once(tmp_path: Path) -> None:
    path = tmp_path / "bot.db.clicks"
    first = PendingClicks(path)
    first.add(1, PendingClick(7, 100, 3))
    first.add(2, PendingClick(8, 101, 0))
    first.done(2)  # answered: nothing owed
    first.done(99)  # never deferred: nothing to strike off

    second = PendingClicks(path)  # after a crash
    assert second.take_left() == [PendingClick(7, 100, 3)]
    assert second.take_left() == []
    assert PendingClicks(path).take_left() == []  # the new process started a clean journal


def test_a_damaged_journal_or_none_at_all_owes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bot.db.clicks"
    path.write_text("{not json")
    assert PendingClicks(path).take_left() == []
    keeper = PendingClicks(None)
    keeper.add(1, PendingClick(1, 1, 1))
    assert keeper.take_left() == []
