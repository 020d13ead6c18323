"""Shell completion of what the state holds: accountant record names (submitters alone for
an edit) and queued job ids.

The completers read the config and the state the command line names (``--config``,
``--state`` or their ``FAIRSHARE_*`` variables, typed before the word being completed, else
the default files), read-only and without a lock, and complete nothing when either cannot
be read: a completion never prints an error into the shell. Job ids come from the
``--jobs-file`` the line names before the word, when it is a regular file, instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click
from click.shell_completion import CompletionItem

from fairshare_cli.errors import FairshareError

#: What a state or config that cannot be read raises on the way (the completion is then empty).
_UNREADABLE = (FairshareError, OSError, ValueError, LookupError, TypeError, AttributeError)


def _state(ctx: click.Context) -> Any:
    """The state the command line names (``fs.core.state.State``)."""
    from fairshare_cli.cli.context import GlobalOptions
    from fairshare_cli.cli.resolve import resolve_config_path, resolve_state_path
    from fairshare_cli.io.config import load_config
    from fairshare_cli.io.state import load_state

    opts = ctx.find_object(GlobalOptions) or GlobalOptions()
    config = load_config(resolve_config_path(opts.config_path))
    return load_state(resolve_state_path(opts.state_path, config))


def _items(names: Iterable[str], incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(n) for n in sorted(set(names)) if n.startswith(incomplete)]


def record_names(
    ctx: click.Context, _param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The accountant's record names (submitters and groups) that start with ``incomplete``."""
    try:
        records = _state(ctx).section("accountant") or {}
        return _items(records.get("records", {}), incomplete)
    except _UNREADABLE:
        return []


def submitter_names(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The submitter records (``user@domain``) that start with ``incomplete``: the names an
    edit of one record takes (a group, ``<none>`` included, is refused by every one, as
    condor_userprio refuses a name without ``@``)."""
    return [item for item in record_names(ctx, param, incomplete) if "@" in item.value]


#: ``ctx.meta`` key set while ``fs userprio -setfactor NAME`` (an edit option) completes.
EDITING = "fairshare_cli.userprio_editing"


def userprio_names(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """``fs userprio NAME``: the record names, the submitters alone after an edit option."""
    names = submitter_names if ctx.meta.get(EDITING) else record_names
    return names(ctx, param, incomplete)


def job_ids(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The ids of the queued jobs that start with ``incomplete``: those of the line's
    ``--jobs-file`` (a regular file: stdin or a pipe would wait), else of its state."""
    try:
        jobs_file = ctx.params.get("jobs_file")
        if jobs_file is not None:
            from fairshare_cli.io.jobs import load_jobs

            if not Path(jobs_file).is_file():
                return []
            return _items((job.id for job in load_jobs(jobs_file, fields=("id",))), incomplete)
        jobs = _state(ctx).section("jobs") or []
        return _items((str(job["id"]) for job in jobs), incomplete)
    except _UNREADABLE:
        return []
