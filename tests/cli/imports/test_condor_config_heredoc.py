"""``fs import condor-config`` reads ``NAME @=TAG`` values, which ``condor_config_val -dump``
prints for any knob of more than one line (io/importers/condor_config.py), and what it does
not evaluate names the way past it: the dump."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: As ``condor_config_val -dump`` prints it (``config_val.cpp``: a multi-line value as
#: ``NAME @=end``, its lines indented by three spaces, then ``@end``).
DUMP = """\
# Configuration from machine: cm.mysite.org

# Parameters with names that match .*:
UID_DOMAIN = mysite.org
JOB_TRANSFORM_AssignGroup @=end
   REQUIREMENTS ! defined AcctGroup
   # a comment
   EVALSET AccountingGroup = "group_x." + Owner

@end
START @=end
   (TARGET.RequestMemory <= MY.Memory) &&
   (TARGET.RequestCpus <= MY.Cpus)
@end
PRIORITY_HALFLIFE = 3600
"""


def test_a_dump_with_multi_line_values_is_read(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import condor-config dump.txt`` refused the dump at its first ``@=`` line
    ("'@=' multi-line values are not read"), though every pool with a job transform has
    one. Now each ``@=`` value is its lines up to ``@end`` (``config.cpp``: comment and
    blank lines left out, joined by newlines); an ignored knob stays ignored."""
    monkeypatch.chdir(tmp_path)
    Path("dump.txt").write_text(DUMP)
    result = run("import", "condor-config", "dump.txt")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\nuid_domain = "mysite.org"\n'
        'start = "(TARGET.RequestMemory <= MY.Memory) &&\\n(TARGET.RequestCpus <= MY.Cpus)"\n\n'
        "[accountant]\npriority_halflife = 3600\n"
    )
    assert result.stderr == (
        "condor-config dump.txt: 3 knobs taken, 0 groups; ignored 1: JOB_TRANSFORM_AssignGroup\n"
    )


def test_a_value_without_its_end_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text("UID_DOMAIN = a\nSTART @=end\n  true\n")
    result = run("import", "condor-config", "condor_config")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("fs: error: condor_config:2: START @=end: no line '@end' ends it\n")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("use POLICY : UWCS_DESKTOP\n", id="use-setting-start"),
        pytest.param("if defined TILDE\nA = 1\nendif\n", id="if-defined-from-the-machine"),
        pytest.param("include command : ls\n", id="command"),
    ],
)
def test_what_is_not_evaluated_names_the_dump(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """``fs import condor-config condor_config`` of a file starting ``use ROLE :
    CentralManager`` said only "expected NAME = value": nothing told the admin how to go
    on. Now the one line names the dump, in which HTCondor has applied them (that
    template is read now; one setting START to a value fs does not hold is refused). (An ``if``
    block is read; ``defined TILDE``, which HTCondor sets from the machine, is refused,
    and that line names the dump too.)"""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(text)
    result = run("import", "condor-config", "condor_config")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: condor_config:1: ")
    assert result.stderr.count("\n") == 1
    assert "import condor_config_val -dump output" in result.stderr
