"""A text dump's record giving a field twice: refused in the words the JSON readers use for
an object giving a key twice (``common.given_twice``), naming the line, the record and the
field; exit 2, nothing written.

scontrol prints each field of a record once (``src/scontrol/info_job.c``,
``src/scontrol/info_assoc_mgr.c``, ``src/api/partition_info.c``): a record with one twice
is a hand edit or two captures run together, and either value may be the one meant. A QOS
record's ``Account Limits`` and ``User Limits`` repeat their fields per account and user,
as ``info_assoc_mgr.c`` prints them, and stay accepted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool
from tests.cli.imports.conftest import SLURM, Refuse

CAPTURES = SLURM / "ft2_idle"


def _edited(name: str, old: str, new: str) -> str:
    text = (CAPTURES / name).read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("kind", "name", "old", "new", "expected"),
    [
        pytest.param(
            "squeue",
            "scontrol_show_jobs.txt",
            "Priority=11000 Nice=0",
            "Priority=11000 Nice=0 Priority=7",
            ':4: the key "Priority" is given twice (in job 2); give each key once',
            id="scontrol-show-jobs-same-line",
        ),
        pytest.param(
            "squeue",
            "scontrol_show_jobs.txt",
            "   Partition=batch AllocNode",
            "   Priority=7\n   Partition=batch AllocNode",
            ':12: the key "Priority" is given twice (in job 2); give each key once',
            id="scontrol-show-jobs-another-line",
        ),
        pytest.param(
            "scontrol-assoc",
            "scontrol_assoc_mgr.txt",
            "Partition= Priority=0 ID=1",
            "Partition= Priority=0 ID=1 Priority=5",
            ':6: the key "Priority" is given twice (in association root); give each key once',
            id="assoc-mgr-first-line",
        ),
        pytest.param(
            "scontrol-assoc",
            "scontrol_assoc_mgr.txt",
            "    UsageRaw/Norm/Efctv=5354.13/1.00/1.00\n",
            "    UsageRaw/Norm/Efctv=5354.13/1.00/1.00\n    UsageRaw/Norm/Efctv=1.00/1.00/1.00\n",
            ':9: the key "UsageRaw/Norm/Efctv" is given twice (in association root); '
            "give each key once",
            id="assoc-mgr-usage-line",
        ),
        pytest.param(
            "slurm-conf",
            "scontrol_show_partition.txt",
            "PriorityJobFactor=1 PriorityTier=1",
            "PriorityJobFactor=1 PriorityTier=1 PriorityTier=3",
            ':8: the key "PriorityTier" is given twice (in partition batch); give each key once',
            id="show-partition",
        ),
    ],
)
def test_a_field_given_twice_in_a_record_is_refused(
    refuse_dump: Refuse, kind: str, name: str, old: str, new: str, expected: str
) -> None:
    """``fs import squeue JOBS`` (``scontrol-assoc``, ``slurm-conf``): before, the exact
    reader of scontrol show jobs kept the first value, scontrol-assoc read the first usage
    line and show partition the last value, each without a word."""
    refuse_dump(kind, _edited(name, old, new), expected)


def test_the_json_readers_word_a_key_given_twice_alike(refuse_dump: Refuse) -> None:
    """The same words from ``squeue --json`` (the record named by its path)."""
    capture = SLURM.parent / "slurm-26.05" / "ft4_t2_idle" / "squeue_json.txt"
    text = capture.read_text(encoding="utf-8")
    edited = text.replace('"account": "b",', '"account": "b", "account": "c",', 1)
    refuse_dump("squeue", edited, ': the key "account" is given twice (in jobs.0); give each')


def test_a_qos_records_limits_per_account_and_user_are_read(tmp_path: Path, run: Any) -> None:
    """A QOS record's ``Account Limits`` and ``User Limits`` give their fields once per
    account and user (``_print_used_acct_limit``, ``_print_used_user_limit``)."""
    limits = (
        "    Account Limits\n"
        + "".join(f"      {a}\n        MaxJobsPA=N(0) MaxSubmitJobsPA=N(0)\n" for a in "ab")
        + "    User Limits\n"
        + "".join(f"      {u}(100{u[-1]})\n        MaxJobsPU=N(1)\n" for u in ("u1", "u2"))
    )
    text = _edited(
        "scontrol_assoc_mgr.txt",
        "    Account Limits\n        No Accounts\n    User Limits\n        No Users\n",
        limits,
    )
    pool = write_pool(tmp_path)
    tree = str(CAPTURES / "sacctmgr_assoc_tree.txt")  # (the dump's associations: their usage)
    assert run("import", "sacctmgr", tree, "--into", str(pool["config"])).exit_code == 0
    dump = tmp_path / "assoc_mgr.txt"
    dump.write_text(text, encoding="utf-8")
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "scontrol-assoc", str(dump), *args, "--dry-run")
    assert result.exit_code == 0, result.stderr
