"""The Slurm 26.05.3 capture (``tests/fixtures/slurm-26.05``) rebuilt from its dumps alone.

slurm.conf, the sacctmgr listings (26.05's ``Lineage`` tree, after a listing 26.05 refused),
then the usage from ``sshare -a -l --json`` (each user's share of root's usage to every
bit) or ``scontrol show assoc_mgr`` (two decimals), and the jobs from ``scontrol show jobs``
(``ReqTRES``/``AllocTRES``) or ``squeue --json``. ``fs sshare -a -l`` and ``fs sprio -l``
must then print what the capture printed.

The capture does not say when slurmctld's last decay pass ran. Its jobs accrue age from
18:20:32 (``PriorityMaxAge=01:00:00``, weight 1000: 1000/3600 a second). Job 19's PRIORITY
5389 is the truncated sum of FAIRSHARE 4444.44 (10000 × 4/9), JOBSIZE 562.5, PARTITION 250
and AGE (``_get_priority_internal``), so AGE is in [132.06, 133.06); job 24's 11382
(10000 + 1000 + 250 + AGE) puts it in [132, 133), and the AGE printed, 133, at 132.5 or
more: 477 or 478 seconds. At 477 (exactly 132.5) the rows do not come out as printed; 478
seconds after 18:20:32 is 18:28:30.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

SLURM = FIXTURES / "slurm-26.05"
CAPTURE = SLURM / "ft4_t2_idle"
NOW = "2026-11-28T18:28:39Z"  # date.txt
PASS = "2026-11-28T18:28:30Z"

Run = Callable[..., Any]


def _body(path: Path) -> str:
    """A capture file without its command line and trailing blank lines."""
    return path.read_text().split("\n", 1)[1].rstrip("\n") + "\n"


def _build(tmp_path: Path, run: Run, usage: str, jobs: str) -> list[str]:
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", NOW]
    steps = [
        ["slurm-conf", str(SLURM / "config" / "slurm.conf.fairtree"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_qos.txt"), "--into", str(cfg)],
        [usage.split("/")[0], str(CAPTURE / usage.split("/")[1]), *common, "--last-decay", PASS],
        ["squeue", str(CAPTURE / jobs), *common, "--last-decay", PASS],
    ]
    for step in steps:
        res = run("import", *step)
        assert res.exit_code == 0, (step, res.stderr)
    return common


USAGE = ("sshare/sshare_a_l_json.txt", "scontrol-assoc/scontrol_assoc_mgr.txt")
JOBS = ("scontrol_show_jobs.txt", "squeue_json.txt")


@pytest.mark.parametrize("usage", USAGE)
@pytest.mark.parametrize("jobs", JOBS)
def test_sprio_l_from_the_dumps(tmp_path: Path, run: Run, usage: str, jobs: str) -> None:
    common = _build(tmp_path, run, usage, jobs)
    res = run("sprio", "-l", *common)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == _body(CAPTURE / "sprio_l.txt")


@pytest.mark.parametrize("jobs", JOBS)
def test_sshare_a_l_from_sshare_json_alone(tmp_path: Path, run: Run, jobs: str) -> None:
    """sshare --json's shares of root pin NormUsage, EffectvUsage and LevelFS to the sixth
    decimal, which assoc_mgr's two decimals do not."""
    common = _build(tmp_path, run, USAGE[0], jobs)
    res = run("sshare", "-a", "-l", *common)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == _body(CAPTURE / "sshare_a_l.txt")


def test_sshare_json_sets_the_tree_too(tmp_path: Path, run: Run) -> None:
    """``--into`` takes the tree from the rows' parents and raw shares (2147483647 is
    ``parent``, ``SLURMDB_FS_USE_PARENT``); it agrees with sacctmgr's."""
    from fairshare_cli.io.toml import loads

    ours, theirs = tmp_path / "json.toml", tmp_path / "sacctmgr.toml"
    state = ["--config", str(ours), "--state", str(tmp_path / "s.json"), "--now", NOW]
    res = run("import", "sshare", str(CAPTURE / "sshare_a_l_json.txt"), "--into", str(ours), *state)
    assert res.exit_code == 0, res.stderr
    res = run("import", "sacctmgr", str(CAPTURE / "sacctmgr_assoc_tree.txt"), "--into", str(theirs))
    assert res.exit_code == 0, res.stderr
    assert loads(ours.read_text())["accounts"] == loads(theirs.read_text())["accounts"]
    assert loads(ours.read_text())["accounts"]["e"]["users"] == {"u4": 1, "u7": "parent"}


def test_sshare_json_without_a_gives_the_tree_only(tmp_path: Path, run: Run) -> None:
    """``sshare --json`` lists the accounts only: with --into its tree is merged and the
    state is left alone; without, there is nothing to import (exit 2, one line)."""
    from fairshare_cli.io.toml import loads

    dump = str(CAPTURE / "sshare_json.txt")
    cfg, state = tmp_path / "tree.toml", tmp_path / "state.json"
    common = ["--config", str(cfg), "--state", str(state), "--now", NOW]
    res = run("import", "sshare", dump, "--into", str(cfg), *common)
    assert res.exit_code == 0, res.stderr
    assert not state.exists()
    accounts = loads(cfg.read_text())["accounts"]
    assert {k: v["parent"] for k, v in accounts.items()} == {
        "a": "root",
        "b": "a",
        "c": "a",
        "d": "root",
        "e": "d",
        "f": "d",
        "g": "d",
    }
    assert all("users" not in v for v in accounts.values())
    res = run("import", "sshare", dump, *common)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        f"fs: error: {dump}: no user associations (sshare --json without -a lists accounts "
        "only); give --into CONFIG for the tree, or import 'sshare -a --json' for the usage\n"
    )
    assert not state.exists()


def test_a_job_its_partitions_limits_hold_back_is_named(tmp_path: Path, run: Run) -> None:
    """Job 19 made to ask 2 nodes (``NumNodes=2``) of the one-node cluster: slurmctld
    holds it back in batch, its one partition (``job_limits_check``, "Job requested too
    many nodes": squeue's ``PartitionNodeLimit``); the import names it, and sprio still
    lists it (it pends)."""
    common = _build(tmp_path, run, USAGE[0], JOBS[0])
    dump = tmp_path / "jobs.txt"
    text = (CAPTURE / JOBS[0]).read_text()
    at = text.index("JobId=19 ")
    at = text.index("NumNodes=1 NumCPUs=2", at)
    dump.write_text(text[:at] + "NumNodes=2 NumCPUs=2" + text[at + len("NumNodes=1 NumCPUs=2") :])
    res = run("import", "squeue", str(dump), *common, "--last-decay", PASS)
    assert res.exit_code == 0, res.stderr
    assert (
        "; 1 job its partitions' limits hold back (never started): 19 PartitionNodeLimit "
        '(partition "batch": 1 node in all, the job asks for 2)'
    ) in res.stderr
    sprio = run("sprio", "-j", "19", "-h", "-o", "%i %r", *common)
    assert sprio.stdout == "19 batch\n"


def test_sshare_json_holds_slurms_values(tmp_path: Path, run: Run) -> None:
    """``fs sshare -a --json`` after the imports holds every value the capture's ``sshare
    -a -l --json`` gives, to the last bits (slurmctld sums usage in long doubles, fs in
    doubles: a ratio may differ in its last place): RawUsage as sshare truncates it, root's
    NormShares 1/4294967294 (raw shares 1 over the ``NO_VAL`` level shares root keeps:
    ``_normalize_assoc_shares_fair_tree``), where fs held 0.0. Where the table leaves a cell
    blank fs's JSON has null (DESIGN.md): FairShare on accounts (Slurm's JSON 0), LevelFS of
    a ``parent`` user (Slurm's JSON infinite); its RawShares is "parent" (2147483647). An
    infinite LevelFS (no usage) is "inf"."""
    import json

    common = _build(tmp_path, run, USAGE[0], JOBS[0])
    res = run("sshare", "-a", "--json", *common)
    assert res.exit_code == 0, res.stderr
    ours = {(r["account"], r["user"]): r for r in json.loads(res.stdout)}
    theirs = json.loads(_body(CAPTURE / "sshare_a_l_json.txt"))["shares"]["shares"]
    assert len(ours) == len(theirs) == 17

    def value(cell: dict[str, Any]) -> Any:
        return pytest.approx(cell["number"], rel=1e-14, abs=0) if cell["set"] else None

    for row in theirs:
        user = "USER" in row["type"]
        mine = ours[(row["parent"], row["name"]) if user else (row["name"], None)]
        parent = mine["raw_shares"] == "parent"
        assert mine["raw_shares"] == ("parent" if parent else value(row["shares"]))
        assert mine["norm_shares"] == value(row["shares_normalized"])
        assert int(mine["raw_usage"]) == row["usage"]
        assert mine["norm_usage"] == value(row["usage_normalized"])
        assert mine["effective_usage"] == value(row["effective_usage"])
        assert mine["fairshare"] == (value(row["fairshare"]["factor"]) if user else None)
        level = row["fairshare"]["level"]
        if level["infinite"]:  # (no usage: "inf"; a parent user's: blank)
            assert mine["level_fs"] == (None if parent else "inf")
        else:
            assert mine["level_fs"] == value(level)
    assert ours[("root", None)]["norm_shares"] == 2.3283064376228985e-10
