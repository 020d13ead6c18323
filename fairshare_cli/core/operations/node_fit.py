"""What a Slurm job must pass to be queued: names the config defines and its user's
association (:func:`check_slurm_names`, for ``fs submit``, the imports and the state's
check alike), and nodes of its partitions that could ever run it, as ``sbatch`` tests it
(``fs submit``); the partition limits that hold a queued job back, as squeue words them
(:func:`pending_reason`); and the partition a started job runs in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.config import Config, PartitionSpec, in_partition
from fairshare_cli.core.htcondor.negotiator import machine_names
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm.node_space import Node
from fairshare_cli.core.slurm.partition import (
    NoDefaultPartition,
    default_partition,
    partitions_of,
    submitted_time_limit,
)
from fairshare_cli.core.slurm.priority import NO_PARTITIONS
from fairshare_cli.core.timestr import format_slurm_time
from fairshare_cli.errors import InputError

#: What sbatch prints for ``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``.
UNAVAILABLE = '(sbatch: "Requested node configuration is not available")'


def check_slurm_names(
    config: Config, job: Job, where: str, *, hints: bool = False, imported: bool = False
) -> None:
    """Refuse a job naming a partition or account the config does not define (when it
    defines any), a QOS it does not define (with no ``[qos]``: but ``normal``), or a Slurm
    job (one naming any of them) whose user has no association in its account (none named:
    in any), as ``sbatch`` and ``sprio`` refuse them. A config with no ``[accounts]`` has
    no associations and one with no ``[partitions]`` no partition to name: such a job is
    refused there too, as ``fs sprio`` would refuse the state holding it (the message says
    what brings them).

    Args:
        where: names the job in messages (``job 7``, or a file's ``F: job 7``).
        hints: add where to fix the name (``(see [qos])``) and what sbatch prints.
        imported: a dump's job (``fs import squeue``): an account or association the
            config's ``[accounts]`` lacks names the import that brings them.

    Raises:
        InputError: naming ``where`` and the name.
    """
    from fairshare_cli.core.slurm.factors import split_qos

    for name in job.partitions:
        if config.partitions and name not in config.partitions:
            see = _see(hints, "partitions", config.partitions)
            raise InputError(f'{where}: unknown partition "{name}"{see}')
        if not config.partitions:
            raise InputError(f'{where}: unknown partition "{name}" ({NO_PARTITIONS})')
    for name in split_qos(where, job.qos, config.priority.output_compat != "22.05"):
        if config.qos and name not in config.qos:
            raise InputError(f'{where}: unknown QOS "{name}"{_see(hints, "qos", config.qos)}')
        if not config.qos and name != "normal":  # (sprio's one QOS left unconfigured)
            raise InputError(f'{where}: unknown QOS "{name}" ({_NO_QOS})')
    account = job.account
    if account is not None and config.accounts and account not in config.accounts:
        see = _see(hints, "accounts", config.accounts)
        see = f" ({_NO_ACCOUNT.format(account)})" if imported else see
        raise InputError(f'{where}: unknown account "{account}"{see}')
    if (account, job.partition, job.qos) != (None, None, None):
        _check_association(config, job, where, hints, imported)


def _check_association(config: Config, job: Job, where: str, hints: bool, imported: bool) -> None:
    """Refuse a Slurm job whose user has no association in its account (none named: in
    any), as :func:`check_slurm_names` words it.

    Raises:
        InputError: naming ``where``, the user and the account.
    """
    from fairshare_cli.core.slurm.factors import job_user

    account = job.account
    user = job_user(job.owner)
    named = config.accounts.get(account) if account else None
    specs = [named] if named else [] if account else config.accounts.values()
    if any(user in spec.users for spec in specs):
        return
    message = f'{where}: user "{user}" has no association'
    message += f' in account "{account}"' if account else ""
    if hints:
        message += (
            ' (sbatch: "Invalid account or account/partition combination specified"); '
            "add it to [accounts]"
        )
    elif not config.accounts:
        message += f" ({_NO_ACCOUNTS})"
    elif imported:
        table = f"[accounts.{account}] lists no" if account else "no account in [accounts] lists"
        message += f" ({_NO_USER.format(table, user)})"
    raise InputError(message)


#: Why a Slurm job's QOS (other than ``normal``) or association is unknown to a
#: config without those tables, and what brings them.
_NO_QOS = "the config has no [qos]: fs import sacctmgr of sacctmgr show qos brings them"
_NO_ACCOUNTS = "the config has no [accounts]: fs import sacctmgr of sacctmgr show assoc brings them"
#: Why a dump's job's account (or its user's association in one) is unknown to a config
#: with other accounts, and what brings it.
_NO_ACCOUNT = "the config has no [accounts.{}]: fs import sacctmgr of sacctmgr show assoc brings it"
_NO_USER = "{} user {}: fs import sacctmgr of sacctmgr show assoc brings the associations"


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


class NodeFit:
    """Whether a Slurm job could ever run on its partitions' nodes, as ``sbatch`` tests it;
    made once a submission (the users with an association, each partition's nodes and
    each kind of job's answer are worked out once, however many jobs come).

    ``select_nodes`` tests a job against the partition's nodes, idle as they may be
    (``_pick_best_nodes``: "never runnable in partition"), and ``job_allocate`` rejects
    ``ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE``. A job of ``num_nodes`` N (``-N N``, which
    sets both the least and the most nodes: ``verify_node_count``) needs N nodes of the
    partition and its CPUs (``request_cpus``, the whole job's) must fit its N largest, one
    node included; without ``-N`` (None: no most, as slurmctld keeps ``max_nodes`` 0) they
    may spread over all the partition's nodes.

    A partition whose limits hold the job back (:func:`pending_reason`) is not tested: with
    ``EnforcePartLimits=NO`` (Slurm's default) such a job is queued and pends there. Today
    (``_select_nodes_base``, Slurm 25.11.2 on) every limit ``job_limits_check`` finds skips
    the node test; Slurm 22.05 tests the nodes anyway, and only ``MaxNodes``/``MinNodes``
    stop the test first (``get_node_cnts``), so a job asking more nodes or CPUs than the
    partition has is refused there. Of several partitions (tried by tier, then as named:
    ``_select_nodes_parts``), one that can run the job is enough; else today's slurmctld
    refuses the job when one partition was tested, and 22.05's when the last one tried
    was (each test overwrites the answer).

    With ``EnforcePartLimits`` ANY or ALL (``priority.enforce_part_limits``) the limits
    refuse the job first (:meth:`_limits_refusal`), and with ANY a partition whose limits
    hold the job back is skipped untested (``_select_nodes_base``: 22.05 and today).
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.users: frozenset[str] | None = None
        self.sizes: dict[str, list[tuple[int, int]]] = {}
        self.answers: dict[tuple[Any, ...], tuple[str | None, str | None]] = {}
        self.holds: dict[tuple[Any, ...], str | None] = {}
        self.pendings: dict[tuple[Any, ...], str | None] = {}
        #: the partition of a job that names none (:func:`default_partition`)
        self.default = default_partition(config.partitions)
        self.today = config.priority.output_compat != "22.05"

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

    def parts(self, job: Job) -> tuple[str, ...]:
        """The partitions a job runs in (:func:`partitions_of`; ``()``: any node). A job
        that is not Slurm's (HTCondor's or DIRAC's, in a queue the views share) names none:
        the default partition, else any node.

        Raises:
            InputError: a Slurm job naming none where no partition is the default.
        """
        if self.is_slurm_job(job):
            return partitions_of(job, self.config.partitions, self.default)
        return (self.default,) if self.default is not None else ()

    def part_sizes(self, part: str) -> list[tuple[int, int]]:
        """(CPUs a node, how many nodes) of the partition (``""``: the whole pool), largest
        first."""
        if part not in self.sizes:
            self.sizes[part] = sorted(
                (
                    (spec.node_cpus(), spec.count)
                    for spec in self.config.machines
                    if in_partition(spec, part)
                ),
                reverse=True,
            )
        return self.sizes[part]

    def held(self, job: Job, part: str) -> str | None:
        """Why the partition's limits hold ``job`` back there (:func:`pending_reason`)."""
        key = (part, job.num_nodes, job.request_cpus, job.time_limit)
        if key not in self.holds:
            spec = self.config.partitions.get(part)
            self.holds[key] = pending_reason(job, spec, self.part_sizes(part))
        return self.holds[key]

    def pending(self, job: Job) -> str | None:
        """Why a queued Slurm job never starts: the limits of every one of its partitions
        hold it back (each partition's reason, as :meth:`check` words it); else None. Told
        once for the jobs that ask alike (``fs import squeue`` asks it of 100,000)."""
        if not self.config.machines:
            return None
        key = (job.partition, job.num_nodes, job.request_cpus, job.time_limit)
        if key not in self.pendings:
            self.pendings[key] = self._pending(job)
        reason = self.pendings[key]
        return None if reason is None or not self.is_slurm_job(job) else reason

    def _pending(self, job: Job) -> str | None:
        reasons = []
        for part in self.parts(job) or ("",):
            reason = self.held(job, part)
            if reason is None:
                return None
            reasons.append(_with_where(reason, f'partition "{part}"' if part else "the pool"))
        return "; ".join(reasons)

    def taken(self, job: Job) -> Job:
        """The job as slurmctld stores it once it takes it: one of no time limit gets its
        first partition's ``DefaultTime`` (``_valid_job_part``, then
        ``_copy_job_desc_to_job_record``: ``scontrol show job`` prints it as ``TimeLimit``
        from then on, and a later change of ``DefaultTime`` leaves it); any other job, one
        that is not Slurm's or whose partition sets none, as it is.

        Raises:
            InputError: as :meth:`check` (a job naming no partition where none is the
                default; ``DefaultTime`` 0).
        """
        if job.time_limit is not None or not self.is_slurm_job(job):
            return job
        if not self._names_slurm(job):
            return job
        parts = self.parts(job) or ("",)
        limit = submitted_time_limit(job, self.config.partitions.get(parts[0]))
        return job if limit is None else replace(job, time_limit=limit)

    def started(self, job: Job) -> Job:
        """A running Slurm job of several partitions as slurmctld keeps it once started:
        the partition it runs in first, the others after, as named (``rebuild_job_part_list``
        rewrites ``job_ptr->partition`` so, 22.05 and 26.05 alike, and reads the first back
        as the running one at a restart: ``get_part_list``'s ``prim_part_ptr``). The views
        read the first as the partition the job runs in (its limit end, its billing).

        It runs in a partition whose nodes could run it and whose limits do not hold it
        back (``select_nodes``); where one of its partitions alone is such, that one.
        Where several are, which had free nodes at its start is not recorded: the first
        of them in the order slurmctld tries them (the highest ``priority_tier`` first,
        then as named; its priority in each is not weighed). A job none of whose
        partitions could run it is left as named.
        """
        named = job.partitions
        if len(named) < 2 or not self.config.machines or not self.is_slurm_job(job):
            return job
        specs = self.config.partitions
        order = sorted(named, key=lambda p: -specs[p].priority_tier if p in specs else 0)
        runs_in = next((p for p in order if self._could_run(job, p)), named[0])
        if runs_in == named[0]:
            return job
        return replace(job, partition=",".join([runs_in, *(p for p in named if p != runs_in)]))

    def runs_in(self, job: Job) -> str | None:
        """The partition a running Slurm job runs in, as :meth:`started` stores it (its
        first; the default one for a job naming none; ``""``: any node, in a pool with no
        partitions or none the default); None for a job that is not Slurm's."""
        if not self.is_slurm_job(job):
            return None
        try:
            parts = self.parts(job)
        except NoDefaultPartition:  # names none, and none is the default (queued, warned)
            return ""
        return parts[0] if parts else ""

    def _could_run(self, job: Job, part: str) -> bool:
        """Whether ``part``'s nodes could run ``job`` and its limits do not hold it back."""
        return self.held(job, part) is None and _never_runnable(job, self.part_sizes(part)) is None

    def check(self, job: Job) -> str | None:
        """Refuse a Slurm job, as given to ``sbatch``, that no nodes of its partitions
        could ever run, or that ``EnforcePartLimits`` refuses.

        The partition limits that refuse a job are tested before it takes its
        ``DefaultTime`` (``_part_access_check`` in ``_valid_job_part``); the nodes, and the
        limits that hold it back, after (``select_nodes``, on the job :meth:`taken`).

        Returns:
            The pending reason when the limits of every partition hold the job back
            (``PartitionNodeLimit (partition "batch": ...)``): it is queued, and waits.

        Raises:
            InputError: naming the job, what it asks and what each partition has.
        """
        if not self.is_slurm_job(job) or not self._names_slurm(job):
            return None
        parts = self.parts(job) or ("",)
        timed = self.taken(job)
        if not self.config.machines:
            return None
        key = (parts, job.num_nodes, job.request_cpus, job.time_limit, timed.time_limit)
        if key not in self.answers:
            self.answers[key] = self._outcome(parts, job, timed)
        refusal, pending = self.answers[key]
        if refusal is not None:
            raise InputError(f"job {job.id}: {refusal}")
        return pending

    def refused_for_no_partition(self, job: Job) -> bool:
        """Whether ``job`` is a Slurm job (:meth:`is_slurm_job`) that names no partition
        where partitions exist and none is the default: slurmctld refuses it, and so do
        ``fs sprio`` and ``fs simulate --scheduler slurm`` (:func:`partitions_of`); it is
        queued all the same, being maybe HTCondor's or DIRAC's."""
        return self.is_slurm_job(job) and not self._names_slurm(job)

    def _names_slurm(self, job: Job) -> bool:
        """Whether sbatch would take up the job: it names a partition, account or QOS,
        or a partition is the default. One naming none of them, in a pool whose partitions
        have no default, may be HTCondor's or DIRAC's: it is queued (``fs sprio`` and ``fs
        simulate --scheduler slurm`` refuse it, as slurmctld would)."""
        named = job.partition is not None or job.account is not None or job.qos is not None
        return named or self.default is not None or not self.config.partitions

    def _outcome(
        self, parts: tuple[str, ...], given: Job, job: Job
    ) -> tuple[str | None, str | None]:
        """(why sbatch refuses the job, why it pends), each None when it does not: the
        limits refuse the job as ``given``, the nodes test it :meth:`taken` (``job``)."""
        specs = self.config.partitions
        order = sorted(parts, key=lambda p: -specs[p].priority_tier if p in specs else -1)
        enforce = self.config.priority.enforce_part_limits
        if enforce != "NO":  # (22.05 checks them as named; today's list is sorted by tier)
            named = order if self.today else list(parts)
            refusal = self._limits_refusal(named, given, enforce)
            if refusal is not None:
                return refusal, None
        never, held, last_tested, runnable = [], [], False, False
        for part in order:
            label = f'partition "{part}"' if part else "the pool"
            spec, sizes = specs.get(part), self.part_sizes(part)
            reason = self.held(job, part)
            if enforce == "ANY" and reason is not None:  # (skipped: the answer is kept)
                held.append(_with_where(reason, label))
                continue
            timed = reason is not None and reason.startswith(TIME_LIMIT)  # (tested anyway)
            stops = (None if timed else reason) if self.today else node_limit(job, spec)
            if stops is not None:
                held.append(_with_where(reason or stops, label))
                last_tested = False
                continue
            why = _never_runnable(job, sizes)
            if why is None and reason is None:
                return None, None
            if why is None:  # (it fits, but waits on the time limit: never refused)
                runnable = True
                held.append(_with_where(reason or "", label))
                continue
            never.append(f"{label} {why}")
            last_tested = True
        if never and not runnable and (self.today or last_tested):
            return f"{'; '.join(never)} {UNAVAILABLE}", None
        return None, "; ".join(held)

    def _limits_refusal(self, parts: Sequence[str], job: Job, enforce: str) -> str | None:
        """Why slurmctld refuses a job whose partitions' limits hold it back, with
        ``EnforcePartLimits`` ANY (the limits of each of its partitions; sbatch prints the
        last one's error) or ALL (those of one of them, the first); None when it does not.

        ``_valid_job_part`` runs ``_part_access_check`` on each partition, which tests what
        :func:`pending_reason` tests, in its order, and refuses on the first it finds
        (22.05 and today alike).
        """
        reasons = []
        for part in parts:
            reason = self.held(job, part)
            if reason is None:
                if enforce == "ANY":
                    return None
                continue
            reasons.append(_with_where(reason, f'partition "{part}"' if part else "the pool"))
            if enforce == "ALL":
                break
        if not reasons:
            return None
        words = SBATCH_ERRORS[reasons[-1].split(" (", 1)[0]]
        return f'{"; ".join(reasons)}: refused, EnforcePartLimits={enforce} (sbatch: "{words}")'


#: The reasons squeue prints for a job a partition's limits hold back (``job_limits_check``).
NODE_LIMIT = "PartitionNodeLimit"
PART_CONFIG = "PartitionConfig"
TIME_LIMIT = "PartitionTimeLimit"
#: What sbatch prints for the error ``_part_access_check`` returns on each of them
#: (``slurm_errno.c``: ``ESLURM_TOO_MANY_REQUESTED_CPUS``, ``ESLURM_INVALID_NODE_COUNT``,
#: ``ESLURM_INVALID_TIME_LIMIT``), when ``EnforcePartLimits`` refuses the job.
SBATCH_ERRORS = {
    PART_CONFIG: "More processors requested than permitted",
    NODE_LIMIT: "Node count specification invalid",
    TIME_LIMIT: "Requested time limit is invalid (missing or exceeds some limit)",
}


def node_limit(job: Job, spec: PartitionSpec | None) -> str | None:
    """``PartitionNodeLimit (MaxNodes 4, the job asks for 8 nodes)`` when the job's node
    count (``-N``) is outside the partition's ``MinNodes``..``MaxNodes`` (``_part_access_check``
    through ``_qos_part_check``: a job without ``-N`` is given at least ``MinNodes`` and has
    no most); else None."""
    want = job.num_nodes
    if want is None or spec is None:
        return None
    if want < spec.min_nodes:
        return f"{NODE_LIMIT} (MinNodes {spec.min_nodes}, the job asks for {_nodes(want)})"
    if spec.max_nodes is not None and want > spec.max_nodes:
        return f"{NODE_LIMIT} (MaxNodes {spec.max_nodes}, the job asks for {_nodes(want)})"
    return None


def pending_reason(
    job: Job, spec: PartitionSpec | None, sizes: Sequence[tuple[int, int]]
) -> str | None:
    """Why a partition's limits hold ``job`` back, checked in ``_part_access_check``'s
    order (the job's pending reason, as ``job_limits_check`` gives it): more CPUs than the
    partition has (``PartitionConfig``), more nodes than it has, or a node count outside
    ``MinNodes``..``MaxNodes`` (``PartitionNodeLimit``), a time limit above ``MaxTime``
    (``PartitionTimeLimit``); None when nothing does."""
    cpus = sum(size * count for size, count in sizes)
    if job.request_cpus > cpus:  # (a partition of no nodes too: 25.11's "empty partitions")
        return f"{PART_CONFIG} ({cpus} CPUs in all, the job asks for {job.request_cpus})"
    nodes = sum(count for _, count in sizes)
    if job.num_nodes is not None and job.num_nodes > nodes:
        return f"{NODE_LIMIT} ({_nodes(nodes)} in all, the job asks for {job.num_nodes})"
    limit = node_limit(job, spec)
    if limit is None and spec is not None and spec.max_time is not None:
        asked = job.time_limit
        if asked is not None and asked > spec.max_time:
            top, want = format_slurm_time(spec.max_time), format_slurm_time(asked)
            return f"{TIME_LIMIT} (MaxTime {top}, the job asks for {want})"
    return limit


def cluster_nodes(config: Config) -> list[Node]:
    """The cluster's nodes: every ``[[machines]]`` stanza is ``count`` nodes of
    ``slots × Cpus`` CPUs, in its ``partitions`` (none: every partition)."""
    out = []
    for spec in config.machines:
        parts = frozenset(spec.partitions or config.partitions)
        for name in machine_names(spec):
            out.append(Node(name, spec.node_cpus(), parts))
    return out


def _nodes(count: int) -> str:
    return "1 node" if count == 1 else f"{count} nodes"


def _with_where(reason: str, label: str) -> str:
    """``PartitionNodeLimit (partition "batch": MaxNodes 4, ...)``."""
    word, detail = reason.split(" (", 1)
    return f"{word} ({label}: {detail}"


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
