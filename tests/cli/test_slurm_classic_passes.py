"""fs sshare and fs sprio under classic fair share with a job running, and the
account factor in ``fs sshare --json``.

The cluster and its numbers are derived in ``tests/core/slurm/test_tree_usage.py``'s
docstring from ``_decay_thread`` (``priority_multifactor.c``): accounts' usage from the
start of the decay pass, users' as it stands after it. At the pass T1 the accounts A and
B show usage_norm = usage_efctv = 1/2, u2 (charged 240q by its running job, q = d^60)
shows UN 1/6, UE 1/3 and factor 2^(-4/3) = 0.396850; u1 UE 11/24, 2^(-11/6) = 0.280616;
u3 UE 1/2, factor 1/2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.slurm.pass_grid import decay_factor

T0 = 1_795_303_140  # 2026-11-21T23:19:00Z, a decay pass
NOW = "2026-11-21T23:20:25Z"  # 25 s after the pass T1 = T0 + 60
Q = decay_factor(600) ** 60
CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "node"
attributes = { Cpus = 16 }
[priority]
fairshare = "classic"
decay_halflife = "10"
calc_period = "1"
[priority.weights]
age = 0
fairshare = 10000
jobsize = 0
partition = 0
qos = 0
[partitions.batch]
default = true
[accounts.A]
shares = 1
users = { u1 = 1, u2 = 1 }
[accounts.B]
shares = 1
users = { u3 = 1 }
"""

Run = Callable[..., Any]


@pytest.fixture
def cluster(tmp_path: Path) -> list[str]:
    """The config, and a state at the pass T0 with u2's 4-CPU job started then."""
    (tmp_path / "pool.toml").write_text(CONFIG)
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "slurm": {
            "last_decay_ran": T0,
            "usage": {"A": {"u1": 600.0, "u2": 0.0}, "B": {"u3": 600.0}},
            "running": [{"account": "A", "user": "u2", "rate": 4.0, "start": T0, "end": None}],
        },
        "jobs": [
            {"id": "7", "owner": "u2", "account": "A", "submit_time": T0 - 100},
            {"id": "8", "owner": "u3", "account": "B", "submit_time": T0 - 100},
        ],
    }
    (tmp_path / "state.json").write_text(json.dumps(state))
    return [
        "--config",
        str(tmp_path / "pool.toml"),
        "--state",
        str(tmp_path / "state.json"),
        "--now",
        NOW,
    ]


def test_sshare_accounts_from_the_pass_start(cluster: list[str], run: Run) -> None:
    res = run(
        "sshare",
        "-a",
        "-P",
        "-o",
        "Account,User,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare",
        *cluster,
    )
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == [
        "Account|User|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare",
        f"root||1.000000|{int(1440 * Q)}||1.000000|",
        # RawUsage is A's usage now (840q); NormUsage and EffectvUsage from the pass start.
        f" A||0.500000|{int(840 * Q)}|0.500000|0.500000|",
        f"  A|u1|0.250000|{int(600 * Q)}|0.416667|0.458333|0.280616",
        f"  A|u2|0.250000|{int(240 * Q)}|0.166667|0.333333|0.396850",
        f" B||0.500000|{int(600 * Q)}|0.500000|0.500000|",
        f"  B|u3|0.500000|{int(600 * Q)}|0.416667|0.500000|0.500000",
    ]


def test_sprio_fairshare_from_the_pass(cluster: list[str], run: Run) -> None:
    """FAIRSHARE = 10000 · 2^(-4/3) = 3968.50 (u2) and 10000 · 2^(-1) (u3); PRIORITY is
    their truncation (the only weight)."""
    res = run("sprio", "-o", "%.6i %.8u %.10Y %.10F %.10f", *cluster)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == [
        " JOBID     USER   PRIORITY  FAIRSHARE  FAIRSHARE",
        "     7       u2       3968       3969  0.3968503",
        "     8       u3       5000       5000  0.5000000",
    ]


def test_sshare_json_carries_the_account_factor(cluster: list[str], run: Run) -> None:
    """Every row's factor in ``--json``, accounts too (``calc_fs_factor(usage_efctv,
    shares_norm)``, 22.05's sshare; 26.05's ``fs_factor`` from ``_set_assoc_fs_factor``):
    A and B 2^(-(1/2)/(1/2)) = 1/2, root 0 (slurmctld computes none of root's: a real
    26.05.3's, tests/fixtures/slurm-26.05-local); the text table leaves the account cells
    blank in the current profile (Slurm 26.05)."""
    res = run("sshare", "-a", "--json", *cluster)
    assert res.exit_code == 0, res.stderr
    factors = {(r["account"], r["user"]): r["fairshare"] for r in json.loads(res.stdout)}
    assert factors[("A", None)] == pytest.approx(0.5)
    assert factors[("B", None)] == pytest.approx(0.5)
    assert factors[("root", None)] == 0.0
    assert factors[("A", "u2")] == pytest.approx(2 ** (-4 / 3))


def test_sshare_json_fair_tree_accounts_have_no_factor(cluster: list[str], run: Run) -> None:
    """Fair Tree ranks users only: an account's factor stays null."""
    cfg = Path(cluster[1])
    cfg.write_text(cfg.read_text().replace('"classic"', '"fair_tree"'))
    rows = json.loads(run("sshare", "-a", "--json", *cluster).stdout)
    assert [r["fairshare"] for r in rows if r["user"] is None] == [None, None, None]
    assert all(r["fairshare"] is not None for r in rows if r["user"] is not None)
