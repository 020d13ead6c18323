"""``fs import squeue`` under ``PriorityType=priority/basic``: the priorities a dump prints
are basic's first-in-first-out count, kept with each pending job (``fs simulate`` goes by
them), not compared with multifactor sums nor read as site factors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

LOCAL = FIXTURES / "slurm-22.05-local"
CAPTURE = LOCAL / "cl2_running"


def _pool(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """A pool of the real 22.05 cluster's basic slurm.conf and associations, with the
    usage of capture cl2_running: the options that read it."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n[priority]\noutput_compat = "22.05"\n')
    for args in (
        ["slurm-conf", str(LOCAL / "config" / "slurm.conf.basic"), "--into", str(cfg), "--replace"],
        ["sacctmgr", str(CAPTURE / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_qos.txt"), "--into", str(cfg)],
    ):
        assert run("import", *args).exit_code == 0
    now = (CAPTURE / "date.txt").read_text().splitlines()[4]
    last = (CAPTURE / "last_decay.txt").read_text().splitlines()[1]
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", now]
    dump = CAPTURE / "scontrol_assoc_mgr.txt"
    assert run("import", "scontrol-assoc", str(dump), *common, "--last-decay", last).exit_code == 0
    return common


def test_the_printed_priorities_are_kept_not_compared(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The dump's five pending jobs keep the priority it printed (job 8 6308, 13 9577, 19
    4698, 20 4952, 22 8666); the held job 21 (printed 0) and the running ones none. The
    summary lists no "printed priorities the dumps do not give", which multifactor's sums
    (computed 6851 for job 8 ...) would be under another PriorityType."""
    common = _pool(tmp_path, run)
    dump = CAPTURE / "scontrol_show_jobs.txt"
    res = run("import", "squeue", str(dump), *common)
    assert res.exit_code == 0, res.stderr
    assert "printed priorities" not in res.stderr
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    kept = {j["id"]: j["slurm_priority"] for j in jobs if "slurm_priority" in j}
    assert kept == {"8": 6308, "13": 9577, "19": 4698, "20": 4952, "22": 8666}


def test_site_factors_are_not_read_from_basics_priorities(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``--site-factor-from-priority`` reads a printed priority less multifactor's factors;
    under basic there are none: the summary says the site factors were ignored, and no job
    gets one."""
    common = _pool(tmp_path, run)
    dump = CAPTURE / "scontrol_show_jobs.txt"
    res = run("import", "squeue", str(dump), "--site-factor-from-priority", *common)
    assert res.exit_code == 0, res.stderr
    assert "site factors (priority/basic weighs no factors)" in res.stderr
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert not any(j.get("site_factor") for j in jobs)
