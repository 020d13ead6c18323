"""A task queue's numbers as DIRAC stores them in MariaDB and reads them back.

``tq_Jobs.RealPriority`` and ``tq_TaskQueues.Priority`` are single-precision ``FLOAT``
columns: DIRAC 9.1 passes a job's RealPriority as a query parameter (``1e-05``, ``1`` to
``9``, ``1000000``; older TaskQueueDBs wrote it with ``%f``, the same FLOAT) and a queue's
priority as the text ``%.4f`` gives, and MariaDB sends a FLOAT back with six significant
digits. Pure: no I/O.
"""

from __future__ import annotations

import functools

from fairshare_cli.core.float32 import float32

FLOAT_TEXT_DIGITS = 6
"""Significant digits MariaDB sends for a ``FLOAT`` column (it prints ``1234570``, ``333.333``)."""


def _float32_text(value: float) -> float:
    """A single-precision value as MariaDB sends it: six significant digits.

    MariaDB (10.11 checked) prints a ``FLOAT`` column with ``FLT_DIG`` significant digits,
    so this is what DIRAC's Python reads back (``retrieveTaskQueues``); SQL itself (``ORDER
    BY RAND()/Priority``) works on the single-precision value.
    """
    return float(f"{value:.{FLOAT_TEXT_DIGITS}g}")


def job_priority(user_priority: float) -> int:
    """The ``Priority`` DIRAC keeps for a job: ``insertJob`` passes ``int(jobPriority)`` on.

    A float is truncated toward zero (3.7 -> 3, 0.5 -> 0, -0.5 -> 0).
    """
    return int(user_priority)


@functools.lru_cache(maxsize=1024)  # (a few levels, each in thousands of queues)
def real_priority(user_priority: float) -> float:
    """Map a job's UserPriority to the RealPriority DIRAC stores for it.

    Mirrors ``TaskQueueDB.__hackJobPriority``: the priority is truncated (``int``), clamped to
    [0.001, 10]; the bottom (0 or less, negative priorities included) maps to 1e-5 and the top
    (10 or more) to 1e6, anything between is kept. The value is stored in a FLOAT column, so
    it is returned as read back.
    """
    p = min(max(int(user_priority), 0.001), 10)
    if p == 0.001:
        value = 1e-5
    elif p == 10:
        value = 1e6
    else:
        value = float(p)
    return float32(float(f"{value:f}"))


def stored_float32(priority: float) -> float:
    """A task-queue priority as stored: ``Priority=%.4f`` into a FLOAT column."""
    return float32(float(f"{priority:.4f}"))


def stored_priority(priority: float) -> float:
    """A task-queue priority as stored (``Priority=%.4f`` into FLOAT) and read back by DIRAC."""
    return _float32_text(stored_float32(priority))
