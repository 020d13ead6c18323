"""The options ``fs sprio`` and ``fs sshare`` take as Slurm's clients take them: ``-M``
(the cluster: fs has one), ``--helpformat``, ``--usage``, and those fs refuses in one line
(``-V``: Slurm's version; sshare's ``-v`` and ``--yaml``).

Mirrors ``src/sprio/opts.c`` (``_help_format``, ``-M``, ``--local``, ``--sibling``) and
``src/sshare/sshare.c`` (``_help_format_msg``, ``-M``'s ``CLUSTER:`` line).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any, TypeVar

import click

from fairshare_cli.core.slurm.char_list import char_list
from fairshare_cli.errors import InputError

F = TypeVar("F", bound=Callable[..., Any])

#: sprio's format letters in the order ``--helpformat`` lists them (opts.c's ``fmt_data``).
SPRIO_LETTERS = "aAbBcfFijJnNopPrSqQsuyYtT"


def sprio_help_format() -> str:
    """What ``sprio --helpformat`` prints: ``%`` and each letter in a 6-wide cell, eight
    to a line (opts.c's ``_help_format``)."""
    out: list[str] = []
    count = 0
    for letter in SPRIO_LETTERS:
        if count & 8:
            count = 0
            out.append("\n")
        count += 1
        out.append(f"%{letter:<5}")
    return "".join(out) + "\n"


def sshare_help_format() -> str:
    """What ``sshare -e`` prints: the field names, each in a 17-wide cell, four to a line
    (sshare.c's ``_help_format_msg``)."""
    from fairshare_cli.render.sshare_fields import FIELDS

    out: list[str] = []
    for i, (name, _, _) in enumerate(FIELDS):
        if i & 3:
            out.append(" ")
        elif i:
            out.append("\n")
        out.append(f"{name:<17}")
    return "".join(out) + "\n"


def _printing_flag(
    decls: tuple[str, ...], text: Callable[[click.Context], str], help_text: str
) -> Callable[[F], F]:
    """An eager flag that prints ``text`` and ends the command, exit 0."""

    def show(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value and not ctx.resilient_parsing:
            click.echo(text(ctx), nl=False)
            ctx.exit()

    return click.option(
        *decls, is_flag=True, expose_value=False, is_eager=True, callback=show, help=help_text
    )


def _refusal(reason: str) -> Callable[..., None]:
    """A callback refusing the option in one line, exit 2, saying why."""

    def refuse(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value and not ctx.resilient_parsing:
            raise click.UsageError(f"{'/'.join(param.opts)}: {reason}", ctx)

    return refuse


def cluster_option(func: F) -> F:
    """``-M``/``--cluster``/``--clusters NAMES``: the cluster to ask (the last one wins)."""
    return click.option(
        "-M",
        "--clusters",
        "--cluster",
        "clusters",
        default=None,
        metavar="NAMES",
        help="The cluster: fs's one, the config's [pool] name, or 'all' (-M).",
    )(func)


def usage_option(*, whole: bool = False, line: str | None = None) -> Callable[[F], F]:
    """``--usage``: the command's synopsis ``line`` (``{command}`` its name as typed;
    sprio's ``_usage`` prints its ``usage.txt``), else click's usage line, or with
    ``whole`` its help (sshare's ``--usage`` prints what ``--help`` prints)."""

    def text(ctx: click.Context) -> str:
        if line is not None:
            return line.format(command=f"{ctx.find_root().info_name} {ctx.info_name}")
        return (ctx.get_help() if whole else ctx.get_usage()) + "\n"

    said = "Print the help and exit." if whole else "Print the usage line and exit."
    return _printing_flag(("--usage",), text, said)


def help_format_option(text: Callable[[], str], *decls: str) -> Callable[[F], F]:
    """``--helpformat`` (sshare: ``-e`` too): the fields ``-o`` takes, as Slurm lists them."""

    def fields(ctx: click.Context) -> str:
        return text()

    return _printing_flag((*decls, "--helpformat"), fields, "List the fields -o takes and exit.")


def refused_option(*decls: str, reason: str, takes_value: bool = False) -> Callable[[F], F]:
    """A real Slurm option fs does not offer, refused in one line saying why (hidden from
    the help: it only answers an admin's habit)."""

    def add(func: F) -> F:
        return click.option(
            *decls,
            is_flag=not takes_value,
            default=None,
            expose_value=False,
            hidden=True,
            callback=_refusal(reason),
        )(func)

    return add


VERSION_REASON = "fs is not Slurm and has no Slurm version; 'fs --version' prints fs's own"


def cluster_asked(
    names: str | None, cluster: str, given: str = "-M", compat: str = "current"
) -> bool:
    """Whether ``-M names`` was given (``given``: where the names came from, for the
    error); it may name fs's one cluster only, ``cluster`` (the pool config's name; any
    letter case, as the database matches names), or ``all``. The names are read as
    ``slurm_get_cluster_info`` reads them: ``all`` (any case) alone, else a list made by
    ``slurm_addto_char_list`` (trimmed from Slurm 25.05 on, ``pool[1-2]`` expanded).

    Raises:
        InputError: ``names`` names no cluster or another one.
    """
    if names is None:
        return False
    asked = char_list([names], compat, [])
    if names.lower() == "all" or all(name in ("all", cluster.lower()) for name in asked):
        return True
    raise InputError(
        f"{given} {names!r}: fs models one cluster, {cluster!r} (the pool config's [pool] "
        f"name); give that name or 'all', or leave {given} out"
    )


#: sprio's long options (``src/sprio/opts.c``'s ``long_options``, Slurm 23.02 to 26.05),
#: each with what getopt_long tells them apart by (``has_arg``, ``val``): names of one
#: entry are one option to it (``user`` and ``users``).
SPRIO_LONG = {
    "autocomplete": "autocomplete",
    "noheader": "h",
    "jobs": "j",
    "long": "l",
    "cluster": "M",
    "clusters": "M",
    "norm": "n",
    "format": "o",
    "sort": "S",
    "partition": "p",
    "user": "u",
    "users": "u",
    "verbose": "v",
    "version": "V",
    "weights": "w",
    "federation": "federation",
    "help": "help",
    "helpformat": "helpformat",
    "local": "local",
    "sib": "sibling",
    "sibling": "sibling",
    "usage": "usage",
}

#: sshare's long options (``src/sshare/sshare.c``'s ``long_options``), as :data:`SPRIO_LONG`.
SSHARE_LONG = {
    "autocomplete": "autocomplete",
    "accounts": "A",
    "all": "a",
    "helpformat": "e",
    "long": "l",
    "partition": "m",
    "cluster": "M",
    "clusters": "M",
    "noheader": "n",
    "format": "o",
    "parsable": "p",
    "parsable2": "P",
    "users": "u",
    "Users": "U",
    "verbose": "v",
    "version": "V",
    "help": "help",
    "usage": "usage",
    "json": "json",
    "yaml": "yaml",
}


def long_option(opt: str, known: Collection[str], table: Mapping[str, str]) -> str:
    """The option ``opt`` stands for, as getopt_long reads a long option the client's
    ``table`` does not hold as written: the one it starts (``--form`` is ``--format``),
    or several that are one to getopt (``--use`` is ``--user``, the first in the table);
    else ``opt`` itself (``known``: the command's own, fs's options among them).

    Raises:
        click.BadOptionUsage: ``opt`` starts options getopt tells apart (glibc's words:
            the first found and each that differs from it).
    """
    if opt in known or not opt.startswith("--") or len(opt) == 2:
        return opt
    hits = [name for name in table if name.startswith(opt[2:])]
    if not hits:
        return opt
    differ = [name for name in hits if table[name] != table[hits[0]]]
    if differ:
        named = " ".join(f"'--{name}'" for name in (hits[0], *differ))
        raise click.BadOptionUsage(opt, f"option '{opt}' is ambiguous; possibilities: {named}")
    full = f"--{hits[0]}"
    return full if full in known else opt


#: An option whose value is optional, as getopt's ``j::``: its short and long name and the
#: value that stands for it given bare.
Optional = tuple[str, str, str]


def bare_optional(
    args: list[str], optional: Optional, takes_value: Collection[str], long: Callable[[str], str]
) -> list[str]:
    """``args`` with the option ``optional`` given without an attached value (``-j``,
    ``-hj``, ``--jobs``: no ``-j5``, no ``--jobs=5``) written with its bare value, so the
    argument after it stays one: getopt gives such an option no value, and sprio takes
    the first argument left for its list. ``takes_value``: the options whose value is the
    next argument (skipped); ``long``: a long option's full name (:func:`long_option`).
    """
    short, name, bare = optional
    out: list[str] = []
    rest = iter(args)
    for arg in rest:
        if arg == "--" or not arg.startswith("-") or arg == "-":
            out.append(arg)
            if arg == "--":
                out.extend(rest)
            continue
        if arg.startswith("--"):
            given, eq, _ = arg.partition("=")
            full = long(given)
            if full == name and not eq:
                out.append(f"{name}={bare}")
                continue
            out.append(arg)
            following = next(rest, None) if full in takes_value and not eq else None
            out.extend([] if following is None else [following])
            continue
        out.extend(_short_cluster(arg, short, name, bare, takes_value, rest))
    return out


def _short_cluster(
    arg: str, short: str, name: str, bare: str, takes_value: Collection[str], rest: Iterator[str]
) -> list[str]:
    """One cluster of short options (``-hj``), as :func:`bare_optional` writes it, with
    the next argument when its last option takes it as its value."""
    for k, letter in enumerate(arg[1:], 1):
        last = k == len(arg) - 1
        if f"-{letter}" == short:
            return [arg] if not last else [*([arg[:k]] if k > 1 else []), f"{name}={bare}"]
        if f"-{letter}" in takes_value:
            following = next(rest, None) if last else None
            return [arg] if following is None else [arg, following]
    return [arg]


def getopt_command(
    table: Mapping[str, str], optional: Optional | None = None
) -> type[click.Command]:
    """A command class that reads its arguments as getopt_long reads the Slurm client's:
    a long option of the client's (``table``) abbreviated (:func:`long_option`), and
    ``optional``'s value only attached (:func:`bare_optional`)."""

    class GetoptCommand(click.Command):
        def make_parser(self, ctx: click.Context) -> Any:
            parser = super().make_parser(ctx)
            match = parser._match_long_opt

            def abbreviated(opt: str, explicit_value: str | None, state: Any) -> None:
                match(long_option(opt, parser._long_opt, table), explicit_value, state)

            parser._match_long_opt = abbreviated  # type: ignore[method-assign]
            return parser

        def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
            if optional is not None:
                options = [p for p in self.get_params(ctx) if isinstance(p, click.Option)]
                known = {name for p in options for name in (*p.opts, *p.secondary_opts)}
                takes = {
                    name
                    for p in options
                    if not p.is_flag and not p.count and short_of(p) != optional[0]
                    for name in p.opts
                }
                args = bare_optional(args, optional, takes, lambda o: long_option(o, known, table))
            return super().parse_args(ctx, args)

    return GetoptCommand


def short_of(param: click.Option) -> str | None:
    """The option's short name (``-j``), if it has one."""
    return next((name for name in param.opts if not name.startswith("--")), None)
