"""What the Slurm state imports share: ``--last-decay`` and the ``slurm`` section."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from fairshare_cli.cli.context import Env
from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.slurm import usage as su

F = TypeVar("F", bound=Callable[..., Any])


def last_decay_option(func: F) -> F:
    """``--last-decay WHEN``: the time of Slurm's last decay pass before the dump."""
    return click.option(
        "--last-decay",
        "last_decay",
        metavar="WHEN",
        help="When slurmctld's last decay pass ran before the dump was taken (epoch "
        "seconds or ISO-8601; default: --now). The usage is as of that pass; sprio's "
        "AGE counts to it. slurmctld keeps it in StateSaveLocation/priority_last_decay_ran "
        "(docs/slurm.md).",
    )(func)


def resolve_last_decay(given: str | None, env: Env) -> float:
    """``--last-decay`` as epoch seconds, ``now`` when absent.

    Raises:
        InputError: not a time, or after ``--now``.
    """
    if given is None:
        return env.now
    when = parse_time(given, "--last-decay")
    if when > env.now:
        from fairshare_cli.errors import InputError

        raise InputError(f"--last-decay {given} is after --now; the pass must have run already")
    return when


def slurm_section(env: Env) -> su.SlurmUsage:
    """The state's ``slurm`` section (usage and running charges)."""
    return env.decode("slurm", su.usage_from_json)


def store_slurm(env: Env, state: su.SlurmUsage) -> None:
    """Replace the state's ``slurm`` section."""
    env.state = env.state.with_section("slurm", su.usage_to_json(state))


def plural(n: int, word: str) -> str:
    """``1 job`` / ``2 jobs``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def report(dry_run: bool, text: str, ignored: list[str]) -> None:
    """The one-line summary on stderr (what came in, what was ignored by name)."""
    from fairshare_cli.io.importers.common import summary_names

    prefix = "(dry run, nothing written) " if dry_run else ""
    note = f"; ignored {len(ignored)}: {summary_names(ignored)}" if ignored else ""
    click.echo(f"{prefix}{text}{note}", err=True)
