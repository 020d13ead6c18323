"""What ``fs negotiate``, ``fs quota`` and ``fs simulate`` read: the queue, the accountant,
the claims (from ``--jobs-file`` or the state)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the negotiator loads when a command runs (`fs quota --help` stays light)
    from fairshare_cli.cli.context import Env
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
        with env.section_errors():
            return read_inputs(env.config, env.state, env.now, f"jobs file {jobs_file}", batches)
    with env.section_errors():
        return read_inputs(env.config, env.state, env.now, f"state file {env.state_path}: jobs")
