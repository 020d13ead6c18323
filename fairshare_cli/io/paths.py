"""Default locations of the config and the state (platformdirs); a state or config that
is a stream refused; an output file checked before the work that writes it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from fairshare_cli.errors import ConfigError, InputError, RuntimeFailure, StateError

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
    ``cat state.json | fs ...``): see :data:`WHY_A_FILE`; or a file that is fs's own
    standard output or error (:func:`_refuse_own_output`). Checked on the name as given:
    the link of an unnamed pipe names ``pipe:[...]``, no file, and followed it read as a
    missing state (an empty pool). A named pipe (``mkfifo``) is left to the reader and
    the writer, which name it.

    Raises:
        StateError: (or ConfigError) ``path`` is ``-``, or a link to an unnamed pipe or
            socket, or fs's standard output or error.
    """
    if str(path) == "-":
        kind = "standard input"
    else:
        try:
            found = os.stat(path)
        except OSError:  # (missing, or unreadable: the reader names which)
            return
        mode = found.st_mode
        if stat.S_ISREG(mode):
            _refuse_own_output(path, found, what)
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


def _refuse_own_output(path: Path, found: os.stat_result, what: str) -> None:
    """Refuse a state or config file that is fs's own standard output or error (``fs
    userprio --state st.json >> st.json``, ``--state /dev/stdout > out.txt``), as ``cat``
    refuses an input file that is its output: the table went into the state (a view broke
    it), and one emptied by ``>`` was said to be truncated, naming a file not given.

    Raises:
        StateError: (or ConfigError) naming the stream.
    """
    for fd, stream in ((1, "standard output"), (2, "standard error")):
        try:
            if not os.path.samestat(found, os.fstat(fd)):
                continue
        except OSError:  # (closed)
            continue
        error = StateError if what == "state file" else ConfigError
        raise error(
            f"{what} {path} is also fs's {stream} (redirected to it): fs would write into "
            f"its own {what.split()[0]}; send the output elsewhere"
        )


def refuse_dash(path: str, option: str, what: str) -> None:
    """Refuse ``-`` (or ``./-``) as a file fs writes: fs writes no such file to standard
    output, and a config file named ``-`` is one it could never read (``--config -`` is
    standard input, :func:`refuse_stream`). ``fs init -`` and ``--into -`` wrote one, and
    said to check it with ``--config -``.

    Raises:
        InputError: naming ``option`` and what to give instead.
    """
    if str(Path(path)) != "-":
        return
    instead = "leave --into out to print the fragment" if option == "--into" else "give its path"
    raise InputError(
        f"{option} {path}: '-' names no file here (fs writes the {what} to a file, never "
        f"to standard output); {instead}"
    )


def check_output_file(path: str, option: str, what: str, writable: bool = True) -> None:
    """Refuse an output file (``--plot``, ``--html``, ``--into``) that could not be written,
    before the work that makes it: a missing folder is not created (``--html DIR/x.html``
    made DIR, where ``--plot`` refused it), a device or a folder is not replaced. A
    symbolic link is written through (:func:`through_link`), its target's folder checked.

    Raises:
        InputError: an empty path, or ``-``; its folder is missing (or not a folder); the
            file is (or links to) a device, a pipe or a folder; a loop of links.
        RuntimeFailure: the folder cannot be written (read-only), where ``writable``.
    """
    if not path:  # (Path("") is the current folder: "cannot write config file .")
        raise InputError(f"{option}: an empty path; give the path of the {what} to write")
    if not path.strip():  # (--into " ": a config named " " made in silence, as --state was)
        raise InputError(f"{option}: {path!r} is only blanks; give the path of the {what} to write")
    refuse_dash(path, option, what)
    folder = Path(path).parent
    if not folder.is_dir():
        there = os.path.lexists(folder)  # (a loop of links is there, and no folder)
        said = f"{folder} is not a folder" if there else f"folder {folder} does not exist"
        raise InputError(f"{option} {path}: {said}")
    from fairshare_cli.io.atomic import refuse_special, through_link

    target = through_link(Path(path))
    if writable and not os.access(target.parent, os.W_OK):  # (a read-only folder or system)
        raise RuntimeFailure(f"cannot write {what} {path}: its folder is not writable")
    refuse_special(Path(path), what)
    _refuse_another_file(target, f"{option} {path}", what)


#: How each file fs writes whole starts: a file there that starts otherwise is no such
#: file (``--html pool.toml``, the config the command reads, would be replaced by the page).
_STARTS = {"HTML page": (b"<!doctype html", b"<html"), "plot": (b"\x89png",)}


def _refuse_another_file(target: Path, given: str, what: str) -> None:
    """Refuse to replace ``target`` when it holds something else than a ``what``.

    Raises:
        InputError: it does (a config, a state, a workload, ...).
    """
    try:
        with open(target, "rb") as fh:
            head = fh.read(64).lstrip()
    except OSError:  # (none there yet, or unreadable: the write names the fault)
        return
    starts = _STARTS.get(what)
    if starts is not None and head and not head.lower().startswith(starts):
        from fairshare_cli.core.names import escaped

        first = escaped(head.decode("utf-8", "replace").splitlines()[0][:20])
        raise InputError(
            f"{given}: the file there is no {what} (it starts '{first}'); name a new file, "
            f"or remove that one first"
        )
