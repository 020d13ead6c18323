"""``fs import dirac-cfg`` reads ``/Operations/Pilot``'s version check options as
``[dirac.pilot]`` (io/importers/dirac_pilot.py), as DIRAC 9.1.22's matcher reads them
(``Matcher._checkPilotVersion`` through the ``Operations`` helper: ``/Operations/Defaults``
merged with ``/Operations/<VO>``; ``CheckVersion`` typed by its boolean default, ``Version``
by its list default, ``Project`` a text)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit

NOW = "2026-11-21T12:00:00Z"
CFG = """DIRAC
{
  VirtualOrganization = lhcb
}
Registry
{
  Groups
  {
    lhcb_user
    {
      JobShare = 1000
    }
  }
}
Operations
{
  Defaults
  {
    Pilot
    {
      CheckVersion = Yes
      Version = v9r1p22, v9.1.21
      Project = DIRAC
      pilotRepo = https://example.org/pilot.git
    }
  }
  lhcb
  {
    Pilot
    {
      Project = LHCb
    }
  }
}
"""


def test_the_pilot_options_come_over_as_the_matcher_reads_them(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``Yes`` is true (``y``, ``yes``, ``true``, ``1`` in any case); the list is split at
    commas; the VO's ``Project`` wins over ``Defaults``'; ``pilotRepo`` (the SiteDirector's)
    is counted as ignored. A pilot at ``v9.1.21`` passes (listed), one of project ``DIRAC``
    does not: the imported config refuses it as the matcher does. alice alone in lhcb_user
    (1000) has the one queue: 1000 / 1 · 1 = 1000."""
    cfg = tmp_path / "dirac.cfg"
    cfg.write_text(CFG, encoding="utf-8")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert tomlkit.parse(result.stdout).unwrap()["dirac"]["pilot"] == {
        "check_version": True,
        "versions": ["v9r1p22", "v9.1.21"],
        "project": "LHCb",
    }
    assert result.stderr.rstrip().endswith("ignored 1: Operations/Pilot/pilotRepo")
    config = tmp_path / "pool.toml"
    config.write_text(result.stdout, encoding="utf-8")
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{"id": "1.0", "owner": "alice", "dirac_group": "lhcb_user"}]))
    common = ["taskqueues", "--config", str(config), "--state", str(tmp_path / "s.json")]
    common += ["--now", NOW, "--jobs-file", str(jobs), "--pilot", "CPUTime=86400"]
    common += ["--pilot", "Site=LCG.CERN.cern", "--pilot", "DIRACVersion=v9r1p21", "--json"]
    result = run(*common, "--pilot", "ReleaseProject=LHCb")
    assert result.exit_code == 0, result.stderr
    assert [(row["tq_id"], row["priority"]) for row in json.loads(result.stdout)] == [(1, 1000.0)]
    result = run(*common, "--pilot", "ReleaseProject=DIRAC")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --pilot ReleaseProject=DIRAC, and [dirac.pilot] project is LHCb: DIRAC's "
        "matcher refuses it ('Pilot version does not match')\n"
    )
