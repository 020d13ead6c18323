"""What ``fs import slurm-conf`` says of ``PriorityFlags`` words, ``PrioritySiteFactorPlugin``
and ``PriorityType`` (cli/imports/slurm_conf.py, io/importers/slurm_knobs.py).

slurmctld searches ``PriorityFlags`` for each flag's name (``read_config.c``, 22.05 and
26.05 alike) and ignores, without a word, a word holding none: ``FAIR_TREE`` (a flag of
Slurm 14.11 to 19.05) or a misspelt ``NO_NORMAL_QSO``. fs ignored them silently too; the
import, and ``fs config check``, now warn. A ``PrioritySiteFactorPlugin`` (unless ``none``
is in its name) sets and updates every job's site factor, which fs does not model: it was
counted among the ignored keys. ``PriorityType`` names the plugin's file and type, found
whole and in case (``plugin_load_and_link``, ``plugrack_use_by_type``): slurmctld loads no
``multifactor`` nor ``Priority/Multifactor`` and stops, where fs took both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]

CONF = """\
PriorityType=priority/multifactor
PriorityFlags=FAIR_TREE,NO_NORMAL_QSO
PrioritySiteFactorPlugin=site_factor/example
PriorityWeightQOS=1000
PriorityWeightAge=1000
AccountingStorageType=accounting_storage/slurmdbd
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n1 Default=YES
"""
TABLES = """
[accounts.hep]
shares = 1
users = { alice = 1 }
[qos.normal]
priority = 0
[qos.high]
priority = 100
"""


def test_unknown_flags_and_a_site_factor_plugin_are_warned_of(tmp_path: Path, run: Run) -> None:
    """The flags change nothing (the QOS factor stays normalised: 100/100 x 1000 = 1000,
    where ``NO_NORMAL_QOS`` would give 100 x 1000); AGE is 1 hour of the default 7-day
    ``PriorityMaxAge``: 3600/604800 x 1000 = 5.95, printed 6; PRIORITY 1005.95, cut to
    1005."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(CONF, encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[1:] == [
        f"fs: warning: {conf}:2: PriorityFlags: FAIR_TREE: no flag slurmctld knows; it "
        "ignores it, and so does fs",
        f"fs: warning: {conf}:2: PriorityFlags: NO_NORMAL_QSO: no flag slurmctld knows; it "
        "ignores it, and so does fs",
        f"fs: warning: {conf}:3: PrioritySiteFactorPlugin=site_factor/example: not "
        "modelled: the plugin sets and updates each job's site factor, where fs keeps the "
        "one each job gives (site_factor: fs import squeue's SiteFactor=, "
        "--site-factor-from-priority)",
    ]
    with pool.open("a", encoding="utf-8") as out:
        out.write(TABLES)
    files = ["--config", str(pool), "--state", str(tmp_path / "state.json")]
    submitted = run("submit", "--owner", "alice", "--account", "hep", "--qos", "high",
                    *files, "--now", "2026-11-21T11:00:00Z")  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    shown = run("sprio", "-l", *files, "--now", "2026-11-21T12:00:00Z")
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout.splitlines()[1].split() == [
        "1", "batch", "alice", "hep", "1005", "0", "6", "0", "0", "0", "0", "high", "1000", "0",
    ]  # fmt: skip
    checked = run("config", "check", "--config", str(pool))
    assert checked.exit_code == 0
    assert checked.stderr == (
        "fs: warning: priority.flags: FAIR_TREE: no flag slurmctld knows; it ignores it, and "
        "so does fs\n"
        "fs: warning: priority.flags: NO_NORMAL_QSO: no flag slurmctld knows; it ignores it, "
        "and so does fs\n"
    )


def test_a_site_factor_plugin_of_none_is_no_plugin(tmp_path: Path, run: Run) -> None:
    """``xstrcasestr(plugin, "none")``: ``site_factor/None`` is unset, and not warned of."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "PriorityType=priority/multifactor\nPrioritySiteFactorPlugin=site_factor/None\n"
    )
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0
    assert "warning" not in result.stderr


def test_a_priority_type_slurmctld_cannot_load_is_refused(tmp_path: Path, run: Run) -> None:
    """``multifactor`` (no ``priority/``) loads no plugin: exit 2, one line, nothing
    written."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("PriorityType=multifactor\n", encoding="utf-8")
    pool = tmp_path / "pool.toml"
    result = run("import", "slurm-conf", str(conf), "--into", str(pool))
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {conf}:1: PriorityType: expected priority/multifactor or priority/basic, "
        'got "multifactor" (slurmctld loads no other: cannot create priority context)\n'
    )
    assert not pool.exists()


def test_age_and_fair_share_weights_without_slurmdbd_are_warned_of(
    tmp_path: Path, run: Run
) -> None:
    """Without ``AccountingStorageType=accounting_storage/slurmdbd`` (unset, it is
    ``accounting_storage/none``) the plugin's ``init`` zeroes the age and fair-share weights
    ("can only be used with SlurmDBD, ignoring") and computes no fair share; fs has no
    model of a cluster without slurmdbd (its associations come from it) and says so. A
    ``PriorityWeightQOS`` alone is not named."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("PriorityWeightFairshare=10\nAccountingStorageType=accounting_storage/none\n")
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0
    assert result.stderr.splitlines()[1:] == [
        f"fs: warning: {conf}:2: AccountingStorageType is accounting_storage/none, not "
        "accounting_storage/slurmdbd: slurmctld then ignores PriorityWeightAge and "
        "PriorityWeightFairshare (can only be used with SlurmDBD), and fs weighs them"
    ]
    conf.write_text("PriorityWeightAge=10\n")
    unset = run("import", "slurm-conf", str(conf)).stderr.splitlines()[1:]
    assert unset == [
        f"fs: warning: {conf}: AccountingStorageType is unset (accounting_storage/none), not "
        "accounting_storage/slurmdbd: slurmctld then ignores PriorityWeightAge and "
        "PriorityWeightFairshare (can only be used with SlurmDBD), and fs weighs them"
    ]
    conf.write_text("PriorityWeightQOS=10\n")
    assert "warning" not in run("import", "slurm-conf", str(conf)).stderr
