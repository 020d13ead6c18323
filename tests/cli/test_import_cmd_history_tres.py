"""``fs import history``: a record's ``tres`` (a slot's TRES, as sacct prints ``AllocTRES``).

A history file had no field for a job's memory, nodes or GRES, so its Slurm records billed
their CPUs alone where the partition sets ``billing_weights``, while ``fs import sacct``
billed the same job its ``AllocTRES``. The ``tres`` field takes that text: the record keeps
its counts in the usage history, bills them as ``fs import sacct``'s record does, and
``fs whatif`` bills them again.

The usage is derived by hand as in ``test_whatif_replay_tres`` (Slurm's ``_decay_thread``
and ``_apply_new_usage``, ``assoc_mgr_tres_weighted``): a decay pass every 5 minutes, half-
life an hour, ``d = 1 − 0.693/3600``; a job run 10:00-10:05 is charged once, at the 10:05
pass, ``300 · d^300 · billing``. Under ``CPU=1.0,Mem=0.25G,GRES/gpu=2.0`` u1's job (2 CPUs,
8 GB, a GPU) bills 2 + 8192 MB · 0.25/1024 + 2 = 6; u2's (2 CPUs, no ``tres``) 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused
from tests.cli.test_whatif_replay_tres import CONFIG, HEADER, JOB_1, JOB_2, TIMES

Run = Callable[..., Any]
NOW = ("--now", "2026-11-21T10:05:00Z")
CSV = (
    "owner,account,partition,start,end,cpus,tres\n"
    'u1,a,batch,2026-11-21T10:00:00Z,2026-11-21T10:05:00Z,2,"billing=6,cpu=2,mem=8G,node=1,'
    'gres/gpu=1"\n'
    "u2,a,batch,2026-11-21T10:00:00Z,2026-11-21T10:05:00Z,2,\n"
)
D = 1 - 0.693 / 3600


def _args(tmp_path: Path) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]


def _usage(run: Run, args: list[str], *extra: str) -> dict[str, float]:
    res = run("sshare", "-a", *args, *NOW, "--json", *extra)
    assert res.exit_code == 0, res.stderr
    return {row["user"]: row["raw_usage"] for row in json.loads(res.stdout) if row["user"]}


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_a_record_bills_its_tres_as_the_sacct_import_does(
    tmp_path: Path, run: Run, kind: str
) -> None:
    args = _args(tmp_path)
    history = tmp_path / f"history.{kind}"
    if kind == "csv":
        history.write_text(CSV, encoding="utf-8")
    else:
        base = {"account": "a", "partition": "batch", "start": "2026-11-21T10:00:00Z",
                "end": "2026-11-21T10:05:00Z"}  # fmt: skip
        lines = [{"owner": "u1", **base, "tres": "cpu=2,mem=8G,node=1,gres/gpu=1"},
                 {"owner": "u2", **base, "cpus": 2}]  # fmt: skip
        history.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    res = run("import", "history", str(history), *args, *NOW)
    assert (res.exit_code, res.stderr) == (0, "")
    usage = _usage(run, args)
    assert usage == pytest.approx({"u1": 300 * 6 * D**300, "u2": 300 * 2 * D**300}, rel=1e-12)
    sacct = tmp_path / "sacct"
    sacct.mkdir()
    (sacct / "sacct.txt").write_text(HEADER + JOB_1 + TIMES + JOB_2 + TIMES, encoding="utf-8")
    same = _args(sacct)
    assert run("import", "sacct", str(sacct / "sacct.txt"), *same, *NOW).exit_code == 0
    assert _usage(run, same) == usage  # (the same doubles)
    weights = 'partitions.batch.billing_weights="CPU=1.0,Mem=0.5G,GRES/gpu=4.0"'
    res = run("whatif", "--set", weights, "sshare", "-a", *args, *NOW, "--json")
    after = {r["user"]: r["raw_usage"] for r in json.loads(res.stdout)["after"] if r["user"]}
    # 2 + 8 · 0.5 + 1 · 4 = 10 for u1; u2 still 2
    assert after == pytest.approx({"u1": 300 * 10 * D**300, "u2": 300 * 2 * D**300}, rel=1e-12)


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ('"cpu=2,mem=-8G"', "tres mem=-8G: expected a finite count of 0 or more"),
        ('"cpu=2,mem=lots"', "tres mem=lots: expected name=count, a number"),
        ('"cpu=2,gpu"', "tres gpu: expected name=count, a number"),
        ('"cpu=4,mem=1G"', "tres cpu=4 but cpus 2: the CPUs of one slot, given twice"),
        ('"cpu=1.5"', "tres cpu=1.5: expected a whole number of CPUs"),
    ],
)
def test_a_tres_sacct_never_prints_is_refused(
    tmp_path: Path, run: Run, cell: str, message: str
) -> None:
    args = _args(tmp_path)
    history = tmp_path / "history.csv"
    history.write_text(
        "owner,account,partition,start,end,cpus,tres\n"
        f"u1,a,batch,2026-11-21T10:00:00Z,2026-11-21T10:05:00Z,2,{cell}\n",
        encoding="utf-8",
    )
    refused(run("import", "history", str(history), *args, *NOW), f":2: {message}")
    assert not (tmp_path / "state.json").exists()


def test_a_tres_not_text_is_refused_and_its_cpu_gives_the_cpus(tmp_path: Path, run: Run) -> None:
    """JSON lines: a count where the text belongs is refused; a record naming no ``cpus``
    has its ``tres``' ``cpu`` (2 CPUs, billed 2 under the weights, as u2 above)."""
    args = _args(tmp_path)
    history = tmp_path / "history.jsonl"
    record = {"owner": "u2", "account": "a", "partition": "batch",
              "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T10:05:00Z"}  # fmt: skip
    history.write_text(json.dumps({**record, "tres": 2}) + "\n", encoding="utf-8")
    refused(
        run("import", "history", str(history), *args, *NOW),
        ':1: tres: expected a text such as "cpu=2,mem=8G", got 2',
    )
    history.write_text(json.dumps({**record, "tres": "cpu=2,node=1"}) + "\n", encoding="utf-8")
    assert run("import", "history", str(history), *args, *NOW).exit_code == 0
    assert _usage(run, args) == pytest.approx({"u1": 0.0, "u2": 300 * 2 * D**300}, rel=1e-12)
