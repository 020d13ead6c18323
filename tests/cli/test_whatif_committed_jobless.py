"""``fs whatif`` replays a committed match no job takes as the accountant charged it.

With ``NEGOTIATOR_DEPTH_FIRST`` a request's re-offer may match a slot no job of it takes;
HTCondor's ``AddMatch`` charges that match to its submitter, and the next cycle's
``CheckMatches`` finds the slot unclaimed and ``RemoveMatch``es it. ``fs negotiate``
charged it so (``negotiator.jobless_matches``), but wrote no usage history for it, so a
replay (``fs whatif`` with a half-life or slot weight set) left that hour out: alice's
replayed priority was lower than the one ``fs userprio`` shows, with nothing changed.
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
T1 = "2026-11-20T01:00:00Z"
T2 = "2026-11-20T02:00:00Z"
T0_EPOCH = 1795132800.0

# c001: a consumption-policy slot of 2 CPUs (each 1-CPU match charged its 1 CPU);
# s001: a static slot of 4 CPUs (slot weight Cpus = 4). Ranked by memory, c001's leftover
# after one job (1024 MB) ties s001 and stays first in the match list (25.0's
# insert_candidate), so alice's second job takes it too; under the default rank it would
# go behind s001 and the second job take s001 (fs negotiate's RE_OFFER pool).
POOL = """\
[pool]
uid_domain = "example.org"
[accountant]
priority_halflife = {half_life}
[negotiator]
use_slot_weights = true
depth_first = true
pre_job_rank = "Memory"
[[machines]]
name = "c"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = {{ Cpus = 2, Memory = 2048 }}
[[machines]]
name = "s"
count = 1
slots = 1
attributes = {{ Cpus = 4, Memory = 1024 }}
"""

FIELDS = ("real_priority", "weighted_accumulated_usage_hours", "accumulated_usage_hours")


def _drive(tmp_path: Path, run: Callable[..., Any], half_life: int) -> list[str]:
    """alice's two 1-CPU jobs negotiated at T0 (1.0 and 1.1 take c001, the re-offer
    matches s001 for no job), bob's job submitted and negotiated at T1 (it takes s001);
    the global options."""
    config = tmp_path / f"pool{half_life}.toml"
    config.write_text(POOL.format(half_life=half_life), encoding="utf-8")
    args = ["--config", str(config), "--state", str(tmp_path / f"state{half_life}.json")]
    job = ["--cpus", "1", "--memory", "1024"]
    steps = [
        (("submit", "--owner", "alice", "--count", "2", *job), T0),
        (("negotiate",), T0),
        (("submit", "--owner", "bob", *job), T1),
        (("negotiate",), T1),
    ]
    for command, now in steps:
        result = run(*command, *args, "--now", now)
        assert result.exit_code == 0, result.stderr
    return args


def _rows(rows: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    return {r["name"]: tuple(r[f] for f in FIELDS) for r in rows}


def _userprio(run: Callable[..., Any], args: list[str]) -> dict[str, tuple[Any, ...]]:
    result = run("userprio", "--allusers", "--json", *args, "--now", T2)
    assert result.exit_code == 0, result.stderr
    return _rows(json.loads(result.stdout))


def _whatif(run: Callable[..., Any], args: list[str], key: str) -> dict[str, Any]:
    result = run("whatif", "--set", key, "userprio", "--allusers", "--json", *args, "--now", T2)
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_a_replay_with_nothing_changed_is_the_accountant(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``slot_weight = "Cpus + 0"`` weighs every slot as ``Cpus`` does but replays the
    history: the after side must be ``fs userprio``'s. By hand (half-life 86400 s, so
    b = 0.5^(3600/86400) = 0.971532 an hour; a new record starts at 0.5): alice holds
    1 + 1 + 4 = 6 from T0 to T1 (3 slots), then 2 (2 slots): 0.5 b + 6 (1 - b) =
    0.656574, then 0.656574 b + 2 (1 - b) = 0.694819; weighted usage 6 h + 2 h = 8 h,
    unweighted 3 h + 2 h = 5 h. The replay without the re-offer's hour gave alice
    0.584189, 4 h and 4 h."""
    args = _drive(tmp_path, run, 86400)
    shown = _userprio(run, args)
    assert shown["alice@example.org"] == (0.694819, 8.0, 5.0)
    doc = _whatif(run, args, "negotiator.slot_weight=Cpus + 0")
    assert doc["changes"] == []
    assert _rows(doc["after"]) == shown


def test_a_replay_under_another_half_life_is_the_pool_run_under_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """At half-life 3600 s (b = 1/2 an hour): alice 0.5/2 + 6/2 = 3.25 at T1, then
    3.25/2 + 2/2 = 2.625; bob (from 0.5 at T1, s001's 4) 0.5/2 + 4/2 = 2.25. The pool run
    at 86400 s and replayed at 3600 s is the pool run at 3600 s (before: alice 1.625)."""
    at_3600 = _userprio(run, _drive(tmp_path, run, 3600))
    assert at_3600["alice@example.org"] == (2.625, 8.0, 5.0)
    assert at_3600["bob@example.org"] == (2.25, 4.0, 1.0)
    doc = _whatif(run, _drive(tmp_path, run, 86400), "accountant.priority_halflife=3600")
    assert _rows(doc["after"]) == at_3600


def test_the_history_holds_the_match_no_job_took_for_htcondor_alone(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The store: alice's record on s001 from T0, of no CPUs (no work ran: Slurm and
    DIRAC charge nothing) charged 4 (s001's slot weight), ended by the cycle at T1."""
    _drive(tmp_path, run, 86400)
    store = tmp_path / "state86400.history.sqlite"
    with closing(sqlite3.connect(store)) as conn:
        records = conn.execute(
            "SELECT owner, start, cpus, charged_cpus, job FROM records WHERE cpus = 0"
        ).fetchall()
        ends = conn.execute("SELECT job, end FROM ends WHERE job LIKE '%jobless'").fetchall()
    key = f"0 slot1@s001 {T0_EPOCH!r} jobless"
    assert records == [("alice@example.org", T0_EPOCH, 0, 4, key)]
    assert ends == [(key, T0_EPOCH + 3600)]


#: c001: a consumption-policy slot of 2 CPUs; s001 and s002: 1 CPU each (slot weight 1).
#: Ranked by ``Cpus * 10000 + Memory`` (c001 22048, s001 and s002 14096), c001's leftover
#: after one 1-CPU, 1024 MB job (11024) does not outrank s001, the next entry of alice's
#: match list (bob's, to preempt), and stays first (25.0's ``insert_candidate``): her
#: second job takes it too, and the request's re-offer preempts s001 for no job. Under the
#: default rank the leftover (898976) outranks s001 and s002 (-104096) and goes behind
#: them: her second job preempts bob on s001 and no match is jobless.
DISPLACING = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = true
depth_first = true
consider_preemption = true
preemption_requirements = "RemoteUserPrio > SubmitterUserPrio * 1.2"
pre_job_rank = "Cpus * 10000 + Memory"
[[machines]]
name = "c"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = { Cpus = 2, Memory = 2048 }
[[machines]]
name = "s"
count = 2
slots = 1
attributes = { Cpus = 1, Memory = 4096 }
"""


def _displace(
    tmp_path: Path, run: Callable[..., Any], remove: bool = False, pool: str = DISPLACING
) -> list[str]:
    """bob's two 3000 MB jobs take s001 and s002 at T0 (then his factor is 1000); at T1
    alice's two 1-CPU jobs take c001 and the re-offer preempts s001 for no job (bob's job
    runs on); ``remove``: ``fs rm 1.0`` (bob's job on s001) at T1; a cycle at T2. The
    global options."""
    config = tmp_path / "displacing.toml"
    config.write_text(pool, encoding="utf-8")
    args = ["--config", str(config), "--state", str(tmp_path / "displacing.json")]
    steps = [
        ("submit", "--owner", "bob", "--count", "2", "--cpus", "1", "--memory", "3000", T0),
        ("negotiate", T0),
        ("setfactor", "bob", "1000", T0),
        ("submit", "--owner", "alice", "--count", "2", "--cpus", "1", "--memory", "1024", T1),
        ("negotiate", T1),
        *([("rm", "1.0", T1)] if remove else []),
        ("negotiate", T2),
    ]
    for *command, now in steps:
        result = run(*command, *args, "--now", now)
        assert result.exit_code == 0, result.stderr
    state = json.loads((tmp_path / "displacing.json").read_text(encoding="utf-8"))
    assert "jobless_matches" not in state["negotiator"]  # (T2's cycle released it)
    return args


def test_a_replay_takes_a_displaced_holder_off_as_the_accountant_did(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """HTCondor 25.0's ``AddMatch`` of alice's match on s001, which bob holds,
    ``RemoveMatch``es bob first; T2's ``CheckMatches`` ``AddMatch``es him back. So from T1
    to T2 bob is charged s002 alone: 0.542702 b + 1 (1 - b) = 0.555720 at T2 (b =
    0.971532, an hour at half-life 86400 s; 0.542702 = 0.5 b + 2 (1 - b) from T0), 2 h + 1 h
    = 3 h; alice 0.5 b + 3 (1 - b) = 0.571170, 3 h. The replay (nothing changed) is that;
    it charged bob s001 from T1 to T2 too: 0.584189, 4 h."""
    args = _displace(tmp_path, run)
    result = run("userprio", "--allusers", "--json", *args, "--now", T2)
    assert result.exit_code == 0, result.stderr
    shown = _rows(json.loads(result.stdout))
    assert shown["bob@example.org"] == (0.55572, 3.0, 3.0)
    assert shown["alice@example.org"] == (0.57117, 3.0, 3.0)
    doc = _whatif_at(run, args, "negotiator.slot_weight=Cpus + 0", T2)
    assert doc["changes"] == []
    assert _rows(doc["after"]) == shown


@pytest.mark.parametrize(
    "now", ["2026-11-20T02:30:00Z", "2026-11-20T03:00:00Z", "2026-11-20T04:30:00Z"]
)
def test_a_replay_later_differs_by_no_rounding(
    now: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs whatif --set negotiator.slot_weight="Cpus + 0" userprio --allusers --json, asked
    after T2: each side's priority is a six-decimal record brought forward, so the two
    may part in the last decimal (<none> 0.736746 and 0.736745 at 03:00, bob 0.656325
    and 0.656326 at 04:30), which was listed as a change; nothing changed."""
    args = _displace(tmp_path, run)
    doc = _whatif_at(run, args, "negotiator.slot_weight=Cpus + 0", now)
    assert doc["changes"] == []


def test_the_history_holds_the_holders_charge_taken_off_until_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The store: bob's record of -1 slot of no CPUs (Slurm and DIRAC charge his job's own
    record, which runs on) weighed 1 CPU (s001's weight), from T1, ended by T2's cycle; or
    by ``fs rm`` of his job at T1, which ends his claim: bob keeps s002 alone from T1, as
    the accountant (0.5 b + 2 (1 - b), then 1 slot: 0.555720, 3 h)."""
    _displace(tmp_path, run)
    key = f"0 slot1@s001 {T0_EPOCH + 3600!r} jobless displaced"
    assert _displaced(tmp_path) == ([("bob@example.org", T0_EPOCH + 3600, -1, 0, 1, key)],
                                    [(key, T0_EPOCH + 7200)])  # fmt: skip
    removed = tmp_path / "removed"
    removed.mkdir()
    args = _displace(removed, run, remove=True)
    assert _displaced(removed)[1] == [(key, T0_EPOCH + 3600)]
    doc = _whatif_at(run, args, "negotiator.slot_weight=Cpus + 0", T2)
    assert doc["changes"] == []
    assert _rows(doc["after"])["bob@example.org"] == (0.55572, 3.0, 3.0)


def test_under_the_default_rank_the_second_job_preempts_and_no_match_is_jobless(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """:data:`DISPLACING` under the default ``NEGOTIATOR_PRE_JOB_RANK``: c001's leftover
    after alice's first job (898976) outranks bob's s001 and s002 (-104096), so 25.0's
    ``insert_candidate`` puts it behind them and her second job preempts bob's 1.0 on
    s001 (1 + 1 <= her limit 3.996; jobsInSlot 1, the request done): no re-offer, no match
    without a job, no displaced record. From T1 alice holds 2 (c001's 1 CPU and s001):
    0.5 b + 2 (1 - b) = 0.542702 at T2, 2 h; bob s002 alone: 0.542702 b + 1 (1 - b) =
    0.555720, 2 h + 1 h = 3 h (b = 0.971532). The replay, nothing changed, is that."""
    pool = DISPLACING.replace('pre_job_rank = "Cpus * 10000 + Memory"\n', "")
    args = _displace(tmp_path, run, pool=pool)
    assert _displaced(tmp_path) == ([], [])
    result = run("userprio", "--allusers", "--json", *args, "--now", T2)
    assert result.exit_code == 0, result.stderr
    shown = _rows(json.loads(result.stdout))
    assert shown["alice@example.org"] == (0.542702, 2.0, 2.0)
    assert shown["bob@example.org"] == (0.55572, 3.0, 3.0)
    doc = _whatif_at(run, args, "negotiator.slot_weight=Cpus + 0", T2)
    assert doc["changes"] == []
    assert _rows(doc["after"]) == shown


def _displaced(tmp_path: Path) -> tuple[list[Any], list[Any]]:
    """The store's displaced-holder records and their ends."""
    with closing(sqlite3.connect(tmp_path / "displacing.history.sqlite")) as conn:
        records = conn.execute(
            "SELECT owner, start, slots, cpus, charged_cpus, job FROM records WHERE slots < 0"
        ).fetchall()
        ends = conn.execute("SELECT job, end FROM ends WHERE job LIKE '%displaced'").fetchall()
    return records, ends


def _whatif_at(run: Callable[..., Any], args: list[str], key: str, now: str) -> dict[str, Any]:
    result = run("whatif", "--set", key, "userprio", "--allusers", "--json", *args, "--now", now)
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc
