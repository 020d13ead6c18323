"""``fs sweep SPEC``, ``fs sweep run-point`` and ``fs sweep collect`` on a tiny pool."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

CONFIG = """\
[pool]
name = "tiny"
uid_domain = "example.org"
defaults = "current"

[accountant]
priority_halflife = 1800

[[machines]]
name = "m"
count = 1
slots = 6

[groups."group_a"]
quota = 4
[groups."group_b"]
quota = 2
"""

WORKLOAD = [
    {"id": "1.0", "count": 30, "owner": "alice", "accounting_group": "group_a.alice", "run_time": 1200},
    {"id": "2.0", "count": 30, "owner": "bob", "accounting_group": "group_b.bob", "run_time": 600,
     "submit_time": "2026-11-20T00:20:00Z"},
]  # fmt: skip

SPEC = """\
config = "pool.toml"
workload = "work.json"
now = "2026-11-20T00:00:00Z"
until = "2:00:00"
cycle = "600"

[[axis]]
key = "accountant.priority_halflife"
values = [600, 3600]

[[axis]]
key = 'groups."group_b".quota'
values = [1, 3]
"""


def write_spec(folder: Path) -> Path:
    """A 2 x 2 sweep of a six-slot pool with two groups (and the base: five points):
    :data:`CONFIG`, :data:`WORKLOAD` and :data:`SPEC` written in ``folder``; the spec."""
    (folder / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (folder / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    path = folder / "sweep.toml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def assert_point_as_local(out: Path, local: list[dict[str, Any]], index: int) -> None:
    """Point ``index`` written in the sweep folder ``out`` is the local run's (``local``,
    ``fs sweep --json``'s points), but for ``base``."""
    point = json.loads((out / "points" / f"{index:06d}.json").read_text(encoding="utf-8"))
    expected = next(p for p in local if p["index"] == index)
    assert {k: point[k] for k in expected if k != "base"} == {
        k: v for k, v in expected.items() if k != "base"
    }


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    """A 2 x 2 sweep of a six-slot pool with two groups (and the base: five points)."""
    return write_spec(tmp_path)


def _json(result: Any) -> Any:
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_local_sweep_ranks_every_point_and_collect_shows_the_same(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    out = tmp_path / "runs"
    points = _json(run("sweep", str(spec), "--out", str(out), "--jobs", "2", "--json"))
    assert sorted(p["index"] for p in points) == [0, 1, 2, 3, 4]
    assert points[-1]["base"] is True and points[-1]["point"] == {}
    ranked = [p["share_error"] for p in points[:-1]]
    assert ranked == sorted(ranked)
    assert points[0].keys() == {
        "index", "base", "point", "share_error", "jain", "wait_mean", "wait_p95",
        "utilization", "jobs_finished", "groups",
    }  # fmt: skip
    assert _json(run("sweep", "collect", str(out), "--json")) == points
    table = run("sweep", "collect", str(out)).stdout.splitlines()
    assert table[0].split()[:3] == [
        "Index",
        "accountant.priority_halflife",
        'groups."group_b".quota',
    ]
    assert table[-1].split()[0] == "base"
    csv_lines = run("sweep", "collect", str(out), "--output", "csv").stdout.splitlines()
    assert csv_lines[0].startswith("index,accountant.priority_halflife,")
    assert len(csv_lines) == 6


def test_a_point_measures_what_whatif_simulate_shows(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Point 3 (half-life 3600, group_b quota 3) against ``fs whatif --set ... simulate``'s
    after rows, measured by the same core function (the whatif rows carry no job starts,
    so the waits are left out): shares, entitlements, error, Jain, utilisation."""
    from fairshare_cli.core.operations.sim_row import SimRow
    from fairshare_cli.core.operations.sweep import Measured, measure

    out = tmp_path / "runs"
    assert run("sweep", "run-point", str(out), "3").exit_code == 2  # not prepared yet
    points = _json(run("sweep", str(spec), "--out", str(out), "--jobs", "1", "--json"))
    point = next(p for p in points if p["index"] == 3)
    assert point["point"] == {"accountant.priority_halflife": 3600, 'groups."group_b".quota': 3}
    rows = _json(
        run(
            "whatif", "--set", "accountant.priority_halflife=3600",
            "--set", 'groups."group_b".quota=3', "simulate",
            "--workload", str(tmp_path / "work.json"), "--config", str(tmp_path / "pool.toml"),
            "--state", str(tmp_path / "state.json"), "--now", NOW,
            "--until", "2:00:00", "--cycle", "600", "--json",
        )
    )  # fmt: skip
    from fairshare_cli.core.epoch import parse_time

    after = [
        SimRow(
            **{**{k: v for k, v in r.items() if k != "policy"}, "time": parse_time(r["time"], "t")}
        )
        for r in rows
        if r["policy"] == "after"
    ]
    quota: dict[str, float] = {}
    for r in after:
        if r.kind == "group":
            quota[r.name] = quota.get(r.name, 0.0) + (r.quota or 0.0)
    group_of = lambda s: s.split(".", 1)[0]  # noqa: E731  group_a.alice@example.org -> group_a
    how = Measured("group", lambda n: n, group_of, lambda _rows: quota)
    found = measure(after, [], point["jobs_finished"], how)
    assert found.share_error == point["share_error"]
    assert found.jain == point["jain"]
    assert found.utilization == point["utilization"]
    assert [(g.name, g.share, g.entitled) for g in found.groups] == [
        (g["name"], g["share"], g["entitled"]) for g in point["groups"]
    ]


def test_run_point_one_by_one_then_collect_equals_the_local_run(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    local = _json(run("sweep", str(spec), "--out", str(tmp_path / "a"), "--json"))
    # prepare only (the slurm engine writes its files and runs nothing), then point by point
    made = run("sweep", str(spec), "--out", str(tmp_path / "b"), "--engine", "slurm")
    assert made.exit_code == 0, made.stderr
    assert "(5 points)" in made.stderr
    for index in range(5):
        assert run("sweep", "run-point", str(tmp_path / "b"), str(index)).exit_code == 0
    again = run("sweep", "run-point", str(tmp_path / "b"), "0")
    assert "point 0 is already done" in again.stderr
    assert _json(run("sweep", "collect", str(tmp_path / "b"), "--json")) == local
    assert run("sweep", "run-point", str(tmp_path / "b"), "5").exit_code == 2
    # (-1 was read as an option: "No such option '-1'")
    negative = run("sweep", "run-point", str(tmp_path / "b"), "-1")
    assert (negative.exit_code, negative.stdout) == (2, "")
    assert negative.stderr == (
        "fs: error: Invalid value for 'INDEX': -1 is not in the range x>=0. "
        "(see 'cli sweep run-point --help')\n"  # (CliRunner's program name)
    )


def test_a_rerun_skips_finished_points(spec: Path, tmp_path: Path, run: Callable[..., Any]) -> None:
    out = tmp_path / "runs"
    first = _json(run("sweep", str(spec), "--out", str(out), "--json"))
    kept = out / "points" / "000001.json"
    marked = json.loads(kept.read_text(encoding="utf-8"))
    marked["jobs_finished"] = -7  # a point that runs again would lose this
    kept.write_text(json.dumps(marked), encoding="utf-8")
    (out / "points" / "000002.json").unlink()  # killed before point 2 was written
    (out / "points" / "000003.json").write_text("{", encoding="utf-8")  # torn: runs again
    second = _json(run("sweep", str(spec), "--out", str(out), "--json"))
    by_index = {p["index"]: p for p in second}
    assert by_index[1]["jobs_finished"] == -7
    assert by_index[2] == next(p for p in first if p["index"] == 2)
    assert by_index[3] == next(p for p in first if p["index"] == 3)


def test_a_folder_of_another_sweep_is_refused(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    out = tmp_path / "runs"
    assert run("sweep", str(spec), "--out", str(out), "--engine", "slurm").exit_code == 0
    spec.write_text(SPEC.replace("[600, 3600]", "[600, 7200]"), encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(out))
    assert result.exit_code == 2
    assert "holds another sweep" in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(('cycle = "600"', 'cycel = "600"'), "unknown key 'cycel'", id="key"),
        pytest.param(("values = [1, 3]", "values = []"), "'values' is empty", id="empty axis"),
        pytest.param(
            ('groups."group_b".quota', "accountant.priority_halflif"),
            "point 0 (accountant.priority_halflife=600, accountant.priority_halflif=1)",
            id="config key",
        ),
        pytest.param(("[600, 3600]", '[600, "soon"]'), "point 2", id="bad value"),
        pytest.param(('until = "2:00:00"', 'until = "-1"'), "until", id="bad until"),
        pytest.param(
            ('workload = "work.json"', 'workload = "none.json"'), "none.json", id="workload"
        ),
    ],
)
def test_a_bad_spec_is_one_line_and_exit_2_before_anything_runs(
    spec: Path, tmp_path: Path, run: Callable[..., Any], change: tuple[str, str], message: str
) -> None:
    spec.write_text(SPEC.replace(*change), encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"))
    assert result.exit_code == 2, result.stdout
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "runs" / "points").exists()


def test_a_bare_knob_name_as_axis_key_names_the_key_to_write(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``key = "PRIORITY_HALFLIFE"`` (a knob name with no table) failed at point 0 with the
    config file's hint ("write it in [accountant]"); an axis key is what ``fs whatif --set``
    takes, a dotted config key, so it is refused before anything runs, naming the key."""
    spec.write_text(
        SPEC.replace('key = "accountant.priority_halflife"', 'key = "PRIORITY_HALFLIFE"'),
        encoding="utf-8",
    )
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {spec}: axis 1 (PRIORITY_HALFLIFE): PRIORITY_HALFLIFE alone names no "
        'table (keys are dotted config keys); write key = "accountant.priority_halflife"\n'
    )
    assert not (tmp_path / "runs").exists()


def test_bad_option_combinations_are_usage_errors(spec: Path, run: Callable[..., Any]) -> None:
    for args in (["--submit"], ["--engine", "dask"], ["--dask-scheduler", "x:1"]):
        result = run("sweep", str(spec), *args)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1


def test_htcondor_submit_file_has_one_item_per_point(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    htcondor2 = pytest.importorskip("htcondor2")
    out = tmp_path / "runs"
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor")
    assert result.exit_code == 0, result.stderr
    assert f"condor_submit_dag {out.resolve() / 'sweep.dag'}" in result.stderr
    text = (out / "sweep.sub").read_text(encoding="utf-8")
    submit = htcondor2.Submit(text)
    items = list(submit.itemdata())
    assert [dict(i)["point"] if isinstance(i, dict) else i for i in items] == [
        "0", "1", "2", "3", "4"
    ]  # fmt: skip
    assert "run-point" in submit["arguments"] and str(out.resolve()) in submit["arguments"]
    htcondor2.Submit((out / "collect.sub").read_text(encoding="utf-8"))
    if shutil.which("condor_dagman") is None:  # --submit: the bindings' refusal, exit 1
        refused = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor", "--submit")
        assert refused.exit_code == 1
        assert f"fs: error: cannot submit {out.resolve() / 'sweep.dag'}: " in refused.stderr
    dag = (out / "sweep.dag").read_text(encoding="utf-8").splitlines()
    assert dag[1:] == [
        f"JOB points {out.resolve() / 'sweep.sub'}",
        f"FINAL collect {out.resolve() / 'collect.sub'}",
    ]


def test_sbatch_script_runs_a_point_with_the_array_task_id(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    local = _json(run("sweep", str(spec), "--out", str(tmp_path / "a"), "--json"))
    out = tmp_path / "b"
    assert run("sweep", str(spec), "--out", str(out), "--engine", "slurm").exit_code == 0
    script = (out / "sweep.sbatch").read_text(encoding="utf-8")
    assert "#SBATCH --array=0-4" in script
    env = {**os.environ, "SLURM_ARRAY_TASK_ID": "2", "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(
        ["bash", str(out / "sweep.sbatch")], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert_point_as_local(out, local, 2)


def test_a_sweep_of_more_points_than_slurm_array_tasks_runs_them_all(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A sweep of 1,101 points (1,100 and the base) wrote ``--array=0-1100``, which Slurm's
    default MaxArraySize (1001) refuses. The array is 1,000 tasks now, task K running
    points K, K + 1000, ...: task 100 runs 100 and 1100, task 101 runs 101 alone."""
    values = ", ".join(str(600 + i) for i in range(1100))
    big = spec.with_name("big.toml")
    big.write_text(
        SPEC.split("[[axis]]")[0] + f'[[axis]]\nkey = "accountant.priority_halflife"\n'
        f"values = [{values}]\n",
        encoding="utf-8",
    )
    out = tmp_path / "big"
    assert run("sweep", str(big), "--out", str(out), "--engine", "slurm").exit_code == 0
    script = (out / "sweep.sbatch").read_text(encoding="utf-8")
    assert "#SBATCH --array=0-999\n" in script
    tracer = out / "trace.sh"  # (the script with each point echoed, not run)
    traced = re.sub(r"^  .* sweep run-point ", "  echo ", script, flags=re.MULTILINE)
    tracer.write_text(traced, encoding="utf-8")
    for task, points in (("100", f"{out.resolve()} 100\n{out.resolve()} 1100\n"),
                         ("101", f"{out.resolve()} 101\n")):  # fmt: skip
        env = {**os.environ, "SLURM_ARRAY_TASK_ID": task}
        done = subprocess.run(["bash", str(tracer)], env=env, capture_output=True, text=True)
        assert (done.returncode, done.stdout) == (0, points), done.stderr


def test_dask_local_cluster_equals_the_local_run(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    distributed = pytest.importorskip("dask.distributed")
    local = _json(run("sweep", str(spec), "--out", str(tmp_path / "a"), "--json"))
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        found = run(
            "sweep", str(spec), "--out", str(tmp_path / "b"), "--json",
            "--engine", "dask", "--dask-scheduler", cluster.scheduler_address,
        )  # fmt: skip
    assert _json(found) == local


def test_html_pages_are_self_contained_with_every_plot(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    page = tmp_path / "sweep.html"
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--html", str(page))
    assert result.exit_code == 0, result.stderr
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 4  # the heatmap; best, worst and base shares over time
    for remote in ("<link", "src=", "@import", "url(http"):
        assert remote not in text
    assert "group_a" in text and "group_b" in text
    sim = tmp_path / "sim.html"
    common = [
        "--workload", str(tmp_path / "work.json"), "--config", str(tmp_path / "pool.toml"),
        "--state", str(tmp_path / "state.json"), "--now", NOW, "--until", "1:00:00",
        "--cycle", "600",
    ]  # fmt: skip
    assert run("simulate", *common, "--html", str(sim), "--json").exit_code == 0
    assert sim.read_text(encoding="utf-8").count("<svg") == 1
    # (fs simulate ... --html sim.html said nothing of the page, as --plot and fs sweep do)
    shown = run("simulate", *common, "--html", str(sim))
    assert shown.exit_code == 0 and shown.stderr == f"Page written to {sim}\n", shown.stderr
    both = tmp_path / "whatif.html"
    changed = run(
        "whatif",
        "--set",
        "accountant.priority_halflife=600",
        "simulate",
        *common,
        "--html",
        str(both),
    )
    assert changed.exit_code == 0, changed.stderr
    assert changed.stderr.splitlines()[0] == f"Page written to {both}"
    assert both.read_text(encoding="utf-8").count("<svg") == 2
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        return  # the browser check needs a browser (CI installs one when it can)
    check = [sys.executable, "tools/check_html.py", str(page), str(both)]  # (sim: as both)
    done = subprocess.run(
        check, capture_output=True, text=True, check=False, cwd=Path(__file__).parents[2]
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_plotting_and_templates_load_only_for_html(spec: Path, tmp_path: Path) -> None:
    """matplotlib (1-2 s to import on a loaded machine) and jinja2 stay unloaded without
    --html: a fresh interpreter runs a sweep and its collect, then checks."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from fairshare_cli.cli.main import cli\n"
        f"out = {str(tmp_path / 'runs')!r}\n"
        f"for args in (['sweep', {str(spec)!r}, '--out', out, '--jobs', '1'],"
        " ['sweep', 'collect', out]):\n"
        "    assert CliRunner().invoke(cli, args).exit_code == 0\n"
        "print(sorted(m for m in ('matplotlib', 'jinja2', 'dask') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


SLURM = """\
[pool]
name = "tiny"
defaults = "current"

[[machines]]
name = "m"
count = 1
slots = 4
partitions = ["batch"]

[partitions.batch]
default = true

[accounts.a]
shares = 3
users = { alice = 1 }
[accounts.b]
shares = 1
users = { bob = 1 }
"""


def test_slurm_users_are_entitled_by_their_normalised_shares(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A user's part of the cluster is its association's shares over its siblings', times
    its parent's part, down from the root (Slurm's level ratio: ``_calc_assoc_fs`` in
    fair_tree.c for Fair Tree, the current profile's default; the classic algorithms
    chain the same ratios into NormShares): alice 3/(3+1) x 1/1 = 3/4, bob 1/4; with
    a = 1 share, 1/2 each. The classic algorithm gives the same parts."""
    (tmp_path / "pool.toml").write_text(SLURM, encoding="utf-8")
    work = [
        {"id": "1.0", "count": 20, "owner": "alice", "account": "a", "run_time": 1200},
        {"id": "2.0", "count": 20, "owner": "bob", "account": "b", "run_time": 1200},
    ]
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    spec = tmp_path / "s.toml"
    spec.write_text(
        'config = "pool.toml"\nworkload = "work.json"\nnow = "2026-11-20T00:00:00Z"\n'
        'until = "1:00:00"\ncycle = "600"\nscheduler = "slurm"\n'
        '[[axis]]\nkey = "accounts.a.shares"\nvalues = [1, 3]\n',
        encoding="utf-8",
    )
    points = _json(run("sweep", str(spec), "--jobs", "1", "--json"))
    entitled = {
        p["point"].get("accounts.a.shares", "base"): {g["name"]: g["entitled"] for g in p["groups"]}
        for p in points
    }
    assert entitled == {
        1: {"alice": 0.5, "bob": 0.5},
        3: {"alice": 0.75, "bob": 0.25},
        "base": {"alice": 0.75, "bob": 0.25},
    }
    assert all(p["utilization"] > 0 for p in points)
    assert (tmp_path / "s.sweep" / "sweep.json").exists()  # --out defaults beside the spec
    classic = SLURM.replace(
        "[partitions.batch]", '[priority]\nfairshare = "classic"\n\n[partitions.batch]'
    )
    (tmp_path / "pool.toml").write_text(classic, encoding="utf-8")
    points = _json(run("sweep", str(spec), "--jobs", "1", "--json", "--out", str(tmp_path / "c")))
    assert {g["name"]: g["entitled"] for g in points[-1]["groups"]} == {"alice": 0.75, "bob": 0.25}


def test_slurm_submit_runs_sbatch_for_the_array_then_the_collect(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A stand-in ``sbatch`` on PATH records its arguments and prints a job id, as
    ``sbatch --parsable`` does (``JOBID`` or ``JOBID;CLUSTER``)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    calls = tmp_path / "calls"
    fake = bindir / "sbatch"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {calls}\necho "4242;cluster"\n', encoding="utf-8")
    fake.chmod(0o755)
    out = tmp_path / "runs"
    env = {"PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}
    result = run("sweep", str(spec), "--out", str(out), "--engine", "slurm", "--submit", env=env)
    assert result.exit_code == 0, result.stderr
    assert "Submitted job 4242" in result.stderr
    assert calls.read_text(encoding="utf-8").splitlines() == [
        f"--parsable {out.resolve() / 'sweep.sbatch'}",
        f"--parsable --dependency=afterany:4242 {out.resolve() / 'collect.sbatch'}",
    ]
    fake.write_text(
        '#!/bin/sh\necho "sbatch: error: Batch job submission failed" >&2\nexit 1\n',
        encoding="utf-8",
    )
    failed = run("sweep", str(spec), "--out", str(out), "--engine", "slurm", "--submit", env=env)
    assert failed.exit_code == 1
    assert "sbatch: error: Batch job submission failed" in failed.stderr


def test_a_point_that_fails_stops_the_sweep_with_its_line(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """--scheduler slurm needs accounts; the tiny pool has none: point 0 says so."""
    spec.write_text(
        SPEC.replace('cycle = "600"', 'cycle = "600"\nscheduler = "slurm"'), encoding="utf-8"
    )
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--jobs", "1")
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and errors[0].startswith("fs: error: point 0: ")
    assert "needs [accounts]" in errors[0] and "Traceback" not in result.stderr


def test_a_spec_without_now_resumes_at_the_time_its_first_run_read(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    spec.write_text(SPEC.replace('now = "2026-11-20T00:00:00Z"\n', ""), encoding="utf-8")
    out = tmp_path / "runs"
    first = run("sweep", str(spec), "--out", str(out), "--engine", "slurm")
    assert first.exit_code == 0, first.stderr
    manifest = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    again = run("sweep", str(spec), "--out", str(out), "--engine", "slurm")
    assert again.exit_code == 0, again.stderr
    assert json.loads((out / "sweep.json").read_text(encoding="utf-8")) == manifest


@pytest.mark.parametrize("engine", ["slurm", "htcondor"])
def test_a_batch_engine_with_every_point_done_writes_and_submits_nothing(
    engine: str, spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sweep SPEC --out DIR --engine slurm`` after the points ran wrote
    ``#SBATCH --array=`` (sbatch refuses an empty array) and said to submit it; HTCondor's
    an empty ``queue point from ()``. Now it says there is nothing to submit, and with
    --submit submits nothing (no sbatch on PATH here: a call would fail)."""
    out = tmp_path / "runs"
    assert run("sweep", str(spec), "--out", str(out), "--jobs", "1").exit_code == 0
    for extra in ([], ["--submit"]):
        result = run("sweep", str(spec), "--out", str(out), "--engine", engine, *extra,
                     env={"PATH": str(tmp_path / "nothing")})  # fmt: skip
        assert (result.exit_code, result.stdout) == (0, "")
        assert result.stderr == (
            f"Every point of {out} has its result: nothing to submit; fs sweep collect {out} "
            "shows them\n"
        )
    assert not {"sweep.sbatch", "collect.sbatch", "sweep.sub", "sweep.dag"} & {
        p.name for p in out.iterdir()
    }
