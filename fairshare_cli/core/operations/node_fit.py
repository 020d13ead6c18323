"""Whether a Slurm job could ever run on its partitions' nodes, as ``sbatch`` tests it
(``fs submit``); and the CPUs of a node, as ``fs simulate --scheduler slurm`` counts them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairshare_cli.core.config import Config, MachineSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import InputError

#: What sbatch prints for ``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``.
UNAVAILABLE = '(sbatch: "Requested node configuration is not available")'


def node_cpus(spec: MachineSpec) -> int:
    """The CPUs of each Slurm node of a ``[[machines]]`` stanza: ``slots × Cpus``."""
    value = spec.attribute("Cpus")
    return spec.slots * (int(value) if isinstance(value, (int, float)) else 1)


class NodeFit:
    """Whether a Slurm job could ever run on its partitions' nodes, as ``sbatch`` tests it;
    made once a submission (the users with an association, each partition's nodes and
    each kind of job's answer are worked out once, however many jobs come).

    ``select_nodes`` tests a job against the partition's nodes, idle as they may be
    (``_pick_best_nodes``: "never runnable in partition"), and ``job_allocate`` rejects
    ``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``; a job submitted to several partitions is
    refused when it fits none (``_select_nodes_parts`` tries each). A job of ``num_nodes``
    N (``-N N``, which sets both the least and the most nodes: ``verify_node_count``)
    needs N nodes of the partition and its CPUs (``request_cpus``, the whole job's) must
    fit its N largest, one node included; without ``-N`` (None: no most, as slurmctld
    keeps ``max_nodes`` 0) they may spread over all the partition's nodes. Partition
    limits Slurm refuses only with ``EnforcePartLimits`` (``MaxTime``, which the job then
    waits on) are not checked: Slurm's default is ``NO``.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.users: frozenset[str] | None = None
        self.sizes: dict[str, list[tuple[int, int]]] = {}
        self.answers: dict[tuple[Any, ...], str | None] = {}
        parts = tuple(p for p, spec in config.partitions.items() if spec.default)
        self.default_parts = parts or tuple(config.partitions) or ("",)

    def is_slurm_job(self, job: Job) -> bool:
        """A job naming an account, partition or QOS, or whose user has an association (as
        ``fs sprio`` lists them); any other job is HTCondor's (or DIRAC's)."""
        from fairshare_cli.core.slurm.factors import job_user

        if job.account is not None or job.partition is not None or job.qos is not None:
            return True
        if self.users is None:
            accounts = self.config.accounts.values()
            self.users = frozenset(user for spec in accounts for user in spec.users)
        return job_user(job.owner) in self.users

    def part_sizes(self, part: str) -> list[tuple[int, int]]:
        """(CPUs a node, how many nodes) of the partition (``""``: the whole pool), largest
        first."""
        if part not in self.sizes:
            self.sizes[part] = sorted(
                (
                    (node_cpus(spec), spec.count)
                    for spec in self.config.machines
                    if not part or not spec.partitions or part in spec.partitions
                ),
                reverse=True,
            )
        return self.sizes[part]

    def check(self, job: Job) -> None:
        """Refuse a Slurm job that no nodes of its partitions could ever run.

        Raises:
            InputError: naming the job, what it asks and what each partition has.
        """
        if not self.config.machines or not self.is_slurm_job(job):
            return
        parts = job.partitions or self.default_parts
        key = (parts, job.num_nodes, job.request_cpus)
        if key not in self.answers:
            self.answers[key] = self._why_never(parts, job)
        reason = self.answers[key]
        if reason is not None:
            raise InputError(f"job {job.id}: {reason} {UNAVAILABLE}")

    def _why_never(self, parts: tuple[str, ...], job: Job) -> str | None:
        reasons = []
        for part in parts:
            reason = _never_runnable(job, self.part_sizes(part))
            if reason is None:
                return None
            reasons.append((f'partition "{part}" ' if part else "the pool ") + reason)
        return "; ".join(reasons)


def _never_runnable(job: Job, sizes: Sequence[tuple[int, int]]) -> str | None:
    """Why a job can never run on nodes of ``sizes`` ((CPUs, how many), largest first);
    None when it can."""
    want = job.num_nodes
    nodes = sum(count for _, count in sizes)
    if want is not None and want > nodes:
        return f"has {nodes} nodes, the job asks for {want}"
    cpus, left = 0, nodes if want is None else want
    for size, count in sizes:
        take = min(count, left)
        cpus, left = cpus + size * take, left - take
    if job.request_cpus > cpus:
        where = "in all" if want is None else _largest(want)
        return f"has {cpus} CPUs {where}, the job asks for {job.request_cpus}"
    return None


def _largest(want: int) -> str:
    return "on its largest node" if want == 1 else f"on its {want} largest nodes"
