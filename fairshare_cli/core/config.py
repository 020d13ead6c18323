"""The pool config as frozen records (docs/config.md): msgspec structs, made in C (sixteen
frozen dataclasses cost a command some 9 ms of start-up, compiling their methods).

Field names are the TOML key names. Durations are seconds. The `defaults` profile has
already been applied by the loader, so every field holds the effective value.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any, Literal

import msgspec

Profile = Literal["legacy", "current"]

LEGACY_PREEMPTION_REQUIREMENTS = (
    "TotalJobRuntime > 3600 && RemoteUserPrio > SubmitterUserPrio * 1.2"
)
DEFAULT_PREEMPTION_RANK = (
    "(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)"
)
DEFAULT_PRE_JOB_RANK = (
    "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory"
)
DEFAULT_POST_JOB_RANK = (
    "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), 1000, Kflops) - SlotID"
    " - 1.0e10*(Offline=?=True))"
)
#: ``CONSUMPTION_CPUS``/``_MEMORY``/``_DISK`` defaults (25.0 ``param_info.in``), by resource.
DEFAULT_CONSUMPTION = {
    "Cpus": "quantize(target.RequestCpus,{1})",
    "Memory": "quantize(target.RequestMemory,{128})",
    "Disk": "quantize(target.RequestDisk,{1024})",
}
DEFAULT_GROUP_SORT_EXPR = (
    'ifThenElse(AccountingGroup=?="<none>",3.4e+38,'
    "ifThenElse(GroupQuota>0,GroupResourcesInUse/GroupQuota,3.3e+38))"
)

#: Knob defaults that differ between the profiles (docs/config.md, profiles), keyed "section.key".
PROFILE_DEFAULTS: dict[str, dict[str, Any]] = {
    "legacy": {
        "accountant.default_prio_factor": 1.0,
        "accountant.nice_user_prio_factor": 1e7,
        "accountant.remote_prio_factor": 1e4,
        "negotiator.use_slot_weights": False,
        "negotiator.allow_quota_oversubscription": False,
        "negotiator.preemption_requirements": LEGACY_PREEMPTION_REQUIREMENTS,
        "priority.fairshare": "linear",
        # Slurm 2.0's page: "The default value for each of the following is 1."
        "priority.weights.age": 1,
        "priority.weights.fairshare": 1,
        "priority.weights.jobsize": 1,
        "priority.weights.partition": 1,
        "priority.weights.qos": 1,
    },
    "current": {
        "accountant.default_prio_factor": 1000.0,
        "accountant.nice_user_prio_factor": 1e10,
        "accountant.remote_prio_factor": 1e7,
        "negotiator.use_slot_weights": True,
        "negotiator.allow_quota_oversubscription": True,
        "negotiator.preemption_requirements": "false",
        "priority.fairshare": "fair_tree",
        "priority.weights.age": 0,
        "priority.weights.fairshare": 0,
        "priority.weights.jobsize": 0,
        "priority.weights.partition": 0,
        "priority.weights.qos": 0,
    },
}


class PoolConfig(msgspec.Struct, frozen=True):
    """``[pool]``: naming and the behaviour profile."""

    name: str = "pool"
    uid_domain: str = "localdomain"
    local_domains: tuple[str, ...] = ()
    defaults: Profile = "legacy"
    state: str | None = None
    usage_history_window: float = 90 * 86400.0  # 0: keep all (fs whatif replays from it)
    #: ``START`` / ``RANK`` of condor_config: what a ``[[machines]]`` entry without its own takes.
    start: str = "true"
    rank: str = "0"
    #: ``CONSUMPTION_POLICY``, ``NUM_CLAIMS`` and ``CONSUMPTION_*`` of condor_config: what
    #: a partitionable ``[[machines]]`` entry without its own takes.
    consumption_policy: bool = False
    num_claims: int | None = None
    consumption_cpus: str = DEFAULT_CONSUMPTION["Cpus"]
    consumption_memory: str = DEFAULT_CONSUMPTION["Memory"]
    consumption_disk: str = DEFAULT_CONSUMPTION["Disk"]


class AccountantConfig(msgspec.Struct, frozen=True):
    """``[accountant]``: HTCondor's user-priority knobs."""

    priority_halflife: float = 86400.0
    default_prio_factor: float = 1.0
    nice_user_prio_factor: float = 1e7
    remote_prio_factor: float = 1e4


class NegotiatorConfig(msgspec.Struct, frozen=True):
    """``[negotiator]``: HTCondor negotiator knobs (ClassAd expressions kept as text)."""

    use_slot_weights: bool = False
    slot_weight: str = "Cpus"
    allow_quota_oversubscription: bool = False
    preemption_requirements: str = LEGACY_PREEMPTION_REQUIREMENTS
    preemption_rank: str = DEFAULT_PREEMPTION_RANK
    pre_job_rank: str = DEFAULT_PRE_JOB_RANK
    post_job_rank: str = DEFAULT_POST_JOB_RANK
    group_sort_expr: str = DEFAULT_GROUP_SORT_EXPR
    group_quota_round_robin_rate: float = 1e100
    group_quota_max_allocation_rounds: int = 3
    strict_enforce_quota: bool = True
    use_weighted_demand: bool = True
    accept_surplus: bool = False
    autoregroup: bool = False
    consider_preemption: bool = True
    #: ``NEGOTIATOR_DEPTH_FIRST``: a match counts as the autocluster's jobs that fit in the
    #: slot (``jobsInSlot``); those past the matched one are left to the schedd.
    depth_first: bool = False
    #: ``NEGOTIATOR_MATCHLIST_CACHING``: the next jobs of an autocluster in a turn pop the
    #: match list its first job built (false: every job searches the slots afresh).
    matchlist_caching: bool = True
    #: ``NEGOTIATOR_IGNORE_USER_PRIORITIES``: every submitter's limit is unbounded
    #: (``DBL_MAX``) before the group's quota caps it.
    ignore_user_priorities: bool = False
    #: ``NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT``: a ClassAd expression over each slot ad;
    #: only the slots it is true on count in the pool size (None: every slot).
    slot_poolsize_constraint: str | None = None
    #: ``NEGOTIATOR_SLOT_CONSTRAINT``: a ClassAd expression over each slot ad; only the
    #: slots it is true on are fetched from the collector (None: every slot).
    slot_constraint: str | None = None
    #: ``NEGOTIATOR_SUBMITTER_CONSTRAINT``: a ClassAd expression over each submitter ad;
    #: only the submitters it is true on negotiate (None: every one).
    submitter_constraint: str | None = None
    #: ``NEGOTIATOR_JOB_CONSTRAINT``: a ClassAd expression over each job ad; the schedd
    #: offers only the jobs it is true on (None: every job).
    job_constraint: str | None = None
    #: ``NAME_LIMIT`` by lower-cased name, and ``CONCURRENCY_LIMIT_DEFAULT``.
    concurrency_limits: Mapping[str, float] = msgspec.field(default_factory=dict)
    concurrency_limit_default: float = 2308032.0
    #: ``CONCURRENCY_LIMIT_DEFAULT_<SCOPE>`` by lower-cased scope.
    concurrency_limit_scope_defaults: Mapping[str, float] = msgspec.field(default_factory=dict)
    #: ``NEGOTIATOR_INTERVAL``, ``NEGOTIATOR_CYCLE_DELAY``, ``NEGOTIATOR_MIN_INTERVAL``
    #: (seconds; the 25.0 defaults, as 7.x's): when cycles start (:meth:`cycle_spacing`).
    interval: float = 60.0
    cycle_delay: float = 20.0
    min_interval: float = 5.0

    def cycle_spacing(self) -> float:
        """Seconds from the start of one negotiation cycle to the next, for cycles that
        take no time (``fs simulate``'s), as ``Matchmaker::negotiationTime`` times them:
        a cycle's end re-arms the timer for max(``NEGOTIATOR_CYCLE_DELAY``,
        ``NEGOTIATOR_INTERVAL`` - the cycle's duration), and a cycle due sooner than
        ``NEGOTIATOR_MIN_INTERVAL`` after the last one started waits until then."""
        return max(self.interval, self.cycle_delay, self.min_interval)


class MachineSpec(msgspec.Struct, frozen=True):
    """``[[machines]]``: ``count`` machines of ``slots`` identical slots each.

    ``hosts`` names the machines (``x01.example.org`` ...) instead of ``<name>001`` ...;
    ``count`` is then their number (``fs import condor-status`` writes real pools so).
    """

    name: str
    count: int = 1
    slots: int = 1
    attributes: Mapping[str, Any] = msgspec.field(default_factory=dict)
    start: str = "true"
    rank: str = "0"
    partitions: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()
    #: Each slot is a partitionable slot whose ``attributes`` are its totals
    #: (``SLOT_TYPE_1_PARTITIONABLE``): a match carves a dynamic slot out of it.
    partitionable: bool = False
    #: ``CONSUMPTION_POLICY``: the partitionable slot takes several matches per cycle,
    #: each consuming ``consumption_*`` (MY = the slot, TARGET = the job) and charged the
    #: ``SLOT_WEIGHT`` it takes away, up to ``num_claims`` (``NUM_CLAIMS``; None: its
    #: ``Cpus``) matches.
    consumption_policy: bool = False
    num_claims: int | None = None
    consumption_cpus: str = DEFAULT_CONSUMPTION["Cpus"]
    consumption_memory: str = DEFAULT_CONSUMPTION["Memory"]
    consumption_disk: str = DEFAULT_CONSUMPTION["Disk"]

    def attribute(self, name: str) -> Any:
        """The attribute ``name`` in any letter case (ClassAd names ignore it), or None."""
        lowered = name.lower()
        found = None
        for key, value in self.attributes.items():
            if key.lower() == lowered:
                found = value
        return found

    def slot_cpus(self) -> int:
        """The ``Cpus`` of one slot (1 when the stanza sets none, or not a number)."""
        value = self.attribute("Cpus")
        return int(value) if isinstance(value, (int, float)) else 1

    def node_cpus(self) -> int:
        """The CPUs of each machine as a Slurm node: ``slots × Cpus``."""
        return self.slots * self.slot_cpus()


def in_partition(spec: MachineSpec, partition: str) -> bool:
    """Whether the machines of ``spec`` are nodes of ``partition`` (``""``: any node; a
    stanza listing no partitions is in every one)."""
    return not partition or not spec.partitions or partition in spec.partitions


class GroupSpec(msgspec.Struct, frozen=True):
    """``[groups."name"]``: one HTCondor accounting group (dotted names nest)."""

    name: str
    quota: float | None = None
    dynamic_quota: float | None = None
    accept_surplus: bool | None = None
    autoregroup: bool | None = None
    prio_factor: float | None = None

    @property
    def parent(self) -> str | None:
        """The dotted parent's name, or None for a top-level group."""
        return self.name.rsplit(".", 1)[0] if "." in self.name else None


class PriorityWeights(msgspec.Struct, frozen=True):
    """``[priority.weights]``: Slurm's PriorityWeight* values."""

    age: int = 0
    fairshare: int = 0
    jobsize: int = 0
    partition: int = 0
    qos: int = 0
    assoc: int = 0
    tres: Mapping[str, float] = msgspec.field(default_factory=dict)
    #: ``PriorityWeightTRES`` as written, when given as a string (what ``sprio -w`` prints).
    tres_text: str | None = None


class SlurmPriorityConfig(msgspec.Struct, frozen=True):
    """``[priority]``: Slurm's multifactor priority knobs."""

    type: str = "multifactor"
    fairshare: str = "linear"
    decay_halflife: float = 604800.0
    calc_period: float = 300.0
    usage_reset_period: str = "NONE"
    #: The time zone whose midnights ``usage_reset_period`` falls on (slurmctld's local
    #: time), loaded by the config reader: the core reads no time zone database.
    usage_reset_time_zone: _dt.tzinfo = _dt.timezone.utc
    max_age: float = 604800.0
    favor_small: bool = False
    flags: tuple[str, ...] = ()
    dampening_factor: int = 1
    usage_normalization: str = "total"
    weights: PriorityWeights = msgspec.field(default_factory=PriorityWeights)
    #: [AccountingStorageEnforce] includes ``limits``: a job's last part is charged at its end.
    enforce_limits: bool = False
    #: [EnforcePartLimits]: "NO" (Slurm's default: a job a partition's limits hold back is
    #: queued and pends), "ANY" (refused unless one of its partitions' limits allow it) or
    #: "ALL" (refused unless all of them do), as :func:`part_enforce_type` reads the knob.
    enforce_part_limits: str = "NO"
    #: sshare/sprio layouts: "current" (today's Slurm) or "22.05" (no ACCOUNT/QOSNAME in
    #: ``sprio -l``; classic ``sshare`` prints FairShare on account rows too).
    output_compat: str = "current"
    #: ``SchedulerParameters`` of the backfill scheduler (``src/plugins/sched/backfill/
    #: backfill.c``, Slurm's defaults): jobs tested per pass, the planning window in
    #: minutes, the time resolution of reservations in seconds, seconds between passes.
    bf_max_job_test: int = 500
    bf_window: int = 1440
    bf_resolution: int = 60
    bf_interval: int = 30
    #: [OverTimeLimit] in seconds (whole minutes; ``inf``: UNLIMITED): how long a job may
    #: run past its time limit before slurmctld ends it (``job_time_limit``).
    over_time_limit: float = 0.0
    #: [KillWait] seconds: what the backfill plan adds to the end of a job past it.
    kill_wait: int = 30
    #: [AccountingStorageTRES]: the TRES tracked besides the standard ones (None: unset,
    #: not checked), which TRES weights must name (io/config/slurm_tres.py).
    accounting_storage_tres: str | None = None
    #: [GresTypes]: the GRES names slurmctld knows (None: unset, fs cannot know them),
    #: which a job's ``gres/`` attributes must name (core/slurm/gres_types.py).
    gres_types: tuple[str, ...] | None = None


#: The words ``parse_part_enforce_type`` takes for ``EnforcePartLimits`` (any case) and what
#: each is: ``YES`` is ``ANY`` (Slurm 22.05 and today alike), ``ALL`` alone is ``ALL``.
PART_ENFORCE_TYPES = {"yes": "ANY", "up": "ANY", "true": "ANY", "1": "ANY", "any": "ANY",
                      "no": "NO", "down": "NO", "false": "NO", "0": "NO", "all": "ALL"}  # fmt: skip


def part_enforce_type(word: str) -> str | None:
    """``EnforcePartLimits=word`` as slurmctld reads it: "NO", "ANY" or "ALL"; None for a
    word it refuses ("Bad EnforcePartLimits")."""
    return PART_ENFORCE_TYPES.get(word.strip().lower())


class PartitionSpec(msgspec.Struct, frozen=True):
    """``[partitions.<name>]``."""

    name: str
    priority_job_factor: int = 1
    default: bool = False
    max_time: float | None = None
    #: ``DefaultTime`` (None: unset): the time limit of a job that sets none.
    default_time: float | None = None
    #: ``PriorityTier``: a job's partitions are listed (and tried) highest tier first.
    priority_tier: int = 1
    #: ``MaxNodes`` (None: UNLIMITED) and ``MinNodes``: a job asking a node count outside
    #: them pends in this partition (``PartitionNodeLimit``).
    max_nodes: int | None = None
    min_nodes: int = 0
    #: ``TRESBillingWeights`` as written (None: unset, a job bills its CPUs).
    billing_weights: str | None = None
    #: ``OverTimeLimit`` of the partition's jobs (seconds, as ``priority.over_time_limit``);
    #: None: unset, that one.
    over_time_limit: float | None = None


class QosSpec(msgspec.Struct, frozen=True):
    """``[qos.<name>]``."""

    name: str
    priority: int = 0
    usage_factor: float = 1.0


Shares = int | str  # an integer, or the string "parent"


class AccountSpec(msgspec.Struct, frozen=True):
    """``[accounts.<name>]``: a Slurm account association and its users."""

    name: str
    parent: str | None = "root"
    shares: Shares = 1
    users: Mapping[str, Shares] = msgspec.field(default_factory=dict)
    #: The association's own ``Priority`` (None: its parent's), and per-user ones.
    priority: int | None = None
    user_priority: Mapping[str, int] = msgspec.field(default_factory=dict)


DIRAC_CPU_SEGMENTS: tuple[int, ...] = (
    360,
    1800,
    3600,
    21600,
    43200,
    86400,
    172800,
    259200,
    345600,
    518400,
    691200,
    864000,
    1080000,
)
"""DIRAC's default task-queue CPU-time segments (``JobScheduling/taskQueueCPUTimeIntervals``)."""


class DiracGroupSpec(msgspec.Struct, frozen=True):
    """``[dirac.groups.<name>]`` (``/Registry/Groups/<name>``)."""

    name: str
    job_share: int = 1000
    job_sharing: bool = False
    allow_background_tqs: bool = False
    vo: str = ""
    """``VO``: the VO (or comma-separated VOs) whose generic pilots take the group's jobs."""


class DiracSlice(msgspec.Struct, frozen=True):
    """One time slice of a share-correction instance (DIRAC's defaults when unset)."""

    time_span: int = 604800
    weight: int = 1
    max_correction: int = 3


class DiracCorrectionInstance(msgspec.Struct, frozen=True):
    """``[[dirac.correction.instances]]`` (one corrector instance of a type DIRAC starts)."""

    name: str
    group: str = ""
    max_global_correction: int = 5
    slices: tuple[DiracSlice, ...] = ()
    #: The corrector type (``ShareCorrectorsToStart``): one instance per key within a type;
    #: instances of several types for one key all apply, in turn.
    corrector: str = "WMSHistory"


class DiracCorrectionConfig(msgspec.Struct, frozen=True):
    """``[dirac.correction]``.

    ``absent_entities``, ``in_group_history`` and ``history_report`` choose between DIRAC's
    code (the defaults) and its documentation where the two disagree.
    """

    enabled: bool = False
    instances: tuple[DiracCorrectionInstance, ...] = ()
    absent_entities: str = "max_correction"
    in_group_history: str = "dn"
    history_report: str = "accounting"


class DiracJobDescription(msgspec.Struct, frozen=True):
    """``[dirac.job_description]`` (``/Operations/JobDescription``), DIRAC's defaults when unset.

    What DIRAC's JobManager gives a job that names no ``CPUTime`` or ``Priority``
    (``JobManifest.check``), and the bounds it refuses a job outside (``JobModel.py``).
    """

    default_cpu_time: int = 86400
    min_cpu_time: int = 100
    max_cpu_time: int = 500000
    default_priority: int = 1
    min_priority: int = 0
    max_priority: int = 10


class DiracPilotCheck(msgspec.Struct, frozen=True):
    """``[dirac.pilot]`` (``/Operations/Pilot``): how DIRAC's matcher checks a pilot's
    DIRAC version before it matches it (``Matcher._checkPilotVersion``), DIRAC's defaults
    when unset: a version required, any version taken, any project."""

    check_version: bool = True
    versions: tuple[str, ...] = ()
    project: str = ""


class DiracConfig(msgspec.Struct, frozen=True):
    """``[dirac]``.

    ``job_priority_weighting``: ``"average"`` (DIRAC's code) or ``"sum"`` (its documentation).
    """

    groups: Mapping[str, DiracGroupSpec] = msgspec.field(default_factory=dict)
    correction: DiracCorrectionConfig = msgspec.field(default_factory=DiracCorrectionConfig)
    job_priority_weighting: str = "average"
    cpu_segments: tuple[int, ...] = DIRAC_CPU_SEGMENTS
    job_description: DiracJobDescription = msgspec.field(default_factory=DiracJobDescription)
    pilot: DiracPilotCheck = msgspec.field(default_factory=DiracPilotCheck)
    vo: str = ""
    """The services' ``/DIRAC/VirtualOrganization`` (``""``: not set)."""
    notes: tuple[str, ...] = ()
    """Where DIRAC reads a value differently from what it says (``fs config check`` warns)."""


class Config(msgspec.Struct, frozen=True):
    """The whole pool config."""

    path: str = "<built-in>"
    pool: PoolConfig = msgspec.field(default_factory=PoolConfig)
    accountant: AccountantConfig = msgspec.field(default_factory=AccountantConfig)
    negotiator: NegotiatorConfig = msgspec.field(default_factory=NegotiatorConfig)
    machines: tuple[MachineSpec, ...] = ()
    groups: Mapping[str, GroupSpec] = msgspec.field(default_factory=dict)
    priority: SlurmPriorityConfig = msgspec.field(default_factory=SlurmPriorityConfig)
    partitions: Mapping[str, PartitionSpec] = msgspec.field(default_factory=dict)
    qos: Mapping[str, QosSpec] = msgspec.field(default_factory=dict)
    accounts: Mapping[str, AccountSpec] = msgspec.field(default_factory=dict)
    dirac: DiracConfig = msgspec.field(default_factory=DiracConfig)
