"""What ``fs simulate`` runs besides the state's queue: the workload, checked against the
queue and the config, and for ``--scheduler slurm`` the jobs slurmctld takes to no partition."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from fairshare_cli.errors import InputError

if TYPE_CHECKING:
    from fairshare_cli.cli.context import Env
    from fairshare_cli.cli.options import GlobalOptions
    from fairshare_cli.core.batches import JobBatch
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.operations.negotiate import CycleInputs


def read_workload(env: Env, inputs: CycleInputs, workload: str | None) -> list[JobBatch]:
    """The workload's jobs (a ``count`` object stays one batch), checked against the queue
    and the config.

    Raises:
        InputError: a job id already queued, a bad expression or group, an unknown QOS.
    """
    from fairshare_cli.core.htcondor.pool import check_jobs
    from fairshare_cli.io.jobs import load_job_batches

    batches = load_job_batches(workload, label=workload) if workload else []
    firsts = [b.job for b in batches]
    clash = first_known(batches, {j.id for j in inputs.jobs})
    if clash is not None:
        raise InputError(f"{workload}: job {clash} is already in the state's queue")
    if workload:
        check_jobs(firsts, env.config, workload)
    if env.config.accounts:
        # Finished work is charged to Slurm with its QOS usage factor: refuse an unknown
        # QOS here, naming the job, rather than as an anonymous usage record later.
        from fairshare_cli.core.slurm.factors import split_qos

        several = env.config.priority.output_compat != "22.05"
        for source, jobs in ((inputs.jobs_source, inputs.jobs), (workload, firsts)):
            for job in jobs:
                for name in split_qos(f"{source}: job {job.id}", job.qos, several):
                    if name != "normal" and name not in env.config.qos:
                        raise InputError(f'{source}: job {job.id}: unknown QOS "{name}"')
    return batches


def first_known(batches: list[JobBatch], known: set[str]) -> str | None:
    """The first workload job id already in ``known`` (batches are never expanded)."""
    by_cluster: dict[str, list[str]] = {}
    for job_id in known:
        by_cluster.setdefault(job_id.partition(".")[0], []).append(job_id)
    for batch in batches:
        found = [j for j in by_cluster.get(batch.job.id.partition(".")[0], ()) if batch.holds(j)]
        if found:
            return min(found, key=lambda j: (len(j), j))
    return None


def slurm_jobs(
    opts: GlobalOptions,
    config: Config,
    inputs: CycleInputs,
    workload: list[JobBatch],
    source: str | None,
) -> tuple[Sequence[Job], list[JobBatch]]:
    """The queue and the workload (read from ``source``) as ``--scheduler slurm`` runs
    them. A job that names no partition where the config's partitions have no default is
    refused, named with its file, as ``fs sprio`` names it, and so is a workload's job
    asking a GRES ``gres_types`` does not list (the queue's entered under the config of
    then); on a side of ``fs whatif`` it is left out of that side and noted, as ``fs
    whatif ... sprio`` notes it (``before: left out job 28: names no partition, ...``):
    the other side's config may take it.

    Raises:
        InputError: such a job, outside ``fs whatif``.
    """
    from fairshare_cli.core.slurm.gres_types import kept_known_gres, refuse_unknown_gres
    from fairshare_cli.core.slurm.partition import kept_in_partitions, refuse_partitionless

    parts, gres = config.partitions, config.priority.gres_types
    if opts.side is None:
        refuse_partitionless(inputs.jobs, parts, inputs.jobs_source)
        refuse_partitionless([b.job for b in workload], parts, str(source))
        refuse_unknown_gres([b.job for b in workload], gres, str(source))
        return inputs.jobs, workload
    queue, why = kept_in_partitions(inputs.jobs, lambda job: job, parts)
    workload, more = kept_in_partitions(workload, attrgetter("job"), parts)
    workload, unknown = kept_known_gres(workload, attrgetter("job"), gres)
    opts.notes.extend(f"{opts.side}: left out {text}" for text in [*why, *more, *unknown])
    return queue, workload
