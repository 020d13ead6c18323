"""Submitter names as users type them: records hidden inside groups, and new records.

A bare ``alice`` becomes ``alice@uid_domain``, but with accounting groups her record is
``group_physics.hep.alice@example.org``: a name that matches no record is answered with
the group records that end in it. condor_userprio's edits create a record for any name
silently, so a typo makes a new submitter that then ranks near the top; ``fs`` edits say
``new record`` when they create one, and want ``--create`` for a name never seen before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import click

from fairshare_cli.cli.context import Env
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.names import escaped, shown
from fairshare_cli.errors import InputError

F = TypeVar("F", bound=Callable[..., Any])
_CREATE = "fs.create"


def _remember_create(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta[_CREATE] = True
    return value


def create_option(func: F) -> F:
    """``--create``: allow an edit to make a record for a name never seen."""
    return click.option(
        "--create",
        is_flag=True,
        expose_value=False,
        callback=_remember_create,
        help="Allow a new record for a name never seen before (condor_userprio creates "
        "one silently; fs asks, so that a typo does not become a submitter).",
    )(func)


def group_records(name: str, records: Iterable[str]) -> list[str]:
    """Records inside groups for a user: ``g.h.alice@d`` for ``alice@d`` (or bare ``alice``)."""
    user, _, domain = name.partition("@")
    suffix = "." + user.lower()
    out = []
    for record in records:
        head, _, rdomain = record.partition("@")
        if head.lower().endswith(suffix) and (not domain or rdomain.lower() == domain.lower()):
            out.append(record)
    return sorted(out)


def no_record(name: str, records: Iterable[str]) -> str:
    """``no record alice@example.org; did you mean group_physics.hep.alice@example.org``."""
    records = list(records)
    inside = group_records(name, records)
    hint = f"; did you mean {' or '.join(inside)}" if inside else ""
    close = None if inside else close_record(name, records)
    if close is not None:
        hint = f" (did you mean '{escaped(shown(close))}'?)"
    return f"no record {escaped(shown(name))}{hint}"  # (a NAME typed may hold an escape)


def close_record(name: str, records: list[str]) -> str | None:
    """The record a typed ``name`` likely means: the same user in another domain or case
    (``ivan@example.com``, ``Ivan@example.org``), else the closest user of its domain
    (``ivna@example.org``); the user part alone is compared, as the domain would make
    every name of it look close."""
    user, _, domain = name.partition("@")
    folded = user.casefold()
    same_user = [r for r in records if r.partition("@")[0].casefold() == folded]
    if same_user:
        return sorted(same_user)[0]
    import difflib  # (only to suggest a name)

    users = {
        r.partition("@")[0]: r
        for r in records
        if "@" in r and r.partition("@")[2].casefold() == domain.casefold()
    }
    hit = difflib.get_close_matches(user, list(users), n=1)
    return users[hit[0]] if hit else None


def unmatched_names(names: Sequence[str], records: Iterable[str], uid_domain: str) -> list[str]:
    """One ``no record ...`` line per name that ``fs userprio NAME`` matched nothing for.

    A name matches as in ``userprio_view``: ``user@domain`` (and ``<none>``) exactly, a bare
    name the part of a record's name before the ``@``.
    """
    known = list(records)
    heads = {r.split("@", 1)[0] for r in known}
    lines = []
    for name in names:
        full = "@" in name or name == acct.ROOT_GROUP
        if (name in known) if full else (name in heads):
            continue
        shown = name if full else acct.qualify(name, uid_domain)
        lines.append(no_record(shown, known))
    return lines


def new_record_note(env: Env, state: acct.AccountantState, name: str) -> str:
    """``" (new record)"`` when the edit creates ``name``'s record, else ``""``.

    Raises:
        InputError: no record, no job in the queue by that submitter, and no ``--create``.
    """
    if name in state.records or name == acct.ROOT_GROUP or name in env.config.groups:
        return ""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.meta.get(_CREATE):
        return " (new record)"
    if name in _queue_submitters(env):
        return " (new record)"
    raise InputError(
        f"{no_record(name, state.records)}; pass --create to make a new record "
        "(condor_userprio would create it silently)"
    )


def _queue_submitters(env: Env) -> set[str]:
    from fairshare_cli.core.htcondor.userprio_rows import queued_submitters

    return queued_submitters(env.queue(), env.config)
