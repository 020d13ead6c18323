"""Integer and time bounds shared by the readers and the three schedulers."""

from __future__ import annotations

#: ClassAd integers (and so whole-number job fields and machine attributes) are 64-bit signed.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: A C ``int``: HTCondor group quotas and ``INT_MAX`` defaults.
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
#: Slurm's ``uint32_t`` fields (shares, weights, priorities); also ``INFINITE``.
UINT32_MAX = 2**32 - 1
#: The largest job priority ``scontrol update job priority=`` takes: parse_uint32
#: (src/common/proc_args.c) refuses NO_VAL (``0xfffffffe``) and above.
SLURM_PRIORITY_MAX = UINT32_MAX - 2
#: A Slurm job's nice and site factor: ±(NICE_OFFSET − 3), what ``sbatch --nice`` and
#: ``scontrol update job SiteFactor=`` take.
NICE_LIMIT = 2147483645
#: Times must be ISO-8601 printable: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z.
TIME_MIN, TIME_MAX = -62135596800.0, 253402300799.0
#: The most jobs one ``"count": N`` object may stand for.
MAX_JOB_COUNT = 10_000_000
#: The most slots a pool may expand to: every slot is a ClassAd held in memory.
MAX_POOL_SLOTS = 1_000_000
#: The longest line a line-oriented dump may hold (64 MiB; characters where it is read as
#: text): a pipe without a newline (``yes | tr -d '\n'``) is refused there, not read until
#: memory runs out. JSON documents are not held to it (their lines are the writer's choice).
MAX_LINE = 1 << 26
