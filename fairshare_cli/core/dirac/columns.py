"""What TaskQueueDB's columns can hold, as MariaDB in its default strict mode checks it.

A job whose owner, group or requirement names a column cannot hold makes MariaDB
refuse DIRAC's statement, so ``insertJob`` fails and the job gets no task queue: ``fs``
refuses such a job (exit 2) with the reason. Pure: no I/O.
"""

from __future__ import annotations

from fairshare_cli.core.dirac.collation import folded, unstorable
from fairshare_cli.core.dirac.taskqueues import TaskQueueDefinition
from fairshare_cli.core.names import shown

#: The lengths of TaskQueueDB's text columns (``VARCHAR(N)``): ``Owner``, ``OwnerGroup`` and
#: a ``tq_TQTo*`` table's ``Value``. MariaDB in its default strict mode refuses a longer
#: value, so DIRAC cannot make the job's task queue (``__createTaskQueue`` fails).
OWNER_LENGTH, OWNER_GROUP_LENGTH, VALUE_LENGTH = 255, 32, 64

#: ``tq_RAM_requirements.MinRAM`` and ``MaxRAM`` are ``INTEGER UNSIGNED``: MariaDB's strict
#: mode refuses a larger value, so ``__createTaskQueue`` fails and the job gets no queue.
RAM_COLUMN_MAX = 2**32 - 1


def fit_value_tables(definition: TaskQueueDefinition) -> None:
    """Refuse names the ``tq_TQTo*`` tables cannot hold: longer than their ``Value`` column,
    ones that cannot reach MariaDB, or two the collation compares equal (one key ``(TQId,
    Value)``); and names with a control character (a line break, a tab, a terminal
    escape), which ``fs taskqueues``' table cannot show on one line: ``"a\nb"`` as a site
    forged a row.

    Raises:
        ValueError: naming the requirement.
    """
    for key in ("sites", "banned_sites", "platforms", "job_types", "tags", "grid_ces"):
        values = getattr(definition, key)
        for value in values:
            fits_column(f"dirac_requirements.{key}", value, VALUE_LENGTH)
            if not value.isprintable():  # (a space is printable: DIRAC's names may hold one)
                raise ValueError(
                    f"dirac_requirements.{key}: expected names without control characters, "
                    f"got {shown(value)!r}"
                )
        if len(values) > 1 and len({folded(value) for value in values}) != len(values):
            raise ValueError(
                f"dirac_requirements.{key}: names that differ only in case or accents are "
                "one value in TaskQueueDB (a tq_TQTo* row's key); DIRAC refuses the job"
            )


def fits_column(key: str, value: str, length: int) -> None:
    """Refuse a ``value`` longer than its TaskQueueDB column, or one UTF-8 cannot carry.

    Raises:
        ValueError: naming ``key``.
    """
    char = unstorable(value)
    if char is not None:
        raise ValueError(
            f"{key}: {shown(value)!r} has {char!r} (U+{ord(char):04X}), a lone surrogate, "
            "which UTF-8 cannot carry to MariaDB; DIRAC's query fails and it cannot queue "
            "the job"
        )
    if len(value) > length:
        raise ValueError(
            f"{key}: {len(value)} characters, more than TaskQueueDB's VARCHAR({length}) "
            "holds; DIRAC refuses the job"
        )


def fit_owner_and_group(owner: str, group: str) -> None:
    """Refuse an owner or group ``tq_TaskQueues`` cannot hold.

    A quote or backslash in a group is held: DIRAC 9.1's TaskQueueDB passes the owner and
    group to MariaDB as query parameters (``OwnerGroup=%s``), never inside its SQL text.

    Raises:
        ValueError: naming the field.
    """
    fits_column("owner", owner, OWNER_LENGTH)
    fits_column("dirac_group", group, OWNER_GROUP_LENGTH)


def fit_ram(key: str, value: int) -> None:
    """Refuse a ``min_ram`` or ``max_ram`` (``key``) over :data:`RAM_COLUMN_MAX`.

    Raises:
        ValueError: naming ``key`` and its ``tq_RAM_requirements`` column.
    """
    if value > RAM_COLUMN_MAX:
        column = "MinRAM" if key == "min_ram" else "MaxRAM"
        raise ValueError(
            f"dirac_requirements.{key}: {value}: MariaDB refuses it for "
            f"tq_RAM_requirements.{column} (INTEGER UNSIGNED, at most {RAM_COLUMN_MAX}), "
            "so DIRAC cannot queue the job"
        )
