"""``fs quota``: hierarchical group quotas, like ``condor_userprio -quotas``."""

from __future__ import annotations

import click

from fairshare_cli.cli.context import load_env
from fairshare_cli.cli.htcondor_inputs import load_inputs
from fairshare_cli.cli.options import common_options, output_format, output_options


@click.command("quota")
@click.option(
    "--jobs-file",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Read the job queue from this JSON file instead of the state.",
)
@output_options
@common_options
def quota(
    jobs_file: str | None,
    output: str | None,
    as_json: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Show group quotas and this cycle's limits (like condor_userprio -quotas).

    \b
    Examples:
      fs quota --config sample_configs/pool.toml
      fs quota --jobs-file jobs.json --json
    Per group: the configured quota, what its subtree is assigned, its own effective
    quota, the whole slots its submitters negotiate for given the queue, use and demand.
    """
    from fairshare_cli.core.htcondor.pool import quota_view
    from fairshare_cli.render.formats import emit_rows
    from fairshare_cli.render.negotiate import QUOTA_FIELDS, quota_json_rows, render_quota

    env = load_env(config_path, state_path, now)
    inputs = load_inputs(env, jobs_file)
    rows = quota_view(env.config, inputs.batches, inputs.accountant, inputs.claims, env.now)
    fmt = output_format(output, as_json)
    if fmt != "table":
        emit_rows(quota_json_rows(rows), QUOTA_FIELDS, fmt)
        return
    render_quota(rows)
