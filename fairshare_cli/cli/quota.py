"""``fs quota``: hierarchical group quotas, like ``condor_userprio -quotas``."""

from __future__ import annotations

import click

from fairshare_cli.cli.context import load_env
from fairshare_cli.cli.htcondor_inputs import load_inputs
from fairshare_cli.cli.options import (
    FilePath,
    GlobalOptions,
    common_options,
    no_empty_path,
    output_options,
    pass_options,
    wide_option,
)


@click.command("quota")
@click.option(
    "--jobs-file",
    type=FilePath(),
    metavar="FILE",
    callback=no_empty_path,
    help="Read the job queue from this JSON file instead of the state.",
)
@wide_option
@output_options
@common_options
@pass_options
def quota(
    opts: GlobalOptions,
    jobs_file: str | None,
    wide: bool,
) -> None:
    """Show group quotas and this cycle's limits (like condor_userprio -quotas).

    \b
    Examples:
      fs quota --config sample_configs/pool.toml
      fs quota --jobs-file sample_configs/jobs.json --json

    Per group: the configured quota, what its subtree is assigned, its own effective
    quota, the whole slots its submitters negotiate for given the queue, use and demand.
    """
    from fairshare_cli.core.htcondor.pool import quota_view
    from fairshare_cli.core.operations.negotiate import checked_accountant
    from fairshare_cli.render.formats import emit_rows
    from fairshare_cli.render.negotiate import QUOTA_FIELDS, quota_json_rows, render_quota

    env = load_env(opts)
    inputs = load_inputs(env, jobs_file)
    accountant = checked_accountant(env.config, inputs, env.now)  # as the cycle sees it
    rr_times = inputs.negotiator.rr_times  # (the remainders' round robin, as the cycle's)
    rows = quota_view(env.config, inputs.batches, accountant, inputs.claims, env.now, rr_times)
    fmt = opts.output
    if fmt != "table":
        emit_rows(quota_json_rows(rows), QUOTA_FIELDS, fmt)
        return
    render_quota(rows, wide=wide)
