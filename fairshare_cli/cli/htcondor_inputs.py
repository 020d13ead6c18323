"""What ``fs negotiate`` and ``fs quota`` read: the queue, the accountant, the claims."""

from __future__ import annotations

from dataclasses import dataclass

from fairshare_cli.cli.context import Env
from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.pool import (
    NegotiatorState,
    check_jobs,
    current_claims,
    negotiator_from_json,
)
from fairshare_cli.core.jobs import Job, parse_jobs


@dataclass
class HTCondorInputs:
    """The queue and the state sections a negotiation reads."""

    jobs: list[Job]
    batches: list[JobBatch]
    jobs_source: str
    accountant: acct.AccountantState
    negotiator: NegotiatorState
    claims: list[Claim]


def load_inputs(env: Env, jobs_file: str | None) -> HTCondorInputs:
    """Jobs from ``--jobs-file`` or the state, the accountant and negotiator sections.

    Raises:
        FairshareError: a malformed state section or jobs file, or a job whose accounting
            group has no configured parent.
    """
    from fairshare_cli.io.config import check_expressions

    check_expressions(env.config)
    if jobs_file:
        from fairshare_cli.io.jobs import load_job_batches

        batches = load_job_batches(jobs_file)
        jobs = [b.job for b in batches]  # one per batch: enough for checks and claims
        source = f"jobs file {jobs_file}"
    else:
        source = f"state file {env.state_path}: jobs"
        jobs = env.decode("jobs", lambda raw: parse_jobs([] if raw is None else raw, source))
        batches = [JobBatch(j) for j in jobs]
    check_jobs(jobs, env.config, source)
    accountant = env.decode("accountant", acct.accountant_from_json)
    negotiator = env.decode("negotiator", negotiator_from_json)
    claims = current_claims(negotiator, jobs, env.config, env.now)
    return HTCondorInputs(jobs, batches, source, accountant, negotiator, claims)
