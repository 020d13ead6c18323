"""What the Slurm state imports share: ``--last-decay`` and the ``slurm`` section."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

from fairshare_cli.cli.context import Env
from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.slurm import usage as su

F = TypeVar("F", bound=Callable[..., Any])


def last_decay_option(default: str = "--now") -> Callable[[F], F]:
    """``--last-decay WHEN``: the time of Slurm's last decay pass before the dump
    (``default`` says what is taken without it)."""
    return click.option(
        "--last-decay",
        "last_decay",
        metavar="WHEN",
        help="When slurmctld's last decay pass ran before the dump was taken (epoch "
        f"seconds or ISO-8601; default: {default}). The usage is as of that pass; sprio's "
        "AGE counts to it. slurmctld keeps it in StateSaveLocation/priority_last_decay_ran "
        "(docs/slurm.md).",
    )


def resolve_last_decay(given: str | None, now: float) -> float:
    """``--last-decay`` as whole epoch seconds, ``now`` (``--now``) when absent: slurmctld
    keeps its pass as a ``time_t``, and a fraction given (``1795305600.9``) was stored and
    printed (``2026-11-22T00:00:00.900000Z``) where ``--now`` drops it.

    Raises:
        InputError: not a time, or after ``--now``.
    """
    if given is None:
        return now
    when = float(math.floor(parse_time(given, "--last-decay")))
    if when > now:
        from fairshare_cli.cli.resolve import now_source
        from fairshare_cli.core.epoch import utc_text
        from fairshare_cli.errors import InputError

        shown = "" if utc_text(when) == given else f" ({utc_text(when)})"
        raise InputError(
            f"--last-decay {given}{shown} is after {now_source()} {utc_text(now)}; the pass "
            "must have run already"
        )
    return when


def at_last_decay(env: Env, when: float, rebuild: bool) -> None:
    """Move the state's Slurm usage to slurmctld's pass at ``when``, on whose grid the
    import then charges (``fs import sacct --last-decay``): brought there as a restarted
    slurmctld would (the queue's running jobs charged up to their limits), or, with
    ``rebuild`` (usage forgotten), only the pass set.

    Raises:
        InputError: ``when`` is before the state's last pass (without ``rebuild``).
        StateError: the ``slurm`` section or the queue is malformed.
    """
    from dataclasses import replace

    from fairshare_cli.core.slurm.limit_ends import charged_ids, charged_queue
    from fairshare_cli.core.slurm.snapshot import at_pass_at_limits

    state = slurm_section(env)
    if rebuild:
        store_slurm(env, replace(state, last_decay_ran=when))
        return
    jobs = []
    ids = charged_ids(state)
    if ids:  # (the jobs of the open charges alone: the rest of the queue is not read)
        label = f"{env.state_path}: jobs"
        jobs = env.decode("jobs", lambda raw: charged_queue(ids, raw, label))
    store_slurm(env, at_pass_at_limits(state, jobs, when, env.config))


def slurm_section(env: Env) -> su.SlurmUsage:
    """The state's ``slurm`` section (usage and running charges)."""
    return env.decode("slurm", su.usage_from_json)


def store_slurm(env: Env, state: su.SlurmUsage) -> None:
    """Replace the state's ``slurm`` section."""
    env.state = env.state.with_section("slurm", su.usage_to_json(state))


def plural(n: int, word: str) -> str:
    """``1 job`` / ``2 jobs``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def refuse_none_known(file: str, kept: int, ignored: list[str]) -> None:
    """A dump none of whose user associations the config has (``kept`` 0 of them): another
    cluster's, or one whose tree is not imported yet. Its usage would replace the state's
    with none at all, every association's usage forgotten.

    Raises:
        InputError: naming the dump and its associations.
    """
    if kept or not ignored:
        return
    from fairshare_cli.errors import InputError
    from fairshare_cli.io.importers.common import summary_names

    raise InputError(
        f"{file}: the config has none of its {plural(len(ignored), 'user association')} "
        f"({summary_names(ignored)}), so importing it would forget all the state's Slurm "
        "usage; import the cluster's associations first (fs import sacctmgr, or "
        "fs import sshare --into CONFIG), or give its config with --config"
    )


def report(dry_run: bool, text: str, ignored: list[str]) -> None:
    """The one-line summary on stderr (what came in, what was ignored by name)."""
    from fairshare_cli.io.importers.common import summary_names

    prefix = "(dry run, nothing written) " if dry_run else ""
    note = f"; ignored {len(ignored)}: {summary_names(ignored)}" if ignored else ""
    click.echo(f"{prefix}{text}{note}", err=True)
