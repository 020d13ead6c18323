"""``fs import sacct`` of a small history, then ``fs sshare`` at two later times.

The usage is derived by hand from Slurm's ``priority_multifactor.c`` (``_decay_thread``,
``_apply_new_usage``): a decay pass every PriorityCalcPeriod (5 minutes, on multiples of
300 s since the epoch; 10:00:00Z is one) multiplies all usage by ``d^Δ``, with
``d = 1 − 0.693 / PriorityDecayHalfLife`` (3600 s here), then charges each running job
``Δ · d^Δ · CPUs · UsageFactor`` for the ``Δ`` seconds since the last pass (its start, at
its first). A job ending between passes is charged up to the pass before its end (no
``AccountingStorageEnforce=limits``). A view shows the usage of the last pass before it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]
CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 2
slots = 1
attributes = { Cpus = 4 }
partitions = ["batch"]
[priority]
decay_halflife = "1:00:00"
calc_period = "5"
[partitions.batch]
default = true
[qos.normal]
usage_factor = 1.0
[qos.half]
usage_factor = 0.5
[accounts.a]
shares = 1
users = { u1 = 1, u2 = 1 }
"""
HEADER = "JobID|User|Account|Partition|QOS|AllocCPUS|AllocTRES|State|Start|End"
JOBS = [
    "1|u1|a|batch|normal|2|billing=2,cpu=2,node=1|COMPLETED|2026-11-21T10:00:00|2026-11-21T10:20:00",
    "2|u2|a|batch|half|4|billing=4,cpu=4,node=1|COMPLETED|2026-11-21T10:02:30|2026-11-21T10:12:30",
]
D = 1 - 0.693 / 3600


def _files(tmp_path: Path, jobs: list[str], config: str = CONFIG) -> list[str]:
    (tmp_path / "pool.toml").write_text(config)
    (tmp_path / "sacct.txt").write_text("\n".join([HEADER, *jobs]) + "\n")
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]


def _usage(run: Run, args: list[str], now: str) -> dict[str, float]:
    res = run("sshare", "-a", "--json", *args, "--now", now)
    assert res.exit_code == 0, res.stderr
    return {row["user"]: row["raw_usage"] for row in json.loads(res.stdout) if row["user"]}


def test_usage_at_two_later_views(tmp_path: Path, run: Run) -> None:
    """u1's 2 CPUs run 10:00-10:20: passes 10:05, 10:10, 10:15, 10:20 charge 300 s each
    (``2 · 300 · d^300``), decayed to the 10:30 pass by ``d^(10:30 − pass)``. u2's 4 CPUs
    at UsageFactor 0.5 (rate 2) run 10:02:30-10:12:30: 10:05 charges 150 s, 10:10 300 s;
    the last 150 s end before a pass, uncharged. At 11:32 the last pass is 11:30: both
    decay by ``d^3600`` (0.4999..., as 0.693 is not ln 2)."""
    args = _files(tmp_path, JOBS)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z"
    )
    assert res.exit_code == 0, res.stderr
    assert res.stderr == ""  # (AllocTRES bills them their CPUs: no note)
    u1 = sum(2 * 300 * D**300 * D ** (1800 - t) for t in (300, 600, 900, 1200))
    u2 = 2 * (150 * D**150 * D**1500 + 300 * D**300 * D**1200)
    first = _usage(run, args, "2026-11-21T10:34:59Z")
    assert first == pytest.approx({"u1": u1, "u2": u2}, rel=1e-12)
    later = _usage(run, args, "2026-11-21T11:32:00Z")
    assert later == pytest.approx({"u1": u1 * D**3600, "u2": u2 * D**3600}, rel=1e-12)
    assert round(later["u1"], 3) == 927.359  # (1854.569 at 10:30)


def test_jobs_billed_other_than_their_cpus_are_named(tmp_path: Path, run: Run) -> None:
    """A partition's TRESBillingWeights (``CPU=1.0,Mem=0.5G``: 2 CPUs and 8G bill 6) is
    what slurmctld charges (``calc_job_billable_tres``); where the config sets no
    ``billing_weights`` fs charges the CPUs and says so."""
    jobs = [JOBS[0].replace("billing=2,cpu=2,node=1", "billing=6,cpu=2,mem=8G,node=1"), JOBS[1]]
    args = _files(tmp_path, jobs)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z"
    )
    assert res.exit_code == 0, res.stderr
    assert res.stderr == (
        "fs: note: charged 1 job its CPUs where AllocTRES bills otherwise: 1 (billing=6 for 2 "
        "CPUs); Slurm charges the billing (a partition's TRESBillingWeights), which the "
        "config does not set (partitions.<name>.billing_weights)\n"
    )


WEIGHTED = CONFIG.replace(
    "[partitions.batch]\ndefault = true\n",
    '[partitions.batch]\ndefault = true\nbilling_weights = "CPU=1.0,Mem=0.3G"\n',
)


@pytest.mark.parametrize(
    ("flags", "billing", "stored"),
    [
        pytest.param("", 2 + 8192 * 0.3 / 1024, 4, id="sum"),
        pytest.param('flags = ["MAX_TRES"]\n', 8192 * 0.3 / 1024, 2, id="max_tres"),
    ],
)
def test_jobs_are_charged_their_partitions_billing(
    tmp_path: Path, run: Run, flags: str, billing: float, stored: int
) -> None:
    """With ``billing_weights = "CPU=1.0,Mem=0.3G"`` (``TRESBillingWeights``) u1's job,
    AllocTRES ``cpu=2,mem=8G``, bills as ``assoc_mgr_tres_weighted`` sums it: 2 × 1.0 +
    8192 MB × 0.3/1024 (the ``G`` unit divides the weight by 1024 per MB,
    ``get_convert_unit_val``) = 4.4; with ``PriorityFlags=MAX_TRES`` the largest of the
    CPU, memory and node terms, 2.4. slurmctld stores it truncated (AllocTRES billing=4,
    2) but charges the double (``_apply_new_usage``: ``run_decay * billable_tres``): u1's
    usage is the CPU case's with 4.4 (2.4) for 2. u2's job (4 CPUs, no memory) bills 4."""
    config = WEIGHTED.replace("[priority]\n", "[priority]\n" + flags)
    alloc = f"billing={stored},cpu=2,mem=8G,node=1"
    jobs = [JOBS[0].replace("billing=2,cpu=2,node=1", alloc), JOBS[1]]
    args = _files(tmp_path, jobs, config)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z"
    )
    assert res.exit_code == 0, res.stderr
    assert res.stderr == ""
    u1 = sum(billing * 300 * D**300 * D ** (1800 - t) for t in (300, 600, 900, 1200))
    u2 = 2 * (150 * D**150 * D**1500 + 300 * D**300 * D**1200)
    assert _usage(run, args, "2026-11-21T10:34:59Z") == pytest.approx(
        {"u1": u1, "u2": u2}, rel=1e-12
    )


def test_the_sshare_of_billed_jobs(tmp_path: Path, run: Run) -> None:
    """``fs sshare -l`` after the import above (4.4 billed): RawUsage u1 4080 (by hand:
    4.4 × 300 × Σ d^(300 + 1800 − t), t = 300 ... 1200, is 4080.05), u2 667.86, root
    4747.9; EffectvUsage u1 4080.05 / 4747.92 = 0.859335."""
    jobs = [JOBS[0].replace("billing=2,cpu=2,node=1", "billing=4,cpu=2,mem=8G,node=1"), JOBS[1]]
    args = _files(tmp_path, jobs, WEIGHTED)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z"
    )
    assert res.exit_code == 0, res.stderr
    res = run(
        "sshare",
        "-a",
        "-l",
        "-o",
        "Account,User,RawUsage,EffectvUsage",
        *args,
        "--now",
        "2026-11-21T10:34:59Z",
    )
    assert res.exit_code == 0, res.stderr
    assert [line.rstrip() for line in res.stdout.splitlines()] == [
        "Account                    User    RawUsage  EffectvUsage",
        "-------------------- ---------- ----------- -------------",
        "root                                   4747      1.000000",
        " a                                     4747      1.000000",
        "  a                          u1        4080      0.859335",
        "  a                          u2         667      0.140665",
    ]


def test_a_billing_the_weights_do_not_give_is_named(tmp_path: Path, run: Run) -> None:
    """AllocTRES ``billing=6`` where the config's weights give 4.4 (truncated, 4): the
    config's weights are not the cluster's; fs charges its own and says so."""
    jobs = [JOBS[0].replace("billing=2,cpu=2,node=1", "billing=6,cpu=2,mem=8G,node=1"), JOBS[1]]
    args = _files(tmp_path, jobs, WEIGHTED)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z"
    )
    assert res.exit_code == 0, res.stderr
    assert res.stderr == (
        "fs: note: 1 job billed otherwise than AllocTRES says: 1 (billing=6, the weights give "
        "4.4); charged the config's billing_weights (check them against the cluster's "
        "TRESBillingWeights)\n"
    )


@pytest.mark.parametrize("mem", ["nan", "inf", "-8G", "1e308G"])
def test_an_alloctres_count_no_sacct_prints_is_refused(tmp_path: Path, run: Run, mem: str) -> None:
    """sacct prints a TRES count as a ``uint64_t`` (memory with a unit). Before, ``nan``
    and ``inf`` were dropped (the job billed without its memory, only a note saying so),
    ``-8G`` was charged until the state refused u1's negative usage, and ``1e308G``
    (1e308 x 1024 MB, beyond a double) stopped fs with a traceback."""
    alloc = f"billing=4,cpu=2,mem={mem},node=1"
    jobs = [JOBS[0].replace("billing=2,cpu=2,node=1", alloc), JOBS[1]]
    args = _files(tmp_path, jobs, WEIGHTED)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z"
    )
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {tmp_path / 'sacct.txt'}:2: AllocTRES mem={mem}: expected a "
        "finite count of 0 or more (as sacct prints it)\n"
    )
    assert not (tmp_path / "state.json").exists()


def test_an_alloctres_item_not_a_count_is_refused_and_none_left_out(
    tmp_path: Path, run: Run
) -> None:
    """sacct prints ``NONE`` for an infinite count (``slurmdb_make_tres_string_from_simple``:
    ``INFINITE64``) and a number for any other: ``energy=NONE`` is left out (the job bills
    as before: no note), ``mem=lots`` refused, where it was dropped without a word."""
    none = JOBS[0].replace("billing=2,cpu=2,node=1", "billing=2,cpu=2,node=1,energy=NONE")
    args = _files(tmp_path, [none, JOBS[1]], WEIGHTED)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z"
    )
    assert (res.exit_code, res.stderr) == (0, "")
    other = tmp_path / "lots"
    other.mkdir()
    lots = JOBS[0].replace("billing=2,cpu=2,node=1", "billing=2,cpu=2,mem=lots,node=1")
    args = _files(other, [lots], WEIGHTED)
    res = run("import", "sacct", str(other / "sacct.txt"), *args, "--now", "2026-11-21T10:30:00Z")
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {other / 'sacct.txt'}:2: AllocTRES mem=lots: expected name=count, "
        "a number (memory with a unit: K, M, G, T or P), as sacct prints it\n"
    )
    assert not (other / "state.json").exists()


def test_a_dump_whose_every_job_starts_after_now_is_refused(tmp_path: Path, run: Run) -> None:
    """Both jobs start after --now (a FAIRSHARE_NOW left from the sample pool's session):
    fs imported nothing, said "Imported 0 usage records", exit 0, and wrote a state; now
    refused in one line, exit 2, nothing written, as fs import history refuses a record
    that starts after --now. A dump with one job before --now imports it, as before."""
    args = _files(tmp_path, JOBS)
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T09:00:00Z"
    )
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        f"fs: error: {tmp_path / 'sacct.txt'}: every job starts after --now "
        "(2026-11-21T09:00:00Z), the first at 2026-11-21T10:00:00Z: give a --now no earlier "
        "than the dump (is FAIRSHARE_NOW set?)\n"
    )
    assert not (tmp_path / "state.json").exists()
    res = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:01:00Z"
    )
    assert res.exit_code == 0, res.stderr
    assert res.stdout.startswith("Imported 1 usage record")
