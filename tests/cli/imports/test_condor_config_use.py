"""``fs import condor-config FILE`` reads ``use CATEGORY : TEMPLATE`` lines
(io/importers/condor_templates.py, io/importers/condor_config.py).

Before, every ``use`` line was refused ("'use' lines are not evaluated"), so a stock
install's ``/etc/condor/condor_config`` (its ``config.d`` reads ``use security:recommended``,
the minicondor package's ``use ROLE: ...``) could not be imported at all. HTCondor 25.0's
templates (param_info.in's ``[$CATEGORY.NAME]`` sections) set, all but four, only knobs
fs does not take: those are read as setting them, named in one warning. ``POLICY :
ALWAYS_RUN_JOBS`` is expanded (fs holds its constants); the desktop policies set START
(and the UWCS one four negotiator knobs) to expressions fs does not hold: refused, unless
the files set those knobs again after the line.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused


def stock(folder: Path) -> Path:
    """A stock install: the packaged ``condor_config`` (paths, ``LOCAL_CONFIG_DIR``) and a
    ``config.d`` with the security file and the minicondor package's file."""
    (folder / "config.d").mkdir()
    (folder / "config.d" / "00-security").write_text(
        "if version >= 23.10.0\n    use security:recommended\nelse\n"
        "    use security:recommended_v9_0\nendif\n"
    )
    (folder / "config.d" / "00-minicondor").write_text(
        "CONDOR_HOST = $(IP_ADDRESS)\nuse ROLE: CentralManager\nuse ROLE: Submit\n"
        "use ROLE: Execute\nNEGOTIATOR_INTERVAL = 2\nNEGOTIATOR_CYCLE_DELAY = 5\n"
    )
    main = folder / "condor_config"
    main.write_text(
        "RELEASE_DIR = /usr\nLOCAL_DIR = /var\nLOCAL_CONFIG_FILE = /etc/condor/condor_config.local\n"
        "REQUIRE_LOCAL_CONFIG_FILE = false\nLOCAL_CONFIG_DIR = config.d\n"
    )
    return main


def test_a_stock_install_is_imported(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import condor-config condor_config`` of a stock install with minicondor: the
    negotiator's interval and delay (2 s, 5 s) taken, HTCondor 25's defaults for the rest;
    the four templates named in one warning, in the order read (``config.d`` sorted:
    00-minicondor before 00-security, whose ``if version >= 23.10.0`` holds for 25.0)."""
    monkeypatch.chdir(tmp_path)
    stock(tmp_path)
    result = run(*shlex.split("import condor-config condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\n\n[negotiator]\ninterval = 2\ncycle_delay = 5\n'
    )
    assert result.stderr.splitlines()[1] == (
        "fs: warning: read 4 use templates as setting only knobs fs does not take: "
        "ROLE : CentralManager (config.d/00-minicondor:2), ROLE : Submit "
        "(config.d/00-minicondor:3), ROLE : Execute (config.d/00-minicondor:4), "
        "SECURITY : recommended (config.d/00-security:2)"
    )


def test_a_stock_install_without_a_knob_fs_takes_gives_the_defaults(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without minicondor no file sets a knob fs takes: the files are still HTCondor's (a
    ``use`` line, ``RELEASE_DIR``, ``LOCAL_CONFIG_DIR``), so the fragment is HTCondor 25's
    defaults, not the refusal "none of its knobs is one the pool config models"."""
    monkeypatch.chdir(tmp_path)
    stock(tmp_path)
    (tmp_path / "config.d" / "00-minicondor").unlink()
    result = run(*shlex.split("import condor-config condor_config"))
    assert (result.exit_code, result.stdout) == (0, '[pool]\ndefaults = "current"\n')
    assert "0 knobs taken" in result.stderr


def test_always_run_jobs_is_expanded(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[$POLICY.ALWAYS_RUN_JOBS]`` (param_info.in, HTCondor 25.0.13) sets START = True,
    PREEMPTION_REQUIREMENTS = False and NEGOTIATOR_CONSIDER_PREEMPTION = False, among
    constants fs does not take; a setting after the line wins, as in HTCondor."""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(
        "UID_DOMAIN = example.org\nuse POLICY : ALWAYS_RUN_JOBS\nSTART = Memory > 100\n"
    )
    result = run(*shlex.split("import condor-config condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\nuid_domain = "example.org"\nstart = "Memory > 100"\n\n'
        '[negotiator]\npreemption_requirements = "False"\nconsider_preemption = false\n'
    )
    assert "warning" not in result.stderr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "UID_DOMAIN = a\nuse POLICY : UWCS_DESKTOP\nSTART = true\n",
            "condor_config:2: use POLICY : UWCS_DESKTOP sets PREEMPTION_REQUIREMENTS, which "
            "fs takes, to a value fs does not hold; set PREEMPTION_REQUIREMENTS after this "
            "line, or import condor_config_val -dump output, which holds what the template sets",
            id="policy-setting-negotiator-knobs",
        ),
        pytest.param(
            "use FEATURE : UWCS_DESKTOP_POLICY_VALUES\nSTART = $(UWCS_START)\n",
            "condor_config:2: START: $(UWCS_START): UWCS_START is set by use FEATURE : "
            "UWCS_DESKTOP_POLICY_VALUES (condor_config:1), to a value fs does not hold; set "
            "it after that line, or import condor_config_val -dump output",
            id="macro-set-by-a-template",
        ),
        pytest.param(
            "use POLICY : DESKTOP\nif defined CpuBusy\nSTART = true\nendif\n",
            "condor_config:2: CpuBusy is set by use POLICY : DESKTOP (condor_config:1)",
            id="if-defined-of-a-template-knob",
        ),
        # the template's own "if !$(1?)" / "error :" lines stop HTCondor (config.cpp
        # read_meta_config: Parse_config_string returns the error); fs read it as
        # setting PREEMPT, MAXJOBRETIREMENTTIME and WANT_SUSPEND and went on
        pytest.param(
            "UID_DOMAIN = a\nuse POLICY : PREEMPT_IF\n",
            "condor_config:2: use POLICY : PREEMPT_IF: the template's error line says 'use "
            "POLICY : PREEMPT_IF requires an argument. It should be the name of a config "
            "variable that has the trigger expression.': HTCondor stops reading the "
            "configuration at this line, so its daemons would not start",
            id="template-without-its-argument",
        ),
        pytest.param(
            "UID_DOMAIN = a\nuse POLICY : WANT_HOLD_IF(MEMORY_EXCEEDED, 102)\n",
            "condor_config:2: use POLICY : WANT_HOLD_IF(MEMORY_EXCEEDED, 102): the template's "
            "error line says 'use POLICY : WANT_HOLD_IF requires 3 arguments: "
            "policy_variable, subcode, reason_text': HTCondor stops reading the configuration "
            "at this line, so its daemons would not start",
            id="template-short-of-arguments",
        ),
        pytest.param(
            "UID_DOMAIN = a\nuse ROLE : Submit, Worker\n",
            "condor_config:2: use ROLE : Worker: HTCondor 25.0 has no such template (its "
            "daemons stop on this line)",
            id="no-such-template",
        ),
    ],
)
def test_what_fs_cannot_read_or_htcondor_stops_on_is_refused(
    tmp_path: Path,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    expected: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(text)
    result = run(*shlex.split("import condor-config condor_config"))
    refused(result, expected)
    assert result.stdout == ""
