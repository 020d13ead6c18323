"""``PriorityDecayHalfLife=0`` with ``PriorityUsageResetPeriod=NONE`` given: usage that
neither decays nor resets (io/config/slurm.py).

slurmctld stops on a half-life of 0 only where ``PriorityUsageResetPeriod`` is unset
(``read_config.c``, 22.05 and 26.05 alike: the "rolling over" error sits in the branch of
no ``PriorityUsageResetPeriod``); given, even ``NONE``, it starts, and its decay thread
takes a decay factor of 1 (``decay_hl`` 0: ``decay_factor = 1``), so each pass charges a
running job its ``Δ · CPUs`` and nothing decays. fs refused the file as slurmctld refuses
the unset one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]

CONF = """\
PriorityType=priority/multifactor
PriorityDecayHalfLife=0
PriorityWeightFairshare=10000
NodeName=n[1-2] CPUs=4 RealMemory=1000
PartitionName=batch Nodes=ALL Default=YES
"""
ACCOUNTS = "\n[accounts.a]\nshares = 1\nusers = { u1 = 1, u2 = 1 }\n"
DASHES = "-" * 30


def test_no_decay_with_none_given(tmp_path: Path, run: Run) -> None:
    """u1 runs 4 CPUs and u2 2 from 10:00, a pass every 5 minutes: by 11:00 twelve passes
    charged 12 × 300 s × 4 = 14400 and × 2 = 7200, undecayed. Fair Tree: LevelFS
    0.5/(2/3) = 0.75 and 0.5/(1/3) = 1.5, so u2 ranks first (FairShare 1, u1 0.5)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF + "PriorityUsageResetPeriod=NONE\n", encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert result.exit_code == 0, result.stderr
    with pool.open("a", encoding="utf-8") as out:
        out.write(ACCOUNTS)
    files = ["--config", str(pool), "--state", str(tmp_path / "state.json")]
    for user, cpus in (("u1", "4"), ("u2", "2")):
        when = "2026-11-21T10:00:00Z"
        res = run("submit", "--owner", user, "--account", "a", "--cpus", cpus, "--set",
                  "status=running", "--set", f"start_time={when}", *files, "--now", when)  # fmt: skip
        assert res.exit_code == 0, res.stderr
    shown = run("sshare", "-a", "-l", *files, "--now", "2026-11-21T11:00:00Z")
    assert (shown.exit_code, shown.stderr) == (0, "")
    tres = "cpu=0,mem=0,energy=0,node=0,b+ "
    assert shown.stdout.splitlines() == [
        "Account                    User  RawShares  NormShares    RawUsage   NormUsage  "
        "EffectvUsage  FairShare    LevelFS                    GrpTRESMins                    "
        "TRESRunMins ",
        "-------------------- ---------- ---------- ----------- ----------- ----------- "
        f"------------- ---------- ---------- {DASHES} {DASHES} ",
        "root                                          0.000000       21600                  "
        f"1.000000                                                      {tres}",
        " a                                       1    1.000000       21600    1.000000      "
        f"1.000000              1.000000                                {tres}",
        "  a                          u1          1    0.500000       14400    0.666667      "
        f"0.666667   0.500000   0.750000                                {tres}",
        "  a                          u2          1    0.500000        7200    0.333333      "
        f"0.333333   1.000000   1.500000                                {tres}",
    ]


def test_half_life_0_with_no_reset_period_is_refused(tmp_path: Path, run: Run) -> None:
    """Without ``PriorityUsageResetPeriod`` slurmctld stops, in these words; so does the
    import, exit 2, the config not written."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF, encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {conf}:2: PriorityDecayHalfLife: priority.decay_halflife: You have to "
        "either have PriorityDecayHalfLife != 0 or PriorityUsageResetPeriod set to something "
        "or the priority plugin will result in rolling over.\n"
    )
    assert not pool.exists()
