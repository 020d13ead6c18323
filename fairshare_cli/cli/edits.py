"""The accountant edits of ``condor_userprio``: setfactor, setprio, setaccum, ...

Each takes the state lock, brings the record up to ``now``, changes it, writes once, and
prints condor_userprio's confirmation line. ``--dry-run`` prints the line and writes nothing.
The nine commands differ in a name, a value parser, an accountant call and a confirmation
line: they are rows of :data:`EDITS`, made into commands by :func:`edit_command`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from fairshare_cli.cli.complete import submitter_names
from fairshare_cli.cli.context import Env, mutate_state
from fairshare_cli.cli.names import close_record, create_option, group_records, new_record_note
from fairshare_cli.cli.options import GlobalOptions, common_options, dry_run_option, pass_options
from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.limits import INT32_MAX
from fairshare_cli.core.names import c_number_text, check_name, shown
from fairshare_cli.errors import InputError

Change = Callable[[acct.AccountantState, Env, str, Any], acct.AccountantState]


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
    full = acct.qualify(name, env.config.pool.uid_domain)
    if "@" not in name and "." in name:
        records = env.decode("accountant", acct.accountant_from_json).records
        hint = f"; did you mean {full}" if full in records else ""  # (a user inside a group)
        raise InputError(
            f"'{name}' is neither a configured group nor a submitter; give user@domain "
            f"or a group from the config{hint}"
        )
    return full


def number(text: str, what: str) -> float:
    """A finite number from the command line.

    Raises:
        InputError: not a finite number.
    """
    try:
        value = float(_as_c_reads(text))
    except ValueError:
        raise InputError(f"{what}: expected a number, got '{text}'") from None
    if not math.isfinite(value):
        raise InputError(f"{what}: expected a finite number, got '{text}'")
    return value


def _as_c_reads(text: str) -> str:
    """``text``, if condor_userprio's ``atof``/``strtol`` could read all of it
    (:func:`~fairshare_cli.core.names.c_number_text`).

    Raises:
        ValueError: an underscore or a character outside ASCII.
    """
    if not c_number_text(text):
        raise ValueError(text)
    return text


def _time_value(value: str) -> float:
    try:
        t = parse_time(value, "WHEN")
    except InputError as exc:  # (a number out of range, a date no calendar has: said as is)
        if "expected epoch seconds or an ISO-8601 time" not in str(exc):
            raise
        raise InputError(
            f"WHEN: expected epoch seconds or an ISO-8601 time like 2026-11-21T12:00:00Z, "
            f"got '{value}'"
        ) from None
    if t < 0:
        raise InputError("Time must be greater than 0 seconds")
    return t


def _factor(text: str) -> float:
    factor = number(text, "priority factor")
    if factor < 1:
        raise InputError("Priority factors must be greater than or equal to 1.")
    return factor


def _seconds(text: str) -> float:
    secs = number(text, "accumulated usage")
    if secs < 0:
        raise InputError("Usage must be greater than 0 seconds")
    return secs


def _whole(text: str, what: str, least: int) -> int:
    """A whole number from ``least`` to ``INT_MAX`` (the negotiator reads a C ``int``).

    condor_userprio reads it with ``strtol`` and refuses one below ``least`` with the same
    line; fs also refuses text that is not a whole number rather than reading its prefix.

    Raises:
        InputError: not a whole number, or out of range.
    """
    try:
        value = int(_as_c_reads(text).strip())
    except ValueError:
        raise InputError(f"{what}: expected a whole number, got '{text}'") from None
    if value < least:
        raise InputError(f"{what} must be greater than or equal to {least}.")
    if value > INT32_MAX:
        raise InputError(f"{what}: expected at most {INT32_MAX}, got {value}")
    return value


def _submitter_only(what: str, change: Change) -> Change:
    """``change`` for a submitter (``user@domain``) only: condor_userprio refuses a name
    without ``@`` for every edit of one record (``user_prio.cpp``), so a group is refused
    (``-resetall`` alone reaches the group records)."""

    def checked(s: acct.AccountantState, env: Env, n: str, value: Any) -> acct.AccountantState:
        if "@" not in n:
            raise InputError(
                f"cannot {what} of group '{n}': condor_userprio requires the full "
                "name of a submitter (user@uid.domain or user@full.host.name)"
            )
        return change(s, env, n, value)

    return checked


def _floor_or_ceiling(what: str) -> Change:
    """The ``setfloor``/``setceiling`` change; the negotiator reads it from the
    submitter's own record."""

    def change(s: acct.AccountantState, env: Env, n: str, value: int) -> acct.AccountantState:
        return acct.set_floor_or_ceiling(s, env.config, n, what, value, env.now)

    return _submitter_only(f"set the {what}", change)


def _set_factor(s: acct.AccountantState, env: Env, n: str, factor: float) -> acct.AccountantState:
    if "@" not in n:
        raise InputError(
            f"cannot set the factor of group '{n}' here (condor_userprio refuses too); "
            f'set prio_factor in [groups."{n}"] of the config'
        )
    return acct.set_factor(s, env.config, n, factor, env.now)


def _full_name(name: str) -> None:
    """``condor_userprio -delete`` refuses a name without a domain too.

    Raises:
        InputError: ``name`` has no ``@``.
    """
    if "@" not in name:
        raise InputError(
            f"NAME '{shown(name)}': give the full name of the record to delete (user@uid.domain "
            "or user@full.host.name), as condor_userprio -delete requires; group records "
            "come back at every reconfig"
        )


def _delete(s: acct.AccountantState, env: Env, n: str, _: None) -> acct.AccountantState:
    """condor_userprio -delete says "was deleted" of any name; fs refuses a name that
    has no record (a typo would otherwise pass for a deletion).

    Raises:
        InputError: no record named ``n``.
    """
    if n not in s.records:
        inside = group_records(n, s.records)
        hint = f"; did you mean {' or '.join(inside)}" if inside else ""
        close = None if inside else close_record(n, list(s.records))
        hint = f"; did you mean {shown(close)}" if close is not None else hint
        raise InputError(
            f"cannot delete '{shown(n)}': the accountant has no record by that name "
            f"(condor_userprio -delete would report it deleted and change nothing){hint}"
        )
    return acct.delete(s, n)


@dataclass(frozen=True)
class Edit:
    """One ``condor_userprio`` edit as a command.

    Attributes:
        name: the command's name.
        help: its help text.
        argument: the value argument's name (None: the command takes only NAME).
        parse: reads the value argument (before anything is loaded).
        change: the accountant call, given the state, the env, the full name and the value.
        message: the confirmation line, given the full name and the value.
        every: with ``--all`` (NAME optional): the change and the line for every record.
        check_name: refuses a NAME before anything is loaded.
    """

    name: str
    help: str
    argument: str | None
    parse: Callable[[str], Any]
    change: Change
    message: Callable[[str, Any], str]
    every: tuple[Callable[[acct.AccountantState, Env], acct.AccountantState], str] | None = None
    check_name: Callable[[str], None] | None = None


def _run(edit: Edit, opts: GlobalOptions, params: dict[str, Any]) -> None:
    """Parse the value, then lock, change the record named and print the line."""
    name: str | None = params["name"]
    value = edit.parse(params[edit.argument]) if edit.argument else None
    if edit.check_name is not None and name is not None:
        edit.check_name(name)
    if edit.every is not None and bool(name) == params["all_"]:
        raise click.UsageError("give a NAME or --all (not both)")
    dry_run: bool = params["dry_run"]
    prefix = "(dry run, nothing written) " if dry_run else ""
    with mutate_state(opts, dry_run) as env:
        if edit.every is not None and name is None:
            change_all, line = edit.every
            state = env.decode("accountant", acct.accountant_from_json)
            env.state = env.state.with_section(
                "accountant", acct.accountant_to_json(change_all(state, env))
            )
        else:
            assert name is not None
            full = record_name(env, name)
            state = env.decode("accountant", acct.accountant_from_json)
            note = new_record_note(env, state, full) if edit.name != "delete" else ""
            new = edit.change(state, env, full, value)
            env.state = env.state.with_section("accountant", acct.accountant_to_json(new))
            line = edit.message(full, value) + note
    click.echo(prefix + line)  # (once the state is written: a failed write changed nothing)


def edit_command(edit: Edit) -> click.Command:
    """The click command of one :class:`Edit` (arguments and options as condor_userprio's)."""

    @pass_options
    def callback(opts: GlobalOptions, /, **params: Any) -> None:
        _run(edit, opts, params)

    callback.__doc__ = edit.help
    func: Any = callback
    if edit.every is not None:
        func = create_option(dry_run_option(common_options(func)))
        func = click.option("--all", "all_", is_flag=True, help="Reset every record (-resetall).")(
            func
        )
        func = click.argument("name", required=False, shell_complete=submitter_names)(func)
        return click.command(edit.name)(func)
    func = common_options(dry_run_option(func))
    if edit.argument:
        func = create_option(click.argument(edit.argument)(func))
    func = click.argument("name", shell_complete=submitter_names)(func)
    return click.command(edit.name, context_settings={"ignore_unknown_options": True})(func)


EDITS = (
    Edit(
        "setfactor",
        """Set a submitter's priority factor, like condor_userprio -setfactor.

    \b
    Example:
      fs setfactor ivan@example.org 4

    The factor multiplies the real priority; it must be at least 1.
    A group's factor is its prio_factor in the config; a group NAME is refused.
    """,
        "value",
        _factor,
        _set_factor,
        lambda n, factor: f"The priority factor of {n} was set to {factor:f}",
    ),
    Edit(
        "setprio",
        """Set a submitter's real priority, like condor_userprio -setprio.

    \b
    Example:
      fs setprio ivan@example.org 10

    Reads clamp the real priority to 0.5; the effective priority is real x factor.
    A bare user gets [pool] uid_domain; a group is refused, as condor_userprio does.
    """,
        "value",
        lambda text: number(text, "priority"),
        _submitter_only(
            "set the priority",
            lambda s, env, n, prio: acct.set_priority(s, env.config, n, prio, env.now),
        ),
        lambda n, prio: f"The priority of {n} was set to {prio:f}",
    ),
    Edit(
        "setfloor",
        """Set a submitter's floor, like condor_userprio -setfloor.

    \b
    Example:
      fs setfloor ivan@example.org 4

    Each cycle, submitters below their floor negotiate first, each for up to its floor
    (weighted slots); 0 removes the floor.
    A bare user gets [pool] uid_domain; a group is refused, as condor_userprio does.
    """,
        "value",
        lambda text: _whole(text, "floor", 0),
        _floor_or_ceiling("floor"),
        lambda n, value: f"The floor of {n} was set to {value}",
    ),
    Edit(
        "setceiling",
        """Set a submitter's ceiling, like condor_userprio -setceiling.

    \b
    Example:
      fs setceiling ivan@example.org 10

    The negotiator matches no more for the submitter once its weighted slots in use
    reach the ceiling; -1 removes the ceiling.
    A bare user gets [pool] uid_domain; a group is refused, as condor_userprio does.
    """,
        "value",
        lambda text: _whole(text, "ceiling", -1),
        _floor_or_ceiling("ceiling"),
        lambda n, value: f"The ceiling of {n} was set to {value}",
    ),
    Edit(
        "setaccum",
        """Set weighted accumulated usage, like condor_userprio -setaccum.

    \b
    Example:
      fs setaccum ivan@example.org 36000

    VALUE is in weighted slot-seconds (36000 is 10 slot-hours).
    A bare user gets [pool] uid_domain; a group is refused, as condor_userprio does.
    """,
        "value",
        _seconds,
        _submitter_only(
            "set the accumulated usage",
            lambda s, env, n, secs: acct.set_accumulated(s, env.config, n, secs, env.now),
        ),
        lambda n, secs: f"The Accumulated Usage of {n} was set to {secs:f}",
    ),
    Edit(
        "setbegin",
        """Set the usage begin time, like condor_userprio -setbegin.

    \b
    Example:
      fs setbegin ivan@example.org 2026-11-01T00:00:00Z

    WHEN is epoch seconds or ISO-8601 (UTC unless it names a zone).
    A bare user gets [pool] uid_domain; a group is refused, as condor_userprio does.
    """,
        "when",
        _time_value,
        _submitter_only(
            "set the begin usage time",
            lambda s, env, n, t: acct.set_begin(s, env.config, n, t, env.now),
        ),
        lambda n, t: f"The Begin Usage Time of {n} was set to {int(t)}",
    ),
    Edit(
        "setlast",
        """Set the last usage time, like condor_userprio -setlast.

    \b
    Example:
      fs setlast ivan@example.org 1795255200

    WHEN is epoch seconds or ISO-8601 (UTC unless it names a zone).
    A bare user gets [pool] uid_domain; a group is refused, as condor_userprio does.
    """,
        "when",
        _time_value,
        _submitter_only(
            "set the last usage time",
            lambda s, env, n, t: acct.set_last(s, env.config, n, t, env.now),
        ),
        lambda n, t: f"The Last Usage Time of {n} was set to {int(t)}",
    ),
    Edit(
        "resetusage",
        """Reset accumulated usage, like condor_userprio -resetusage / -resetall.

    \b
    Examples:
      fs resetusage ivan@example.org
      fs resetusage --all

    The real priority is left as it is; the begin-usage time becomes now.
    A bare user gets [pool] uid_domain; a group is refused (--all resets groups too).
    """,
        None,
        str,
        _submitter_only(
            "reset the accumulated usage",
            lambda s, env, n, _: acct.reset_usage(s, env.config, [n], env.now),
        ),
        lambda n, _: f"The accumulated usage of {n} was reset",
        every=(
            lambda s, env: acct.reset_usage(s, env.config, None, env.now),
            "The accumulated usage was reset for all users",
        ),
    ),
    Edit(
        "delete",
        """Delete an accountant record, like condor_userprio -delete.

    \b
    Example:
      fs delete judy@example.org

    The record returns with defaults (priority 0.5) if the submitter is seen again. As
    condor_userprio, it takes only a full name: a group or a bare user is refused.
    """,
        None,
        str,
        _delete,
        lambda n, _: f"The accountant record named {n} was deleted",
        check_name=_full_name,
    ),
)

_COMMANDS = {edit.name: edit_command(edit) for edit in EDITS}
setfactor = _COMMANDS["setfactor"]
setprio = _COMMANDS["setprio"]
setfloor = _COMMANDS["setfloor"]
setceiling = _COMMANDS["setceiling"]
setaccum = _COMMANDS["setaccum"]
setbegin = _COMMANDS["setbegin"]
setlast = _COMMANDS["setlast"]
resetusage = _COMMANDS["resetusage"]
delete = _COMMANDS["delete"]
