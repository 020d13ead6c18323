"""The accountant edits of ``condor_userprio``: setfactor, setprio, setaccum, ...

Each takes the state lock, brings the record up to ``now``, changes it, writes once, and
prints condor_userprio's confirmation line. ``--dry-run`` prints the line and writes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import click

from fairshare_cli.cli.context import Env, mutate_state
from fairshare_cli.cli.options import common_options, dry_run_option
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.jobs import parse_time
from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError

Edit = Callable[[acct.AccountantState, Env, str], acct.AccountantState]


def record_name(env: Env, name: str) -> str:
    """A configured group (or ``<none>``) keeps its name; a bare user gets ``@uid_domain``.

    Raises:
        InputError: an empty name (or an empty user before ``@``), or a dotted name that
            is not a configured group.
    """
    if not name.strip() or name.strip().startswith("@"):
        raise InputError(f"NAME '{name}': expected user@domain, a user or a group name")
    check_name(name, "NAME", submitter=True)
    if name == acct.ROOT_GROUP or name in env.config.groups:
        return name
    lowered = {g.lower(): g for g in env.config.groups}
    if name.lower() in lowered:
        return lowered[name.lower()]
    if "@" not in name and "." in name:
        raise InputError(
            f"'{name}' is neither a configured group nor a submitter; give user@domain "
            "or a group from the config"
        )
    return acct.qualify(name, env.config.pool.uid_domain)


def number(text: str, what: str) -> float:
    """A finite number from the command line.

    Raises:
        InputError: not a finite number.
    """
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what}: expected a number, got '{text}'") from None
    if not math.isfinite(value):
        raise InputError(f"{what}: expected a finite number, got '{text}'")
    return value


def _run(
    name: str,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
    edit: Edit,
    message: Callable[[str], str],
) -> None:
    with mutate_state(config_path, state_path, now, dry_run) as env:
        full = record_name(env, name)
        state = env.decode("accountant", acct.accountant_from_json)
        new = edit(state, env, full)
        env.state = env.state.with_section("accountant", acct.accountant_to_json(new))
        prefix = "(dry run, nothing written) " if dry_run else ""
        click.echo(prefix + message(full))


def _edit_command(
    name: str, help_text: str, argument: str | None
) -> Callable[[Callable[..., None]], click.Command]:
    def deco(func: Callable[..., None]) -> click.Command:
        func.__doc__ = help_text
        func = common_options(dry_run_option(func))
        if argument:
            func = click.argument(argument)(func)
        func = click.argument("name")(func)
        return click.command(name, context_settings={"ignore_unknown_options": True})(func)

    return deco


@_edit_command(
    "setfactor",
    """Set a submitter's priority factor, like condor_userprio -setfactor.

    \b
    Example:
      fs setfactor alice@example.org 4
    The factor multiplies the real priority; it must be at least 1.
    """,
    "value",
)
def setfactor(
    name: str,
    value: str,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    factor = number(value, "priority factor")
    if factor < 1:
        raise InputError("Priority factors must be greater than or equal to 1.")

    def edit(s: acct.AccountantState, env: Env, n: str) -> acct.AccountantState:
        if "@" not in n:
            raise InputError(
                f"cannot set the factor of group '{n}' here (condor_userprio refuses too); "
                f'set prio_factor in [groups."{n}"] of the config'
            )
        return acct.set_factor(s, env.config, n, factor, env.now)

    _run(
        name,
        dry_run,
        config_path,
        state_path,
        now,
        edit,
        lambda n: f"The priority factor of {n} was set to {factor:f}",
    )


@_edit_command(
    "setprio",
    """Set a submitter's real priority, like condor_userprio -setprio.

    \b
    Example:
      fs setprio alice@example.org 10
    Reads clamp the real priority to 0.5; the effective priority is real x factor.
    """,
    "value",
)
def setprio(
    name: str,
    value: str,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    prio = number(value, "priority")
    _run(
        name,
        dry_run,
        config_path,
        state_path,
        now,
        lambda s, env, n: acct.set_priority(s, env.config, n, prio, env.now),
        lambda n: f"The priority of {n} was set to {prio:f}",
    )


@_edit_command(
    "setaccum",
    """Set weighted accumulated usage (slot-seconds), like -setaccum.

    \b
    Example:
      fs setaccum alice@example.org 36000
    """,
    "value",
)
def setaccum(
    name: str,
    value: str,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    secs = number(value, "accumulated usage")
    if secs < 0:
        raise InputError("Usage must be greater than 0 seconds")
    _run(
        name,
        dry_run,
        config_path,
        state_path,
        now,
        lambda s, env, n: acct.set_accumulated(s, env.config, n, secs, env.now),
        lambda n: f"The Accumulated Usage of {n} was set to {secs:f}",
    )


def _time_value(value: str) -> float:
    try:
        t = parse_time(value, "time")
    except InputError:
        raise InputError(f"time: expected epoch seconds or ISO-8601, got '{value}'") from None
    if t < 0:
        raise InputError("Time must be greater than 0 seconds")
    return t


@_edit_command(
    "setbegin",
    """Set the usage begin time, like condor_userprio -setbegin.

    \b
    Example:
      fs setbegin alice@example.org 2026-11-01T00:00:00Z
    """,
    "when",
)
def setbegin(
    name: str,
    when: str,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    t = _time_value(when)
    _run(
        name,
        dry_run,
        config_path,
        state_path,
        now,
        lambda s, env, n: acct.set_begin(s, env.config, n, t, env.now),
        lambda n: f"The Begin Usage Time of {n} was set to {int(t)}",
    )


@_edit_command(
    "setlast",
    """Set the last usage time, like condor_userprio -setlast.

    \b
    Example:
      fs setlast alice@example.org 1763726400
    """,
    "when",
)
def setlast(
    name: str,
    when: str,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    t = _time_value(when)
    _run(
        name,
        dry_run,
        config_path,
        state_path,
        now,
        lambda s, env, n: acct.set_last(s, env.config, n, t, env.now),
        lambda n: f"The Last Usage Time of {n} was set to {int(t)}",
    )


@click.command("resetusage")
@click.argument("name", required=False)
@click.option("--all", "all_", is_flag=True, help="Reset every record (-resetall).")
@dry_run_option
@common_options
def resetusage(
    name: str | None,
    all_: bool,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Reset accumulated usage, like condor_userprio -resetusage / -resetall.

    \b
    Examples:
      fs resetusage alice@example.org
      fs resetusage --all
    The real priority is left as it is; the begin-usage time becomes now.
    """
    if bool(name) == all_:
        raise click.UsageError("give a NAME or --all (not both)")
    if all_:
        with mutate_state(config_path, state_path, now, dry_run) as env:
            state = env.decode("accountant", acct.accountant_from_json)
            new = acct.reset_usage(state, env.config, None, env.now)
            env.state = env.state.with_section("accountant", acct.accountant_to_json(new))
            prefix = "(dry run, nothing written) " if dry_run else ""
            click.echo(prefix + "The accumulated usage was reset for all users")
        return
    assert name is not None
    _run(
        name,
        dry_run,
        config_path,
        state_path,
        now,
        lambda s, env, n: acct.reset_usage(s, env.config, [n], env.now),
        lambda n: f"The accumulated usage of {n} was reset",
    )


@_edit_command(
    "delete",
    """Delete an accountant record, like condor_userprio -delete.

    \b
    Example:
      fs delete olduser@example.org
    The record returns with defaults (priority 0.5) if the submitter is seen again. As
    condor_userprio, it takes only a full name: a group or a bare user is refused.
    """,
    None,
)
def delete(
    name: str, dry_run: bool, config_path: str | None, state_path: str | None, now: str | None
) -> None:
    if "@" not in name:  # condor_userprio -delete refuses a name without a domain too
        raise InputError(
            f"NAME '{name}': give the full name of the record to delete (user@uid.domain "
            "or user@full.host.name), as condor_userprio -delete requires; group records "
            "come back at every reconfig"
        )

    def edit(s: acct.AccountantState, env: Env, n: str) -> acct.AccountantState:
        if n not in s.records:
            click.echo(f"fs: note: there was no accountant record named {n}", err=True)
        return acct.delete(s, n)

    _run(
        name,
        dry_run,
        config_path,
        state_path,
        now,
        edit,
        lambda n: f"The accountant record named {n} was deleted",
    )
