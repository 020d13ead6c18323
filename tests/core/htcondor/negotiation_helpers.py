"""Small builders for negotiator tests: jobs, pools and a fake accountant."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.groups import (
    GroupConfig,
    GroupTree,
    QuotaKnobs,
    build_group_tree,
)
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    CycleResult,
    NegotiatorKnobs,
    SubmitterPrio,
    negotiate_cycle,
)
from fairshare_cli.core.htcondor.negotiator.frozen_pool import FrozenPool

NOW = 1_795_000_000.0
LEGACY = NegotiatorKnobs(
    profile="legacy",
    use_slot_weights=False,
    preemption_requirements=("TotalJobRuntime > 3600 && RemoteUserPrio > SubmitterUserPrio * 1.2"),
    quotas=QuotaKnobs(allow_quota_oversubscription=False, use_slot_weights=False),
)
CURRENT = NegotiatorKnobs(
    profile="current",
    use_slot_weights=True,
    preemption_requirements="false",
    preemption_rank=(
        "(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)"
    ),
    pre_job_rank=(
        "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory"
    ),
    post_job_rank=(
        "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), 1000, Kflops)"
        " - SlotID - 1.0e10*(Offline=?=True))"
    ),
    quotas=QuotaKnobs(allow_quota_oversubscription=True, use_slot_weights=True),
)


@dataclass(frozen=True)
class J:
    """A job with the fields the negotiator reads."""

    id: str
    owner: str
    accounting_group: str | None = None
    nice_user: bool = False
    job_prio: int = 0
    submit_time: float | None = None
    status: str = "idle"
    request_cpus: float = 1
    request_memory: float = 1024
    requirements: str | None = None
    rank: str | None = None
    concurrency_limits: str | None = None
    concurrency_limits_expr: str | None = None
    slot: str | None = None
    start_time: float | None = None


def submitter_of(job: J) -> str:
    """owner@example.org, group.owner@..., nice-user.owner@... (the accountant's naming)."""
    if job.accounting_group:
        name = job.accounting_group
        if "." not in name:
            return f"{name}@example.org"
        return f"{name}@example.org"
    if job.nice_user:
        return f"nice-user.{job.owner}@example.org"
    return f"{job.owner}@example.org"


def jobs(owner: str, n: int, cluster: int, **fields: object) -> list[J]:
    """``n`` jobs ``cluster.0`` … of one owner."""
    return [J(id=f"{cluster}.{i}", owner=owner, **fields) for i in range(n)]  # type: ignore[arg-type]


def pool(n: int, **attributes: object) -> list[MachineSpec]:
    """``n`` one-slot machines ``exec001`` … with the given attributes."""
    attrs = {"Cpus": 1, "Memory": 4096, **attributes}
    return [MachineSpec(name="exec", count=n, slots=1, attributes=attrs)]


def run(  # noqa: PLR0913  a test builder: every cycle input has a default
    machines: list[MachineSpec],
    queue: list[J],
    prios: Mapping[str, float] | None = None,
    usage: Mapping[str, float] | None = None,
    knobs: NegotiatorKnobs = LEGACY,
    claims: list[Claim] | None = None,
    tree: GroupTree | None = None,
    explain: str | None = None,
    floors: Mapping[str, int] | None = None,
    ceilings: Mapping[str, int] | None = None,
    now: float = NOW,
    frozen: FrozenPool | None = None,
) -> CycleResult:
    """One cycle with EUPs (default 0.5), weighted usage, floors (default 0) and ceilings
    (default -1) per submitter, at ``now``, on the ``frozen`` pool (None: built afresh)."""
    prios = prios or {}
    usage = usage or {}
    floors = floors or {}
    ceilings = ceilings or {}

    def prio(name: str) -> SubmitterPrio:
        return SubmitterPrio(
            prios.get(name, 0.5), usage.get(name, 0.0), ceilings.get(name, -1), floors.get(name, 0)
        )

    return negotiate_cycle(
        machines,
        claims or [],
        queue,
        submitter_of,
        prio,
        tree,
        knobs,
        now,
        explain_job=explain,
        frozen=frozen,
    )


def frozen_cycle(
    machines: list[MachineSpec],
    knobs: NegotiatorKnobs,
    groups: bool,
    claims: list[Claim],
    queue: list[J],
    prios: Mapping[str, float],
    frozen: FrozenPool | None,
    now: float,
) -> CycleResult:
    """A cycle of the frozen pool tests (on ``frozen``, or built from scratch with None):
    each submitter's weighted usage 1 a claim it holds, and with ``groups`` two groups
    with quotas 2 (``group_a``) and 1 (``group_b``)."""
    usage: dict[str, float] = {}
    for c in claims:
        usage[c.submitter] = usage.get(c.submitter, 0.0) + 1.0
    quotas = [GroupConfig("group_a", quota=2), GroupConfig("group_b", quota=1)]
    tree = build_group_tree(quotas) if groups else None
    return run(machines, queue, prios, usage, knobs, claims, tree, now=now, frozen=frozen)


def assert_same_cycle(reused: CycleResult, fresh: CycleResult) -> None:
    """A cycle on a frozen pool gives what one built from scratch gives: matches (a
    match's preempted job too), jobs left unmatched, submitters (priorities, limits, stop
    reasons), spins, the pool size and the groups' limits."""
    assert reused.matches == fresh.matches
    assert list(reused.iter_unmatched()) == list(fresh.iter_unmatched())
    assert reused.submitters == fresh.submitters
    assert reused.spins == fresh.spins
    assert reused.pool_size == fresh.pool_size
    assert reused.group_limits == fresh.group_limits


def matched_per_submitter(result: CycleResult) -> dict[str, int]:
    """Number of matches per submitter."""
    out: dict[str, int] = {}
    for m in result.matches:
        out[m.submitter] = out.get(m.submitter, 0) + 1
    return out
