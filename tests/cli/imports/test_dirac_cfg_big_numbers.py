"""``fs import dirac-cfg`` refuses a whole number the fragment cannot hold.

DIRAC types every option it reads as a number with Python's ``int()`` (``gConfig.getValue``
with an int default: ``JobShare``, ``taskQueueCPUTimeIntervals``, the corrector options,
``JobDescription``), so ``JobShare = 1000000000000000000000000000000`` is a share DIRAC
works with. A TOML integer is 64 bits, and ``[dirac]`` holds no more: the import used to
print such a number into its fragment, which every ``fs`` command then refused (and
``--into`` refused naming the target config). Now the import stops at the line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import Refuse

BIG = "1000000000000000000000000000000"  # 10**30: int() reads it, TOML cannot hold it
CFG = """\
Registry
{{
  Groups
  {{
    lhcb_user
    {{
      JobShare = {share}
    }}
  }}
}}
Operations
{{
  Defaults
  {{
    JobScheduling
    {{
      taskQueueCPUTimeIntervals = 360, {segment}
      ShareCorrections
      {{
        ShareCorrectorsToStart = WMSHistory
        WMSHistory
        {{
          GroupsInstance
          {{
            MaxGlobalCorrection = {top}
            Week
            {{
              TimeSpan = {span}
            }}
          }}
        }}
      }}
    }}
    JobDescription
    {{
      MinPriority = {low}
    }}
  }}
}}
"""
FINE = {"share": "1000", "segment": "3600", "top": "3", "span": "604800", "low": "0"}


@pytest.mark.parametrize(
    ("option", "value", "line", "named"),
    [
        pytest.param("share", BIG, 7, "Registry/Groups/lhcb_user/JobShare", id="job-share"),
        pytest.param(
            "segment", BIG, 17, "JobScheduling/taskQueueCPUTimeIntervals", id="cpu-segment"
        ),
        pytest.param(
            "top", BIG, 25, "ShareCorrections/WMSHistory/GroupsInstance/MaxGlobalCorrection",
            id="max-global-correction",
        ),
        pytest.param(
            "span", BIG, 28, "ShareCorrections/WMSHistory/GroupsInstance/Week/TimeSpan",
            id="time-span",
        ),
        pytest.param("low", "-" + BIG, 36, "JobDescription/MinPriority", id="min-priority"),
    ],
)  # fmt: skip
def test_a_number_beyond_64_bits_is_refused_at_its_line(
    refuse_dump: Refuse, option: str, value: str, line: int, named: str
) -> None:
    text = CFG.format(**(FINE | {option: value}))
    result = refuse_dump("dirac-cfg", text, f":{line}: {named} = {value}: beyond the whole")
    assert "(-9223372036854775807 to 9223372036854775807, TOML's 64 bits)" in result.stderr


def test_the_largest_64_bit_share_is_imported_and_read(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    cfg = write_config(CFG.format(**(FINE | {"share": "9223372036854775807"})), "top.cfg")
    made = run("import", "dirac-cfg", str(cfg))
    assert made.exit_code == 0, made.stderr
    assert "job_share = 9223372036854775807" in made.stdout
    config = write_config(made.stdout, "top.toml")
    assert run("config", "check", "--config", str(config)).exit_code == 0


def test_a_group_vo_section_fs_does_not_write_is_only_warned_of(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    # /Operations/<VO> of a group's VO is read for a warning only (fs applies Defaults'),
    # so a number there that fs could not write does not stop the import.
    vo = f"  lhcb\n  {{\n    JobDescription\n    {{\n      MaxPriority = {BIG}\n    }}\n  }}\n"
    text = CFG.format(**FINE).replace("      JobShare = 1000\n", "      VO = lhcb\n")
    text = text.replace("Operations\n{\n", "Operations\n{\n" + vo)
    result = run("import", "dirac-cfg", str(write_config(text, "vo.cfg")))
    assert result.exit_code == 0, result.stderr
    assert f"MaxPriority = {BIG}" in result.stderr


def test_a_number_past_pythons_digit_limit_is_echoed_short(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs import dirac-cfg d.cfg`` of a ``JobShare`` of 5,000 digits: past the 4,300
    digits Python's ``int()`` reads, so DIRAC reads the default 1000, as the warning says;
    it echoed all 5,000 digits. Now the first 80 characters of the value and ``...``."""
    cfg = tmp_path / "d.cfg"
    cfg.write_text(CFG.format(**{**FINE, "share": "9" * 5000}), encoding="utf-8")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert f"{cfg}:7: Registry/Groups/lhcb_user/JobShare = '{'9' * 79}... is not an " in (
        result.stderr
    )
    assert "DIRAC reads the default 1000" in result.stderr and len(result.stderr) < 1000
    assert "job_share = 1000" in result.stdout
