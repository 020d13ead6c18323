"""How DIRAC reads a group's ``/Registry/Groups/<g>/JobShare`` (``TaskQueueDB.getGroupShares``).

``gConfig.getValue(path, DEFAULT_GROUP_SHARE)`` converts the option's text with ``int()``
(the type of the default) and returns the default when that fails, so ``250.5``,
``500 # half`` or ``lots`` all read as 1000. A share of 0 or less is read as it is; every
task queue of such a group then sits at the floor ``TQ_MIN_SHARE`` (0.001).
"""

from __future__ import annotations

from fairshare_cli.core.dirac.taskqueues import DEFAULT_GROUP_SHARE
from fairshare_cli.core.names import shown


def read_job_share(value: object, text: str | None = None) -> tuple[int, str | None]:
    """A configured JobShare as DIRAC reads it, and a note when that is not what it says.

    ``value`` is what the pool config holds: an integer is DIRAC's text of that integer; a
    string is the option's text; anything else (a float, a boolean) stands for its text
    (``250.5``, ``true``), which ``int()`` refuses; ``text``: how the note shows it (the
    config's TOML: ``true``, ``1979-05-27``), else its ``repr``.

    Returns:
        ``(share, note)``: the note (None when the value is a positive integer) says how
        DIRAC treats it, for ``fs config check`` and the importer to warn with.
    """
    share: int | None
    if isinstance(value, bool):
        share = None
    elif isinstance(value, int):
        share = value
    elif isinstance(value, str):
        try:
            share = int(value)
        except ValueError:
            share = None
    else:
        share = None
    if share is None:
        return DEFAULT_GROUP_SHARE, (
            f"{shown(repr(value) if text is None else text)} is not an integer; DIRAC reads "
            f"the default {DEFAULT_GROUP_SHARE}"
        )
    if share <= 0:
        return share, (
            f"{share}: DIRAC floors every task queue of this group at the minimum priority 0.001"
        )
    return share, None
