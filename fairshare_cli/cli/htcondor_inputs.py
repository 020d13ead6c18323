"""What ``fs negotiate``, ``fs quota`` and ``fs simulate`` read: the queue, the accountant,
the claims (from ``--jobs-file`` or the state)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the negotiator loads when a command runs (`fs quota --help` stays light)
    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.batches import JobBatch
    from fairshare_cli.core.operations.negotiate import CycleInputs


def load_inputs(env: Env, jobs_file: str | None) -> CycleInputs:
    """Jobs from ``--jobs-file`` or the state, the accountant and negotiator sections.

    Raises:
        FairshareError: a malformed state section or jobs file, or a job whose accounting
            group has no configured parent.
    """
    from fairshare_cli.core.operations.negotiate import read_inputs
    from fairshare_cli.io.config import check_expressions

    check_expressions(env.config)
    if jobs_file:
        from fairshare_cli.io.job_groups import load_job_groups

        batches = load_job_groups(jobs_file)
        _refuse_later_jobs(env, batches, jobs_file)
        if env.config.groups:  # (as fs submit warns: a group with no user, or misspelt)
            from fairshare_cli.cli.submit_warnings import warn_job_groups

            warn_job_groups(batches, env.config)
        with env.section_errors():
            return read_inputs(env.config, env.state, env.now, f"jobs file {jobs_file}", batches)
    with env.section_errors():
        return read_inputs(env.config, env.state, env.now, f"state file {env.state_path}: jobs")


def _refuse_later_jobs(env: Env, batches: list[JobBatch], jobs_file: str) -> None:
    """Refuse a jobs file whose jobs are queued (or running jobs started) after ``--now``,
    the latest named, as ``fs submit --file`` refuses them: the queue at ``--now`` holds no
    such job (a workload's later jobs are ``fs simulate --workload``'s to queue).

    Raises:
        InputError: naming the job, its time and ``--now``.
    """
    from fairshare_cli.cli.imports._dump_time import later_job, latest, refuse_later_dump

    for field, verb in (("submit_time", "queued"), ("start_time", "started")):
        found = latest(
            [
                (when, f"{jobs_file}: job {batch.job.id}'s {field}")
                for batch in batches
                if (when := getattr(batch.job, field)) is not None and when > env.now
            ]
        )
        if found is not None:
            refuse_later_dump(found[1], found[0], env.now, later_job(verb))
