"""``fs import dirac-cfg`` of slice weights and maximum corrections below 1.

``BaseHistoryCorrector._fillSlices`` reads ``MaxGlobalCorrection``, ``Weight`` and
``MaxCorrection`` as any integers (``getCSOption`` typed by the integer default) and
computes with them; the import refused a negative ``Weight`` and a maximum below 1
("expected a whole number of at least 1"). A maximum of 0 is taken too, with a warning:
DIRAC divides 1 by it once it has history, and the TaskQueuesAgent cycle then fails.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.imports.test_dirac_cfg_sections import CORRECTORS

INSTANCE = """
          Groups
          {
            MaxGlobalCorrection = -2
            Week
            {
              TimeSpan = 7200
              Weight = 3
              MaxCorrection = 0
            }
            Hour
            {
              TimeSpan = 3600
              Weight = -1
              MaxCorrection = -4
            }
          }
"""


def test_negative_weights_and_maxima_below_1_are_imported(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    cfg = write_config(CORRECTORS.format(start="WMSHistory", instances=INSTANCE), "c.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("[dirac.correction]\n", 1)[1] == (
        "enabled = true\n"
        "\n"
        "[[dirac.correction.instances]]\n"
        'name = "Groups"\n'
        'group = ""\n'
        "max_global_correction = -2\n"
        "slices = [\n"
        "    {time_span = 7200, weight = 3, max_correction = 0},\n"
        "    {time_span = 3600, weight = -1, max_correction = -4},\n"
        "]\n"
    )
    assert result.stderr == (
        f"fs: warning: {cfg}:31: ShareCorrections/WMSHistory/Groups/Week/MaxCorrection = 0: "
        "DIRAC's corrector divides 1 by it once it has history: each TaskQueuesAgent cycle "
        "then fails\n"
        "dirac-cfg: 1 group, share correction on with 1 instance (2 slices), default CPU "
        "segments\n"
    )


def test_an_imported_negative_weight_is_read_back(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``--into`` a config, then ``fs config check`` reads it: the same instance."""
    cfg = write_config(CORRECTORS.format(start="WMSHistory", instances=INSTANCE), "c.cfg")
    target = write_config("[pool]\nname = 'x'\n", name="target.toml")
    result = run("import", "dirac-cfg", str(cfg), "--into", str(target))
    assert result.exit_code == 0, result.stderr
    assert "weight = -1, max_correction = -4" in target.read_text(encoding="utf-8")
    check = run("config", "check", "--config", str(target))
    assert check.exit_code == 0, check.stderr
    assert "instance 'Groups' then fails each TaskQueuesAgent cycle" in check.stdout + check.stderr


def test_a_time_span_of_0_or_less_is_imported(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """``TimeSpan`` is read as any integer; the report asks for ``lastSeconds = TimeSpan``,
    which the ReportGenerator (and the Monitoring service) refuse under 3600 ("lastSeconds
    must be more than 3600"), so the instance never corrects, as with any slice under an
    hour. The import refused it ("expected a whole number of at least 1")."""
    spans = INSTANCE.replace("TimeSpan = 7200", "TimeSpan = 0").replace(
        "TimeSpan = 3600", "TimeSpan = -7200"
    )
    cfg = write_config(CORRECTORS.format(start="WMSHistory", instances=spans), "c.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert (
        "slices = [\n"
        "    {time_span = 0, weight = 3, max_correction = 0},\n"
        "    {time_span = -7200, weight = -1, max_correction = -4},\n"
        "]\n"
    ) in result.stdout
