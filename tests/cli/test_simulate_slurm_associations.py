"""fs simulate --scheduler slurm counts each user association's own jobs.

On the Slurm 26.05.3 capture (``tests/fixtures/slurm-26.05``, rebuilt from its dumps as
``test_slurm_imports_26_05`` rebuilds it), user u3 has two associations, in accounts c and
g, so the table has a row for each: ``u3 (c)`` and ``u3 (g)``. Each row's slots and
pending jobs are that association's: a job counts under the account it names, and a job
naming none under the user's first association (c: ``a/c`` comes before ``d/g`` in
lineage order), the account sprio prints for it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from test_slurm_imports_26_05 import JOBS, USAGE, _build

Run = Callable[..., Any]


def _rows(stdout: str) -> dict[str, list[str]]:
    """The summary's rows by name: MeanSlots, MaxSlots, EndSlots, FairShare, Pending (the
    pool's without FairShare)."""
    out = {}
    for line in stdout.splitlines():
        words = line.split()
        if words and words[0] == "slurm_user":
            out[" ".join(words[1:-5])] = words[-5:]
        elif words and words[0] == "pool":
            out["pool"] = words[2:]
    return out


def test_a_user_in_two_accounts_has_each_associations_jobs(tmp_path: Path, run: Run) -> None:
    """Derived by hand from ``sprio_l.txt``: the whole queue pending, job 24 (u5, 16 CPUs,
    priority 11382, the highest) takes the node's 16 CPUs and every other job pends.
    u3's jobs are 21 (account c) and 22 (g): one pending job in each row, where before
    both rows showed u3's two. The rows' pending jobs add up to the pool's 8."""
    common = _build(tmp_path, run, USAGE[0], JOBS[1])
    res = run("simulate", "--scheduler", "slurm", "--until", "60", "--cycle", "60", *common)
    assert res.exit_code == 0, res.stderr
    rows = _rows(res.stdout)
    assert rows["u3 (c)"] == ["0.00", "0", "0", "0.333333", "1"]
    assert rows["u3 (g)"] == ["0.00", "0", "0", "0.666667", "1"]
    assert rows["u5"][:3] == ["16.00", "16", "16"]
    assert rows["pool"] == ["16.00", "16", "16", "8"]
    assert sum(int(r[-1]) for k, r in rows.items() if k != "pool") == 8


def test_running_cpus_and_a_job_naming_no_account(tmp_path: Path, run: Run) -> None:
    """Job 24 removed: in priority order (``sprio_l.txt``) 26 (u7, 1 CPU), 23 (u4, 1),
    22 (u3 in g, 4), 27 (u8, 7) and 19 (u1, 2) start, 15 of the 16 CPUs; 21 (u3 in c, 4
    CPUs) does not fit, and what comes after it in batch waits behind it: job 28, u3's
    with no account, 1 CPU, priority 4114 (sprio: account c). So u3 (g) holds 4 CPUs and
    pends nothing, u3 (c) holds none and pends 21 and 28; before, both rows showed u3's
    4 CPUs and 2 pending jobs."""
    common = _build(tmp_path, run, USAGE[0], JOBS[1])
    assert run("rm", "24", *common).exit_code == 0
    res = run("submit", "--owner", "u3", "--cpus", "1", "--partition", "batch", *common)
    assert res.exit_code == 0, res.stderr
    res = run("sprio", "-j", "28", "-o", "%.4i %.8o %.8Y", *common)
    assert res.stdout.splitlines()[1].split() == ["28", "c", "4114"]
    res = run("simulate", "--scheduler", "slurm", "--until", "60", "--cycle", "60", *common)
    assert res.exit_code == 0, res.stderr
    rows = _rows(res.stdout)
    assert rows["u3 (c)"] == ["0.00", "0", "0", "0.333333", "2"]
    assert rows["u3 (g)"] == ["4.00", "4", "4", "0.666667", "0"]
    assert rows["pool"] == ["15.00", "15", "15", "4"]
    assert sum(float(r[0]) for k, r in rows.items() if k != "pool") == 15.0
