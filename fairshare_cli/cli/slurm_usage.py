"""The state's Slurm usage as the views read it: running jobs ended at their limits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fairshare_cli.cli.context import Env

if TYPE_CHECKING:
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.slurm.usage import SlurmUsage


def view_usage(env: Env, jobs: Sequence[Job] | None = None) -> tuple[SlurmUsage, Sequence[Job]]:
    """The state's ``slurm`` section with the charges of the queue's running jobs ended
    where slurmctld ends the jobs (:mod:`~fairshare_cli.core.slurm.limit_ends`), and the
    queue (``jobs`` when given; read only when a charge names a job, else empty).

    Raises:
        StateError: the ``slurm`` section or the queue is malformed.
    """
    from fairshare_cli.core.slurm.limit_ends import ended_at_limits
    from fairshare_cli.core.slurm.usage import usage_from_json

    state = env.decode("slurm", usage_from_json)
    if not any(r.job is not None for r in state.running):
        return state, () if jobs is None else jobs
    if jobs is None:
        from fairshare_cli.core.jobs import jobs_from_objects

        label = f"{env.state_path}: jobs"
        jobs = env.decode("jobs", lambda raw: jobs_from_objects([] if raw is None else raw, label))
    return ended_at_limits(state, jobs, env.config), jobs
