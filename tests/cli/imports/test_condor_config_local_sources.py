"""``fs import condor-config FILE``: the files the daemons read after FILE, as
``real_config`` (condor_config.cpp, HTCondor 25.0) reads them: the ``LOCAL_CONFIG_DIR``
folders' files in sorted order (``LOCAL_CONFIG_DIR_EXCLUDE_REGEXP``'s default skipping
``*.rpmsave`` and the like), then ``LOCAL_CONFIG_FILE`` (required unless
``REQUIRE_LOCAL_CONFIG_FILE`` is false). Before, both were counted as ignored knobs and
their files never read: a site's ``config.d`` settings were silently left out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fairshare_cli.core.names import shown
from tests.cli.imports.conftest import HTCONDOR

MAIN = """\
LOCAL_DIR = .
LOCAL_CONFIG_FILE = $(LOCAL_DIR)/condor_config.local
LOCAL_CONFIG_DIR = $(LOCAL_DIR)/config.d
PRIORITY_HALFLIFE = 100
"""


def site(tmp_path: Path) -> Path:
    """A main file, a ``config.d`` of three files (one an ``.rpmsave``) and a local file."""
    (tmp_path / "config.d").mkdir()
    (tmp_path / "config.d" / "10-negotiator").write_text(
        "PRIORITY_HALFLIFE = 200\nNEGOTIATOR_INTERVAL = 30\n", encoding="utf-8"
    )
    (tmp_path / "config.d" / "20-interval").write_text(
        "NEGOTIATOR_INTERVAL = 40\n", encoding="utf-8"
    )
    (tmp_path / "config.d" / "30-old.rpmsave").write_text(
        "NEGOTIATOR_INTERVAL = 999\n", encoding="utf-8"
    )
    (tmp_path / "condor_config.local").write_text(
        "NEGOTIATOR_INTERVAL = $(NEGOTIATOR_INTERVAL) + 5\n", encoding="utf-8"
    )
    main = tmp_path / "condor_config"
    main.write_text(MAIN, encoding="utf-8")
    return main


def test_the_local_files_are_read_after_the_main_file(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """By hand: PRIORITY_HALFLIFE 100 (main) is overridden by config.d/10 (200);
    NEGOTIATOR_INTERVAL is 30, then 40 (config.d/20; the .rpmsave is skipped), then the
    local file's ``40 + 5`` = 45 (the folder comes before the local file)."""
    main = site(tmp_path)
    result = run("import", "condor-config", str(main))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\n\n[accountant]\npriority_halflife = 200\n\n'
        "[negotiator]\ninterval = 45\n"
    )


def test_a_missing_local_file_is_refused_unless_not_required(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    main = site(tmp_path)
    (tmp_path / "condor_config.local").unlink()
    result = run("import", "condor-config", str(main))
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {main}:2: LOCAL_CONFIG_FILE: cannot read "
        f"{shown(str(tmp_path / 'condor_config.local'))}: No such file or directory (HTCondor stops on "
        "it unless REQUIRE_LOCAL_CONFIG_FILE = false)\n"
    )
    with main.open("a", encoding="utf-8") as fh:
        fh.write("REQUIRE_LOCAL_CONFIG_FILE = False\n")
    result = run("import", "condor-config", str(main))
    assert result.exit_code == 0, result.stderr
    assert "interval = 40\n" in result.stdout


def test_a_command_as_local_file_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    main = tmp_path / "condor_config"
    main.write_text("LOCAL_CONFIG_FILE = /usr/bin/make-config |\n", encoding="utf-8")
    result = run("import", "condor-config", str(main))
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {main}:1: LOCAL_CONFIG_FILE: '/usr/bin/make-config |' is a command, "
        "which fs does not run; import condor_config_val -dump output\n"
    )


def test_a_dump_reads_no_local_files(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A ``condor_config_val -dump`` already holds what the local files set: a
    ``LOCAL_CONFIG_DIR`` in it is not read again."""
    site(tmp_path)
    dump = tmp_path / "dump.txt"
    first = (HTCONDOR / "condor_config_val.dump.txt").read_text(encoding="utf-8").splitlines()[0]
    dump.write_text(f"{first}\n{MAIN}", encoding="utf-8")
    result = run("import", "condor-config", str(dump))
    assert result.exit_code == 0, result.stderr
    assert "priority_halflife = 100\n" in result.stdout
    assert "interval" not in result.stdout


def test_each_daemon_reads_its_own_local_sources(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-config condor_config`` with ``LOCAL_CONFIG_DIR = all.d`` and
    ``NEGOTIATOR.LOCAL_CONFIG_DIR = neg.d`` read all.d only (PRIORITY_HALFLIFE 100).
    ``real_config`` (condor_config.cpp) reads the knob with ``param``, which looks up the
    daemon's own ``SUBSYS.NAME`` first: the negotiator reads neg.d (PRIORITY_HALFLIFE
    300), the startd all.d (START = false); ``LOCAL_CONFIG_FILE`` likewise: the schedd's
    own file gives UID_DOMAIN s.org, the others' a.org."""
    (tmp_path / "neg.d").mkdir()
    (tmp_path / "all.d").mkdir()
    (tmp_path / "neg.d" / "10").write_text("PRIORITY_HALFLIFE = 300\n", encoding="utf-8")
    (tmp_path / "all.d" / "10").write_text(
        "PRIORITY_HALFLIFE = 100\nSTART = false\n", encoding="utf-8"
    )
    (tmp_path / "schedd.local").write_text("UID_DOMAIN = s.org\n", encoding="utf-8")
    (tmp_path / "other.local").write_text("UID_DOMAIN = a.org\n", encoding="utf-8")
    main = tmp_path / "condor_config"
    main.write_text(
        "LOCAL_CONFIG_DIR = all.d\nNEGOTIATOR.LOCAL_CONFIG_DIR = neg.d\n"
        "LOCAL_CONFIG_FILE = other.local\nSCHEDD.LOCAL_CONFIG_FILE = schedd.local\n",
        encoding="utf-8",
    )
    result = run("import", "condor-config", str(main))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\nstart = "false"\nuid_domain = "s.org"\n\n'
        "[accountant]\npriority_halflife = 300\n"
    )


def test_an_unreadable_folder_file_is_skipped_unless_required(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A ``config.d`` file that cannot be read (a link to nothing) was refused whatever
    ``REQUIRE_LOCAL_CONFIG_FILE`` said; ``process_directory`` reads the folder's files as
    required only when it is true (its default): false skips it (interval 30, from the
    other file)."""
    (tmp_path / "config.d").mkdir()
    (tmp_path / "config.d" / "10-gone").symlink_to(tmp_path / "nowhere")
    (tmp_path / "config.d" / "20-interval").write_text(
        "NEGOTIATOR_INTERVAL = 30\n", encoding="utf-8"
    )
    main = tmp_path / "condor_config"
    main.write_text("LOCAL_CONFIG_DIR = config.d\n", encoding="utf-8")
    result = run("import", "condor-config", str(main))
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {shown(str(tmp_path / 'config.d' / '10-gone'))}: cannot read it: No such "
        "file or directory (HTCondor stops on it unless REQUIRE_LOCAL_CONFIG_FILE = false)\n"
    )
    main.write_text(
        "LOCAL_CONFIG_DIR = config.d\nREQUIRE_LOCAL_CONFIG_FILE = false\n", encoding="utf-8"
    )
    result = run("import", "condor-config", str(main))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == '[pool]\ndefaults = "current"\n\n[negotiator]\ninterval = 30\n'
