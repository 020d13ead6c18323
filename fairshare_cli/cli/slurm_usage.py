"""The state's Slurm usage as the views read it: running jobs ended at their limits."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from fairshare_cli.cli.context import Env

if TYPE_CHECKING:
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.slurm.usage import SlurmUsage


def view_usage(
    env: Env, jobs: Sequence[Job] | None = None, running_on: Collection[str] = ()
) -> tuple[SlurmUsage, Sequence[Job]]:
    """The state's ``slurm`` section with the charges of the queue's running jobs ended
    where slurmctld ends the jobs (:mod:`~fairshare_cli.core.slurm.limit_ends`), and the
    queue's jobs those charges read: ``jobs`` when given, else the state's jobs that the
    charges name (none read when no charge names a job). ``running_on``: the ids of jobs
    a newer dump shows running (``fs import squeue``): slurmctld has not ended them, so
    their charges stay open and their jobs are not read (a re-import's 25,000).

    Raises:
        StateError: the ``slurm`` section or the queue is malformed.
    """
    from fairshare_cli.core.slurm.limit_ends import charged_ids, charged_queue, ended_at_limits
    from fairshare_cli.core.slurm.usage import usage_from_json

    state = env.decode("slurm", usage_from_json)
    ids = charged_ids(state).difference(running_on)
    if not ids:
        return state, () if jobs is None else jobs
    if jobs is None:  # (the jobs of those charges: the rest of the queue is not read)
        label = f"{env.state_path}: jobs"
        jobs = env.decode("jobs", lambda raw: charged_queue(ids, raw, label))
    ending = [job for job in jobs if job.id not in running_on] if running_on else jobs
    return ended_at_limits(state, ending, env.config), jobs
