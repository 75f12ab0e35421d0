"""PostgreSQL: a write transaction of :class:`Statement` s sent as one statement, one round trip.

A transaction of its own costs BEGIN, one round trip per statement and COMMIT. Two shapes the
store writes most need none of that, because one SQL statement is atomic by itself:

- a lone statement whose changed rows are not checked (``expect`` None): sent alone (one
  with a row of arguments per execution goes as asyncpg's ``executemany``, atomic too);
- a guarded write (a move): an UPDATE that must change exactly one row, then statements on
  other tables that only make sense if it did. They become one statement of data-modifying
  CTEs, the later ones gated on the first (``INSERT ... SELECT ... FROM w0``, ``UPDATE ...
  AND EXISTS (SELECT 1 FROM w0)``), which answers how many rows the first changed. When it
  changed none, nothing is written; when any part fails (a constraint), none of it is.

A guarded write may carry a read (:func:`fold`'s ``read``): the outer query then answers the
read's rows beside the count, in the same round trip. The read sees the database as the
statement began (PostgreSQL: the parts of one statement share one snapshot): none of the
statement's own writes, and nothing another transaction commits meanwhile.

The first UPDATE is read by the outer query before the gated statements run, so its row lock
is taken first, as in the transaction. The gated statements must not touch the first one's
table or each other's: PostgreSQL does not let two parts of one statement change one row.
Anything else goes through the transaction (:meth:`Store.write_all`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from db.sql import Statement

_UPDATE = re.compile(r"UPDATE (\w+) SET .+", re.DOTALL)
_INSERT = re.compile(r"(INSERT INTO (\w+) \([\w, ]+\)) VALUES \(([?, ]+)\)")
_WHERE = " WHERE "
_GATE = "w0"


@dataclass(frozen=True, slots=True)
class Folded:
    """The statements as one: its SQL (``?`` marks), its arguments, and which statement
    wrote each table (to tell whose constraint a violation broke)."""

    sql: str
    args: list[Any]
    tables: dict[str, Statement]
    guarded: Statement | None = None  # the first UPDATE, whose changed rows the SQL answers
    alone: Statement | None = None  # the statement sent as it is


def fold(statements: Sequence[Statement], read: Statement | None = None) -> Folded | None:
    """``statements`` as one statement, or None when they have neither shape (or ``read`` is
    given and they are not a guarded write: only that one carries a read). With ``read``,
    each row of the answer holds ``changed`` and the columns of one row of the read (a
    single row of NULLs beside ``changed`` when the read finds none)."""
    if read is not None and len(statements) < 2:
        return None
    if len(statements) == 1:
        (alone,) = statements
        if alone.expect is not None:
            return None
        return Folded(alone.sql, list(alone.args), {}, alone=alone)
    if any(s.many for s in statements):
        return None
    first, *rest = statements
    head = _UPDATE.fullmatch(first.sql)
    if first.expect != 1 or head is None or any(s.expect is not None for s in rest):
        return None
    tables = {head.group(1): first}
    parts = [f"{_GATE} AS ({first.sql} RETURNING 1)"]
    args = list(first.args)
    for n, statement in enumerate(rest, start=1):
        gated = _gated(statement.sql)
        if gated is None or gated[0] in tables:
            return None
        table, sql = gated
        tables[table] = statement
        parts.append(f"w{n} AS ({sql})")
        args += statement.args
    counted = f"SELECT count(*) AS changed FROM {_GATE}"
    if read is None:
        return Folded(f"WITH {', '.join(parts)} {counted}", args, tables, guarded=first)
    sql = (
        f"WITH {', '.join(parts)} SELECT c.changed, r.* FROM ({counted}) AS c "
        f"LEFT JOIN ({read.sql}) AS r ON TRUE"
    )
    return Folded(sql, [*args, *read.args], tables, guarded=first)


def _gated(sql: str) -> tuple[str, str] | None:
    """(its table, ``sql`` writing only if the first statement changed its row)."""
    insert = _INSERT.fullmatch(sql)
    if insert is not None:
        into, table, marks = insert.groups()
        return table, f"{into} SELECT {marks} FROM {_GATE}"
    update = _UPDATE.fullmatch(sql)
    if update is not None and sql.count(_WHERE) == 1 and "RETURNING" not in sql:
        head, condition = sql.split(_WHERE)
        return update.group(1), f"{head} WHERE ({condition}) AND EXISTS (SELECT 1 FROM {_GATE})"
    return None
