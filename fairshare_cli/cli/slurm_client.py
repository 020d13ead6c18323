"""The options ``fs sprio`` and ``fs sshare`` take as Slurm's clients take them: ``-M``
(the cluster: fs has one), ``--helpformat``, ``--usage``, and those fs refuses in one line
(``-V``: Slurm's version; sshare's ``-v`` and ``--yaml``).

Mirrors ``src/sprio/opts.c`` (``_help_format``, ``-M``, ``--local``, ``--sibling``) and
``src/sshare/sshare.c`` (``_help_format_msg``, ``-M``'s ``CLUSTER:`` line).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

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


def cluster_asked(names: str | None, cluster: str, given: str = "-M") -> bool:
    """Whether ``-M names`` was given (``given``: where the names came from, for the
    error); it may name fs's one cluster only, ``cluster`` (the pool config's name; any
    letter case, as the database matches names), or ``all``.

    Raises:
        InputError: ``names`` names no cluster or another one.
    """
    if names is None:
        return False
    asked = [name.strip() for name in names.split(",") if name.strip()]
    if asked and all(name.lower() in ("all", cluster.lower()) for name in asked):
        return True
    raise InputError(
        f"{given} {names!r}: fs models one cluster, {cluster!r} (the pool config's [pool] "
        f"name); give that name or 'all', or leave {given} out"
    )
