"""The usage history store's tables and format: what a file must hold to be read as one,
and what makes a new (or an older format's) file one.

``FORMAT`` names the file's layout. Format 2's records keep their TRES (a ``tres``
column); format 3's also the CPUs a partitionable slot's match was charged for until the
next cycle (a ``charged_cpus`` column). A file of format 1 or 2 lacks them: read as
records without them, and made format 3 by the next writer (``UsageStore.upgrade``). A
file of a newer format is refused, never written.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fairshare_cli.errors import StateError
from fairshare_cli.io.sqlite_errors import cannot_open, disk_failure
from fairshare_cli.io.usage_marks import new_generation

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    start REAL NOT NULL,
    end REAL,
    owner TEXT NOT NULL,
    accounting_group TEXT,
    nice_user INTEGER NOT NULL,
    account TEXT,
    partition TEXT,
    qos TEXT,
    dirac_group TEXT,
    slots INTEGER NOT NULL,
    cpus INTEGER NOT NULL,
    job TEXT,
    tres TEXT,
    charged_cpus INTEGER
);
{indexes};
CREATE TABLE IF NOT EXISTS ends (
    id INTEGER PRIMARY KEY,
    job TEXT NOT NULL,
    end REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ends_job ON ends (job);
"""
#: The indexes of ``records``: an import into an empty table builds them again before it
#: commits (one sort, not a b-tree insert a row: 2 s of ``benchmarks/run.py --rows import``).
RECORD_INDEXES = {
    "records_start": "CREATE INDEX IF NOT EXISTS records_start ON records (start)",
    "records_job": "CREATE INDEX IF NOT EXISTS records_job ON records (job) WHERE job IS NOT NULL",
}
SCHEMA = _SCHEMA.format(indexes=";\n".join(RECORD_INDEXES.values()))
FORMAT = "fairshare-cli usage history 3"
#: The formats before :data:`FORMAT`, read as they are and made :data:`FORMAT` by the next
#: writer: 1 had no ``tres`` column (its records bill their CPUs alone), 1 and 2 no
#: ``charged_cpus`` column (their records are charged their CPUs).
OLDER = ("fairshare-cli usage history 1", "fairshare-cli usage history 2")
#: The columns of ``records`` that a file of an older format may lack (added in this order).
ADDED_COLUMNS = (("tres", "TEXT"), ("charged_cpus", "INTEGER"))
_NAMED = "fairshare-cli usage history "  # (then a version: a newer fs's is refused)


def check_format(conn: sqlite3.Connection, path: Path, writable: bool = True) -> bool:
    """Make the tables of an empty file (``writable``; else say it is empty: True); refuse
    a file with tables of something else (or of another format) before writing anything
    to it (a disk that refuses: exit 1)."""
    try:
        with conn:
            tables = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            names = {name for (name,) in tables}
            row = None
            if "meta" in names:
                row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if names and row is None:
                raise StateError(
                    f"usage history {path} holds tables not of {FORMAT!r} (no format mark); "
                    "refusing to use it"
                )
            if row is not None and row[0] != FORMAT and row[0] not in OLDER:
                raise StateError(_not_ours(path, str(row[0])))
            if not writable:
                return not names
            conn.executescript(SCHEMA)  # (what an older file of this format lacks)
            if row is None:  # (a new file: its own generation)
                conn.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
                conn.execute("INSERT INTO meta VALUES ('generation', ?)", (new_generation(),))
        return False
    except sqlite3.DatabaseError as exc:
        failure = disk_failure(exc, f"usage history {path}") or cannot_open(exc, path)
        if failure is not None:  # (full, failing, no new file allowed: exit 1)
            raise failure from None
        raise unusable(exc, path) from None


#: SQLite's primary result codes for a file that is damaged or no database at all.
_DAMAGED = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB


def damaged(exc: sqlite3.Error) -> bool:
    """Whether SQLite's ``exc`` says the file itself is damaged (a page of it overwritten,
    cut or not SQLite's), not that the disk or another program failed it."""
    code = getattr(exc, "sqlite_errorcode", None)  # (Python 3.11+; else the message)
    if isinstance(code, int):
        return code & 0xFF in _DAMAGED
    return "malformed" in str(exc) or "not a database" in str(exc)


def unusable(exc: sqlite3.Error, path: Path) -> StateError:
    """The refusal of the store at ``path`` that SQLite cannot use (``exc``): a bad state
    file, exit 2, whether found as it is opened or as it is read further on."""
    return StateError(
        f"usage history {path} is not a usable SQLite file ({exc}); move it aside to "
        "start a new history"
    )


def _not_ours(path: Path, found: str) -> str:
    """Why a store of format ``found`` (not :data:`FORMAT`, nor an older one) is refused."""
    version = found.removeprefix(_NAMED)
    if found.startswith(_NAMED) and version.isdigit() and int(version) > int(FORMAT[len(_NAMED) :]):
        return (
            f"usage history {path} is {found!r}, written by a newer fs (this one writes "
            f"{FORMAT!r}); refusing to use it: use that fs, or move the file aside"
        )
    return f"usage history {path} is {found!r}, not {FORMAT!r}; refusing to use it"
