"""Default locations of the config and the state (platformdirs); a state or config that
is a stream refused."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from fairshare_cli.errors import ConfigError, StateError

#: Why a state or config cannot be a stream, by what it is.
WHY_A_FILE = {
    "state file": "fs reads, locks and replaces its state file",
    "config file": "fs reads its config whenever it runs",
}

APP = "fairshare"


def user_config_file() -> Path:
    """``<user_config_dir>/fairshare/config.toml``."""
    import platformdirs

    return platformdirs.user_config_path(APP, appauthor=False) / "config.toml"


def user_state_file() -> Path:
    """``<user_state_dir>/fairshare/state.json``."""
    import platformdirs

    return platformdirs.user_state_path(APP, appauthor=False) / "state.json"


def refuse_stream(path: Path, what: str) -> None:
    """Refuse a state or config path (``what``: "state file", "config file") that is
    standard input or a pipe without a name (``-``, ``/dev/stdin``, ``/proc/self/fd/0`` of
    ``cat state.json | fs ...``): see :data:`WHY_A_FILE`. Checked on the name as given:
    the link of an unnamed pipe names ``pipe:[...]``, no file, and followed it read as a
    missing state (an empty pool). A named pipe (``mkfifo``) is left to the reader and
    the writer, which name it.

    Raises:
        StateError: (or ConfigError) ``path`` is ``-``, or a link to an unnamed pipe or
            socket.
    """
    if str(path) == "-":
        kind = "standard input"
    else:
        try:
            mode = os.stat(path).st_mode
        except OSError:  # (missing, or unreadable: the reader names which)
            return
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return
        if os.path.exists(os.path.realpath(path)):  # (a named pipe)
            return
        kind = "a pipe" if stat.S_ISFIFO(mode) else "a socket"
    error = StateError if what == "state file" else ConfigError
    raise error(
        f"{what} {path} is {kind}, not a file: {WHY_A_FILE[what]}; save the "
        f"{what.split()[0]} to a file and pass that path"
    )
