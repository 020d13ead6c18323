"""``/Operations/Pilot`` as ``fs import dirac-cfg`` reads it: the options DIRAC's matcher
reads to check a pilot's version (``Matcher._checkPilotVersion``), for ``[dirac.pilot]``.

Each is read as the ``Operations`` helper types it against the matcher's default:
``CheckVersion`` as a boolean (``y``, ``yes``, ``true`` or ``1``, in any case, is true; any
other text false), ``Version`` as a comma-separated list, ``Project`` as the text itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairshare_cli.io.importers.cfg_syntax import CfgSection, cfg_bool, cfg_list

#: ``/Operations/Pilot`` option -> ``[dirac.pilot]`` key.
PILOT_OPTIONS = {"CheckVersion": "check_version", "Version": "versions", "Project": "project"}


def pilot_check(
    pilot: CfgSection, came: Callable[[tuple[str | int, ...], int, str], None]
) -> tuple[dict[str, Any], list[str]]:
    """``{"pilot": {...}}`` with the ``[dirac.pilot]`` values a ``Pilot`` section sets (``{}``
    for none), each one's option and line told to ``came``, and the names of the section's
    other entries (which ``fs`` does not model)."""
    values: dict[str, Any] = {}
    for option, key in PILOT_OPTIONS.items():
        text = pilot.text(option)
        if text is None:
            continue
        value: Any = text
        if key == "check_version":
            value = cfg_bool(text, True)
        elif key == "versions":
            value = cfg_list(text, [])
        values[key] = value
        came(("pilot", key), pilot.line_of(option), f"Pilot/{option}")
    others = [name for name in pilot.entries if name not in PILOT_OPTIONS]
    return ({"pilot": values} if values else {}), others
