"""What a Slurm job must pass to be queued: names the config defines and its user's
association (:func:`check_slurm_names`, for ``fs submit``, the imports and the state's
check alike), and nodes of its partitions that could ever run it, as ``sbatch`` tests it
(``fs submit``); and the CPUs of a node, as ``fs simulate --scheduler slurm`` counts them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from fairshare_cli.core.config import Config, MachineSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import InputError

#: What sbatch prints for ``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``.
UNAVAILABLE = '(sbatch: "Requested node configuration is not available")'


def check_slurm_names(config: Config, job: Job, where: str, *, hints: bool = False) -> None:
    """Refuse a job naming a partition, QOS or account the config does not define (when
    it defines any), or a Slurm job (one naming any of them) whose user has no association
    in its account (none named: in any), as ``sbatch`` and ``sprio`` refuse them.

    Args:
        where: names the job in messages (``job 7``, or a file's ``F: job 7``).
        hints: add where to fix the name (``(see [qos])``) and what sbatch prints.

    Raises:
        InputError: naming ``where`` and the name.
    """
    from fairshare_cli.core.slurm.factors import job_user, split_qos

    for name in job.partitions:
        if config.partitions and name not in config.partitions:
            see = _see(hints, "partitions", config.partitions)
            raise InputError(f'{where}: unknown partition "{name}"{see}')
    for name in split_qos(where, job.qos, config.priority.output_compat != "22.05"):
        if config.qos and name not in config.qos:
            raise InputError(f'{where}: unknown QOS "{name}"{_see(hints, "qos", config.qos)}')
    account = job.account
    if account is not None and config.accounts and account not in config.accounts:
        see = _see(hints, "accounts", config.accounts)
        raise InputError(f'{where}: unknown account "{account}"{see}')
    if not config.accounts or (account, job.partition, job.qos) == (None, None, None):
        return
    user = job_user(job.owner)
    specs = [config.accounts[account]] if account else config.accounts.values()
    if not any(user in spec.users for spec in specs):
        message = f'{where}: user "{user}" has no association'
        message += f' in account "{account}"' if account else ""
        if hints:
            message += (
                ' (sbatch: "Invalid account or account/partition combination specified"); '
                "add it to [accounts]"
            )
        raise InputError(message)


def _see(hints: bool, table: str, names: Iterable[str]) -> str:
    """`` (see [accounts]: chemistry, physics)``: the config's table and the names it has
    (the first :data:`_SHOWN` of many); nothing without ``hints``."""
    if not hints:
        return ""
    known = sorted(names)
    more = f", ... ({len(known)} in all)" if len(known) > _SHOWN else ""
    return f" (see [{table}]: {', '.join(known[:_SHOWN])}{more})"


#: How many names of a table an unknown name's error lists.
_SHOWN = 8


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
