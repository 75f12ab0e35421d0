"""db/pgwrites.py: which write transactions become one PostgreSQL statement, and how."""

from __future__ import annotations

from db.pgwrites import fold
from db.sql import Statement

GUARDED = Statement("UPDATE games SET version = ? WHERE id = ? AND version = ?", (2, 7, 1), 1)
INSERT = Statement("INSERT INTO actions (game_id, seq) VALUES (?, ?)", (7, 2))
SEATS = Statement("UPDATE seats SET step = ? WHERE game_id = ? OR seat = ?", (1, 7, 0))


def test_a_move_is_gated_on_its_guarded_update_in_order_of_its_arguments() -> None:
    folded = fold([GUARDED, INSERT, SEATS])
    assert folded is not None and folded.guarded is GUARDED
    assert folded.sql == (
        "WITH w0 AS (UPDATE games SET version = ? WHERE id = ? AND version = ? RETURNING 1), "
        "w1 AS (INSERT INTO actions (game_id, seq) SELECT ?, ? FROM w0), "
        "w2 AS (UPDATE seats SET step = ? WHERE (game_id = ? OR seat = ?) "
        "AND EXISTS (SELECT 1 FROM w0)) SELECT count(*) AS changed FROM w0"
    )
    assert folded.args == [2, 7, 1, 7, 2, 1, 7, 0]
    assert folded.tables == {"games": GUARDED, "actions": INSERT, "seats": SEATS}


def test_a_lone_unchecked_write_goes_as_it_is() -> None:
    many = Statement("UPDATE games SET x = ? WHERE id = ?", [(1, 2), (3, 4)], many=True)
    for alone in (INSERT, many):
        folded = fold([alone])
        assert folded is not None and folded.alone is alone and folded.sql == alone.sql


def test_anything_else_keeps_its_transaction() -> None:
    unchecked_first = Statement("UPDATE games SET x = 1 WHERE id = ?", (7,))
    twice_one_table = Statement("UPDATE games SET y = 1 WHERE id = ?", (7,))
    many = Statement("INSERT INTO results (game_id) VALUES (?)", [(7,)], many=True)
    returning = Statement("UPDATE seats SET step = 1 WHERE game_id = ? RETURNING seat", (7,))
    conflict = Statement("INSERT INTO actions (game_id) VALUES (?) ON CONFLICT DO NOTHING", (7,))
    for statements in (
        [GUARDED],  # its changed rows are checked: the transaction rolls back a mismatch
        [unchecked_first, INSERT],
        [GUARDED, twice_one_table],  # two parts of one statement may not change one row
        [GUARDED, INSERT, many],
        [GUARDED, returning],
        [GUARDED, conflict],
        [GUARDED, Statement(INSERT.sql, INSERT.args, expect=1)],
    ):
        assert fold(statements) is None, statements


def test_a_guarded_write_carries_a_read_after_its_arguments() -> None:
    read = Statement("SELECT g.table_key FROM games g WHERE g.id = ?", (7,))
    folded = fold([GUARDED, INSERT], read)
    assert folded is not None and folded.guarded is GUARDED
    assert folded.sql == (
        "WITH w0 AS (UPDATE games SET version = ? WHERE id = ? AND version = ? RETURNING 1), "
        "w1 AS (INSERT INTO actions (game_id, seq) SELECT ?, ? FROM w0) "
        "SELECT c.changed, r.* FROM (SELECT count(*) AS changed FROM w0) AS c "
        "LEFT JOIN (SELECT g.table_key FROM games g WHERE g.id = ?) AS r ON TRUE"
    )
    assert folded.args == [2, 7, 1, 7, 2, 7]
    assert fold([INSERT], read) is None  # only a guarded write carries one
    assert fold([GUARDED], read) is None
