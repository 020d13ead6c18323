"""``fs submit``'s job objects: its options and ``--set``s read into one (an option and a
``--set`` of the same field refused), or the objects of a jobs file (``--file``), read by
the one jobs-file reader."""

from __future__ import annotations

import contextlib
from typing import Any

import click

from fairshare_cli.core.job_fields import check_job_option
from fairshare_cli.errors import InputError
from fairshare_cli.io.inputs import loads


def sbatch_time(text: str | None) -> str | None:
    """``--time-limit`` as sbatch's ``arg_set_time_limit`` takes it: a time that reads as 0
    minutes (``0``, ``0:0``, ``0-0``) asks for no limit, ``INFINITE``; other text is read
    with the job's fields. A refusal's hint gives a plain number in minutes, as this
    option reads one (a job file's JSON number is seconds).

    Raises:
        InputError: a text no Slurm time string reads.
    """
    from fairshare_cli.core.timestr import TimeStringError, time_str2mins, unit_hint

    try:
        return "INFINITE" if text is not None and time_str2mins(text) == 0 else text
    except TimeStringError as exc:
        raise InputError(f"--time-limit: {exc}{unit_hint(str(text), per=60)}") from None


#: ``fs submit``'s options that give one job field (by parameter name), and the field.
_FIELD_OF = {
    "job_id": "id",
    **{
        name: name
        for name in (
            "owner",
            "count",
            "account",
            "partition",
            "qos",
            "request_cpus",
            "request_memory",
            "num_nodes",
            "time_limit",
            "nice",
            "accounting_group",
            "dirac_group",
            "job_prio",
        )
    },
}

#: ``fs submit``'s options that build the one job object, which ``--file`` replaces
#: (``--id`` still numbers the file's one job).
_JOB_OPTIONS = (*(name for name in _FIELD_OF if name != "job_id"), "sets")


def _given(ctx: click.Context, names: Any) -> list[click.Parameter]:
    """The parameters among ``names`` given on the command line (not left to a default)."""
    from click.core import ParameterSource

    return [
        param
        for param in ctx.command.params
        if param.name in names
        and ctx.get_parameter_source(param.name) not in (None, ParameterSource.DEFAULT)
    ]


def refuse_options_beside_file(ctx: click.Context) -> None:
    """Refuse the job options given with ``--file``, which would be ignored.

    Raises:
        click.UsageError: naming them.
    """
    given = [param.opts[0] for param in _given(ctx, _JOB_OPTIONS)]
    if given:
        verb, them = ("is", "it") if len(given) == 1 else ("are", "them")
        raise click.UsageError(
            f"{', '.join(given)} {verb} ignored with --file (its job objects give every "
            f"field); put {them} in the file, or drop --file",
            ctx=ctx,
        )


def _set_item(item: str) -> tuple[str, str] | None:
    """``--set FIELD=VALUE`` as its field (stripped) and value text; None without ``=``."""
    key, eq, text = item.partition("=")
    return (key.strip(), text) if eq else None


def refuse_set_beside_option(ctx: click.Context, sets: tuple[str, ...]) -> None:
    """Refuse an option and a ``--set`` that give the same job field (``--id 6 --set
    id=5.0``), or two ``--set`` of one field (``--set id=5 --set id=6``), which one of them
    would settle without a word.

    Raises:
        click.UsageError: naming the two ``--set``, or each such option and its ``--set``.
    """
    first: dict[str, str] = {}
    for given in sets:
        if (item := _set_item(given)) is None:
            continue
        if item[0] in first:
            message = f"--set {first[item[0]]} and --set {given} both give the job's {item[0]}"
            raise click.UsageError(f"{message}: give one of them", ctx=ctx)
        first[item[0]] = given
    set_fields = set(first)
    clashes = [
        (param.opts[0], _FIELD_OF[str(param.name)])
        for param in _given(ctx, _FIELD_OF)
        if _FIELD_OF[str(param.name)] in set_fields
    ]
    if len(clashes) == 1:
        (option, field), *_ = clashes
        message = f"{option} and --set {field} both give the job's {field}: give one of them"
    else:
        pairs = ", ".join(f"{option} and --set {field}" for option, field in clashes)
        message = f"{pairs} each give one job field twice: give one of each pair"
    if clashes:
        raise click.UsageError(message, ctx=ctx)


#: The ``fs submit`` option of each job field it sets, where the two names differ.
_OPTION_OF = {
    "request_cpus": "--cpus",
    "request_memory": "--memory",
    "num_nodes": "--nodes",
    "time_limit": "--time-limit",
    "accounting_group": "--accounting-group",
    "dirac_group": "--dirac-group",
    "job_prio": "--job-prio",
}


def job_object(
    owner: str, fields: dict[str, Any], sets: tuple[str, ...], count: int
) -> dict[str, Any]:
    """One job object from ``fs submit``'s options; ``--set FIELD=VALUE`` (JSON or text).

    Raises:
        InputError: a ``--set`` without ``=``, or with a value its field refuses.
    """
    obj: dict[str, Any] = {"owner": owner}
    for key, value in fields.items():
        if value is not None:  # (a refusal names the option, not 'job 0.time_limit')
            check_job_option(key, value, _OPTION_OF.get(key, f"--{key}"))
            obj[key] = value
    for item in sets:
        if (split := _set_item(item)) is None:
            raise InputError(f"--set {item}: expected FIELD=VALUE")
        key, text = split
        obj[key] = _set_value(key, text)
    if count > 1:
        obj["count"] = count
    return obj


def _set_value(key: str, text: str) -> Any:
    """The value of ``--set KEY=TEXT``: JSON, else plain text; a JSON ``true``, ``1`` or
    ``2.5`` that field refuses and whose text it takes (``requirements=true``, a ClassAd
    expression; ``account=123``, a name) is the text.

    Raises:
        InputError: the field refuses the value (naming ``--set KEY``, not 'job 0.KEY').
    """
    try:
        value = loads(text)
    except (ValueError, RecursionError):  # not JSON: plain text
        value = text
    if key == "id" and type(value) in (int, float):  # (5.10 is job 10 of cluster 5, not 5.1)
        return text  # (an id is its digits as written, held to --id's forms)
    try:
        check_job_option(key, value, f"--set {key}")
    except KeyError:  # (not a job field: the job's reader names it)
        pass
    except InputError as exc:
        if value is text and text.lstrip()[:1] in ("{", "["):  # (TOML, as fs whatif --set's)
            raise InputError(f"{exc}: {text} is not JSON, which --set reads VALUE as") from None
        if not isinstance(value, (bool, int, float)):
            raise
        with contextlib.suppress(InputError):
            check_job_option(key, text, f"--set {key}")
            return text
        raise
    return value


def each_job(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The object of each parsed job (``count`` identical jobs share theirs)."""
    return [o for o in objs for _ in range(o.get("count", 1))]


def file_objects(path: str) -> list[Any]:
    """The job objects of ``fs submit --file PATH`` (``-`` is stdin), read by the jobs-file
    reader (:func:`~fairshare_cli.io.jobs.load_job_objects`: an object without an id is
    numbered after); a list of none is refused before anything is written.

    Raises:
        InputError: the reader refuses the file, or it lists no job objects.
    """
    from fairshare_cli.io.jobs import JOBS_TEXT, load_job_objects
    from fairshare_cli.io.spool import spooled

    # (stdin or a pipe judged as --jobs-file's is: a first character no JSON value starts
    # with, or 16 MB of blank space, refused before the rest is read)
    with spooled(path, JOBS_TEXT, documents=True, json=True) as readable:
        objs = load_job_objects(readable, path)
    if not objs:
        raise InputError(f"{path}: no job objects in the list; nothing to submit")
    return objs
