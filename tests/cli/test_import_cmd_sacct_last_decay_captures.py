"""``fs import sacct --last-decay`` against the real Slurm 22.05 captures: the jobs alone
(``sacct_jobs_1_13.txt``), charged on the grid through the capture's decay pass, give
slurmctld's usage to every decimal, with no ``scontrol show assoc_mgr`` first (that import
set the pass grid for ``fs import sacct --rebuild`` before ``--last-decay`` existed).

The pass is the fixture README's (its table), ``--now`` the capture's ``date.txt``; the
config comes from slurm.conf and the sacctmgr listings, the pending jobs from ``scontrol
show jobs`` (``--site-factor-from-priority``: job 8's SiteFactor=300 was set with scontrol
update, which no dump prints). ``fs sshare -a -l`` and ``fs sprio -l`` then print the
captured ``sshare -a -l`` and ``sprio -l`` byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_slurm_imports import BASE, FIXTURES, _body, _now, _pass_time

Run = Callable[..., Any]


@pytest.mark.parametrize("capture", ["ft1_running", "ft2_idle"])
def test_sacct_on_the_pass_grid_gives_sshare_and_sprio(
    tmp_path: Path, run: Run, capture: str
) -> None:
    cfg = tmp_path / "pool.toml"
    cfg.write_text(BASE)
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json")]
    common += ["--now", _now(capture)]
    last = ["--last-decay", _pass_time(capture)]
    for step in (
        ["slurm-conf", str(FIXTURES / "config" / "slurm.conf.fairtree"), "--into", str(cfg)],
        ["sacctmgr", str(FIXTURES / capture / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(FIXTURES / capture / "sacctmgr_qos.txt"), "--into", str(cfg)],
        ["sacct", str(FIXTURES / "sacct_jobs_1_13.txt"), *common, *last],
        ["squeue", str(FIXTURES / capture / "scontrol_show_jobs.txt"), *common, *last,
         "--site-factor-from-priority"],
    ):  # fmt: skip
        res = run("import", *step)
        assert res.exit_code == 0, (step[0], res.stderr)
    for args, name in (
        (["sshare", "-a", "-l"], "sshare_a_l.txt"),
        (["sprio", "-l"], "sprio_l.txt"),
    ):
        res = run(*args, *common)
        assert (res.exit_code, res.stdout) == (0, _body(FIXTURES / capture / name))
