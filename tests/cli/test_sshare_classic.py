"""``fs sshare`` under classic fair share (``PriorityFlags=NO_FAIR_TREE``): the normalised
shares as slurmctld multiplies them, and the FairShare column Slurm 22.05's sshare computes
itself (``src/sshare/process.c``: ``priority_g_calc_fs_factor(usage_efctv, shares_norm)``
on every row, accounts and root too, with the client's ``FairShareDampeningFactor``),
where 26.05's prints the users' factor slurmctld sent and leaves accounts blank. Every
expected value is worked out by hand from those functions."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400


def _pool(tmp_path: Path, priority: str, accounts: str, usage: dict[str, Any]) -> list[str]:
    """A config of ``priority`` and ``accounts``, and a state whose last decay pass is
    ``--now`` holding ``usage`` (raw usage per account, per user): no job runs."""
    config = tmp_path / "pool.toml"
    config.write_text(f'[pool]\ndefaults = "current"\n[priority]\n{priority}\n{accounts}')
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "slurm": {"last_decay_ran": NOW_EPOCH, "usage": usage},
    }
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    return ["--config", str(config), "--state", str(tmp_path / "state.json"), "--now", NOW]


#: The tree of Slurm's multifactor page (tests/fixtures/slurm-22.05/README.md): b (30) and
#: c (10) under a (40), a and d (60) under root.
TREE = """
[accounts.a]
shares = 40
[accounts.b]
parent = "a"
shares = 30
users = { u1 = 1 }
[accounts.c]
parent = "a"
shares = 10
users = { u2 = 1, u3 = 1 }
[accounts.d]
shares = 60
users = { u4 = 1 }
"""


def test_normalised_shares_are_multiplied_leaf_first(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``_normalize_assoc_shares_traditional`` (22.05 and 26.05 alike) starts at 1.0 and
    multiplies by each level's ratio, divided first, from the association up: u1 is
    1.0 x (1/1) = 1.0, x (30/40 = 0.75) = 0.75, x (40/100 = 0.4) = 0.30000000000000004
    (0.4 is stored a little above 0.4; 0.75 of it rounds to the double above 0.3), which
    ``sshare --json`` prints at full precision. fs multiplied from root down, each ratio's
    numerator first: 0.4 x 30 = 12.0, / 40 = 0.3. u1's factor 2^(-UE/S) follows: all the
    usage is u1's, so its effective usage is 1.0 (a's usage over root's, passed down b and
    u1, whose shares are their level's), and 2^(-1/0.30000000000000004) =
    0.09921256574801249 (2^(-1/0.3) = 0.09921256574801246 before). Account b: 0.75 x 0.4
    too; c is 10/40 = 0.25 x 0.4 = 0.1 exactly as before."""
    args = _pool(tmp_path, 'fairshare = "classic"', TREE, {"b": {"u1": 600.0}})
    result = run("sshare", "-a", "--json", *args)
    assert result.exit_code == 0, result.stderr
    rows = {(r["account"], r["user"]): r for r in json.loads(result.stdout)}
    assert rows[("b", "u1")]["norm_shares"] == 0.30000000000000004
    assert rows[("b", None)]["norm_shares"] == 0.30000000000000004
    assert rows[("c", None)]["norm_shares"] == 0.1
    assert rows[("b", "u1")]["effective_usage"] == 1.0
    assert rows[("b", "u1")]["fairshare"] == 0.09921256574801249


#: a (3 shares) and d (1) under root; in a, u1 and u2 (1 each), p of ``parent`` shares and
#: z of none.
EDGES = """
[accounts.a]
shares = 3
users = { u1 = 1, u2 = 1, p = "parent", z = 0 }
[accounts.d]
shares = 1
users = { u4 = 1 }
"""


def test_slurm_22_05_computes_fairshare_on_every_row(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """22.05's sshare prints ``2^(-(UE/S)/damp)`` of each row's own EffectvUsage and
    NormShares, with FairShareDampeningFactor 2 here; all the usage (400) is u1's.
    root: 2^(-(1/1)/2) = 0.707107. a: S = 3/4 = 0.75, UE = 400/400 = 1 (root is its
    fair-share parent), 2^(-(1/0.75)/2) = 2^(-2/3) = 0.629961. d: S 0.25, UE 0: 1.
    u1: S = 0.75 x 1/2 = 0.375 (a's level holds u1, u2 and z: 2 shares; p's ``parent``
    shares are no part of it), UE = 1 + (1 - 1) x 1/2 = 1, 2^(-(1/0.375)/2) = 2^(-4/3) =
    0.396850. u2: UE = 0 + (1 - 0) x 1/2 = 0.5, 2^(-(0.5/0.375)/2) = 2^(-2/3) = 0.629961.
    p takes a's NormShares and EffectvUsage, so a's factor, 0.629961. z: S 0, so 0
    (``priority_p_calc_fs_factor``: ``shares_norm <= 0``), UE = 0 + 1 x 0/2 = 0. u4: S
    0.25, UE 0: 1. Today's sshare (``output_compat = "current"``) prints the same users'
    values and no factor on root and the accounts."""
    usage = {"a": {"u1": 400.0}}
    fields = ["-P", "-o", "Account,User,RawShares,NormShares,EffectvUsage,FairShare"]
    compat = 'output_compat = "22.05"'
    args = _pool(tmp_path, f'fairshare = "classic"\ndampening_factor = 2\n{compat}', EDGES, usage)
    result = run("sshare", "-a", *fields, *args)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "Account|User|RawShares|NormShares|EffectvUsage|FairShare",
        "root|||1.000000|1.000000|0.707107",
        " a||3|0.750000|1.000000|0.629961",
        "  a|p|parent|0.750000|1.000000|0.629961",
        "  a|u1|1|0.375000|1.000000|0.396850",
        "  a|u2|1|0.375000|0.500000|0.629961",
        "  a|z|0|0.000000|0.000000|0.000000",
        " d||1|0.250000|0.000000|1.000000",
        "  d|u4|1|0.250000|0.000000|1.000000",
    ]
    args = _pool(tmp_path, 'fairshare = "classic"\ndampening_factor = 2', EDGES, usage)
    result = run("sshare", "-a", *fields, *args)
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert [lines[1], lines[2], lines[4], lines[7]] == [
        "root|||1.000000|1.000000|",
        " a||3|0.750000|1.000000|",
        "  a|u1|1|0.375000|1.000000|0.396850",
        " d||1|0.250000|0.000000|",
    ]


def test_todays_sshare_json_carries_no_factor_of_roots(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """slurmctld computes a factor for the associations below root only
    (``priority_p_set_assoc_usage``), so a real Slurm 26.05.3's ``sshare -a -l --json``
    under classic gives root's as 0 (tests/fixtures/slurm-26.05-local, ``cl1_idle``: bio's
    0.653787, root's 0.0); fs's JSON gave 22.05's client-side 2^(-1/damp). 22.05's stays."""
    capture = Path(__file__).resolve().parents[1] / "fixtures" / "slurm-26.05-local"
    theirs = json.loads(
        (capture / "cl1_idle" / "sshare_a_l_json.txt").read_text().split("\n", 1)[1]
    )
    assert theirs["shares"]["shares"][0]["fairshare"]["factor"]["number"] == 0.0
    usage = {"a": {"u1": 400.0}}
    for compat, root in (("", 0.0), ('output_compat = "22.05"', 0.707107)):
        priority = f'fairshare = "classic"\ndampening_factor = 2\n{compat}'
        result = run("sshare", "-a", "--json", *_pool(tmp_path, priority, EDGES, usage))
        assert (result.exit_code, result.stderr) == (0, "")
        rows = json.loads(result.stdout)
        assert (rows[0]["account"], rows[0]["user"]) == ("root", None)
        assert round(rows[0]["fairshare"], 6) == root
        assert round(rows[1]["fairshare"], 6) == 0.629961  # a's, as before
