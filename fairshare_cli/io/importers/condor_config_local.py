"""What the HTCondor daemons read after the main configuration file (``real_config``):
the files of the ``LOCAL_CONFIG_DIR`` folders, then each ``LOCAL_CONFIG_FILE``; and the
whole configuration as each daemon fs takes knobs from reads it."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from fairshare_cli.core.htcondor.knob_values import param_boolean
from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.condor_config import ConfigFile, read_config, read_file
from fairshare_cli.io.importers.condor_config_macros import DAEMONS

#: ``LOCAL_CONFIG_DIR_EXCLUDE_REGEXP``'s default (param_info.in): the file names in a
#: config directory the daemons skip (hidden, scripts, editor and package leftovers).
DEFAULT_EXCLUDE = (
    r"^((\..*)|(.*\.pl)|(.*\.py)|(.*\.sh)|(.*~)|(#.*)|(.*\.rpmsave)|(.*\.rpmnew)"
    r"|(.*\.dpkg-old)|(.*\.dpkg-dist)|(.*\.cfsaved))$"
)


def read_as_daemons(
    lines: Iterable[str], label: str, base: Path | None
) -> tuple[ConfigFile, dict[str, ConfigFile]]:
    """The configuration whose main file holds ``lines`` (read from ``label``, as the
    first reading reads them: a bad first line is refused before the rest is read, ``yes |
    fs import condor-config -`` was read to its end first; kept for the others), and what
    the daemons read after it, as the negotiator reads them; and, only where the files
    read otherwise for the startd or the schedd (an ``if`` condition, ``include`` or
    ``use`` line, or a ``LOCAL_CONFIG_DIR`` or ``LOCAL_CONFIG_FILE``, naming a knob one
    of them sets as ``SUBSYS.NAME``), as each of those reads them.

    Raises:
        InputError: what :func:`read_config` and :func:`read_local_sources` refuse, in
            any of the readings.
    """

    kept: list[str] = []

    def read(subsys: str, lines: Iterable[str]) -> ConfigFile:
        conf = ConfigFile(subsys=subsys)
        read_config(lines, label, base, conf)
        read_local_sources(conf, base)
        return conf

    negotiator = read(DAEMONS[0], _kept(lines, kept))
    if not negotiator.per_daemon:
        return negotiator, {}
    text = "".join(kept)
    return negotiator, {daemon: read(daemon, io.StringIO(text)) for daemon in DAEMONS[1:]}


def _kept(lines: Iterable[str], kept: list[str]) -> Iterator[str]:
    """``lines``, each kept in ``kept`` as it is read."""
    for line in lines:
        kept.append(line)
        yield line


def read_local_sources(conf: ConfigFile, base: Path | None) -> None:
    """What the daemons read after the main file (``real_config``): the files of the
    ``LOCAL_CONFIG_DIR`` folders (sorted, ``LOCAL_CONFIG_DIR_EXCLUDE_REGEXP`` skipped),
    then each ``LOCAL_CONFIG_FILE`` (a list that a file read may change), then the
    ``LOCAL_CONFIG_DIR`` folders again if those files changed the knob. Relative names
    are taken from the main file's folder. A dump already holds what they set.

    These four knobs are read with ``param``, as the daemon reading the files
    (:attr:`ConfigFile.subsys`) reads any knob: its own ``NEGOTIATOR.LOCAL_CONFIG_DIR``
    over ``LOCAL_CONFIG_DIR``, in the knob and in its macros; where another of
    :data:`DAEMONS` would read one otherwise, :attr:`ConfigFile.per_daemon` says so.

    Raises:
        InputError: a file that cannot be read (unless ``REQUIRE_LOCAL_CONFIG_FILE`` is
            false), a command (``... |``), or what :func:`read_config` refuses in them.
    """
    if conf.dump:
        return
    first = _local(conf, "LOCAL_CONFIG_DIR")
    if first:
        _read_folders(conf, first, base)
    _read_local_files(conf, base)
    again = _local(conf, "LOCAL_CONFIG_DIR")
    if again and again != first:
        _read_folders(conf, again, base)


def _key(conf: ConfigFile, knob: str, subsys: str) -> str:
    """The setting of ``knob`` the daemon ``subsys`` reads: its own ``SUBSYS.KNOB`` when
    the files set it (even to nothing), else ``KNOB`` (``lookup_macro``)."""
    own = f"{subsys}.{knob}"
    return own if subsys and own in conf.raw else knob


def _value(conf: ConfigFile, knob: str, subsys: str) -> str:
    return (conf.expanded(_key(conf, knob, subsys), subsys, strict=True) or "").strip()


def _local(conf: ConfigFile, knob: str) -> str:
    """``param(knob)`` for the daemon reading the files, noting in
    :attr:`ConfigFile.per_daemon` whether another daemon would read it otherwise.

    Raises:
        InputError: what :meth:`ConfigFile.expanded` refuses.
    """
    value = _value(conf, knob, conf.subsys)
    if not conf.per_daemon:
        conf.per_daemon = any(_quietly(conf, knob, d) != value for d in DAEMONS)
    return value


def _quietly(conf: ConfigFile, knob: str, subsys: str) -> str | None:
    """:func:`_value` for ``subsys``, or None where it is refused; its warnings left out
    of ``conf``."""
    kept = dict(conf.undefined)
    try:
        return _value(conf, knob, subsys)
    except InputError:
        return None
    finally:
        conf.undefined = kept


def _named(conf: ConfigFile, knob: str) -> str:
    """``FILE:LINE: NAME`` of the setting of ``knob`` the daemon reads."""
    key = _key(conf, knob, conf.subsys)
    return f"{conf.where[key]}: {conf.names[key]}"


def _sources(conf: ConfigFile, knob: str, value: str, base: Path | None) -> list[Path]:
    """The paths a list knob names (by commas or blanks, as ``split`` cuts it)."""
    if value.endswith("|"):
        raise InputError(
            f"{_named(conf, knob)}: '{shown(value)}' is a command, which fs does not run; "
            "import condor_config_val -dump output"
        )
    paths = [Path(v) for v in re.split(r"[,\s]+", value) if v]
    return [p if p.is_absolute() or base is None else base / p for p in paths]


def _read_folders(conf: ConfigFile, value: str, base: Path | None) -> None:
    pattern = _local(conf, "LOCAL_CONFIG_DIR_EXCLUDE_REGEXP") or DEFAULT_EXCLUDE
    try:
        exclude = re.compile(pattern)
    except re.error:
        raise InputError(
            f"{_named(conf, 'LOCAL_CONFIG_DIR_EXCLUDE_REGEXP')}: not a regular expression: "
            f"'{shown(pattern)}'"
        ) from None
    required = _required(conf)
    for folder in _sources(conf, "LOCAL_CONFIG_DIR", value, base):
        try:  # (a folder that cannot be listed is skipped, as get_config_dir_file_list does)
            files = [e.path for e in os.scandir(folder) if not e.is_dir()]
        except OSError:
            continue
        for path in sorted(f for f in files if not exclude.search(os.path.basename(f))):
            problem = read_file(conf, Path(path), 1)
            if problem is None:
                continue
            if os.access(path, os.R_OK):  # (a named pipe: HTCondor would wait on it)
                raise InputError(f"{shown(path)}: cannot read it: {problem}")
            if required:  # (process_config_source skips a file it cannot access else)
                raise InputError(
                    f"{shown(path)}: cannot read it: {problem} (HTCondor stops on it unless "
                    "REQUIRE_LOCAL_CONFIG_FILE = false)"
                )


def _read_local_files(conf: ConfigFile, base: Path | None) -> None:
    value = _local(conf, "LOCAL_CONFIG_FILE")
    if not value:
        return
    required = _required(conf)
    todo = _sources(conf, "LOCAL_CONFIG_FILE", value, base)
    done: list[Path] = []
    while todo:
        path = todo.pop(0)
        problem = read_file(conf, path, 1)
        if problem is not None and required:
            raise InputError(
                f"{_named(conf, 'LOCAL_CONFIG_FILE')}: cannot read {shown(str(path))}: "
                f"{problem} (HTCondor stops on it unless REQUIRE_LOCAL_CONFIG_FILE = false)"
            )
        done.append(path)
        new = _local(conf, "LOCAL_CONFIG_FILE")
        if new and new != value:  # the file changed the list: the rest of the new one
            value = new
            todo = [p for p in _sources(conf, "LOCAL_CONFIG_FILE", new, base) if p not in done]


def _required(conf: ConfigFile) -> bool:
    """``REQUIRE_LOCAL_CONFIG_FILE`` (default true) as ``param_boolean_crufty`` reads it:
    a first letter ``t`` or ``f``, else as ``param_boolean``."""
    text = _local(conf, "REQUIRE_LOCAL_CONFIG_FILE")
    if not text:
        return True
    if text[0] in "tTfF":
        return text[0] in "tT"
    return param_boolean(
        text, "REQUIRE_LOCAL_CONFIG_FILE", _named(conf, "REQUIRE_LOCAL_CONFIG_FILE")
    )
