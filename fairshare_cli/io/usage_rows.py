"""What a row of the usage history store holds, checked before a replay reads it.

SQLite keeps what a column is given, whatever its declared type: another program's
``UPDATE records SET start = 'nan'`` (a text), a blob for an owner or a text for a slot
count reached the replay, which crashed on it (a TypeError traceback). One query finds the
first row up to the state's marks that fs would not have written.
"""

from __future__ import annotations

import sqlite3

from fairshare_cli.errors import StateError

#: The first record (up to ``?``) with a value of a type fs never writes, and the column.
_WRONG = """
SELECT id, CASE
    WHEN typeof(start) NOT IN ('real', 'integer') THEN 'start'
    WHEN end IS NOT NULL AND typeof(end) NOT IN ('real', 'integer') THEN 'end'
    WHEN typeof(owner) != 'text' THEN 'owner'
    WHEN typeof(nice_user) != 'integer' THEN 'nice_user'
    WHEN typeof(slots) != 'integer' THEN 'slots'
    WHEN typeof(cpus) != 'integer' THEN 'cpus'
    WHEN typeof(accounting_group) NOT IN ('text', 'null') THEN 'accounting_group'
    WHEN typeof(account) NOT IN ('text', 'null') THEN 'account'
    WHEN typeof(partition) NOT IN ('text', 'null') THEN 'partition'
    WHEN typeof(qos) NOT IN ('text', 'null') THEN 'qos'
    WHEN typeof(dirac_group) NOT IN ('text', 'null') THEN 'dirac_group'
    WHEN typeof(job) NOT IN ('text', 'null') THEN 'job'{tres}{charged}
    END AS wrong
FROM records WHERE id <= ? AND wrong IS NOT NULL LIMIT 1
"""
_WRONG_END = "SELECT id FROM ends WHERE id <= ? AND typeof(end) NOT IN ('real', 'integer') LIMIT 1"


_TRES = "\n    WHEN typeof(tres) NOT IN ('text', 'null') THEN 'tres'"
_CHARGED = "\n    WHEN typeof(charged_cpus) NOT IN ('integer', 'null') THEN 'charged_cpus'"


def check_rows(
    conn: sqlite3.Connection,
    path: object,
    records: int,
    ends: int,
    tres: bool = True,
    charged: bool = True,
) -> None:
    """Refuse a store whose rows (up to the marks ``records`` and ``ends``) hold a value of
    a type fs never writes (``tres``, ``charged``: the records have that column).

    Raises:
        StateError: naming the store, the row and the column.
    """
    wrong = _WRONG.format(tres=_TRES if tres else "", charged=_CHARGED if charged else "")
    found = conn.execute(wrong, (records,)).fetchone()
    if found is None:
        end = conn.execute(_WRONG_END, (ends,)).fetchone()
        found = None if end is None else (f"end row {end[0]}", "end")
    else:
        found = (f"record {found[0]}", found[1])
    if found is not None:
        raise StateError(
            f"usage history {path}: {found[0]}: {found[1]} holds a value of a type fs never "
            "writes (another program changed the file); move it aside to start a new history"
        )
