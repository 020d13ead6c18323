"""``fs negotiate`` with ``negotiator.depth_first`` (``NEGOTIATOR_DEPTH_FIRST``).

HTCondor 25.0's ``Matchmaker::negotiate`` moves a request's count on by
``schedd_will_match`` at each ``getRequest`` (``matchmaker_negotiate.cpp``); with
``NEGOTIATOR_DEPTH_FIRST`` a match sets it to ``jobsInSlot``: min(Cpus / RequestCpus,
Memory / RequestMemory) of the matched ad, integer division. The jobs so counted past the
matched one are left, unmatched and uncharged, for the schedd to start in the slot. fs
matched them one by one into other slots; every number below is derived by hand from
those two functions.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

PSLOTS = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = true
depth_first = {depth_first}
consider_preemption = {preemption}
[[machines]]
name = "m"
count = 2
slots = 1
partitionable = true
attributes = {{ Cpus = 4, Memory = 4096 }}
"""

STATIC = """\
[pool]
uid_domain = "example.org"
[negotiator]
depth_first = {depth_first}
consider_preemption = {preemption}
[[machines]]
name = "s"
count = 2
slots = 1
attributes = {{ Cpus = 2, Memory = 4096 }}
"""


def _cycle(
    tmp_path: Path,
    run: Callable[..., Any],
    pool: str,
    jobs: list[dict[str, Any]],
    depth_first: bool = True,
    preemption: bool = True,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``fs negotiate --dry-run --json``'s (job, slot) matches and (job, reason) unmatched."""
    config = tmp_path / "pool.toml"
    flags = {"depth_first": str(depth_first).lower(), "preemption": str(preemption).lower()}
    config.write_text(pool.format(**flags), encoding="utf-8")
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    result = run(
        "negotiate", "--dry-run", "--json", "--config", str(config), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    matches = [(m["job_id"], m["slot"]) for m in doc["matches"]]
    return matches, [(u["job_id"], u["reason"]) for u in doc["unmatched"]]


def _alice(memory: int, count: int = 3) -> dict[str, Any]:
    return {"id": "1.0", "owner": "alice", "request_cpus": 1, "request_memory": memory,
            "count": count}  # fmt: skip


def test_a_partitionable_slot_takes_its_autocluster_before_the_next_slot(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Two partitionable slots of 4 CPUs and 4096 MB; alice's 3 jobs of 1 CPU and 1024 MB.
    Job 1.0 takes slot1@m001 (its ad before the carve: 4 CPUs, 4096 MB):
    min(4 // 1, 4096 // 1024) = 4 jobs, so the request's next 3 are counted into it, and
    only 2 are left (1.1 and 1.2: left to the schedd); m002 stays free. Without depth
    first each job takes a slot: 1.0 and 1.1, and 1.2 finds none."""
    matches, unmatched = _cycle(tmp_path, run, PSLOTS, [_alice(1024)])
    assert matches == [("1.0", "slot1_1@m001")]
    assert unmatched == [("1.1", "depth_first"), ("1.2", "depth_first")]
    matches, unmatched = _cycle(tmp_path, run, PSLOTS, [_alice(1024)], depth_first=False)
    assert matches == [("1.0", "slot1_1@m001"), ("1.1", "slot1_1@m002")]
    assert unmatched == [("1.2", "pool_exhausted")]


def test_memory_bounds_the_jobs_a_match_counts(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Jobs of 2048 MB: min(4 // 1, 4096 // 2048) = 2, so 1.0's match counts 1.1 into
    m001, and 1.2 takes m002 (its own 2 would count one more; none is left)."""
    matches, unmatched = _cycle(tmp_path, run, PSLOTS, [_alice(2048)])
    assert matches == [("1.0", "slot1_1@m001"), ("1.2", "slot1_1@m002")]
    assert unmatched == [("1.1", "depth_first")]


def test_a_static_slot_of_two_cpus_counts_two_jobs(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``jobsInSlot`` reads any slot: a static slot of 2 CPUs counts 2 jobs of 1 CPU (the
    schedd starts only one there: 1.1 waits for the next cycle)."""
    matches, unmatched = _cycle(tmp_path, run, STATIC, [_alice(1024)])
    assert matches == [("1.0", "slot1@s001"), ("1.2", "slot1@s002")]
    assert unmatched == [("1.1", "depth_first")]
    matches, _ = _cycle(tmp_path, run, STATIC, [_alice(1024)], depth_first=False)
    assert matches == [("1.0", "slot1@s001"), ("1.1", "slot1@s002")]


@pytest.mark.parametrize(
    ("preemption", "alice_left"),
    [
        # the first spin goes past the limit (only machine ranks), so it asks for the next
        # request: 1.0's count of 4 takes 1.1 and 1.2
        pytest.param(True, "depth_first", id="past-the-limit-the-next-request-skips"),
        # without preemption the limit ends the turn before the next request: nothing skipped
        pytest.param(False, "submitter_limit", id="the-limit-ends-the-turn-first"),
    ],
)
def test_the_count_is_taken_at_the_turns_next_request(
    tmp_path: Path, run: Callable[..., Any], preemption: bool, alice_left: str
) -> None:
    """alice and bob, 3 jobs each, equal priorities: each a limit of 4 (half of 8), which
    one partitionable slot's match uses up. ``negotiate`` checks the limit before
    ``getRequest``: over it, the first spin goes on only with preemption considered
    (``only_consider_startd_rank``), and only then does the next request skip."""
    bob = {**_alice(1024), "id": "2.0", "owner": "bob"}
    matches, unmatched = _cycle(tmp_path, run, PSLOTS, [_alice(1024), bob], preemption=preemption)
    assert matches == [("1.0", "slot1_1@m001"), ("2.0", "slot1_1@m002")]
    assert [(j, r) for j, r in unmatched if j.startswith("1.")] == [
        ("1.1", alice_left),
        ("1.2", alice_left),
    ]


CONSUMPTION = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = true
depth_first = {depth_first}
consider_preemption = {preemption}
[[machines]]
name = "c"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = {{ Cpus = 4, Memory = 4096 }}
"""


def test_a_consumption_policy_slot_is_read_after_its_deduction(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A consumption-policy slot of 4 CPUs and 4096 MB stays in the cycle; each match of a
    1-CPU, 1024 MB job deducts 1 CPU and 1024 MB (``cp_deduct_assets``) before
    ``jobsInSlot`` reads the ad: 1.0 leaves 3 and 3072, counting 3 (1.1 and 1.2 skipped);
    1.3 leaves 2 and 2048, counting 2 (1.4 skipped); 1.5 leaves 1 and 1024, counting 1."""
    matches, unmatched = _cycle(tmp_path, run, CONSUMPTION, [_alice(1024, count=6)])
    assert matches == [("1.0", "slot1_1@c001"), ("1.3", "slot1_2@c001"), ("1.5", "slot1_3@c001")]
    assert unmatched == [("1.1", "depth_first"), ("1.2", "depth_first"), ("1.4", "depth_first")]


ONE_PSLOT = PSLOTS.replace("count = 2", "count = 1")


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        # 1.0's count of 4 reaches past the request's 3 jobs: both others are the slot's
        pytest.param(3, ["depth_first"] * 2, id="the-skip-takes-the-rest-of-the-request"),
        # 1.1-1.3 counted into the slot; 1.4 is the request the empty pool refuses, and
        # its autocluster with it
        pytest.param(6, ["depth_first"] * 3 + ["pool_exhausted"] * 2, id="the-rest-finds-none"),
    ],
)
def test_an_empty_pool_still_takes_the_count_of_the_last_match(
    tmp_path: Path, run: Callable[..., Any], count: int, expected: list[str]
) -> None:
    """One partitionable slot of 4 CPUs and 4096 MB; alice's 1-CPU, 1024 MB jobs. 1.0 takes
    it: min(4 // 1, 4096 // 1024) = 4 jobs counted. The pool is then empty, but
    ``Matchmaker::negotiate`` checks only the limit (passed over in the first spin with
    preemption) and the ceiling before ``getRequest``, which moves the count on by 4 before
    any slot is searched: the jobs counted into the slot are left to the schedd
    (``depth_first``), as with slots left; fs labelled them ``pool_exhausted``."""
    matches, unmatched = _cycle(tmp_path, run, ONE_PSLOT, [_alice(1024, count=count)])
    assert matches == [("1.0", "slot1_1@m001")]
    assert unmatched == [(f"1.{i}", r) for i, r in enumerate(expected, start=1)]


def test_explain_names_the_depth_first_count_when_the_pool_is_empty(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs negotiate --dry-run --explain 1.2`` on the pool above: job 1.2 was counted
    into 1.0's slot, and its story says so (it said "no slot was left")."""
    _cycle(tmp_path, run, ONE_PSLOT, [_alice(1024)])
    result = run(
        "negotiate", "--dry-run", "--config", str(tmp_path / "pool.toml"), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(tmp_path / "jobs.json"), "--now", NOW,
        "--explain", "1.2",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].strip() == (
        "left idle: a match of its autocluster counted it as fitting in the slot it took "
        "(NEGOTIATOR_DEPTH_FIRST): left for the schedd to start there"
    )


BY_CPUS = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = true
depth_first = {depth_first}
consider_preemption = {preemption}
pre_job_rank = "Cpus"
[[machines]]
name = "c"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = {{ Cpus = 4, Memory = 4096 }}
[[machines]]
name = "d"
count = 1
slots = 1
partitionable = true
consumption_policy = true
attributes = {{ Cpus = 3, Memory = 4096 }}
"""


def test_a_match_counting_no_job_offers_the_request_once_more(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Consumption-policy slots c001 (4 CPUs) and d001 (3 CPUs), 4096 MB each, ranked by
    ``NEGOTIATOR_PRE_JOB_RANK = Cpus``: alice's list is [c001, d001]. Her request of 7 jobs
    of 1 CPU and 1024 MB: 1.0 takes c001 and leaves 3 CPUs (count 3: 1.1 and 1.2
    skipped); ``returnPslotToMatchList`` ranks c001 3, not above d001's 3, so
    ``insert_candidate`` keeps it first. 1.3 leaves 2 (count 2: 1.4 skipped; 2 < 3, still
    first), 1.5 leaves 1 (count 1), 1.6 leaves 0: count 0 (c001 is not handed back), so
    ``getRequest`` moves the request's count on by nothing, and 6 of its 7 offers are
    used. The 7th, with no job of the request left to ask for, matches d001 (charged the
    1 CPU it takes); the schedd gives it to the first idle job without a match
    (``FindRunnableJob``): 1.1. fs stopped at the request's last job and left d001 free.
    (With the default rank, ``- 100000 * Cpus - Memory``, c001's leftover ranks above the
    slot after it and goes behind it: the next job takes the other slot.)"""
    matches, unmatched = _cycle(tmp_path, run, BY_CPUS, [_alice(1024, count=7)])
    assert matches == [
        ("1.0", "slot1_1@c001"),
        ("1.3", "slot1_2@c001"),
        ("1.5", "slot1_3@c001"),
        ("1.6", "slot1_4@c001"),
        ("1.1", "slot1_1@d001"),
    ]
    assert unmatched == [("1.2", "depth_first"), ("1.4", "depth_first")]


LOST_NOTE = (
    "fs: note: negotiator.depth_first: a match of {who}'s request counted no job, so "
    "HTCondor offered the request once more than it has jobs and matched a slot no job of "
    "the request takes; fs counts that match in the cycle, and a committed cycle charges the "
    "accountant for it until the next cycle, but lists none and starts no job in it, where "
    "the schedd gives the slot to another idle job of the submitter that fits it, if any "
    "(docs/htcondor.md)\n"
)


def _stderr(tmp_path: Path, run: Callable[..., Any]) -> str:
    """``fs negotiate --dry-run``'s stderr on the pool and jobs :func:`_cycle` wrote."""
    result = run(
        "negotiate", "--dry-run", "--config", str(tmp_path / "pool.toml"), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(tmp_path / "jobs.json"), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return str(result.stderr)


#: c001 (consumption policy, 2 CPUs, 2048 MB) and a static s001 (4 CPUs, 1024 MB),
#: ranked by memory: c001 first, and its leftover after a 1-CPU, 1024 MB job (1024 MB)
#: ranks no higher than s001, so ``insert_candidate`` keeps it first. (With the default
#: rank the leftover goes behind s001, and the request's second job takes s001.)
RE_OFFER = CONSUMPTION.replace("Cpus = 4, Memory = 4096", "Cpus = 2, Memory = 2048").replace(
    "[negotiator]\n", '[negotiator]\npre_job_rank = "Memory"\n'
) + ('[[machines]]\nname = "s"\ncount = 1\nslots = 1\nattributes = {{ Cpus = 4, Memory = 1024 }}\n')


def test_a_re_offer_with_no_job_to_take_its_slot_is_noted(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """:data:`RE_OFFER`: a consumption-policy slot of 2 CPUs (ranked first) and a static
    one of 4 CPUs; alice's 2 jobs of 1 CPU. 1.0 leaves 1 CPU (count 1, nothing skipped;
    the slot stays first), 1.1 leaves none (count 0): HTCondor offers the request once
    more and matches the static slot (charged 4 of her limit of 6, the pool's weight),
    which the schedd, with no idle job left, lets go. The listed matches stay two, and ``fs negotiate`` notes the match it
    does not list."""
    pool = RE_OFFER
    matches, unmatched = _cycle(tmp_path, run, pool, [_alice(1024, count=2)])
    assert matches == [("1.0", "slot1_1@c001"), ("1.1", "slot1_2@c001")]
    assert unmatched == []
    assert _stderr(tmp_path, run) == LOST_NOTE.format(who="alice@example.org")


T1 = "2026-11-20T01:00:00Z"  # an hour after NOW


def _alice_of(run: Callable[..., Any], files: list[str], now: str) -> dict[str, Any]:
    """alice's row of ``fs userprio --allusers --json`` at ``now``."""
    result = run("userprio", "--allusers", "--json", *files, "--now", now)
    assert result.exit_code == 0, result.stderr
    return next(r for r in json.loads(result.stdout) if r["name"] == "alice@example.org")


def test_a_committed_match_no_job_takes_is_charged_until_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The pool of the test above, committed: at NOW 1.0 and 1.1 take c001 (each charged
    the 1 CPU it takes: slot weight 2 before, 1 after, 0 at the end) and the request's
    re-offer matches s001, slot weight Cpus = 4, for no job. 25.0's ``Matchmaker::
    matchmakingProtocol`` ``AddMatch``es it (alice: ResourcesUsed 3, WeightedResourcesUsed
    1 + 1 + 4 = 6); the schedd, finding no job (``scheduler_handleMatch`` returns false),
    never claims s001, and with ``NEGOTIATOR_INFORM_STARTD`` off (its default) the startd
    never hears of the match, so s001 stays Unclaimed. An hour later (T1) the next cycle's
    ``UpdatePriorities`` charges alice 6 weighted slots for 3600 s (weighted accumulated
    usage 6 x 3600 s = 6.0 hours; unweighted 3 slots x 3600 s = 3.0 hours), then
    ``CheckMatches`` finds s001 neither claimed nor matched and ``RemoveMatch``es it
    (ResourcesUsed 2, WeightedResourcesUsed 2), and bob's job, submitted at T1, takes
    s001. alice's priority (half-life 86400 s, from 0.5): beta = 0.5^(3600/86400) =
    0.971532, 0.5 beta + 6 (1 - beta) = 0.656574. fs charged the re-offer in the cycle
    only: 2 in use after NOW (and 2 resources listed), 2.0 and 2.0 hours and a priority
    of 0.542702 at T1."""
    pool = RE_OFFER
    config, state = tmp_path / "pool.toml", tmp_path / "state.json"
    config.write_text(pool.format(depth_first="true", preemption="true"), encoding="utf-8")
    files = ["--config", str(config), "--state", str(state)]
    job = ["--cpus", "1", "--memory", "1024"]
    assert (
        run("submit", *files, "--owner", "alice", "--count", "2", *job, "--now", NOW).exit_code == 0
    )
    first = run("negotiate", "--json", *files, "--now", NOW)
    assert first.exit_code == 0, first.stderr
    assert [m["slot"] for m in json.loads(first.stdout)["matches"]] == [
        "slot1_1@c001", "slot1_2@c001"
    ]  # fmt: skip
    held = json.loads(state.read_text(encoding="utf-8"))["negotiator"]["jobless_matches"]
    assert held == [{"slot": "slot1@s001", "submitter": "alice@example.org",
                     "start_time": 1795132800.0, "weight": 4.0}]  # fmt: skip
    between = _alice_of(run, files, NOW)
    assert (between["resources_in_use"], between["weighted_resources_in_use"]) == (3, 6.0)
    # (condor_userprio -getreslist lists the accountant's resource records: s001's too)
    reslist = run("userprio", "-getreslist", "alice", *files, "--now", NOW).stdout
    assert "slot1@s001" in reslist and reslist.endswith("Number of Resources Used: 3\n")
    assert run("submit", *files, "--owner", "bob", *job, "--now", T1).exit_code == 0
    second = run("negotiate", "--json", *files, "--now", T1)
    assert second.exit_code == 0, second.stderr
    matched = [(m["job_id"], m["slot"]) for m in json.loads(second.stdout)["matches"]]
    assert matched == [("2", "slot1@s001")]
    after = _alice_of(run, files, T1)
    assert (after["resources_in_use"], after["weighted_resources_in_use"]) == (2, 2.0)
    assert after["weighted_accumulated_usage_hours"] == pytest.approx(6.0)
    assert after["accumulated_usage_hours"] == pytest.approx(3.0)
    assert after["effective_priority"] == pytest.approx(0.656574, abs=1e-6)
    assert "jobless_matches" not in json.loads(state.read_text(encoding="utf-8"))["negotiator"]


def _db_limit(run: Callable[..., Any], files: list[str], now: str) -> str:
    """The ``ConcurrencyLimit_db`` line of ``fs userprio -l -allusers`` at ``now``."""
    result = run("userprio", "-l", "-allusers", *files, "--now", now)
    assert result.exit_code == 0, result.stderr
    return next(x for x in result.stdout.splitlines() if x.startswith("ConcurrencyLimit_db"))


def test_a_match_no_job_takes_holds_its_concurrency_limits_until_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The pool of the test above with ``DB_LIMIT = 3`` and alice's two jobs asking
    ``db``: at NOW 1.0 and 1.1 take c001 (count 1, then 2) and the re-offer's match of
    s001, for no job, passes ``rejectForConcurrencyLimits`` (2 + 1 <= 3) and ``AddMatch``
    increments ``db`` by its ``MatchedConcurrencyLimits``: 3. The accountant's map keeps
    that until the next cycle's ``CheckMatches`` ends in ``LoadLimits``, which recounts
    the limits from the slots: s001 is Unclaimed (not Matched), so only alice's two
    claims count, 2. Between the cycles ``condor_userprio -l`` (``ReportLimits``) shows
    ``ConcurrencyLimit_db = 3.0``; fs showed 2.0 (the claims only). At T1 no limit is
    checked before ``CheckMatches``, so bob's ``db`` job finds 2 + 1 <= 3 and takes s001;
    the limit then holds alice's 2 and bob's 1: 3.0 again."""
    pool = RE_OFFER
    pool = pool.replace("[negotiator]\n", "[negotiator]\nconcurrency_limits = {{ db = 3 }}\n")
    config, state = tmp_path / "pool.toml", tmp_path / "state.json"
    config.write_text(pool.format(depth_first="true", preemption="true"), encoding="utf-8")
    files = ["--config", str(config), "--state", str(state)]
    jobs = tmp_path / "jobs.json"
    alice = {**_alice(1024, count=2), "concurrency_limits": "db"}
    jobs.write_text(json.dumps([alice]), encoding="utf-8")
    assert run("submit", "--file", str(jobs), *files, "--now", NOW).exit_code == 0
    first = run("negotiate", "--json", *files, "--now", NOW)
    assert first.exit_code == 0, first.stderr
    held = json.loads(state.read_text(encoding="utf-8"))["negotiator"]["jobless_matches"]
    assert [(m["slot"], m.get("concurrency_limits")) for m in held] == [("slot1@s001", "db:1.0")]
    assert _db_limit(run, files, NOW) == "ConcurrencyLimit_db = 3.0"
    bob = {"id": "2.0", "owner": "bob", "request_cpus": 1, "request_memory": 1024,
           "concurrency_limits": "db"}  # fmt: skip
    jobs.write_text(json.dumps([bob]), encoding="utf-8")
    assert run("submit", "--file", str(jobs), *files, "--now", T1).exit_code == 0
    second = run("negotiate", "--json", *files, "--now", T1)
    assert second.exit_code == 0, second.stderr
    matched = [(m["job_id"], m["slot"]) for m in json.loads(second.stdout)["matches"]]
    assert matched == [("2.0", "slot1@s001")]
    assert _db_limit(run, files, T1) == "ConcurrencyLimit_db = 3.0"


def test_a_re_offer_that_finds_no_slot_is_refused_silently(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The consumption-policy slot of 2 CPUs alone: 1.0 and 1.1 take it (counts 1 and 0),
    and the request's re-offer finds no slot, a refusal as any other: nothing to note.
    fs noted a match HTCondor might make."""
    pool = CONSUMPTION.replace("Cpus = 4, Memory = 4096", "Cpus = 2, Memory = 2048")
    matches, _ = _cycle(tmp_path, run, pool, [_alice(1024, count=2)])
    assert matches == [("1.0", "slot1_1@c001"), ("1.1", "slot1_2@c001")]
    assert _stderr(tmp_path, run) == ""


GROUPS = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
depth_first = true
slot_weight = "ifThenElse(Cpus > 3, 1, Cpus)"
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
[groups.a]
quota = 3
[groups.b]
quota = 3
"""


def test_a_re_offers_match_takes_its_slot_from_the_next_group(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Slot weights 2 (c001, a consumption-policy slot of 2 CPUs and 2048 MB) and 1 (s001,
    4 CPUs and 1024 MB: the expression's 1): a pool of 3. Groups a and b, quota 3 each
    (oversubscription on), tie at 0/3 in ``GROUP_SORT_EXPR`` and go by name: a first,
    alice's limit 1 x min(3, 3) = 3. ``NEGOTIATOR_PRE_JOB_RANK = Memory`` ranks c001
    first: 1.0 takes 1 CPU and 1024 MB (cost 2 - 1 = 1, count 1) and c001, ranked 1024,
    not above s001's 1024, stays first in the list (``insert_candidate``); 1.1 takes the
    rest (cost 1, count 0), so the request is offered a third time: s001, cost 1, used
    3 <= 3, a match no job of alice's takes, and s001 leaves the cycle. Group b: bob's
    job finds no slot. fs gave bob s001."""
    jobs = [
        {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "request_cpus": 1,
         "request_memory": 1024, "count": 2},
        {"id": "2.0", "owner": "bob", "accounting_group": "b.bob", "request_cpus": 1,
         "request_memory": 1024},
    ]  # fmt: skip
    matches, unmatched = _cycle(tmp_path, run, GROUPS, jobs)
    assert matches == [("1.0", "slot1_1@c001"), ("1.1", "slot1_2@c001")]
    assert unmatched == [("2.0", "pool_exhausted")]
    assert _stderr(tmp_path, run) == LOST_NOTE.format(who="a.alice@example.org")


#: c001 (consumption policy, 2 CPUs, 2048 MB) and s001, s002 (1 CPU, 4096 MB), ranked by
#: ``Cpus * 10000 + Memory``: c001 22048, s001 and s002 14096. c001's leftover after a
#: 1-CPU, 1024 MB job (11024) does not outrank s001, the match list's next entry (claimed:
#: to preempt), so 25.0's ``insert_candidate`` keeps it first. (Under the default rank
#: the leftover outranks the claimed slots and goes behind them: the request's second
#: job preempts s001; tests/cli/test_negotiate_match_list_claimed.py.)
PREEMPTING = CONSUMPTION.replace("Cpus = 4, Memory = 4096", "Cpus = 2, Memory = 2048").replace(
    "consider_preemption = {preemption}\n",
    'consider_preemption = {preemption}\npreemption_requirements = "RemoteUserPrio > '
    'SubmitterUserPrio * 1.2"\npre_job_rank = "Cpus * 10000 + Memory"\n',
) + ('[[machines]]\nname = "s"\ncount = 2\nslots = 1\nattributes = {{ Cpus = 1, Memory = 4096 }}\n')


def _rows(run: Callable[..., Any], files: list[str], now: str) -> dict[str, tuple[int, float]]:
    """Each submitter's (In Use, effective priority) in ``fs userprio --allusers --json``."""
    result = run("userprio", "--allusers", "--json", *files, "--now", now)
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    return {r["name"]: (r["resources_in_use"], r["effective_priority"]) for r in rows
            if not r["is_group"]}  # fmt: skip


def _displaced_at_t1(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """The pool and cycles of the test below, up to T1's commit; returns the file options."""
    config, state = tmp_path / "pool.toml", tmp_path / "state.json"
    config.write_text(PREEMPTING.format(depth_first="true", preemption="true"), encoding="utf-8")
    files = ["--config", str(config), "--state", str(state)]
    bob = ["--owner", "bob", "--count", "2", "--cpus", "1", "--memory", "3000"]
    assert run("submit", *files, *bob, "--now", NOW).exit_code == 0
    assert run("negotiate", *files, "--now", NOW).exit_code == 0
    assert run("setfactor", *files, "--now", NOW, "bob", "1000").exit_code == 0
    alice = ["--owner", "alice", "--count", "2", "--cpus", "1", "--memory", "1024"]
    assert run("submit", *files, *alice, "--now", T1).exit_code == 0
    first = run("negotiate", "--json", *files, "--now", T1)
    assert first.exit_code == 0, first.stderr
    assert [m["slot"] for m in json.loads(first.stdout)["matches"]] == [
        "slot1_1@c001", "slot1_2@c001"
    ]  # fmt: skip
    return files


def test_a_match_no_job_takes_on_a_claimed_slot_takes_its_holder_off_until_the_next_cycle(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """c001 (consumption policy, 2 CPUs: weight 2) and s001, s002 (1 CPU each: weight 1).
    At NOW bob's two 3000 MB jobs take s001 and s002; his factor is then 1000. At T1 his
    real priority is 0.5 b + 2 (1 - b) with b = 0.5^(3600/86400) = 0.971532: 0.542702
    (effective 542.70); alice's 0.5. Her match list is [c001, s001, s002] (:data:`PREEMPTING`'s
    ranks); her first job takes c001, whose leftover (1 CPU: count 1) stays first; the
    second takes it (count 0), and the re-offer, no unclaimed slot left, pops s001 and
    preempts it (542.70 > 0.5 x 1.2, 1 + 1 + 1 <= her limit 3.996) for no job. 25.0's
    ``AddMatch`` on a claimed slot ``RemoveMatch``es the holder first, then charges alice;
    the schedd finds no job, so bob's job runs on. Between the cycles: alice 3 in use,
    bob 1. At T2 ``UpdatePriorities`` charges that: alice 0.5 b + 3 (1 - b) = 0.571170,
    bob 0.542702 b + 1 (1 - b) = 0.555720 (555.72); then ``CheckMatches`` removes alice's
    record on s001 (bob claims it) and ``AddMatch``es bob back: 2 each. fs charged no one
    for that match and kept bob at 2: alice 2 and bob 2 between the cycles, and at T2
    0.542702 and 584.19."""
    files = _displaced_at_t1(tmp_path, run)
    state = tmp_path / "state.json"
    negotiator = json.loads(state.read_text(encoding="utf-8"))["negotiator"]
    assert [m["slot"] for m in negotiator["jobless_matches"]] == ["slot1@s001"]
    assert negotiator["claims"]["slot1@s001"]["submitter"] == "bob@example.org"
    between = _rows(run, files, T1)
    assert between["alice@example.org"][0] == 3 and between["bob@example.org"][0] == 1
    reslist = run("userprio", "-getreslist", "bob", *files, "--now", T1).stdout
    assert "slot1@s001" not in reslist and reslist.endswith("Number of Resources Used: 1\n")
    t2 = "2026-11-20T02:00:00Z"
    assert run("negotiate", *files, "--now", t2).exit_code == 0
    after = _rows(run, files, t2)
    assert after["alice@example.org"] == (2, pytest.approx(0.571170, abs=1e-6))
    assert after["bob@example.org"] == (2, pytest.approx(555.72, abs=1e-2))


def test_removing_a_displaced_holders_job_gives_back_nothing(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The test above to T1; then ``fs rm 1.0`` (bob's job on s001, which alice's match no
    job took holds). HTCondor's accountant hears of the removal only at the next
    ``CheckMatches``, and bob is off s001's record already: he keeps 1 in use (s002).
    fs gave s001's weight back a second time: 0 in use."""
    files = _displaced_at_t1(tmp_path, run)
    removed = run("rm", *files, "--now", T1, "1.0")
    assert removed.exit_code == 0, removed.stderr
    assert _rows(run, files, T1)["bob@example.org"][0] == 1


def test_a_displaced_holder_put_back_is_listed_from_when_it_was_put_back(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The test above to T1, then a cycle at T2: its ``CheckMatches`` ``AddMatch``es bob
    back on s001, which sets the resource record's ``StartTime`` to T2 (02:00), so at T3
    ``condor_userprio -getreslist bob`` shows s001 from 02:00, an hour ago, and s002 from
    00:00 (NOW), three hours ago. fs showed s001 from 00:00 too: its claim's start."""
    files = _displaced_at_t1(tmp_path, run)
    assert run("negotiate", *files, "--now", "2026-11-20T02:00:00Z").exit_code == 0
    result = run("userprio", "-getreslist", "bob", *files, "--now", "2026-11-20T03:00:00Z")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[2:4] == [
        "slot1@s001                      11/20 02:00   0+01:00:00",
        "slot1@s002                      11/20 00:00   0+03:00:00",
    ]
    state = json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))
    assert state["negotiator"]["claims"]["slot1@s001"]["accountant_start"] == 1795140000.0
