"""``fs userprio``: user priorities, like ``condor_userprio``."""

from __future__ import annotations

from typing import Any

import click

from fairshare_cli.cli.context import Env, load_env
from fairshare_cli.cli.options import common_options, output_format, output_options
from fairshare_cli.core.htcondor.accountant import AccountantState, accountant_from_json
from fairshare_cli.core.htcondor.userprio import (
    SORT_KEYS,
    GroupQuotaInfo,
    UserprioQuery,
    UserprioView,
    userprio_view,
)
from fairshare_cli.core.jobs import Job, parse_jobs
from fairshare_cli.render.formats import Time, emit_rows

JSON_FIELDS = (
    "name",
    "is_group",
    "effective_priority",
    "real_priority",
    "priority_factor",
    "resources_in_use",
    "weighted_resources_in_use",
    "accumulated_usage_hours",
    "weighted_accumulated_usage_hours",
    "begin_usage_time",
    "last_usage_time",
)


@click.command("userprio")
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option(
    "--all", "all_cols", is_flag=True, help="All columns (-all): quotas, dates, real priority."
)
@click.option("--allusers", is_flag=True, help="Also users with no usage in the last 24 hours.")
@click.option("--usage", is_flag=True, help="Usage columns only (-usage).")
@click.option("--priority", is_flag=True, help="Priority columns only (-priority).")
@click.option(
    "--hierarchical/--flat",
    "hierarchical",
    default=None,
    help="Group rows with their users under them, or one flat list.",
)
@click.option(
    "--sort",
    type=click.Choice(SORT_KEYS),
    default="priority",
    show_default=True,
    help="Row order (ties by name).",
)
@click.option("--long", "long_", is_flag=True, help="Raw accounting ads (-long).")
@output_options
@common_options
def userprio(  # noqa: PLR0913  Click passes each option as one keyword argument
    names: tuple[str, ...],
    all_cols: bool,
    allusers: bool,
    usage: bool,
    priority: bool,
    hierarchical: bool | None,
    sort: str,
    long_: bool,
    output: str | None,
    as_json: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Show user priorities, like condor_userprio.

    \b
    Examples:
      fs userprio --config sample_configs/pool.toml
      fs userprio --all --allusers
      fs userprio alice --json
    Rows: submitters (and groups) used in the last 24 hours, best priority first.
    """
    from fairshare_cli.render.userprio import choose_columns, render_long, render_userprio

    env = load_env(config_path, state_path, now)
    state, jobs, group_info = _read_inputs(env)
    query = UserprioQuery(
        names=names,
        all_users=allusers,
        hierarchical=hierarchical,
        sort=sort,
        show_priority=priority or not usage,
        show_usage=usage or not priority or all_cols,
        priority_only=priority and not usage and not all_cols,
    )
    view = userprio_view(state, env.config, env.now, query, jobs=jobs, group_info=group_info)
    fmt = output_format(output, as_json)
    if fmt != "table":
        emit_rows(_json_rows(view), JSON_FIELDS, fmt)
        return
    if long_:
        click.echo(render_long(view, env.now), nl=False)
        return
    cols = choose_columns(view, all_cols=all_cols, priority=priority, usage=usage)
    click.echo(render_userprio(view, cols, env.now), nl=False)


def _read_inputs(env: Env) -> tuple[AccountantState, list[Job], dict[str, GroupQuotaInfo]]:
    """The accountant, the queue and, when groups are configured, each group's quotas."""
    if not env.config.groups:
        state = env.decode("accountant", accountant_from_json)
        jobs = env.decode(
            "jobs", lambda raw: parse_jobs([] if raw is None else raw, f"{env.state_path}: jobs")
        )
        return state, jobs, {}
    # Groups: the quota computation reads queue, accountant and claims once for all.
    from fairshare_cli.cli.htcondor_inputs import load_inputs
    from fairshare_cli.core.htcondor.pool import quota_view

    inputs = load_inputs(env, None)
    quota_rows = quota_view(env.config, inputs.batches, inputs.accountant, inputs.claims, env.now)
    group_info = {
        r.group: GroupQuotaInfo(
            effective_quota=r.quota, subtree_quota=r.subtree_quota, sort_key=r.sort_key
        )
        for r in quota_rows
    }
    return inputs.accountant, inputs.jobs, group_info


def _json_rows(view: UserprioView) -> list[dict[str, Any]]:
    """The rows for ``--format json/ndjson/csv``, in :data:`JSON_FIELDS` order."""
    return [
        {
            "name": r.name,
            "is_group": r.is_group,
            "effective_priority": r.effective_priority,
            "real_priority": r.real_priority,
            "priority_factor": r.priority_factor,
            "resources_in_use": r.resources_in_use,
            "weighted_resources_in_use": r.weighted_resources_in_use,
            "accumulated_usage_hours": r.accumulated_usage_hours,
            "weighted_accumulated_usage_hours": r.weighted_accumulated_usage_hours,
            "begin_usage_time": Time(r.begin_usage_time),
            "last_usage_time": Time(r.last_usage_time),
        }
        for r in view.listed
    ]
