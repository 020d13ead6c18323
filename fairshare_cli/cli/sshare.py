"""``fs sshare``: association shares, usage and fair-share factors, like Slurm's ``sshare``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click

from fairshare_cli.cli.context import load_env
from fairshare_cli.cli.options import GlobalOptions, common_options, output_options, pass_options
from fairshare_cli.cli.slurm_client import (
    SSHARE_LONG,
    VERSION_REASON,
    cluster_asked,
    cluster_option,
    getopt_command,
    help_format_option,
    refused_option,
    sshare_help_format,
    usage_option,
)
from fairshare_cli.io.gc_pause import gc_paused

if TYPE_CHECKING:
    from collections.abc import Sequence

    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.slurm.assoc_tree import AssocTree
    from fairshare_cli.core.slurm.usage import SlurmUsage

JSON_FIELDS = (
    "account",
    "user",
    "raw_shares",
    "norm_shares",
    "raw_usage",
    "norm_usage",
    "effective_usage",
    "fairshare",
    "level_fs",
)


#: What ``-a`` puts in ``-u``'s list (no user name starts with a NUL).
ALL_USERS = "\0all"


class _AllUsersFlag(click.Option):
    """``-a``: kept in ``-u``'s list in command-line order, as :data:`ALL_USERS`, since
    the last of them decides (:func:`users_asked`)."""

    def add_to_parser(self, parser: Any, ctx: click.Context) -> None:
        parser.add_option(
            obj=self, opts=self.opts, dest="users", action="append_const", const=ALL_USERS
        )


def users_asked(items: tuple[str, ...]) -> tuple[bool, list[str]]:
    """Whether every user is asked for, else the users named, as sshare.c reads ``-a``
    and ``-u`` in order: ``-a`` and ``-u -1`` ask for all, a later ``-u LIST`` for LIST
    only (added to the names before it); all drops the names. Each LIST is read as
    :func:`user_list_names` reads it."""
    every, names = False, []
    for item in items:
        if item in (ALL_USERS, "-1"):
            every = True
        else:
            every = False
            names.extend(user_list_names(item))
    return every, [] if every else names


def user_list_names(text: str) -> list[str]:
    """The names of one ``-u LIST`` as sshare's ``_addto_name_char_list`` reads it
    (``slurm_parse_char_list``, 22.05 and 26.05): cut at commas, empty names skipped, no
    white space trimmed (``-u "ann, bob"`` names `` bob``, which no user is); a list
    opening with a quote ends at the next one, and any other quote becomes a backquote.
    A name starting with a digit is a uid (:func:`uid_user_name` names it)."""
    chars = list(text)
    quote = chars[0] if chars and chars[0] in "\"'" else None
    i = start = 1 if quote else 0
    names: list[str] = []
    while i < len(chars):
        if chars[i] == quote:
            break
        if chars[i] in "\"'":
            chars[i] = "`"
        elif chars[i] == ",":
            if i != start:
                names.append("".join(chars[start:i]))
            start = i + 1
        i += 1
    if i > start:
        names.append("".join(chars[start:i]))
    return names


def uid_user_name(name: str, compat: str) -> str:
    """``name`` as sshare's ``-u`` keeps it: one starting with an ASCII digit is a uid
    (``strtoul``'s leading digits, held in 32 bits) and stands for its passwd name; from
    Slurm 23.11 on uid 0 is ``root`` whatever the passwd file says, and from 25.11 on uid
    99 (``SLURM_AUTH_NOBODY``) is ``nobody`` (``uid_to_string_or_null``).

    Raises:
        InputError: the uid has no passwd entry (sshare: ``Invalid user id: N``).
    """
    if not name[:1].isascii() or not name[:1].isdigit():
        return name
    digits = name[: len(name) - len(name.lstrip("0123456789"))]
    uid = min(int(digits), 2**64 - 1) & 0xFFFFFFFF  # (strtoul, then a uint32_t)
    if uid in _FIXED_NAMES and compat != "22.05":
        return _FIXED_NAMES[uid]
    found = passwd_name(uid)
    if found is None:
        from fairshare_cli.errors import InputError

        raise InputError(
            f"Invalid user id: {uid} (-u {name}: no passwd entry has it; name the user)"
        )
    return found


def invoking_user(compat: str) -> str | None:
    """The user sshare shows by default: the name of the process's uid.

    sshare asks ``uid_to_string_or_null(getuid())`` (Slurm 22.05: ``getpwuid(getuid())``):
    ``$USER``, ``$LOGNAME`` and the like play no part. From Slurm 23.11 on uid 0 is
    ``root`` whatever the passwd file says (``src/common/uid.c``), and from 25.11 on uid 99
    ``nobody``; with no passwd entry it names no user and shows them all (None here).
    """
    uid = getattr(os, "getuid", lambda: None)()
    if compat != "22.05" and uid in _FIXED_NAMES:
        return _FIXED_NAMES[uid]
    return passwd_name()


#: The uids ``uid_to_string_or_null`` names whatever the passwd file says (today's Slurm):
#: 0 (23.11 on) and ``SLURM_AUTH_NOBODY`` (25.11 on).
_FIXED_NAMES = {0: "root", 99: "nobody"}


def passwd_name(uid: int | None = None) -> str | None:
    """The passwd name of ``uid`` (the process's uid when None); None with no entry, or off
    POSIX."""
    try:
        import pwd

        return pwd.getpwuid(os.getuid() if uid is None else uid).pw_name
    except (KeyError, ImportError, AttributeError, OverflowError):  # no entry; not POSIX
        return None


# (sshare.c reads no argument after its options: it ignores them, as ctx.args keeps them)
@click.command(
    "sshare", cls=getopt_command(SSHARE_LONG), context_settings={"allow_extra_args": True}
)
@click.option(
    "-a", "--all", "all_users", is_flag=True, cls=_AllUsersFlag, help="Show every user (-a)."
)
@click.option("-l", "--long", "long_", is_flag=True, help="Long listing (-l).")
@click.option(
    "-A",
    "--accounts",
    multiple=True,
    metavar="LIST",
    help="Only these accounts (comma list; any case).",
)
@click.option(
    "-u", "--users", multiple=True, metavar="LIST", help="These users (comma list; any case)."
)
@click.option("-U", "--Users", "users_only", is_flag=True, help="User rows only (-U).")
@click.option("-p", "--parsable", is_flag=True, help="'|' after every field (-p).")
@click.option("-P", "--parsable2", is_flag=True, help="'|' between fields (-P).")
@click.option("-n", "-h", "--noheader", is_flag=True, help="No header (-n).")
@click.option(
    "-m", "--partition", "partitions", is_flag=True, help="Add the Partition column (-m)."
)
@click.option(
    "-o",
    "--format",
    "formats",
    multiple=True,
    metavar="LIST",
    help="Fields, e.g. Account,User,RawUsage%15 (-o; names may be abbreviated).",
)
@cluster_option
@help_format_option(sshare_help_format, "-e")
@usage_option(whole=True)
@refused_option("-V", "--version", reason=VERSION_REASON)
@click.option(
    "-v", "--verbose", count=True, help="Name the users and accounts asked for, on stderr (-v)."
)
@refused_option(
    "--yaml",
    reason="fs prints no YAML; --json prints fs's own rows (docs/json.md), not sshare's",
)
@output_options
@common_options
@pass_options
def sshare(  # noqa: PLR0913  Click passes each option as one keyword argument
    opts: GlobalOptions,
    all_users: bool,
    long_: bool,
    accounts: tuple[str, ...],
    users: tuple[str, ...],
    users_only: bool,
    parsable: bool,
    parsable2: bool,
    noheader: bool,
    partitions: bool,
    formats: tuple[str, ...],
    clusters: str | None,
    verbose: int,
) -> None:
    """Show association shares, usage and fair share, like Slurm's sshare.

    \b
    Examples:
      fs sshare -a -l --config sample_configs/pool.toml     # like sshare -a -l
      fs sshare -a -P -o Account,User,FairShare,LevelFS
      fs sshare -a --json

    Rows: every account, and the users asked for (-a: all; default: you).
    """
    # Nothing the command builds (the config, the tree, the columns) is garbage before it
    # ends: the cyclic collector would only walk it (benchmarks/run.py --rows sshare: 6%).
    every, names = users_asked(users)  # (all_users: -a is in users, in its place)
    ignored = click.get_current_context().args
    with gc_paused():
        algo, columns, cluster, compat = _share_columns(
            opts, every, accounts, names, users_only, verbose=verbose > 0, clusters=clusters
        )
        if cluster_asked(clusters, cluster, compat=compat) and opts.output == "table":
            click.echo(f"CLUSTER: {cluster}")  # (sshare.c's _multi_cluster, before the rows)
        # (sshare appends each -o and a comma: xstrfmtcat(opt_field_list, "%s,", optarg))
        spec = "".join(f"{item}," for item in formats) if formats else None
        if spec is None:
            from fairshare_cli.render.sshare_fields import default_format

            spec = default_format(long_, algo == "fair_tree", partitions=partitions)
        mode = "parsable2" if parsable2 else "parsable" if parsable else "table"
        _print(opts.output, columns, spec, mode, noheader, compat)
    if ignored:  # (on stderr, once printed: stdout is sshare's, which says nothing of them;
        # a refused line prints its one error line alone)
        words = " ".join(repr(arg) for arg in ignored)
        click.echo(
            f"fs: note: ignored {words}, as sshare ignores an argument not an option's", err=True
        )


def _print(
    fmt: str,
    columns: dict[str, list[Any]],
    spec: str,
    mode: str,
    noheader: bool,
    compat: str,
) -> None:
    """Write the rows in ``columns`` as ``--output`` asks (the table: as sshare prints it)."""
    from fairshare_cli.render.sshare import render_columns
    from fairshare_cli.render.sshare_fields import parse_format

    if fmt != "table":
        from fairshare_cli.render.formats import emit_rows

        json_columns = [columns[key] for key in JSON_FIELDS]
        rows = [
            dict(zip(JSON_FIELDS, values, strict=True))
            for values in zip(*json_columns, strict=True)
        ]
        emit_rows(rows, JSON_FIELDS, fmt)
        return
    errors: list[str] = []
    try:  # (the hostlist parser speaks as it reads, before a field is refused)
        fields = parse_format(spec, compat, errors)
    finally:
        say_list_errors(errors)
    count = len(columns["account"])
    table = render_columns(fields, columns, count, mode=mode, header=not noheader)
    click.echo(table, nl=False)


def say_list_errors(errors: list[str]) -> None:
    """What Slurm's hostlist parser says of a bracket it refuses (``Invalid range: `x'``),
    on stderr as warnings, each time it says it: the command goes on, the text unexpanded."""
    for message in errors:
        click.echo(f"fs: warning: {message}", err=True)


def _caseless(name: str) -> str:
    """``name`` as ``xstrcasecmp`` compares it: ASCII letters in lower case."""
    return name.encode("utf-8", "surrogateescape").lower().decode("utf-8", "surrogateescape")


def _share_columns(
    opts: GlobalOptions,
    all_users: bool,
    accounts: tuple[str, ...],
    users: list[str],
    users_only: bool,
    verbose: bool = False,
    clusters: str | None = None,
) -> tuple[str, dict[str, list[Any]], str, str]:
    """The algorithm in effect, sshare's columns, holding the rows asked for, the
    cluster's name and the Slurm whose output is printed (``priority.output_compat``);
    ``verbose``: ``-v``'s lines written on stderr first (:func:`requested_lines`)."""
    from fairshare_cli.cli.slurm_usage import view_usage
    from fairshare_cli.core.slurm import tree_usage as slurm
    from fairshare_cli.core.slurm.char_list import char_list
    from fairshare_cli.core.slurm.fairshare import basic_columns, share_columns
    from fairshare_cli.render.sshare_fields import account_fairshare_printed, tree_names

    env = load_env(opts, note_missing=True)
    algo, compat = slurm.algorithm(env.config), env.config.priority.output_compat
    # classic: a user's usage as the pass computed it at the user's first job, so the queue
    mid_pass = algo == "classic" and env.config.priority.type != "basic"
    queue = env.queue() if mid_pass else None
    state, jobs = view_usage(env, queue)
    when, tree = slurm.evaluate(env.config, state, env.now, queue)
    # where the table leaves an account's factor blank, ``sshare --json`` carries it, as
    # every format but the table does here (and but fs whatif's table's rows)
    account_factor = account_fairshare_printed(algo, compat) or (
        opts.output != "table" and not opts.table_rows
    )
    columns = share_columns(
        tree,
        algo,
        account_fairshare=account_factor,
        cluster=env.config.pool.name,
        tres_run_mins=_tres_run_mins(env, state, jobs, tree, when)
        if env.config.priority.enforce_limits
        else None,
    )
    if env.config.priority.type == "basic":
        basic_columns(columns, algo, account_factor, compat)
    elif account_factor and algo in ("classic", "depth_oblivious") and compat != "22.05":
        # slurmctld sets no factor of root's (``priority_p_set_assoc_usage`` runs for the
        # associations below it): 26.05's sshare --json carries 0, where 22.05's sshare
        # computed 0.5 itself
        columns["fairshare"][0] = 0.0
    # assoc_mgr_get_shares matches names without regard to (ASCII) case: xstrcasecmp
    wanted_users = {_caseless(uid_user_name(user, compat)) for user in users}
    me = invoking_user(compat) if not all_users and not wanted_users else None
    if me is not None:
        wanted_users = {_caseless(me)}
    # each -A is added by slurm_addto_char_list to one list, as -o is read: -A "" names
    # the account "", which no association is in (the header alone); -A 'hep[1-2]' is
    # hep1 and hep2 (its hostlist parser's errors said first, as sshare's option loop
    # says them)
    errors: list[str] = []
    account_names = char_list(accounts, compat, errors)
    say_list_errors(errors)
    if verbose:
        _say_requested(all_users, users, me, account_names, compat, clusters, env.config.pool.name)
    show_all = all_users or not wanted_users
    wanted_accounts = {_caseless(account) for account in account_names}
    if not show_all or users_only or wanted_accounts:
        picked = [
            i
            for i, (user, account) in enumerate(
                zip(columns["user"], columns["account"], strict=True)
            )
            if (user is None or show_all or _caseless(user) in wanted_users)
            and (user is not None or not users_only)
            and (not wanted_accounts or _caseless(account) in wanted_accounts)
        ]
        names = tree_names(columns["account"], columns["depth"], columns["is_user"], picked)
        columns = {key: [values[i] for i in picked] for key, values in columns.items()}
        columns["account_display"] = names
    return algo, columns, env.config.pool.name, compat


def _say_requested(
    all_users: bool,
    users: list[str],
    me: str | None,
    accounts: list[str],
    compat: str,
    clusters: str | None,
    cluster: str,
) -> None:
    """``-v``'s lines on stderr (:func:`requested_lines`), once ``-M`` is checked: sshare
    reads ``-M`` in its option loop (``fatal`` on a cluster it cannot find), before them."""
    cluster_asked(clusters, cluster, compat=compat)
    named: list[str | None] = [uid_user_name(user, compat) for user in users]
    click.echo(requested_lines(all_users, named or [me], accounts), err=True, nl=False)


def requested_lines(all_users: bool, users: list[str | None], accounts: list[str]) -> str:
    """What ``sshare -v`` writes on stderr before it asks slurmctld (sshare.c's ``main``,
    22.05 and today alike): the users asked for (``all`` for ``-a``; else ``users``, each
    name once, the first of those equal in any case kept, as ``_addto_name_char_list``
    keeps them; else the calling user, no line with none), then the accounts of ``-A``
    as ``slurm_addto_char_list`` kept them (``accounts``), or ``all``. The log lines each
    ``-v`` adds come from the host's Slurm library: not written."""
    lines: list[str] = []
    kept: list[str] = []
    for user in users:
        if user is not None and _caseless(user) not in {_caseless(name) for name in kept}:
            kept.append(user)
    if all_users:
        lines += ["Users requested:", "\t: all"]
    elif kept:
        lines += ["Users requested:", *(f"\t: {name}" for name in kept)]
    lines += ["Accounts requested:", *(f"\t: {name}" for name in accounts or ["all"])]
    return "".join(f"{line}\n" for line in lines)


def _tres_run_mins(
    env: Env, state: SlurmUsage, jobs: Sequence[Job], tree: AssocTree, when: float
) -> list[str | None]:
    """The TRESRunMins cells slurmctld keeps under ``AccountingStorageEnforce=limits``:
    the running jobs' TRES-minutes still to run as of the last decay pass (``when``), of
    ``jobs`` (the queue; read when a running charge names a job)."""
    from fairshare_cli.core.slurm.tres_run import running_by_association, tres_run_cells

    running = running_by_association(state, jobs, env.config, env.now)
    cells = tres_run_cells(tree, running, when, env.config.priority.calc_period)
    if None in cells:  # (said once, on stderr: stdout is sshare's)
        click.echo(
            "fs: note: TRESRunMins is blank where running usage of the usage history lies "
            "below: fs knows no time limit or TRES of it (docs/slurm.md)",
            err=True,
        )
    return cells
