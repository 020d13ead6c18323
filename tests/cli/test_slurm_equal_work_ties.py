"""Equal work charged at the same decay passes ties under Fair Tree, in every path.

The case: account ``hep`` with users a (1 share), b (2 shares), c (1 share); a decay pass
every 300 s, half-life 7200 s, two 1-CPU slots from ``T0`` (on a pass). a runs five
300-second jobs one after the other, c one 900-second job, both from ``T0``; b nothing.

Derivation at ``T0 + 900``. The decay thread (``_decay_thread`` in
``priority_multifactor.c``) at each pass multiplies every ``usage_raw`` by ``q = d^300``
(``_apply_decay``, ``d = 1 - 0.693/7200``), then adds each running job's
``δ · d^δ · 1 CPU`` for the ``δ = 300`` seconds since the previous pass
(``_apply_new_usage``). At the passes ``T0 + 300``, ``+600`` and ``+900`` a has one job
running a full period (a's first, second, third job: each started at the pass before) and
c has its one job: both get ``u ← u·q + 300·q``, the same operations on the same numbers,
so ``U_a = U_c = 300q(1 + q + q²)`` bit for bit, and ``U_b = 0``.

Fair Tree (``_calc_tree_fs`` in ``fair_tree.c``) in account hep: ``level_fs = S / U`` with
``S`` the user's share of hep's shares and ``U`` its usage over hep's. b: ``U = 0`` gives
``level_fs = ∞``; a and c: ``(1/4) / (1/2) = 1/2`` each, compared with ``==``: tied. Ranks
count down from the number of user associations (3): b is first, rank 3, factor
``3/3 = 1``; a gets rank 2; c, tied with a, keeps rank 2 (``rank`` is only lowered to
``rnt`` for a user that is not tied). So a and c both get ``2/3``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import NegotiatorState
from fairshare_cli.core.jobs import parse_job
from fairshare_cli.core.operations.simulate import SimWindow, simulate
from fairshare_cli.core.operations.slurm_series import slurm_series_of
from fairshare_cli.io.config import build_config
from tests.core.operations.simulate_reference import (
    simulate_reference,
    slurm_tree_of,
)

T0 = 1_795_262_400.0  # 2026-11-21T12:00:00Z, a multiple of 300 s: on a decay pass
WANT = {"a": 2 / 3, "b": 1.0, "c": 2 / 3}

CONFIG = """
[pool]
uid_domain = "d"
defaults = "current"
[accountant]
priority_halflife = 3600
[[machines]]
name = "m"
count = 1
slots = 2
[priority]
calc_period = 300
decay_halflife = 7200
fairshare = "fair_tree"
[accounts.hep]
shares = 1
users = { a = 1, b = 2, c = 1 }
"""

WORKLOAD: list[dict[str, Any]] = [
    {"id": "1.0", "owner": "a", "account": "hep", "count": 5, "run_time": 300,
     "submit_time": T0},
    {"id": "2.0", "owner": "c", "account": "hep", "count": 1, "run_time": 900,
     "submit_time": T0},
]  # fmt: skip


def _iso(t: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _config() -> Any:
    import tomllib

    return build_config(tomllib.loads(CONFIG), "test.toml")


@pytest.mark.parametrize("order", [0, 1], ids=["a_first", "c_first"])
def test_fast_and_reference_simulations_tie_equal_work(order: int) -> None:
    config = _config()
    objs = WORKLOAD if order == 0 else WORKLOAD[::-1]
    singles = [one for k, o in enumerate(objs) for one in parse_job(dict(o), f"job {k}")]
    batches = [JobBatch(parse_job({**o, "count": 1}, "b")[0], int(o["count"])) for o in objs]
    window = SimWindow(T0, 1800, 300)
    empty = acct.AccountantState(records={})
    fast = simulate(
        config, empty, NegotiatorState(), [], batches, window,
        slurm=slurm_series_of(config, None),
    )  # fmt: skip
    ref = simulate_reference(
        config, empty, NegotiatorState(), [], singles, window,
        slurm_tree=slurm_tree_of(config, None),
    )  # fmt: skip
    for rows in (fast.rows, ref.rows):
        at = {r.name: r.fairshare for r in rows if r.kind == "slurm_user" and r.time == T0 + 900}
        assert at == WANT
        for t in (T0 + 300, T0 + 600):  # a's and c's usage is equal at every pass
            at = {r.name: r.fairshare for r in rows if r.kind == "slurm_user" and r.time == t}
            assert at["a"] == at["c"] == 2 / 3


def test_simulate_series_equals_sshare_after_importing_the_same_work(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs simulate``'s factors at ``T0 + 900`` are ``fs sshare``'s after ``fs import
    history`` of the same records (a's three 300-second jobs, c's 900-second one)."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text(CONFIG)
    state = tmp_path / "state.json"
    work = tmp_path / "work.json"
    work.write_text(json.dumps(WORKLOAD))
    opts = ["--config", str(cfg), "--state", str(state)]
    r = run("simulate", *opts, "--now", _iso(T0), "--workload", str(work),
            "--until", "15:00", "--cycle", "300", "--json")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)
    series = {
        row["name"]: row["fairshare"]
        for row in rows
        if row["kind"] == "slurm_user" and row["time"] == _iso(T0 + 900)
    }
    assert series == WANT
    records = [
        {"owner": "a", "account": "hep", "start": _iso(T0 + k * 300),
         "end": _iso(T0 + (k + 1) * 300), "cpus": 1, "slots": 1}
        for k in range(3)
    ] + [{"owner": "c", "account": "hep", "start": _iso(T0), "end": _iso(T0 + 900),
          "cpus": 1, "slots": 1}]  # fmt: skip
    for k, order in enumerate((records, records[::-1])):
        copy = tmp_path / f"imported{k}.json"
        hist = tmp_path / "hist.jsonl"
        hist.write_text("".join(json.dumps(rec) + "\n" for rec in order))
        at = ["--config", str(cfg), "--state", str(copy), "--now", _iso(T0 + 900)]
        r = run("import", "history", str(hist), *at)
        assert r.exit_code == 0, r.stderr
        r = run("sshare", "-a", *at, "--json")
        assert r.exit_code == 0, r.stderr
        got = {s["user"]: s["fairshare"] for s in json.loads(r.stdout) if s["user"]}
        assert got == WANT
        r = run("sshare", "-a", *at)
        lines = {line.split()[1]: line.split()[-1] for line in r.stdout.splitlines()[2:]
                 if len(line.split()) > 2 and line.split()[1] in WANT}  # fmt: skip
        assert lines == {"a": "0.666667", "b": "1.000000", "c": "0.666667"}
