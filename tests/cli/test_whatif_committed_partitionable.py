"""``fs whatif`` replays committed cycles on a partitionable slot as the accountant charged them.

``Accountant::AddMatch`` charges a match on a partitionable slot the slot's own
``SlotWeight`` (with ``NEGOTIATOR_USE_SLOT_WEIGHTS``, ``Cpus``: all 8 of its free CPUs); the
next cycle's ``CheckMatches`` removes that resource record (``RemoveMatch``, right after
``UpdatePriorities``: no uncharged time) and adds the claimed dynamic slot with its own
``SlotWeight`` (1 CPU). fs's usage history kept only the dynamic slot, from the match on,
so a replay charged 1 where the live accountant charged 8 for the first cycle: ``fs whatif
--set accountant.priority_halflife=1800 userprio`` showed alice at 0.96875
(0.5 * 2**-4 + 1 * (1 - 2**-4)) where a pool run at 1800 s holds 2.28125. The history now
holds the interval up to the next cycle as a record charged 8 CPUs, then the dynamic slot.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

T0 = "2026-11-20T00:00:00Z"
T0_5 = "2026-11-20T00:30:00Z"
T1 = "2026-11-20T01:00:00Z"
T2 = "2026-11-20T02:00:00Z"
T0_EPOCH = 1795132800.0

POOL = """\
[pool]
name = "one-pslot"
uid_domain = "example.org"

[accountant]
priority_halflife = {half_life}

[negotiator]
use_slot_weights = true

[[machines]]
name = "m"
count = 1
slots = 1
partitionable = true
attributes = {{ Cpus = 8, Memory = 8192 }}
"""

FIELDS = (
    "real_priority",
    "weighted_accumulated_usage_hours",
    "accumulated_usage_hours",
    "resources_in_use",
    "weighted_resources_in_use",
)


def _drive(tmp_path: Path, run: Callable[..., Any], half_life: int, rm: bool) -> list[str]:
    """alice's one 1-CPU job matched at T0 (charged 8), cycles at T0 and T1 (and, with
    ``rm``, the job removed at T0:30, before the next cycle); the global options."""
    config = tmp_path / f"pool{half_life}.toml"
    config.write_text(POOL.format(half_life=half_life), encoding="utf-8")
    args = ["--config", str(config), "--state", str(tmp_path / f"state{half_life}.json")]
    steps = [("submit", "--owner", "alice", "--cpus", "1", T0), ("negotiate", T0)]
    steps += [("rm", "1", T0_5)] if rm else []
    for *command, now in [*steps, ("negotiate", T1)]:
        result = run(*command, *args, "--now", now)
        assert result.exit_code == 0, result.stderr
    return args


def _alice(rows: list[dict[str, Any]]) -> tuple[Any, ...]:
    [row] = [r for r in rows if r["name"] == "alice@example.org"]
    return tuple(row[f] for f in FIELDS)


def _userprio(run: Callable[..., Any], args: list[str]) -> tuple[Any, ...]:
    result = run("userprio", "--allusers", "--json", *args, "--now", T2)
    assert result.exit_code == 0, result.stderr
    return _alice(json.loads(result.stdout))


def _whatif(run: Callable[..., Any], args: list[str]) -> tuple[Any, ...]:
    result = run(
        "whatif", "--set", "accountant.priority_halflife=1800", "userprio", "--allusers",
        "--json", *args, "--now", T2,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return _alice(json.loads(result.stdout)["after"])


def test_a_replay_charges_the_whole_slot_until_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """By hand (``UpdateOnePriority``: p <- p*b + u*(1-b), b = 0.5**(dt/half_life); alice
    starts at 0.5), alice holds weight 8 from T0 to T1, then 1 to T2:

    - half-life 3600 (b = 1/2 an hour): 0.5/2 + 8/2 = 4.25 at T1, 4.25/2 + 1/2 = 2.625;
    - half-life 1800 (b = 1/4 an hour): 0.5/4 + 8*3/4 = 6.125, 6.125/4 + 3/4 = 2.28125;
    - weighted usage 8 h + 1 h = 9 h, unweighted 2 h (one match held two hours).

    The pool at 3600, replayed at 1800, is the pool run at 1800.
    """
    args = _drive(tmp_path, run, 3600, rm=False)
    assert _userprio(run, args) == (2.625, 9.0, 2.0, 1, 1.0)
    at_1800 = _userprio(run, _drive(tmp_path, run, 1800, rm=False))
    assert at_1800 == (2.28125, 9.0, 2.0, 1, 1.0)
    assert _whatif(run, args) == at_1800


def test_the_history_holds_the_charge_then_the_dynamic_slot(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The store: a record of 1 CPU charged 8 from T0, ended by the cycle at T1, then the
    dynamic slot's record of 1 CPU from T1 (Slurm and DIRAC read 1 CPU throughout)."""
    _drive(tmp_path, run, 3600, rm=False)
    store = tmp_path / "state3600.history.sqlite"
    with closing(sqlite3.connect(store)) as conn:
        records = conn.execute(
            "SELECT start, end, cpus, charged_cpus, job FROM records ORDER BY id"
        ).fetchall()
        ends = conn.execute("SELECT job, end FROM ends").fetchall()
    key = f"1 slot1_1@m001 {T0_EPOCH!r}"
    assert records == [
        (T0_EPOCH, None, 1, 8, f"{key} match_cost"),
        (T0_EPOCH + 3600, None, 1, None, key),
    ]
    assert ends == [(f"{key} match_cost", T0_EPOCH + 3600)]


def test_a_job_removed_before_the_next_cycle_ends_its_charge(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs rm`` at T0:30 gives back the 8 the claim holds: at 1800 s alice held 8 for one
    half-life, 0.5/2 + 8/2 = 4.25, then nothing for three, 4.25/8 = 0.53125; weighted
    usage 8 * 0.5 h = 4 h, unweighted 0.5 h. At 3600 s: 0.5*b + 8*(1-b) with b = 2**-0.5,
    times 2**-1.5, stored 0.953427."""
    args = _drive(tmp_path, run, 3600, rm=True)
    b = 2**-0.5
    assert _userprio(run, args) == (
        pytest.approx((0.5 * b + 8 * (1 - b)) * 2**-1.5, abs=1e-6), 4.0, 0.5, 0, 0.0,
    )  # fmt: skip
    assert _userprio(run, args)[0] == 0.953427
    at_1800 = _userprio(run, _drive(tmp_path, run, 1800, rm=True))
    assert at_1800 == (0.53125, 4.0, 0.5, 0, 0.0)
    assert _whatif(run, args) == at_1800


def test_a_claim_recorded_by_an_older_fs_is_not_recorded_twice(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A match committed by an fs that kept no charge record (one record of the dynamic
    slot from T0, keyed by its claim): the cycle at T1 ends the charge record it looks for
    (there is none) and does not start the dynamic slot's record again."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL.format(half_life=3600), encoding="utf-8")
    args = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    for command, now in [(("submit", "--owner", "alice", "--cpus", "1"), T0), (("negotiate",), T0)]:
        assert run(*command, *args, "--now", now).exit_code == 0
    store = tmp_path / "state.history.sqlite"
    key = f"1 slot1_1@m001 {T0_EPOCH!r}"
    with closing(sqlite3.connect(store)) as conn, conn:  # (as the older fs wrote it)
        conn.execute("UPDATE records SET charged_cpus = NULL, job = ?", (key,))
    assert run("negotiate", *args, "--now", T1).exit_code == 0
    with closing(sqlite3.connect(store)) as conn:
        records = conn.execute("SELECT start, charged_cpus, job FROM records").fetchall()
    assert records == [(T0_EPOCH, None, key)]
