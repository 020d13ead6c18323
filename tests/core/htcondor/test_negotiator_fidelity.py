"""Negotiator details checked against HTCondor's source.

Each test's numbers are derived by hand from the rules in HTCondor's code, named in its
docstring.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from negotiation_helpers import CURRENT, NOW, jobs, run

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import Claim


def _pool(*stanzas: tuple[str, dict[str, object]]) -> list[MachineSpec]:
    """One one-slot machine per stanza: ``small001``, ``big001`` …, in order."""
    return [MachineSpec(name=name, count=1, slots=1, attributes=attrs) for name, attrs in stanzas]


SMALL = ("small", {"Cpus": 1, "Memory": 4096})
BIG = ("big", {"Cpus": 2, "Memory": 8192})


@pytest.mark.parametrize(
    ("request_cpus", "request_memory", "slot", "reason"),
    [
        # 1 <= 1 and 1024 <= 4096 on the first slot of the pool
        pytest.param(1, 1024, "slot1@small001", None, id="fits-small"),
        # RequestCpus 2 > Cpus 1: only the 2-CPU slot
        pytest.param(2, 1024, "slot1@big001", None, id="two-cpus"),
        # RequestMemory 6000 > Memory 4096: only the 8192 MB slot
        pytest.param(1, 6000, "slot1@big001", None, id="6000-mb"),
        # 3 CPUs fit no slot
        pytest.param(3, 1024, None, "no_matching_slot", id="three-cpus"),
        # 9000 MB fit no slot
        pytest.param(1, 9000, None, "no_matching_slot", id="9000-mb"),
    ],
)
def test_slot_requirements_include_within_resource_limits(
    request_cpus: int, request_memory: int, slot: str | None, reason: str | None
) -> None:
    """A static slot's ``Requirements`` are ``START && WithinResourceLimits``
    (``Resource::publish_requirements``, ``Reqexp.cpp``), the check being
    ``MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus && MY.Memory > 0 &&
    TARGET.RequestMemory <= MY.Memory && …`` (``MachAttributes::withinLimitsExpression``,
    ``ResAttributes.cpp``); the jobs' own requirements say nothing about resources."""
    queue = jobs("a", 1, 1, request_cpus=request_cpus, request_memory=request_memory)
    result = run(_pool(SMALL, BIG), queue, knobs=CURRENT)
    assert [m.slot for m in result.matches] == ([slot] if slot else [])
    assert [r for _, _, r in result.iter_unmatched()] == ([reason] if reason else [])


@pytest.mark.parametrize(
    ("disk", "matched"),
    [
        # 1,048,576 KiB asked, 1,000,000 KiB there: no match
        pytest.param(1_000_000, False, id="short-of-a-gib"),
        # RequestDisk <= Disk holds with equality
        pytest.param(1_048_576, True, id="one-gib"),
    ],
)
def test_jobs_ask_condor_submits_default_disk(disk: int, matched: bool) -> None:
    """A job without ``request_disk`` gets ``JOB_DEFAULT_REQUESTDISK = MAX({1024,
    (TransferInputSizeMB+1) * 1.25}) * 1024`` KiB (``param_info.in``): with no input files
    max(1024, 1.25) × 1024 = 1,048,576 KiB, checked against the slot's ``Disk``."""
    queue = jobs("a", 1, 1)
    result = run(_pool(("exec", {"Cpus": 1, "Memory": 4096, "Disk": disk})), queue, knobs=CURRENT)
    assert len(result.matches) == int(matched)


def test_unconfigured_resources_do_not_limit() -> None:
    """A stanza without ``Memory`` (or ``Disk``) is not limited by it: only the configured
    ``Cpus`` is checked, so a 100000 MB job still fits a 1-CPU slot."""
    queue = jobs("a", 1, 1, request_memory=100_000)
    result = run(_pool(("exec", {"Cpus": 1})), queue, knobs=CURRENT)
    assert [m.slot for m in result.matches] == ["slot1@exec001"]


def _preempt_one(preemption_rank: str, runtime_2: int) -> str:
    """Which of two claimed slots a better-priority job preempts: ``slot1@exec001`` runs a
    job started at ``NOW`` (TotalJobRuntime 0), ``slot1@exec002`` one started
    ``runtime_2`` seconds before."""
    knobs = replace(
        CURRENT,
        preemption_requirements="true",
        preemption_rank=preemption_rank,
        pre_job_rank=None,
        post_job_rank=None,
    )
    claims = [
        Claim("slot1@exec001", "b@example.org", "1.0", NOW),
        Claim("slot1@exec002", "b@example.org", "1.1", NOW - runtime_2),
    ]
    machines = [MachineSpec(name="exec", count=2, slots=1, attributes={"Cpus": 1, "Memory": 4096})]
    result = run(
        machines, jobs("a", 1, 2), prios={"b@example.org": 10.0}, knobs=knobs, claims=claims
    )
    assert [(m.reason, m.preempted_job is not None) for m in result.matches] == [("priority", True)]
    return result.matches[0].slot


@pytest.mark.parametrize(
    ("runtime_2", "slot"),
    [
        # 2^24 + 0 and 2^24 + 1: a C float holds 2^24 for both, a tie: the first slot
        pytest.param(1, "slot1@exec001", id="tie-as-float"),
        # 2^24 + 2 is a float: the higher rank wins
        pytest.param(2, "slot1@exec002", id="apart-as-float"),
    ],
)
def test_preemption_rank_is_a_c_float(runtime_2: int, slot: str) -> None:
    """``PREEMPTION_RANK`` goes through ``EvalNegotiatorMatchRank`` like the pre- and
    post-job ranks: ``rank = (float)val``, so values a float cannot tell apart tie
    (and ties go to the slot first in the pool)."""
    assert _preempt_one("16777216 + TotalJobRuntime", runtime_2) == slot


def test_preemption_rank_not_a_number_ranks_below_every_float() -> None:
    """``EvalNegotiatorMatchRank`` leaves a rank that is not a number at ``-DBL_MAX``,
    below the most negative float: ``-FLT_MAX`` on exec002 beats ``undefined`` on exec001."""
    rank = "ifThenElse(TotalJobRuntime > 0, -3.4028234663852886e38, undefined)"
    assert _preempt_one(rank, 5) == "slot1@exec002"
