"""``fs import squeue`` under ``PriorityFlags=INCR_ONLY``.

slurmctld then keeps a pending job's stored priority at its highest: a decay pass that
computes a lower one leaves it (``decay_apply_weighted_factors`` and, per partition,
``_priority_each_qos`` in ``priority_multifactor.c``, 22.05 and 26.05 alike), and its
scheduler walks the queue by that stored priority. sprio recomputes: its PRIORITY is the
sum of the factors of the last pass (``get_priority_from_factors`` in ``sprio/print.c``),
whatever the job keeps. The dumps print the stored one (scontrol's ``Priority=``).

The Slurm 26.05.3 capture's job 21 (Priority=4341, sprio's sum 4341) is made to print
5000 here, as a job whose factors once summed to 5000 and have fallen since would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

SLURM = FIXTURES / "slurm-26.05"
CAPTURE = SLURM / "ft4_t2_idle"
NOW = "2026-11-28T18:28:39Z"
PASS = "2026-11-28T18:28:30Z"


def _captured_sprio() -> str:
    """The capture's ``sprio -l`` (its first line, the command, left out)."""
    return (CAPTURE / "sprio_l.txt").read_text().split("\n", 1)[1].rstrip("\n") + "\n"


def _import(tmp_path: Path, run: Callable[..., Any], *extra: str) -> tuple[Any, list[str]]:
    """The capture's cluster with ``PriorityFlags=INCR_ONLY``, its usage, and its jobs
    with job 21 printed at Priority=5000: the import's result and the common options."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        (SLURM / "config" / "slurm.conf.fairtree").read_text() + "PriorityFlags=INCR_ONLY\n"
    )
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", NOW]
    for step in (
        ["slurm-conf", str(conf), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_qos.txt"), "--into", str(cfg)],
        ["sshare", str(CAPTURE / "sshare_a_l_json.txt"), *common, "--last-decay", PASS],
    ):
        assert run("import", *step).exit_code == 0, step
    text = (CAPTURE / "scontrol_show_jobs.txt").read_text()
    at = text.index("JobId=21 ")
    (tmp_path / "jobs.txt").write_text(
        text[:at] + text[at:].replace("Priority=4341", "Priority=5000", 1)
    )
    res = run("import", "squeue", str(tmp_path / "jobs.txt"), *common, "--last-decay", PASS, *extra)
    return res, common


def test_a_printed_priority_above_the_factors_is_kept_as_the_jobs_highest(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Job 21 printed 5000 where the imported usage gives 4341: named as kept at its
    highest, not as a priority the dumps do not give (before: "1 printed priority the
    dumps do not give: 21 (printed 5000, computed 4341)"), and stored as the job's
    ``slurm_priority``; ``fs sprio -l`` still prints the capture's rows (21: 4341)."""
    res, common = _import(tmp_path, run)
    assert res.exit_code == 0, res.stderr
    assert (
        "; 1 job printed above its factors, kept at the highest (PriorityFlags=INCR_ONLY): 21 (5000, computed 4341)"
        in res.stderr
    )
    assert "do not give" not in res.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    stored = {j["id"]: j.get("slurm_priority") for j in state["jobs"] if "start_time" not in j}
    assert stored["21"] == 5000
    listing = run("sprio", "-l", *common)
    assert listing.exit_code == 0, listing.stderr
    assert listing.stdout == _captured_sprio()


def test_site_factors_are_not_read_off_priorities_kept_at_their_highest(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """--site-factor-from-priority would read job 21's 5000 - 4341 = 659 as a site
    factor, which sprio would then add (SITE 659, PRIORITY 5000); under INCR_ONLY the
    difference may be the kept highest, so none is read, and the command says so."""
    res, common = _import(tmp_path, run, "--site-factor-from-priority")
    assert res.exit_code == 0, res.stderr
    assert "site factor from Priority" not in res.stderr
    assert res.stderr.endswith(
        ", site factors (PriorityFlags=INCR_ONLY: a printed Priority may be a higher one kept "
        "from an earlier pass)\n"
    )
    listing = run("sprio", "-l", *common)
    assert listing.stdout == _captured_sprio()
