"""``fs whatif``: run a view with config keys changed, without touching any file."""

from __future__ import annotations

from typing import Any

import click

from fairshare_cli.errors import InputError
from fairshare_cli.io.toml import tomllib

#: Views that only read; ``negotiate`` is forced to ``--dry-run``.
VIEWS = ("userprio", "sprio", "sshare", "quota", "negotiate", "taskqueues")


def parse_assignment(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with a TOML value (``3``, ``true``, ``"x"``, ``[1, 2]``); bare words are
    strings.

    Raises:
        InputError: no ``=`` or an empty key.
    """
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise InputError(
            f"--set {text}: expected KEY=VALUE, e.g. accountant.priority_halflife=3600"
        )
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except (ValueError, RecursionError):  # not a TOML value (or too big a one): a string
        value = raw.strip()
    return key.strip(), value


@click.command(
    "whatif", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False}
)
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="KEY=VALUE",
    required=True,
    help="A dotted config key and its new value (repeatable).",
)
@click.option(
    "--rederive-factors",
    is_flag=True,
    help="Read factor changes as if always in force: stored factors the current config "
    "derives are derived again (default: stored factors stay, as in HTCondor).",
)
@click.argument("view", type=click.Choice(VIEWS))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def whatif(
    ctx: click.Context,
    assignments: tuple[str, ...],
    rederive_factors: bool,
    view: str,
    args: tuple[str, ...],
) -> None:
    """Show a view as it would be with config keys changed; nothing is written.

    \b
    Examples:
      fs whatif --set accountant.priority_halflife=3600 userprio --config sample_configs/pool.toml
      fs whatif --set 'groups."group_physics".quota=300' quota
      fs whatif --set priority.fairshare=classic sshare -a -l
    Dotted keys are the config's (DESIGN §3); quote group names that contain dots.
    Priority factors are read as HTCondor keeps them: a record stores its factor when it
    is first written, so new default/remote/nice-user or group prio_factor values only
    reach records that store none yet (new submitters, old states), not existing ones.
    --rederive-factors reads them as if the new values had always been in force.
    """
    from fairshare_cli.cli import context
    from fairshare_cli.cli.main import cli

    overrides = dict(parse_assignment(a) for a in assignments)
    argv = list(args)
    if view == "negotiate" and "--dry-run" not in argv:
        argv.append("--dry-run")
    command = cli.get_command(ctx, view)
    if command is None:
        raise click.UsageError(f"the {view} view is not available in this version")
    context.WHATIF_OVERRIDES.clear()
    context.WHATIF_OVERRIDES.update(overrides)
    if rederive_factors:
        context.WHATIF_READING.add("rederive")
    try:
        with command.make_context(view, argv, parent=ctx) as sub:
            command.invoke(sub)
    finally:
        context.WHATIF_OVERRIDES.clear()
        context.WHATIF_READING.clear()
