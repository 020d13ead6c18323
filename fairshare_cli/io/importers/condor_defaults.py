"""HTCondor 25.0's built-in defaults: what a daemon finds for a knob no file sets.

``lookup_macro`` (config.cpp) looks a name up in the daemon's context: its own
``SUBSYS.NAME`` in the files read, then in HTCondor's table of defaults
(``param_info.in``), then ``NAME`` in the files (where ``fill_attributes`` has already
put what it detects on the machine: ``ARCH``, ``DETECTED_CORES``...), then in the table.
``if defined NAME`` is true when that finds something not empty, and ``$(NAME)`` (in an
``if`` condition or a knob's value) expands to what it finds, the table's value being
expanded in turn.

fs holds the table of HTCondor 25.0.13 as data (condor_defaults.txt: each knob whose
Unix default is not empty, with that default as written); a knob of the table whose
default is empty, or one it does not have, has no default. What HTCondor detects on the
machine (:data:`DETECTED`, the names ``fill_attributes`` sets before the files are read,
and :data:`MACHINE`, set only when something is found there or only after the main file:
``TILDE``, the home of the ``condor`` user; ``HOSTNAME``), and the few defaults the
build puts in (:data:`BUILD`: ``CONDOR_VERSION``), have no value fs can know.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

#: What ``fill_attributes`` (condor_config.cpp) sets on a Linux machine before any file is
#: read, each to something (``real_config`` adds ``CONFIG_ROOT``, the main file's folder).
DETECTED = frozenset(
    [
        "ARCH",
        "UNAME_ARCH",
        "OPSYS",
        "OPSYSVER",
        "OPSYSANDVER",
        "UNAME_OPSYS",
        "OPSYSMAJORVER",
        "OPSYSNAME",
        "OPSYSLONGNAME",
        "OPSYSSHORTNAME",
        "OPSYSLEGACY",
        "UTSNAME_SYSNAME",
        "UTSNAME_NODENAME",
        "UTSNAME_RELEASE",
        "UTSNAME_VERSION",
        "UTSNAME_MACHINE",
        "CONDORISADMIN",
        "SUBSYSTEM",
        "LOCALNAME",
        "DETECTED_MEMORY",
        "DETECTED_PHYSICAL_CPUS",
        "DETECTED_CPUS",
        "DETECTED_CORES",
        "CONFIG_ROOT",
    ]
)

#: Names set from the machine only when something is found there, or only after the main
#: file: whether they are set at all depends on the machine and the file.
MACHINE = frozenset(("TILDE", "PYTHON3", "HOSTNAME", "FULL_HOSTNAME"))

#: The knobs whose default the build puts in (``macro=`` in param_info.in: the table's
#: ``CONDOR_VERSION = 8.*`` is 25.0.13 in a 25.0.13 daemon): set, but to a value fs
#: does not hold.
BUILD = frozenset(
    (
        "CONDOR_VERSION",
        "CONDOR_BUILD_PLATFORM",
        "PYTHON3_MODULE_SUFFIX",
        "PYTHON3_VERSION_MINOR",
        "HAVE_EXT_KRB5",
        "SEC_DEFAULT_AUTHENTICATION_METHODS",
    )
)


@cache
def _table() -> dict[str, str]:
    """Upper-case name -> default, from condor_defaults.txt."""
    table = {}
    text = (Path(__file__).parent / "condor_defaults.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.partition(" = ")
            table[name.upper()] = value
    return table


def default(name: str) -> str | None:
    """HTCondor 25.0.13's default for the knob ``name`` (any case; ``SUBSYS.NAME`` for a
    daemon's own), as written (its macros unexpanded); None when it has none that is
    not empty."""
    return _table().get(name.upper())


def from_machine(name: str) -> bool:
    """Whether HTCondor sets ``name`` from the machine it runs on (:data:`DETECTED` or
    :data:`MACHINE`) or from its build (:data:`BUILD`), a value fs cannot know."""
    key = name.upper()
    return key in DETECTED or key in MACHINE or key in BUILD


def built_in(name: str) -> bool:
    """Whether HTCondor 25.0 has a value that is not empty for the knob ``name`` when no
    file sets it: a default in ``param_info.in`` or a value detected on the machine before
    the files are read. A name of :data:`MACHINE` is the caller's to refuse."""
    return default(name) is not None or name.upper() in DETECTED
